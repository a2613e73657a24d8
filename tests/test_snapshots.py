"""Snapshots are derived, never stale, and safe to delete (DESIGN.md §3)."""

import random
from pathlib import Path

import pytest
from freezegun import freeze_time

from ledger import replay
from ledger.commands.base import load
from ledger.store import Store
from projections.timeline import Pin
from tests.conftest import generated

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
        armour = next(e["position"] for e in t.ok("log", "--type", "item.gained", "--json").json
                      if e["payload"]["item"] == "Light Armor")
        t.ok("void", str(armour), "--why", "the mail shirt was mis-recorded")
        t.ok("rep", "River Guild", "-1", "--why", "a quarrel at the ford")
    return t


def plan(tx, name, point):
    """The snapshot and ranges a query at the point would use, or None (fold from nothing)."""
    chosen = replay.plan_for(tx, name, replay.seen_upto(tx, point), point.as_of)
    return None if chosen is None else (chosen.base, chosen.ranges)


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


def test_a_late_fact_or_a_void_spoils_older_snapshots_so_a_fresh_one_is_taken_at_once(history):
    store = Store(history.url)
    log = history.ok("log", "--json").json
    late = next(e["position"] for e in log if e["payload"].get("why") == "remembered late")
    void = next(e["position"] for e in log if e["type"] == "ledger.voided")
    with store.reading() as tx:
        tiles = [t.position for t in tx.snapshot_tiles("Central Oregon")]
        assert late in tiles and void in tiles  # taken in the command's own transaction
        assert now(tx)[0] >= void
        # A point that sees the void cannot start before it: the void withdraws an early event, inside them all.
        assert plan(tx, "Central Oregon", Pin(at_event=void).resolve(None))[0] == void
        # A point just before the void still uses the older snapshots.
        assert plan(tx, "Central Oregon", Pin(at_event=void - 1).resolve(None))[0] < void
    store.dispose()


def test_deleting_every_snapshot_loses_nothing(history):
    before = history.ok("char", "list", "--json").json
    # three taken by hand, one after the late fact, one after the void
    assert "dropped 5 snapshot(s)" in history.ok("db", "snapshot", "--drop").stdout
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
    from ledger.errors import SnapshotUnusable
    from projections import snapshots

    history.ok("db", "snapshot")
    store = Store(history.url)
    with store.reading() as tx:
        assert now(tx) is not None
        with_snapshot = replay.world_at(tx, "Central Oregon", Pin().resolve(None))
        assert not tx.notes
        monkeypatch.setattr(snapshots, "shape", lambda: "another-version")
        with pytest.raises(SnapshotUnusable) as refused:
            snapshots.load(*tx.snapshot("Central Oregon", now(tx)[0]))
        assert refused.value.stale
        assert replay.world_at(tx, "Central Oregon", Pin().resolve(None)) == with_snapshot  # from nothing
        assert [note.stale for note in tx.notes] == [True]  # one note: the older ones are no newer
    store.dispose()
    shown = history.ok("char", "show", "Nureddine", "--json")  # folds from nothing, and says why
    assert shown.json["name"] == "Nureddine"
    assert "read models of another shape and was ignored; run tally db snapshot --drop" in shown.stderr
    verified = history.ok("verify")  # never used, so never wrong: noted, not a failure
    assert "snapshot(s) were written for read models of another shape and are never used" in verified.stderr


def test_tiled_snapshots_serve_every_axis_of_a_long_campaign_and_agree_with_a_rebuild(tmp_path):
    """A generated campaign (late facts, voids) snapshotted every 50 events: at
    random points on the three axes the snapshot path equals a fold from
    nothing, and it reads only a few stretches of the log."""
    from ledger.generator import NAME

    store = Store(generated(tmp_path, events=4000, players=8, years=2, seed=11))
    with store.transaction() as tx:
        taken = replay.build_snapshots(tx, NAME, every=50)
    assert len(taken) >= 4000 // 50
    rng = random.Random(5)
    with store.reading() as tx:
        head = tx.head()[0]
        first, last = tx.first(NAME).game_time, tx.last_day(NAME, head)
        instants = [tx.get(rng.randint(1, head)).recorded_at for _ in range(40)]
    points = ([Pin(at_event=rng.randint(1, head)) for _ in range(40)]
              + [Pin(as_of=f"day:{rng.randint(first, last)}") for _ in range(40)]
              + [Pin(as_recorded=at) for at in instants]
              + [Pin(at_event=rng.randint(1, head), as_of=f"day:{rng.randint(first, last)}") for _ in range(40)])
    served = 0
    with store.reading() as tx:
        for point in points:
            fast = load(tx, NAME, point=point)
            assert fast.world == load(tx, NAME, point=point, use_snapshots=False).world, point
            chosen = plan(tx, NAME, fast.point)
            if chosen is not None:
                served += 1
                assert sum(until - after for after, until in chosen[1]) < 1000  # a few tiles, not the log
    assert served > 0.9 * len(points)
    store.dispose()


def test_snapshots_share_the_packed_session_archive_and_refuse_a_missing_blob(tmp_path, monkeypatch):
    import json

    import sqlalchemy as sa

    from ledger.generator import NAME
    from ledger.errors import SnapshotUnusable
    from projections import sessions, snapshots

    monkeypatch.setattr(sessions, "ARCHIVE_EVERY", 4)  # pack the history early and often
    store = Store(generated(tmp_path, events=3000, players=6, seed=3))
    with store.transaction() as tx:
        replay.build_snapshots(tx, NAME, every=100)
    with store.reading() as tx:
        named = [json.loads(b) for b in tx.conn.execute(sa.text("SELECT blobs FROM snapshots")).scalars()]
        stored = tx.conn.execute(sa.text("SELECT count(*) FROM snapshot_blobs")).scalar()
        assert sum(map(len, named)) > 3 * stored > 0  # each archive stored once, named by many snapshots
        last = tx.last_tile(NAME).position
        world = snapshots.load(*tx.snapshot(NAME, last))
        assert world.sessions.archived
        assert world == replay.world_at(tx, NAME, Pin().resolve(None), use_snapshots=False, upto=last)
    with store.transaction() as tx:
        tx.conn.execute(sa.text("DELETE FROM snapshot_blobs WHERE digest = :d"), {"d": named[-1][0]})
    with store.reading() as tx:
        with pytest.raises(SnapshotUnusable, match="is missing"):  # refused, not half-loaded
            tx.snapshot(NAME, last)
        assert load(tx, NAME).world == load(tx, NAME, use_snapshots=False).world
        assert tx.notes and all("is missing" in note.reason for note in tx.notes)
    store.dispose()
