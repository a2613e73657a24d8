"""A snapshot build (projections/replay.py ``build_snapshots``: after an import,
`tally db snapshot`) folds a tile holding a fact logged late on from the world
before that fact's day, kept in memory, instead of from an earlier snapshot.
Every snapshot it takes holds the world a fold from nothing gives at its
position: on a generated campaign full of late facts and voids, with the days
kept as they are and with almost none kept (each late tile then folds from an
earlier snapshot, as before), and going on from snapshots already there."""

from __future__ import annotations

from bench.generator import NAME
from ledger.store import Store
from projections import replay, snapshots
from projections.timeline import VOID, Point
from tests.conftest import generated

EVERY = 40
DAYS_KEPT = replay.DAYS_KEPT


def _agree(store: Store, taken: list[int]) -> None:
    with store.reading() as tx:
        for position in taken:
            stored = snapshots.load(*tx.snapshot(NAME, position))
            assert stored == replay.world_at(tx, NAME, Point(), upto=position, use_snapshots=False), position


def _build(store: Store, monkeypatch, days_kept: int) -> tuple[list[int], int]:
    """Every snapshot dropped and built again; their positions, and how many tiles were
    folded from an earlier snapshot (the way a late tile went before the days were kept)."""
    monkeypatch.setattr(replay, "DAYS_KEPT", days_kept)
    from_snapshots = []
    real = replay.world_at
    monkeypatch.setattr(replay, "world_at", lambda *args, **kwargs: from_snapshots.append(1) or real(*args, **kwargs))
    with store.transaction() as tx:
        tx.drop_snapshots()
        taken = replay.build_snapshots(tx, NAME, every=EVERY)
    monkeypatch.setattr(replay, "world_at", real)
    return taken, len(from_snapshots)


def test_every_snapshot_a_build_takes_is_the_world_a_fold_from_nothing_gives(tmp_path, monkeypatch):
    store = Store(generated(tmp_path, events=3000, players=8, years=2, seed=11))
    with store.reading() as tx:
        assert list(tx.read(NAME, types=[VOID]))  # the campaign has voids, and (below) late tiles
    taken, late_from_snapshots = _build(store, monkeypatch, days_kept=1)
    assert len(taken) >= 3000 // EVERY and late_from_snapshots > 5
    _agree(store, taken)
    taken_again, kept_days_short = _build(store, monkeypatch, days_kept=DAYS_KEPT)
    assert taken_again == taken
    assert kept_days_short < late_from_snapshots / 2  # most late tiles now fold from a kept day
    _agree(store, taken)
    store.dispose()


def test_a_build_that_goes_on_from_snapshots_already_there_agrees_too(tmp_path):
    """Its voids up to the last snapshot read from the log, so a fact folded again from a
    kept day never brings back an event withdrawn before the build began."""
    store = Store(generated(tmp_path, events=3000, players=8, years=2, seed=12))
    with store.transaction() as tx:
        taken = replay.build_snapshots(tx, NAME, every=EVERY)
        tx.drop_snapshots_at(NAME, taken[len(taken) // 2:])
    with store.transaction() as tx:
        went_on = replay.build_snapshots(tx, NAME, every=EVERY)
    assert went_on == taken[len(taken) // 2:]
    _agree(store, taken)
    store.dispose()


def test_a_fact_folded_again_from_a_kept_day_never_brings_back_a_withdrawn_event(tally_sqlite):
    """A void of an event in the same tile (no earlier snapshot spoiled), then, tiles later, a
    fact logged for a day before it: the fold from the kept day reads the withdrawn event
    again, and must leave it out."""
    from pathlib import Path

    t = tally_sqlite
    t.ok("script", str(Path(__file__).parent.parent / "fixtures" / "open-table.tally"), "--quiet")
    withdrawn = t.ok("cash", "Dagny", "+50", "--why", "a purse that was never found", "--json").json[-1]["position"]
    t.ok("void", str(withdrawn), "--why", "recorded by mistake")
    for n in range(12):
        t.ok("cash", "Wren", "+1", "--why", f"a day's pay {n}")
    t.ok("--game-date", "1024-06-20", "cash", "Ilse", "+2", "--why", "remembered late")
    every = next(n for n in (10, 11) if withdrawn % n)  # the event and its void in one tile
    store = Store(t.url, create=False)
    with store.transaction() as tx:
        tx.drop_snapshots()
        name = tx.campaigns()[0]
        taken = replay.build_snapshots(tx, name, every=every)
    with store.reading() as tx:
        for position in taken:
            stored = snapshots.load(*tx.snapshot(name, position))
            assert stored == replay.world_at(tx, name, Point(), upto=position, use_snapshots=False), position
    store.dispose()
