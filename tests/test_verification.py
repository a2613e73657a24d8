"""verify splits a long log into stretches checked side by side, and the
snapshots into runs folded alongside; it must answer exactly as one pass
does — the same count and head, the same first broken position wherever the
break is, and the same first bad snapshot wherever it lies."""

from contextlib import closing

import pytest

from projections import verification
from ledger.chain import verify_stored
from ledger.errors import ChainBroken
from ledger.store import Store
from tests.conftest import generated, tamper


@pytest.fixture
def long_log(tmp_path, monkeypatch):
    url = generated(tmp_path, events=3000, seed=2)
    monkeypatch.setattr(verification, "PARALLEL_FROM", 100)  # split even this short log
    return url


def one_pass(url):
    store = Store(url)
    try:
        with store.reading() as tx, closing(tx.raw_rows()) as rows:
            return verify_stored(rows)
    finally:
        store.dispose()


def test_stretches_side_by_side_give_what_one_pass_gives(long_log):
    store = Store(long_log)
    for workers in (2, 3, 4):
        assert verification.verify_database(store, workers=workers)[:2] == one_pass(long_log)
    store.dispose()


@pytest.mark.parametrize("position", [2, 999, 1000, 1001, 1500, 2999])
def test_a_break_in_any_stretch_is_reported_at_its_first_position(long_log, position):
    tamper(long_log, f"UPDATE events SET actor = 'mallory' WHERE position = {position}")
    store = Store(long_log)
    with pytest.raises(ChainBroken) as single:
        one_pass(long_log)
    with pytest.raises(ChainBroken) as split:
        verification.verify_database(store, workers=3)
    assert split.value.position == single.value.position == position
    store.dispose()


def test_a_missing_event_at_a_stretch_boundary_is_found(long_log):
    tamper(long_log, "DELETE FROM events WHERE position = 1001")
    store = Store(long_log)
    with pytest.raises(ChainBroken, match="position 1001 is missing"):
        verification.verify_database(store, workers=3)
    store.dispose()


def snapshotted_campaign(tmp_path, monkeypatch) -> str:
    """A generated campaign (late facts, voids) snapshotted every 50 events, checked in runs from 1,000 events."""
    from projections import replay
    from bench.generator import NAME

    url = generated(tmp_path, events=3000, seed=7)
    store = Store(url)
    with store.transaction() as tx:
        replay.build_snapshots(tx, NAME, every=50)
    store.dispose()
    monkeypatch.setattr(verification, "FOLD_PARALLEL_FROM", 1000)
    return url


@pytest.fixture
def snapshotted(tmp_path, monkeypatch):
    return snapshotted_campaign(tmp_path, monkeypatch)


def forge_cash(url, position, cash):
    """Rewrite the snapshot at ``position`` so that its first character holds
    ``cash``, its MAC made with the ledger's own key: a forger holding the
    secrets (or a bug), whom only the fold can catch."""
    import json

    import sqlalchemy as sa

    from bench.generator import NAME
    from projections import snapshots
    from msgspec.structs import replace
    from tests.forgery import seal_row

    store = Store(url)
    with store.transaction() as tx:
        world = snapshots.load(*tx.snapshot(NAME, position))
        first = next(iter(world.stable.characters))
        characters = {**world.stable.characters, first: replace(world.stable.characters[first], cash=cash)}
        state, blobs = snapshots.dump(replace(world, stable=replace(world.stable, characters=characters)))
        tx.conn.execute(sa.text("UPDATE snapshots SET state = :s, blobs = :b WHERE position = :p"),
                        {"s": state, "b": json.dumps(sorted(blobs)), "p": position})
        seal_row(tx, NAME, position)
    store.dispose()


def test_snapshots_checked_in_runs_side_by_side_agree_with_one_pass(snapshotted):
    store = Store(snapshotted)
    with store.reading() as tx:
        count = len(tx.snapshot_tiles(tx.snapshotted()[0]))
    assert count >= 3000 // 50
    one = verification.verify_database(store, workers=1)
    assert one.snapshots == count and one.stale == 0
    for workers in (2, 3):
        assert verification.verify_database(store, workers=workers) == one
    store.dispose()


