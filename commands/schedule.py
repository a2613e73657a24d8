"""Real-time jobs (DESIGN.md §5) on APScheduler 3, run from plain values.

The ledger records what a job means (``schedule.added`` with its real-date
anchor); the table ``schedule_jobs`` only remembers when each job runs next,
as plain values (campaign, job, an instant), read without unpickling
anything. The scheduler (`tally scheduler run`) builds its jobs in memory
from that table and the ledger, and keeps the two in step every minute.
APScheduler's own SQLAlchemy job store pickled each job into the database
and unpickled it on every read: whoever could write the table could run
code on the referee's machine.

The job body is a plain function: it records every real day since the
anchor that has no event yet, each marked with its run id (job and real
date), so a scheduler that was down catches up each missed day exactly
once, and a replay records nothing.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta, timezone
from typing import Optional

import sqlalchemy as sa

from ledger.clock import format_instant, utc_now
from commands.base import clean_text, record
from projections.reading import Context
from ledger.envelope import NewEvent
from ledger.errors import BadInput, NotFound, RuleRefused
from ledger.events.calendar import CalendarAdvanced, ReminderDue, ScheduleAdded, ScheduleRemoved
from ledger.schema import schedule_jobs
from ledger.store import Store, Transaction

KINDS = ("advance-daily", "remind")
_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")
EVERY = timedelta(hours=1)  # a day is never missed by more than an hour; the body does the counting
SYNC_SECONDS = 60  # how soon a running scheduler hears of a job added or removed elsewhere
_SYNC = "tally/sync"


def jobs(ctx: Context) -> dict[str, dict]:
    """The campaign's live jobs, from its events."""
    live: dict[str, dict] = {}
    for e in ctx.envelopes:
        if e.type == "schedule.added":
            live[e.payload["job"]] = dict(e.payload, added_at=e.position)
        elif e.type == "schedule.removed":
            live.pop(e.payload["job"], None)
    return live


def add(store: Store, campaign: Optional[str], kind: str, *, actor: str, job: Optional[str] = None,
        text: Optional[str] = None):
    if kind not in KINDS:
        raise BadInput(f"unknown job {kind!r}: choose from {', '.join(KINDS)}")
    if kind == "remind" and not text:
        raise BadInput("a reminder needs its --text")
    job = job or kind
    if not _ID.fullmatch(job):
        raise BadInput("a job id is up to 40 lower-case letters, digits or -")

    def decide(ctx: Context) -> list[NewEvent]:
        if job in jobs(ctx):
            raise RuleRefused(f"job {job!r} already exists: remove it first (`tally schedule remove {job}`)")
        return [NewEvent("schedule", ScheduleAdded(
            job=job, kind=kind, anchor_date=utc_now().date().isoformat(), anchor_day=ctx.today,
            text=clean_text(text, "--text") if text else None), game_time=ctx.today)]

    recorded = record(store, campaign, actor, decide)
    register(store, recorded[0].campaign, job)
    return recorded


def remove(store: Store, campaign: Optional[str], job: str, *, actor: str):
    def decide(ctx: Context) -> list[NewEvent]:
        if job not in jobs(ctx):
            raise NotFound(f"no job {job!r} (see `tally schedule list`)")
        return [NewEvent("schedule", ScheduleRemoved(job=job), game_time=ctx.today)]

    recorded = record(store, campaign, actor, decide)
    with store.transaction() as tx:
        _forget(tx, recorded[0].campaign, job)
    return recorded


def run_job(url: str, campaign: str, job: str) -> list:
    """The job body: bring the ledger up to the real date. Safe to run any
    number of times; tests call it directly."""
    store = Store(url, create=False)
    try:
        return record(store, campaign, "scheduler", lambda ctx: _due_events(ctx, job))
    finally:
        store.dispose()


def _due_events(ctx: Context, job: str) -> list[NewEvent]:
    spec = jobs(ctx).get(job)
    if spec is None:  # removed since APScheduler last ran it: nothing is due
        return []
    done = {e.payload.get("run") for e in ctx.envelopes if e.type in ("calendar.advanced", "schedule.reminder")}
    anchor = date.fromisoformat(spec["anchor_date"])
    today = utc_now().date()
    events = []
    day = ctx.today
    for n in range(1, (today - anchor).days + 1):
        run = f"{job}:{(anchor + timedelta(days=n)).isoformat()}"
        if run in done:
            continue
        if spec["kind"] == "advance-daily":  # the open table's "one day for a day"
            if ctx.session is not None:
                # As `calendar advance` is refused: the session's close sets the date it ends on. The
                # days left stay due, and the first run after the close brings the calendar to them.
                continue
            target = spec["anchor_day"] + n
            if target <= day:
                continue  # the calendar is already there (advanced by hand, or sessions ran ahead)
            events.append(NewEvent("calendar", CalendarAdvanced(from_day=day, to_day=target, days=target - day,
                                                                why="one day for a day", run=run),
                                   game_time=target))
            day = target
        else:
            events.append(NewEvent("schedule", ReminderDue(job=job, text=spec["text"], run=run), game_time=day))
    return events  # none: every day since the anchor already has its run


