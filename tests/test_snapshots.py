"""Snapshots are derived, never stale, and safe to delete (DESIGN.md §3)."""

import json
import random
from pathlib import Path

import pytest
from freezegun import freeze_time

from projections import replay
from projections.reading import load
from ledger.store import Store
from projections.timeline import Pin
from tests.conftest import generated, reader_role

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
    assert ("read models of another shape and was ignored; the next command that records, or tally db "
            "snapshot, takes the campaign's snapshots again") in shown.stderr
    verified = history.ok("verify")  # never used, so never wrong: noted, not a failure
    assert "snapshot(s) were written for read models of another shape and are never used" in verified.stderr


def _tiles(url, name="Central Oregon"):
    store = Store(url)
    try:
        with store.reading() as tx:
            return [t.position for t in tx.snapshot_tiles(name)], [h for _, h in tx.snapshot_heads(name)]
    finally:
        store.dispose()


def test_the_first_command_that_records_after_an_upgrade_takes_stale_snapshots_again(history, monkeypatch):
    # After an upgrade that changes the read models, every snapshot is of another shape: never
    # used, so every query folded the campaign from its start (17-47 s a page at a million
    # events, docs/performance.md) until the referee dropped and rebuilt them by hand. The
    # first command that records finds them so (its own load noted it) and takes them again
    # through the history, in its transaction; the queries after it start from snapshots.
    from projections import snapshots

    history.ok("db", "snapshot")
    before, heads = _tiles(history.url)
    assert len(before) >= 3 and {snapshots.stamp(h) for h in heads} == {snapshots.shape()}
    monkeypatch.setattr(snapshots, "shape", lambda: "another-version")  # the tally after the upgrade
    recorded = history.ok("cash", "Nureddine", "+1", "--why", "the first command after the upgrade")
    assert "were taken again through its history" in recorded.stderr
    assert "was ignored" not in recorded.stderr  # the notes that found them give way to the one that says so
    after, heads = _tiles(history.url)
    head = history.ok("log", "--json").json[-1]["position"]
    assert after == [head] and after[0] > before[-1]  # (fewer than 1,000 events: one, at the head)
    assert {snapshots.stamp(h) for h in heads} == {"another-version"}
    shown = history.ok("char", "show", "Nureddine", "--json")
    assert shown.stderr == ""  # from a snapshot of this shape: nothing ignored, nothing to say
    store = Store(history.url)
    with store.reading() as tx:
        assert now(tx) is not None and not tx.notes
    store.dispose()
    assert worlds_agree(Store(history.url), Pin()) is True
    again = history.ok("cash", "Nureddine", "+1", "--why", "the second command")
    assert "taken again" not in again.stderr and _tiles(history.url)[0] == after  # once


def test_db_snapshot_alone_replaces_stale_snapshots_from_the_first_stale_one_on(history, monkeypatch):
    # One command, not --drop and then a build: the tiles before the first stale one stay whole.
    from projections import snapshots

    history.ok("db", "snapshot")
    before, _ = _tiles(history.url)
    monkeypatch.setattr(snapshots, "shape", lambda: "another-version")
    history.ok("db", "snapshot")
    after, heads = _tiles(history.url)
    assert after == before[-1:] and {snapshots.stamp(h) for h in heads} == {"another-version"}
    verified = history.ok("verify")
    assert "another shape" not in verified.stderr


def test_a_state_s_stamp_is_read_from_its_first_bytes_or_none():
    from projections import snapshots, world

    state, _ = snapshots.dump(world.EMPTY)
    assert snapshots.stamp(state[:256]) == snapshots.shape()
    assert snapshots.stamp(state) == snapshots.shape()
    for odd in (b"", b"not zlib at all", state[:3], __import__("zlib").compress(b"\x92\xa1x")):
        assert snapshots.stamp(odd) is None


def test_tiled_snapshots_serve_every_axis_of_a_long_campaign_and_agree_with_a_rebuild(tmp_path):
    """A generated campaign (late facts, voids) snapshotted every 50 events: at
    random points on the three axes the snapshot path equals a fold from
    nothing, and it reads only a few stretches of the log."""
    from bench.generator import NAME

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

    from bench.generator import NAME
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


@pytest.mark.parametrize("module, model", [("wolves", "Band"), ("gods", "Standing"), ("xp", "Progress"),
                                           ("skirmish", "Skirmisher"), ("stable", "Character")])