@pytest.mark.parametrize("which", [0, 1, 17, -1])
def test_a_forged_snapshot_in_any_run_is_named_at_its_position(snapshotted, which):
    from ledger.errors import SnapshotRefuted

    store = Store(snapshotted)
    with store.reading() as tx:
        positions = [t.position for t in tx.snapshot_tiles(tx.snapshotted()[0])]
    forge_cash(snapshotted, positions[which], 9999)
    for workers in (1, 3):
        with pytest.raises(SnapshotRefuted) as refuted:
            verification.verify_database(store, workers=workers)
        assert refuted.value.position == positions[which]
        assert "its stable differs from the fold" in str(refuted.value)
    store.dispose()


def test_a_broken_chain_is_reported_before_the_snapshots_it_spoils(snapshotted):
    import sqlalchemy as sa

    store = Store(snapshotted)
    with store.reading() as tx:
        income = tx.conn.execute(sa.text("SELECT min(position) FROM events WHERE type = 'income.rolled' "
                                         "AND position > 1500")).scalar()
    # Ten more Cash in the log: every snapshot from there on disagrees with it too.
    tamper(snapshotted, "UPDATE events SET payload = replace(payload, '\"successes\"\\:', '\"successes\"\\:1') "
                        f"WHERE position = {income}")  # (\\: is a colon to sa.text)
    for workers in (1, 2):
        with pytest.raises(ChainBroken) as broken:
            verification.verify_database(store, workers=workers)
        assert broken.value.position == income
    store.dispose()


def rewrite_row(url, position, **columns):
    """Change a snapshot row's columns and make its MAC again with the ledger's own key."""
    import sqlalchemy as sa

    from tests.forgery import seal_row

    store = Store(url)
    with store.transaction() as tx:
        tx.conn.execute(sa.text("UPDATE snapshots SET " + ", ".join(f"{c} = :{c}" for c in columns)
                                + " WHERE position = :position"), {**columns, "position": position})
        seal_row(tx, tx.snapshotted()[0], position)
    store.dispose()


@pytest.mark.parametrize("change, problem", [
    (lambda tile: {"min_game_time": tile.min_game_time + 30}, "names game days its events do not have"),
    (lambda tile: {"max_game_time": tile.max_game_time - 1}, "names game days its events do not have"),
    (lambda tile: {"since": tile.since - 1}, "does not follow the snapshot before it"),
])
def test_a_snapshot_that_lies_about_its_place_in_the_tiling_is_named(snapshotted, change, problem):
    """A query plans from the tiles' day ranges before it checks the snapshot it
    starts from: verify holds every row's range and link to the log."""
    from ledger.errors import SnapshotRefuted

    store = Store(snapshotted)
    with store.reading() as tx:
        tile = tx.snapshot_tiles(tx.snapshotted()[0])[20]
    rewrite_row(snapshotted, tile.position, **change(tile))
    for workers in (1, 2):
        with pytest.raises(SnapshotRefuted, match=problem) as refuted:
            verification.verify_database(store, workers=workers)
        assert refuted.value.position == tile.position
    store.dispose()


def test_a_query_tries_three_snapshots_then_folds_from_nothing_with_the_same_answer(snapshotted):
    from projections.reading import load
    from bench.generator import NAME
    from tests.forgery import seal_row

    store = Store(snapshotted)
    with store.reading() as tx:
        truth = load(tx, NAME, use_snapshots=False).world
        last_four = [t.position for t in tx.snapshot_tiles(NAME)][-4:]
    with store.transaction() as tx:
        for position in last_four:  # MACs made under another key
            seal_row(tx, NAME, position, key=bytes(range(32)))
    with store.reading() as tx:
        assert load(tx, NAME).world == truth
        noted = [(note.position, note.reason) for note in tx.notes]
    assert noted == [(p, "its MAC does not hold") for p in reversed(last_four[1:])]
    store.dispose()