def _job_id(campaign: str, job: str) -> str:
    return f"{campaign}/{job}"


# -- the table of next runs -------------------------------------------------
def _forget(tx: Transaction, campaign: str, job: str) -> None:
    tx.conn.execute(schedule_jobs.delete().where(schedule_jobs.c.campaign == campaign, schedule_jobs.c.job == job))


def _keep(tx: Transaction, campaign: str, job: str, next_run: datetime) -> None:
    _forget(tx, campaign, job)
    tx.conn.execute(schedule_jobs.insert(), {"campaign": campaign, "job": job, "next_run": format_instant(next_run)})


def register(store: Store, campaign: str, job: str) -> None:
    """Put the job in the table, due now (a running scheduler picks it up within a minute)."""
    with store.transaction() as tx:
        _keep(tx, campaign, job, utc_now())


def _instant(value) -> Optional[datetime]:
    """A stored next run as an instant, or None if it is not one (the table is data, checked as such)."""
    if not isinstance(value, str) or len(value) > 32:
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    return moment.replace(tzinfo=timezone.utc) if moment.tzinfo is None else moment.astimezone(timezone.utc)


def _rows(tx: Transaction) -> dict[tuple[str, str], Optional[datetime]]:
    """Each row's (campaign, job) and next run; plain values, nothing decoded but an instant."""
    return {(campaign, job): _instant(next_run) for campaign, job, next_run in tx.conn.execute(
        sa.select(schedule_jobs.c.campaign, schedule_jobs.c.job, schedule_jobs.c.next_run))}


def stored_jobs(store: Store) -> list[dict]:
    with store.reading() as tx:
        rows = _rows(tx)
    return [{"id": _job_id(campaign, job), "next_run_time": when.isoformat() if when else None}
            for (campaign, job), when in sorted(rows.items())]


def live_jobs(tx: Transaction) -> list[tuple[str, str]]:
    """(campaign, job) of every live job of every campaign, from the ledger's
    schedule events alone (an index's worth of rows, not the log)."""
    live: dict[tuple[str, str], None] = {}
    for e in tx.read(types=("schedule.added", "schedule.removed")):
        if e.type == "schedule.added":
            live[(e.campaign, e.payload["job"])] = None
        else:
            live.pop((e.campaign, e.payload["job"]), None)
    return list(live)


def reconcile(tx: Transaction, running: Optional[dict[tuple[str, str], datetime]] = None
              ) -> dict[tuple[str, str], datetime]:
    """Bring the table in step with the ledger: a row for each live job (a job
    the table lacks is due now), none for any other; ``running``: the next run
    the scheduler holds for each job, written back. Each live job's next run:
    never later than one interval from now, whatever a row says."""
    now = utc_now()
    rows = _rows(tx)
    live = live_jobs(tx)
    for key in set(rows) - set(live):
        _forget(tx, *key)
    due = {}
    for key in live:
        when = (running or {}).get(key) or rows.get(key) or now
        due[key] = min(when, now + EVERY)
        if key not in rows or rows[key] != due[key]:
            _keep(tx, *key, due[key])
    return due


def catch_up(store: Store, campaign: str) -> int:
    """Run every live job of the campaign once, now: how many events it recorded."""
    from projections.reading import query

    live = query(store, campaign, jobs)
    return sum(len(run_job(store.url, campaign, job)) for job in live)


def _sync(scheduler, store: Store) -> None:
    """The scheduler's jobs, in memory, made the table's (and the table the ledger's)."""
    held = {(j.args[1], j.args[2]): j for j in scheduler.get_jobs() if j.id != _SYNC}
    with store.transaction() as tx:
        due = reconcile(tx, {key: job.next_run_time for key, job in held.items() if job.next_run_time})
    for key, job in held.items():
        if key not in due:
            job.remove()
    for (campaign, job), when in due.items():
        if (campaign, job) not in held:
            # The arguments are this process's own: the URL (password and all) is never stored.
            scheduler.add_job(run_job, "interval", seconds=EVERY.total_seconds(), args=[store.url, campaign, job],
                              id=_job_id(campaign, job), next_run_time=when)


def scheduler_for(store: Store, *, blocking: bool = True):
    """APScheduler with its jobs in memory, built from the table, and a job that
    keeps them in step with it; started by the caller."""
    from apscheduler.jobstores.memory import MemoryJobStore
    from apscheduler.schedulers.background import BackgroundScheduler
    from apscheduler.schedulers.blocking import BlockingScheduler

    kind = BlockingScheduler if blocking else BackgroundScheduler
    scheduler = kind(jobstores={"default": MemoryJobStore()},
                     job_defaults={"coalesce": True, "misfire_grace_time": None, "max_instances": 1},
                     timezone="UTC")
    _sync(scheduler, store)
    scheduler.add_job(_sync, "interval", seconds=SYNC_SECONDS, args=[scheduler, store], id=_SYNC)
    return scheduler


def run_forever(store: Store) -> None:
    """The foreground scheduler (`tally scheduler run`); Ctrl-C (KeyboardInterrupt) stops it."""
    scheduler = scheduler_for(store)
    try:
        scheduler.start()
    finally:
        if scheduler.running:
            scheduler.shutdown(wait=False)
