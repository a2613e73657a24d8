"""Snapshots are derived, never stale, and safe to delete (DESIGN.md §3)."""

import random
from pathlib import Path

import pytest
from freezegun import freeze_time

from ledger import replay
from ledger.commands.base import load
from ledger.store import Store
from projections.timeline import Pin

FIXTURE = Path(__file__).parent.parent / "fixtures" / "open-table.tally"


@pytest.fixture
def history(tally_sqlite):
    """Ten sessions, snapshots taken along the way, then a late fact, a void of
    an early event and more play after the snapshots."""
    t = tally_sqlite
    with freeze_time("2030-01-01 10:00:00"):
        t.ok("script", str(FIXTURE), "--quiet")
        t.ok("db", "snapshot")
    with freeze_time("2030-01-02 10:00:00"):
        t.ok("cash", "Nureddine", "+3", "--why", "after the snapshot")
        t.ok("db", "snapshot")
    with freeze_time("2030-01-03 10:00:00"):
        t.ok("--game-date", "1024-04-20", "cash", "Dagny", "+5", "--why", "remembered late")
        t.ok("cash", "Wren", "+2", "--why", "after the late fact")
        t.ok("db", "snapshot")
    with freeze_time("2030-01-04 10:00:00"):
        t.ok("void", "21", "--why", "the first treasure split was mis-recorded")
        t.ok("rep", "River Guild", "-1", "--why", "a quarrel at the ford")
    return t


def plan(tx, name, point):
    """The snapshot and ranges a query at the point would use, or None (fold from nothing)."""
    upto = replay.seen_upto(tx, point)
    return replay._plan(tx, name, upto, point.as_of, list(tx.read(name, types=["ledger.voided"], upto=upto)))


def worlds_agree(store, point):
    with store.reading() as tx:
        fast = load(tx, None, point=point)
        slow = load(tx, None, point=point, use_snapshots=False)
        used = plan(tx, fast.name, fast.point) is not None
    assert fast.world == slow.world, point
    return used


def now(tx):
    return plan(tx, "Central Oregon", Pin().resolve(None))


def test_the_snapshot_path_equals_a_rebuild_from_nothing_at_300_random_points(history):
    store = Store(history.url)
    log = history.ok("log", "--json").json
    rng = random.Random(3)
    points = [Pin()]
    points += [Pin(at_event=rng.randint(1, len(log))) for _ in range(100)]
    days = [history.ok("calendar", "show", "--json").json["day"], log[0]["game_time"]]
    points += [Pin(as_of=f"day:{rng.randint(min(days), max(days))}") for _ in range(100)]
    points += [Pin(as_recorded=rng.choice(log)["recorded_at"]) for _ in range(50)]
    points += [Pin(at_event=rng.randint(1, len(log)), as_of=f"day:{rng.randint(min(days), max(days))}")
               for _ in range(50)]
    used = [worlds_agree(store, p) for p in points]
    assert any(used) and not all(used)  # the snapshots served some points and were refused for others
    store.dispose()


def test_a_late_fact_or_a_void_makes_older_snapshots_unusable(history):
    store = Store(history.url)
    with store.reading() as tx:
        assert now(tx) is None  # the void recorded after every snapshot withdraws an event inside them
    history.ok("db", "snapshot")  # a fresh one serves again
    with store.reading() as tx:
        assert now(tx) is not None
    store.dispose()


def test_deleting_every_snapshot_loses_nothing(history):
    before = history.ok("char", "list", "--json").json
    assert "dropped 3 snapshot(s)" in history.ok("db", "snapshot", "--drop").stdout
    assert history.ok("char", "list", "--json").json == before


def test_snapshots_on_postgresql(pg_server):
    from tests.conftest import Tally

    t = Tally(pg_server.new_database())
    t.ok("script", str(FIXTURE), "--quiet")
    t.ok("db", "snapshot")
    t.ok("cash", "Nureddine", "+1", "--why", "after the snapshot")
    store = Store(t.url)
    assert worlds_agree(store, Pin()) is True
    store.dispose()


def test_a_snapshot_from_read_models_of_another_shape_is_never_used(history, monkeypatch):
    from projections import snapshots

    history.ok("db", "snapshot")
    store = Store(history.url)
    with store.reading() as tx:
        assert now(tx) is not None
        with_snapshot = replay.world_at(tx, "Central Oregon", Pin().resolve(None))
        monkeypatch.setattr(snapshots, "shape", lambda: "another-version")
        assert snapshots.load(tx.snapshot_state("Central Oregon", now(tx)[0])) is None
        assert replay.world_at(tx, "Central Oregon", Pin().resolve(None)) == with_snapshot  # from nothing
    store.dispose()
    assert history.ok("char", "show", "Nureddine", "--json").json["name"] == "Nureddine"  # folds from nothing