def test_the_shape_stamp_covers_every_read_model_by_its_rulebook_name(monkeypatch, module, model):
    """A field added to any read model (those named for their rulebooks too) changes the stamp,
    so a snapshot of the old shape is set aside rather than read into the new one."""
    import importlib

    import msgspec

    from projections import snapshots, world

    folded = importlib.import_module(f"projections.{module}")
    assert folded in vars(world).values()  # the world joins it, and the stamp walks what the world joins
    before = snapshots.shape.__wrapped__()  # shape() is computed once a process; here, afresh
    grown = msgspec.defstruct(model, [("planted", int, 0)], bases=(getattr(folded, model),), frozen=True,
                              module=folded.__name__)
    monkeypatch.setattr(folded, model, grown)
    assert snapshots.shape.__wrapped__() != before
# -- the MAC (issue 25): what decides an answer is believed only as the key's holder wrote it ----------

def test_a_tile_whose_day_range_was_rewritten_is_refused_before_a_plan_trusts_it(tmp_path):
    """A query plans from the day ranges of the tiles after the snapshot it
    starts from: one whose range was rewritten (its MAC left as it was) would
    have the query skip events of the days it asks about."""
    import sqlalchemy as sa

    from bench.generator import NAME

    store = Store(generated(tmp_path, events=3000, players=6, seed=11))
    with store.transaction() as tx:
        replay.build_snapshots(tx, NAME, every=50)
    with store.reading() as tx:
        tiles = tx.snapshot_tiles(NAME)
    first, last = tiles[-4].max_game_time, tiles[-1].max_game_time
    assert last - first > 10
    with store.transaction() as tx:  # the last three say their events are all on days long after
        tx.conn.execute(sa.text("UPDATE snapshots SET min_game_time = :far WHERE position >= :p"),
                        {"far": last + 10**6, "p": tiles[-3].position})
    with store.reading() as tx:
        for day in range(first, last, (last - first) // 10):
            point = Pin(as_of=f"day:{day}")
            assert load(tx, NAME, point=point).world == load(tx, NAME, point=point, use_snapshots=False).world, day
        assert {(note.position, note.reason) for note in tx.notes} == {
            (t.position, "its MAC does not hold") for t in tiles[-3:]}
    store.dispose()


def plain_digests(url):
    """Give every snapshot row the plain digest a tally from before the MAC wrote."""
    import json

    import sqlalchemy as sa

    from tests.forgery import plain_digest

    store = Store(url)
    with store.transaction() as tx:
        for row in tx.conn.execute(sa.text("SELECT * FROM snapshots")).all():
            digest = plain_digest(row.campaign, row.position, since=row.since, min_game_time=row.min_game_time,
                                  max_game_time=row.max_game_time, event_hash=row.event_hash,
                                  blobs=json.loads(row.blobs), state=row.state)
            tx.conn.execute(sa.text("UPDATE snapshots SET digest = :d WHERE campaign = :c AND position = :p"),
                            {"d": digest, "c": row.campaign, "p": row.position})
    store.dispose()


def digests(url):
    import sqlalchemy as sa

    store = Store(url)
    with store.reading() as tx:
        found = dict(tx.conn.execute(sa.text("SELECT position, digest FROM snapshots")).all())
    store.dispose()
    return found


@pytest.mark.parametrize("replaced_by", ["db snapshot", "the next command"])
def test_snapshots_from_before_the_mac_are_ignored_then_replaced(tally, replaced_by):
    from ledger import snapshot_mac

    tally.ok("script", str(FIXTURE), "--quiet")
    tally.ok("cash", "Nureddine", "+1", "--why", "half way")
    tally.ok("db", "snapshot")
    truth = tally.ok("char", "show", "Nureddine", "--json").json
    plain_digests(tally.url)
    head = max(digests(tally.url))

    shown = tally.ok("char", "show", "Nureddine", "--json")
    assert shown.json == truth
    assert shown.stderr == (f"tally: note: the snapshot of campaign Central Oregon at event {head} carries no MAC "
                            "(an older tally's, or forged) and was ignored; the next snapshot, or tally db "
                            "snapshot, replaces it\n")
    verified = tally.ok("verify", "--json")  # never used, and still held against the fold: they agree
    assert verified.json["unsigned_snapshots"] == 1 and verified.json["snapshots"] == 1
    assert "1 snapshot(s) carry no MAC (an older tally wrote them) and are never used" in verified.stderr

    if replaced_by == "db snapshot":
        assert f"Central Oregon: 1 snapshot(s), the last at event {head}" in tally.ok("db", "snapshot").stdout
    else:
        tally.ok("cash", "Nureddine", "-1", "--why", "the next command")
        truth["cash"] -= 1
    kept = digests(tally.url)
    assert kept and all(snapshot_mac.signed(d) for d in kept.values())
    again = tally.ok("char", "show", "Nureddine", "--json")
    assert again.json == truth and again.stderr == ""
    assert tally.ok("verify").stderr == ""


def test_a_copy_of_the_ledger_without_its_secrets_folds_from_the_log_with_one_note(tally_sqlite, tmp_path):
    import shutil

    from ledger.secrets import file_beside

    t = tally_sqlite
    t.ok("script", str(FIXTURE), "--quiet")
    t.ok("db", "snapshot")
    t.ok("cash", "Nureddine", "+1", "--why", "after the snapshot")
    truth = t.ok("char", "show", "Nureddine", "--json").json
    store = Store(t.url)
    store.checkpoint()  # the whole ledger in its file, to copy it
    store.dispose()
    original = Path(t.url[len("sqlite:///"):])
    (tmp_path / "copy").mkdir()
    copied = tmp_path / "copy" / "tally.db"
    shutil.copy(original, copied)
    copy = type(t)(f"sqlite:///{copied}")

    shown = copy.ok("char", "show", "Nureddine", "--json")
    assert shown.json == truth
    assert shown.stderr == ("tally: note: the snapshots of campaign Central Oregon cannot be told from forgeries "
                            f"here (there is no secrets file {copied}.secrets beside the ledger: copy it with the "
                            "ledger) and were ignored: queries fold from the log\n")
    verified = copy.ok("verify")
    assert "1 snapshot(s) agree with the log" in verified.stdout
    assert verified.stderr == (f"tally: note: the snapshots' MACs were not checked (there is no secrets file "
                               f"{copied}.secrets beside the ledger: copy it with the ledger): only that they agree "
                               "with the log\n")

    shutil.copy(file_beside(original), file_beside(copied))  # with its secrets, its snapshots serve again
    assert copy.ok("char", "show", "Nureddine", "--json").stderr == ""
    file_beside(copied).unlink()
    # A write makes the copy a key of its own; the next snapshot, under it, replaces the old ones.
    copy.ok("cash", "Nureddine", "+1", "--why", "in the copy")
    assert copy.ok("char", "show", "Nureddine", "--json").stderr == ""
    assert copy.ok("verify").stderr == ""


def test_a_reader_role_cannot_read_the_snapshot_key_so_its_queries_fold_from_the_log(pg_server):
    from tests.conftest import Tally

    url = pg_server.new_database()
    referee = Tally(url)
    referee.ok("script", str(FIXTURE), "--quiet")
    referee.ok("db", "snapshot")
    truth = referee.ok("char", "show", "Nureddine", "--json").json
    with reader_role(pg_server, url, referee, "snapshot_reader") as (reader, _):
        shown = reader.ok("char", "show", "Nureddine", "--json")
        assert shown.json == truth
        assert shown.stderr.startswith("tally: note: the snapshots of campaign Central Oregon cannot be told from "
                                       "forgeries here (this database role may not read the table ledger_secrets")
        assert shown.stderr.count("\n") == 1
        verified = reader.ok("verify")
        assert "1 snapshot(s) agree with the log" in verified.stdout
        assert "the snapshots' MACs were not checked (this database role may not read" in verified.stderr
        assert referee.ok("char", "show", "Nureddine", "--json").stderr == ""


def test_only_the_first_stale_snapshot_and_those_after_it_are_dropped(history, monkeypatch):
    # A tiling stays whole: each snapshot names the one before it. The tiles before the first
    # stale one are kept; from it on, every one goes (here: one written by "another tally").
    from projections import snapshots

    history.ok("db", "snapshot")
    before, _ = _tiles(history.url)
    history.ok("cash", "Wren", "+1", "--why", "one more, after the last snapshot")
    monkeypatch.setattr(snapshots, "shape", lambda: "another-version")
    store = Store(history.url)
    with store.transaction() as tx:
        taken = replay.take_snapshot(tx, "Central Oregon")
    assert taken is not None and _tiles(history.url)[0] == [*before, taken]
    monkeypatch.undo()  # this tally again: the last snapshot is the stale one
    with store.transaction() as tx:
        assert replay.drop_stale(tx, "Central Oregon") == 1
        assert replay.drop_stale(tx, "Central Oregon") == 0
    store.dispose()
    assert _tiles(history.url)[0] == before


def test_stale_snapshots_are_taken_again_on_both_backends(campaign, monkeypatch):
    # The state's first bytes read in SQL on SQLite and PostgreSQL alike (substr of a blob, a bytea).
    from projections import snapshots

    campaign.ok("player", "add", "Ann")
    campaign.ok("char", "new", "Wren", "--player", "Ann", "--max-hp", "8")
    campaign.ok("cash", "Wren", "+5", "--why", "before the upgrade")
    campaign.ok("db", "snapshot")
    assert {snapshots.stamp(h) for h in _tiles(campaign.url, "Greyhawk")[1]} == {snapshots.shape()}
    monkeypatch.setattr(snapshots, "shape", lambda: "another-version")
    said = campaign.ok("cash", "Wren", "+1", "--why", "after it").stderr
    assert "were taken again through its history: 1 snapshot(s)" in said
    assert {snapshots.stamp(h) for h in _tiles(campaign.url, "Greyhawk")[1]} == {"another-version"}
    assert campaign.ok("char", "show", "Wren", "--json").json["cash"] == 6


def test_a_blob_no_snapshot_names_any_more_goes_with_the_next_build(tmp_path, monkeypatch):
    # Snapshots dropped while others stay (a stale one and those after it, an unsound one) can
    # leave session archives only they named: the next build deletes those, and only those.
    import sqlalchemy as sa

    from bench.generator import NAME
    from ledger.schema import snapshot_blobs
    from projections import sessions

    monkeypatch.setattr(sessions, "ARCHIVE_EVERY", 4)  # pack the history early and often
    store = Store(generated(tmp_path, events=3000, players=6, seed=3))
    with store.transaction() as tx:
        replay.build_snapshots(tx, NAME, every=100)

    def held():
        with store.reading() as tx:
            return set(tx.conn.execute(sa.select(snapshot_blobs.c.digest)).scalars())

    named = held()
    assert len(named) >= 3
    with store.transaction() as tx:
        tx.conn.execute(snapshot_blobs.insert(), {"campaign": NAME, "digest": "f" * 64, "data": b"left over"})
        assert tx.drop_unnamed_blobs(NAME) == 1
        assert tx.drop_unnamed_blobs(NAME) == 0
    assert held() == named
    with store.transaction() as tx:  # the later half of the tiles dropped: the archives only they named go
        positions = [t.position for t in tx.snapshot_tiles(NAME)]
        tx.drop_snapshots_at(NAME, positions[len(positions) // 2:])
        tx.conn.execute(snapshot_blobs.insert(), {"campaign": NAME, "digest": "e" * 64, "data": b"left over"})
        tx.drop_unnamed_blobs(NAME)
        kept = {d for (names,) in tx.conn.execute(sa.text("SELECT blobs FROM snapshots")) for d in json.loads(names)}
    assert held() == kept and kept < named
    with store.transaction() as tx:
        replay.build_snapshots(tx, NAME, every=100)
    assert held() == named  # built again, naming them again
    assert worlds_agree(store, Pin()) is True
    store.dispose()


def test_a_snapshot_s_bytes_do_not_follow_the_process_s_string_hashing(tmp_path):
    # A set's order follows PYTHONHASHSEED: the read models keep their sets of periods as
    # sorted tuples (handlers.with_period), so the same world is the same bytes in any process.
    import subprocess
    import sys

    url = generated(tmp_path, events=3000, players=6, seed=5)
    program = ("import hashlib, sys\n"
               "from ledger.store import Store\n"
               "from projections import replay, snapshots\n"
               "from projections.timeline import Point\n"
               "store = Store(sys.argv[1], create=False)\n"
               "with store.reading() as tx:\n"
               "    world = replay.world_at(tx, tx.campaigns()[0], Point(), use_snapshots=False)\n"
               "state, blobs = snapshots.dump(world)\n"
               "print(hashlib.sha256(state + b''.join(sorted(blobs.values()))).hexdigest())\n"
               "print(sum(len(c.wealth_periods) for c in world.stable.characters.values()))\n")
    digests = set()
    for seed in ("1", "2", "3"):
        out = subprocess.run([sys.executable, "-c", program, url], capture_output=True, text=True, check=True,
                             env={**__import__("os").environ, "PYTHONHASHSEED": seed}, cwd=Path(__file__).parent.parent)
        digest, periods = out.stdout.split()
        digests.add(digest)
        assert int(periods) >= 2  # the world holds sets of periods, whose order the seed would move
    assert len(digests) == 1
