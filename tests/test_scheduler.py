"""Real-time jobs (DESIGN.md §5): their schedule kept as plain values in the
campaign database, never a pickle; missed days caught up exactly once; runs
idempotent."""

import os
import pickle
import signal
import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import sqlalchemy as sa
from freezegun import freeze_time

from commands import schedule
from ledger.store import Store


def advances(t):
    return [e["payload"] for e in t.ok("log", "--type", "calendar.advanced", "--json").json]


def test_a_week_with_the_scheduler_down_for_three_days_applies_every_day_once(tally_sqlite):
    t = tally_sqlite
    with freeze_time("2030-01-01 09:00:00"):
        t.ok("campaign", "new", "Open Table", "--start", "1024-03-01")
        t.ok("schedule", "add", "advance-daily")
    for real_day in ("02", "03"):  # the scheduler runs on the 2nd and 3rd…
        with freeze_time(f"2030-01-{real_day} 00:30:00"):
            assert len(schedule.run_job(t.url, "Open Table", "advance-daily")) == 1
    # …is down on the 4th, 5th and 6th, and comes back on the 7th.
    with freeze_time("2030-01-07 08:00:00"):
        t.ok("scheduler", "run", "--once")
        assert schedule.run_job(t.url, "Open Table", "advance-daily") == []  # a replay records nothing
    runs = [a["run"] for a in advances(t)]
    assert runs == [f"advance-daily:2030-01-0{d}" for d in range(2, 8)]  # each day once, none twice
    assert t.ok("calendar", "show", "--json").json["today"] == "1024-03-07"


def test_the_calendar_waits_for_an_open_sessions_close_and_then_catches_up(tally_sqlite):
    # As `calendar advance` is refused while a session is open (its close sets the date it ends
    # on); the job moved the calendar under the session, and its close then dated it before them.
    t = tally_sqlite
    with freeze_time("2030-01-01 09:00:00"):
        t.ok("campaign", "new", "Open Table", "--rules", "coeac", "--start", "1024-03-01")
        t.ok("player", "add", "Ann")
        t.ok("char", "new", "Nur", "--player", "Ann", "--max-hp", "4")
        t.ok("schedule", "add", "advance-daily")
        t.ok("session", "open", "--activate", "Nur", "--no-income")
    with freeze_time("2030-01-03 09:00:00"):
        assert schedule.run_job(t.url, "Open Table", "advance-daily") == []
        assert t.ok("calendar", "show", "--json").json["today"] == "1024-03-01"
        t.ok("session", "close", "--days", "1", "--haven", "Nur")  # ends on the 2nd
    with freeze_time("2030-01-04 09:00:00"):
        t.ok("scheduler", "run", "--once")
    assert [a["run"] for a in advances(t)] == ["advance-daily:2030-01-03", "advance-daily:2030-01-04"]
    assert t.ok("calendar", "show", "--json").json["today"] == "1024-03-04"


def test_the_job_store_lives_in_the_campaign_database_and_survives_a_restart(tally_sqlite):
    t = tally_sqlite
    with freeze_time("2030-01-01 09:00:00"):
        t.ok("campaign", "new", "Open Table", "--start", "1024-03-01")
        t.ok("schedule", "add", "remind", "--id", "rent", "--text", "collect the guild's rent")
    store = Store(t.url)  # a new process: only the database knows the job
    assert [j["id"] for j in schedule.stored_jobs(store)] == ["Open Table/rent"]
    store.dispose()
    listed = t.ok("schedule", "list", "--json").json
    assert [(r["job"], r["kind"], r["text"]) for r in listed] == [("rent", "remind", "collect the guild's rent")]
    assert listed[0]["next_run"] is not None
    with freeze_time("2030-01-03 10:00:00"):
        t.ok("scheduler", "run", "--once")
    reminders = [e["payload"]["run"] for e in t.ok("log", "--type", "schedule.reminder", "--json").json]
    assert reminders == ["rent:2030-01-02", "rent:2030-01-03"]
    t.ok("schedule", "remove", "rent")
    store = Store(t.url)
    assert schedule.stored_jobs(store) == []
    store.dispose()
    assert t.ok("schedule", "list", "--json").json == []


def test_schedule_refusals(tally_sqlite):
    t = tally_sqlite
    t.ok("campaign", "new", "Open Table", "--start", "1024-03-01")
    assert "unknown job" in t.refused("schedule", "add", "weather").stderr
    assert "needs its --text" in t.refused("schedule", "add", "remind").stderr
    t.ok("schedule", "add", "advance-daily")
    assert "already exists" in t.refused("schedule", "add", "advance-daily").stderr
    assert "no job 'nope'" in t.refused("schedule", "remove", "nope").stderr


