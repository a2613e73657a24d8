"""Real-time jobs (DESIGN.md §5) on APScheduler 3, its jobs stored in the
campaign database.

The ledger records what a job means (``schedule.added`` with its real-date
anchor); APScheduler only says when to run it. The job body is a plain
function: it records every real day since the anchor that has no event yet,
each marked with its run id (job and real date), so a scheduler that was down
catches up each missed day exactly once, and a replay records nothing.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from datetime import date, timedelta
from typing import Optional

from ledger.clock import utc_now
from commands.base import clean_text, record
from projections.reading import Context
from ledger.envelope import NewEvent
from ledger.errors import BadInput, NotFound, RuleRefused
from ledger.events.calendar import CalendarAdvanced, ReminderDue, ScheduleAdded, ScheduleRemoved
from ledger.store import Store

KINDS = ("advance-daily", "remind")
JOB_TABLE = "scheduler_jobs"
_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")


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
    from apscheduler.jobstores.base import JobLookupError

    with _paused(store) as scheduler:
        try:
            scheduler.remove_job(_job_id(recorded[0].campaign, job))
        except JobLookupError:  # already gone from the job store: the ledger's word is what counts
            pass
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


def _scheduler(store: Store, *, blocking: bool = False):
    from apscheduler.jobstores.sqlalchemy import SQLAlchemyJobStore
    from apscheduler.schedulers.background import BackgroundScheduler
    from apscheduler.schedulers.blocking import BlockingScheduler

    kind = BlockingScheduler if blocking else BackgroundScheduler
    return kind(jobstores={"default": SQLAlchemyJobStore(engine=store.engine, tablename=JOB_TABLE)},
                job_defaults={"coalesce": True, "misfire_grace_time": None, "max_instances": 1},
                timezone="UTC")


def register(store: Store, campaign: str, job: str) -> None:
    """Put the job in APScheduler's store (in this database): every hour, so a
    day is never missed by more than an hour; the body does the counting."""
    with _paused(store) as scheduler:
        scheduler.add_job(run_job, "interval", hours=1, args=[store.url, campaign, job],
                          id=_job_id(campaign, job), replace_existing=True, next_run_time=utc_now())


def _store_only(store: Store):
    """A scheduler that reads and writes the job store and runs nothing: no
    thread of its own, so none wakes at shutdown to submit a due job to the
    executor just shut down (APScheduler's "cannot schedule new futures after
    shutdown" traceback under `tally schedule add`)."""
    from apscheduler.jobstores.sqlalchemy import SQLAlchemyJobStore
    from apscheduler.schedulers.base import BaseScheduler

    class StoreOnly(BaseScheduler):
        def wakeup(self) -> None:
            pass  # nothing runs here: `tally scheduler run` runs the jobs

        def shutdown(self, wait: bool = True) -> None:
            super().shutdown(wait)

    return StoreOnly(jobstores={"default": SQLAlchemyJobStore(engine=store.engine, tablename=JOB_TABLE)},
                     timezone="UTC")


@contextmanager
def _paused(store: Store):
    """A scheduler bound to the job store but running nothing (APScheduler 3
    writes to its store only once started)."""
    scheduler = _store_only(store)
    scheduler.start(paused=True)
    try:
        yield scheduler
    finally:
        scheduler.shutdown(wait=False)


def stored_jobs(store: Store) -> list[dict]:
    with _paused(store) as scheduler:
        return [{"id": j.id, "next_run_time": j.next_run_time.isoformat() if j.next_run_time else None}
                for j in scheduler.get_jobs()]


def catch_up(store: Store, campaign: str) -> int:
    """Run every live job of the campaign once, now: how many events it recorded."""
    from projections.reading import query

    live = query(store, campaign, jobs)
    return sum(len(run_job(store.url, campaign, job)) for job in live)


def run_forever(store: Store) -> None:
    """The foreground scheduler (`tally scheduler run`)."""
    _scheduler(store, blocking=True).start()
