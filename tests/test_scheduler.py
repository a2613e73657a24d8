"""Real-time jobs (DESIGN.md §5): APScheduler's job store in the campaign
database; missed days caught up exactly once; runs idempotent."""

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