# -- jobs as plain values: no pickle is ever read (issue 25) ---------------------------------

class Planted:
    """A pickle that runs a command when it is loaded: `touch pwned` in the working folder."""

    def __reduce__(self):
        return (os.system, ("touch pwned",))


LIVE_PICKLE = pickle.dumps(Planted(), protocol=0)  # ASCII, no NUL: it fits a text column as well


def _pickle_is_live(folder: Path) -> bool:
    """The planted pickle does run a command when loaded (so the tests below can fail)."""
    folder.mkdir()
    here = os.getcwd()
    os.chdir(folder)
    try:
        pickle.loads(LIVE_PICKLE)
    finally:
        os.chdir(here)
    return (folder / "pwned").exists()


def _plant_old_table(url: str, rows: list[tuple[str, float]]) -> None:
    """APScheduler's table as its SQLAlchemy job store made it, each row's job_state a live pickle."""
    engine = sa.create_engine(url)
    blob = "BLOB" if engine.dialect.name == "sqlite" else "BYTEA"
    with engine.begin() as conn:
        conn.execute(sa.text(f"CREATE TABLE IF NOT EXISTS scheduler_jobs (id VARCHAR(191) PRIMARY KEY, "
                             f"next_run_time FLOAT, job_state {blob} NOT NULL)"))
        for job_id, when in rows:
            conn.execute(sa.text("DELETE FROM scheduler_jobs WHERE id = :i"), {"i": job_id})
            conn.execute(sa.text("INSERT INTO scheduler_jobs VALUES (:i, :t, :s)"),
                         {"i": job_id, "t": when, "s": LIVE_PICKLE})
    engine.dispose()


def _hears_ctrl_c() -> None:
    """In a child before it runs: SIGINT delivered and acted on as from a terminal, whatever
    started the suite. A child inherits its parent's ignored signals and blocked mask (a shell
    running the suite in the background without job control ignores SIGINT); a scheduler that
    never hears the signal runs on, and the test would wait for it in vain."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _events(url: str, kind: str) -> list:
    store = Store(url, create=False)
    try:
        return store.read(types=[kind])
    finally:
        store.dispose()


def test_the_migration_carries_jobs_over_as_plain_values_and_never_loads_the_old_pickles(db_url, tmp_path,
                                                                                       monkeypatch):
    from tests.conftest import Tally
    from tests.test_migrations import _at_revision

    assert _pickle_is_live(tmp_path / "check")
    monkeypatch.chdir(tmp_path)
    t = Tally(db_url)
    with freeze_time("2030-01-01 09:00:00"):
        t.ok("campaign", "new", "Open Table", "--start", "1024-03-01")
        t.ok("schedule", "add", "remind", "--id", "rent", "--text", "collect the guild's rent")
        t.ok("schedule", "add", "advance-daily")
        t.ok("schedule", "add", "remind", "--id", "gone", "--text", "removed before the upgrade")
        t.ok("schedule", "remove", "gone")
    _at_revision(db_url, "0006")
    # The old store: APScheduler's rows for a live job, a removed one and one nobody recorded.
    rent_next = datetime(2030, 1, 1, 10, 0, tzinfo=timezone.utc).timestamp()
    _plant_old_table(db_url, [("Open Table/rent", rent_next), ("Open Table/gone", rent_next),
                              ("Elsewhere/evil", rent_next)])
    with freeze_time("2030-01-01 09:30:00"):
        assert "0006 -> " in t.ok("db", "upgrade").stdout
    assert not (tmp_path / "pwned").exists()
    engine = sa.create_engine(db_url)
    with engine.connect() as conn:
        assert not sa.inspect(conn).has_table("scheduler_jobs")
    engine.dispose()
    store = Store(db_url)
    # From the ledger's events: the live jobs only; rent keeps its next run, the other runs at once.
    assert schedule.stored_jobs(store) == [
        {"id": "Open Table/advance-daily", "next_run_time": "2030-01-01T09:30:00+00:00"},
        {"id": "Open Table/rent", "next_run_time": "2030-01-01T10:00:00+00:00"}]
    store.dispose()
    assert [r["job"] for r in t.ok("schedule", "list", "--json").json] == ["rent", "advance-daily"]
    with freeze_time("2030-01-03 10:00:00"):
        assert "caught up: 4 event(s)" in t.ok("scheduler", "run", "--once").stdout
    assert not (tmp_path / "pwned").exists()


def test_a_planted_pickle_runs_for_neither_schedule_list_nor_the_scheduler(db_url, tmp_path, monkeypatch):
    """A live pickle where APScheduler's store kept its jobs, and pickle text in our own
    table's columns: `schedule list` and a running `tally scheduler run` read them as
    data. The scheduler runs the ledger's job from its plain row and drops the planted ones."""
    from tests.conftest import Tally

    assert _pickle_is_live(tmp_path / "check")
    monkeypatch.chdir(tmp_path)
    t = Tally(db_url)
    three_days_ago = datetime.now(timezone.utc) - timedelta(days=3)
    with freeze_time(three_days_ago):
        t.ok("campaign", "new", "Open Table", "--start", "1024-03-01")
        t.ok("schedule", "add", "advance-daily")
    _plant_old_table(db_url, [("Open Table/advance-daily", three_days_ago.timestamp())])
    engine = sa.create_engine(db_url)
    with engine.begin() as conn:
        planted = LIVE_PICKLE.decode()
        assert len(planted) <= 80
        conn.execute(sa.text("INSERT INTO schedule_jobs VALUES (:c, 'advance-daily', 'not an instant')"),
                     {"c": planted})
        conn.execute(sa.text("INSERT INTO schedule_jobs VALUES ('Open Table', 'evil', :n)"), {"n": planted[:32]})
    engine.dispose()

    listed = t.ok("schedule", "list", "--json").json
    assert not (tmp_path / "pwned").exists()
    assert [r["job"] for r in listed] == ["advance-daily"] and listed[0]["next_run"]

    tally = str(Path(sys.executable).parent / "tally")
    process = subprocess.Popen([tally, "--db", db_url, "scheduler", "run"], cwd=tmp_path,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=_hears_ctrl_c)
    try:
        deadline = time.monotonic() + 60
        while len(_events(db_url, "calendar.advanced")) < 3 and time.monotonic() < deadline:
            assert process.poll() is None, process.communicate()
            time.sleep(0.2)
    finally:
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    assert process.returncode == 0, (out, err)
    assert out.splitlines() == ["scheduler running; Ctrl-C to stop", "scheduler stopped"], (out, err)
    assert "Traceback" not in err
    runs = [e.payload["run"] for e in _events(db_url, "calendar.advanced")]
    assert runs == [f"advance-daily:{(three_days_ago + timedelta(days=n)).date().isoformat()}" for n in (1, 2, 3)]
    assert not (tmp_path / "pwned").exists()
    store = Store(db_url)
    assert [j["id"] for j in schedule.stored_jobs(store)] == ["Open Table/advance-daily"]  # the planted rows gone
    store.dispose()


def test_the_table_is_kept_in_step_with_the_ledger(tally_sqlite):
    """What the running scheduler does every minute: a row for each live job (one the
    table lost is due at once), none for any other, a next run never more than an hour
    off whatever a row says, and the scheduler's own next runs written back."""
    t = tally_sqlite
    with freeze_time("2030-01-01 09:00:00"):
        t.ok("campaign", "new", "Open Table", "--start", "1024-03-01")
        t.ok("schedule", "add", "advance-daily")
        t.ok("schedule", "add", "remind", "--id", "rent", "--text", "the rent")
    engine = sa.create_engine(t.url)
    with engine.begin() as conn:
        conn.execute(sa.text("DELETE FROM schedule_jobs WHERE job = 'rent'"))  # lost (a crash after recording)
        conn.execute(sa.text("UPDATE schedule_jobs SET next_run = '9999-01-01T00:00:00Z'"))
        conn.execute(sa.text("INSERT INTO schedule_jobs VALUES ('Nowhere', 'x', NULL)"))
    engine.dispose()
    store = Store(t.url)
    with freeze_time("2030-01-02 12:00:00"):
        with store.transaction() as tx:
            due = schedule.reconcile(tx)
        assert due == {("Open Table", "advance-daily"): datetime(2030, 1, 2, 13, tzinfo=timezone.utc),
                       ("Open Table", "rent"): datetime(2030, 1, 2, 12, tzinfo=timezone.utc)}
        later = datetime(2030, 1, 2, 12, 30, tzinfo=timezone.utc)
        with store.transaction() as tx:
            schedule.reconcile(tx, {("Open Table", "rent"): later})
    assert schedule.stored_jobs(store) == [
        {"id": "Open Table/advance-daily", "next_run_time": "2030-01-02T13:00:00+00:00"},
        {"id": "Open Table/rent", "next_run_time": "2030-01-02T12:30:00+00:00"}]
    store.dispose()
