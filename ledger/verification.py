"""Verifying a whole database: its hash chain, and every snapshot against
the log, on every core when the log is long.

Each event's hash depends only on its own row, and the chain only links each
row to the one before, so the log splits into stretches that are checked
side by side: every stretch in its own process, on its own connection, and
then each stretch's first prev_hash against the hash that ends the stretch
before it. The log is append-only, so rows up to the head read at the start
are the same whichever connection reads them. The first broken position is
reported, as a single pass would.

Snapshots are checked by induction along each campaign's tiles: the world
at a snapshot is the world at the one before with the events between folded
on (or, past a late fact or a void, the world from an earlier snapshot, as
a query would find it), and it must equal the snapshot's decoded world. So
each event is folded once, and a run of tiles can be checked in its own
process starting from the stored snapshot before it — which the run before
checks. Those runs go alongside the chain's stretches.
"""

from __future__ import annotations

import os
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from contextlib import closing
from dataclasses import fields
from multiprocessing import get_all_start_methods, get_context
from typing import NamedTuple, Optional

from ledger.chain import GENESIS, verify_stored
from ledger.errors import ChainBroken, SnapshotRefuted, SnapshotUnusable
from ledger.store import Store, Transaction

PARALLEL_FROM = 200_000  # below this a second process costs more than it saves on the chain alone
FOLD_PARALLEL_FROM = 50_000  # a fold costs about 3.5 times what a hash check costs an event: it pays sooner
RUNS_PER_WORKER = 2  # runs of tiles per worker: smaller pieces even out the processes' shares
RECENT = 8  # worlds kept to fold a tile from when the one before will not do (a late fact, a void)


class Verified(NamedTuple):
    events: int
    head: str
    snapshots: int  # snapshots that agree with the log
    stale: int  # snapshots written for read models of another shape: never used, so never wrong


Tile = tuple  # (position, since, min_game_time, max_game_time)


def verify_database(store: Store, workers: Optional[int] = None) -> Verified:
    """The chain and the snapshots of the whole database, or ChainBroken at
    the first bad position, or SnapshotRefuted at the first snapshot that
    fails its checks or disagrees with the log (a broken chain first)."""
    with store.reading() as tx:
        head = tx.head()[0]
        tiles = {name: [tuple(t) for t in tx.snapshot_tiles(name)] for name in tx.snapshotted()}
    workers = workers or min(os.cpu_count() or 1, 4)
    forks = workers >= 2 and "fork" in get_all_start_methods()
    split_chain = forks and head >= PARALLEL_FROM
    split_folds = forks and head >= FOLD_PARALLEL_FROM and any(tiles.values())
    if not (split_chain or split_folds):
        with store.reading() as tx, closing(tx.raw_rows()) as rows:
            count, last = verify_stored(rows)
        with store.reading() as tx:
            outcomes = [_tiles_in(tx, name, every, 0, len(every)) for name, every in tiles.items()]
        return _verdict(count, last, tiles, outcomes)
    bounds = [head * i // workers for i in range(workers + 1)] if split_chain else [0, head]
    stretches = list(zip(bounds, bounds[1:]))
    runs = _runs(tiles, workers * RUNS_PER_WORKER)
    with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("fork")) as pool:
        folds = [pool.submit(_run, store.url, name, tiles[name], first, last) for name, first, last in runs]
        chain = [pool.submit(_stretch, store.url, after, upto) for after, upto in stretches]
        results = [f.result() for f in chain]
        outcomes = [f.result() for f in folds]
    prev, count = GENESIS, 0
    for (after, _), result in zip(stretches, results):
        if result[0] == "broken":
            raise ChainBroken(result[1], result[2])
        _, first_prev, n, last = result
        if first_prev != prev:
            raise ChainBroken(after + 1, "prev_hash does not match the hash of the event before it")
        count, prev = count + n, last
    return _verdict(count, prev, tiles, outcomes)


def _verdict(count: int, head: str, tiles: dict, outcomes: list[tuple]) -> Verified:
    """The first snapshot problem (by campaign, then position) or the tally of good and stale ones."""
    problems = sorted((name, position, problem) for name, position, problem, _ in outcomes if problem)
    if problems:
        raise SnapshotRefuted(*problems[0])
    stale = sum(outcome[3] for outcome in outcomes)
    return Verified(count, head, sum(map(len, tiles.values())) - stale, stale)


def _runs(tiles: dict[str, list[Tile]], pieces: int) -> list[tuple[str, int, int]]:
    """Each campaign's tiles cut into runs, about ``pieces`` in all, by events covered."""
    total = sum(every[-1][0] for every in tiles.values() if every) or 1
    runs = []
    for name, every in tiles.items():
        if not every:
            continue
        share = max(1, round(pieces * every[-1][0] / total))
        cuts = sorted({len(every) * i // share for i in range(share)} | {len(every)})
        runs += [(name, first, last) for first, last in zip(cuts, cuts[1:])]
    return runs


def _run(url: str, name: str, tiles: list[Tile], first: int, last: int) -> tuple:
    store = Store(url, create=False, check_schema=False)  # the parent checked it
    try:
        with store.reading() as tx:
            return _tiles_in(tx, name, tiles, first, last)
    finally:
        store.dispose()


def _tiles_in(tx: Transaction, name: str, tiles: list[Tile], first: int, last: int) -> tuple:
    """(name, position, problem, stale count) for the tiles[first:last]: the
    first that fails (position and problem), else None and how many are stale.

    The worlds at the last few tiles are kept, with the events after each: a
    tile whose events cannot be folded on the one before (a late fact, a void
    of an earlier event) is folded from one of those, and only past them is
    the database asked for an earlier snapshot."""
    from ledger import replay
    from projections import snapshots
    from projections import world as world_model
    from projections.timeline import Point

    if first == 0:
        since, last_day, world = 0, None, world_model.EMPTY
    else:  # the run before checks this one; if it fails, that run says so
        since, last_day = tiles[first - 1][0], tiles[first - 1][3]
        world = replay.usable(tx, name, since)
    recent = deque([(since, world, last_day, [])] if world is not None else [], maxlen=RECENT)
    stale = 0
    for position, tile_since, min_day, max_day in tiles[first:last]:
        if tile_since != since:
            return name, position, f"does not follow the snapshot before it (it names {tile_since}, not {since})", 0
        between = list(tx.read(name, after=since, upto=position, payload_if=replay.payload_needed))
        days = [e.game_time for e in between] + ([last_day] if last_day is not None else [])
        if (min_day, max_day) != (min((e.game_time for e in between), default=None), max(days, default=None)):
            return name, position, "names game days its events do not have", 0
        try:
            world, following = None, between
            for base, base_world, base_day, before in reversed(recent):
                world = replay.carried(base_world, following, base, base_day)
                if world is not None:
                    break
                following = before + following
            if world is None:
                world = replay.world_at(tx, name, Point(), upto=position, below=position)
        except Exception as exc:  # only a log that fails its own chain check gets here
            return name, position, f"cannot be checked: the log does not fold to it ({exc.__class__.__name__})", 0
        try:
            stored = snapshots.load(*tx.snapshot(name, position))
        except SnapshotUnusable as unusable:
            if not unusable.stale:
                return name, position, f"failed its check ({unusable.reason})", 0
            stale += 1
        else:
            if stored != world:
                differs = next(f.name for f in fields(world) if getattr(stored, f.name) != getattr(world, f.name))
                return name, position, f"does not agree with the log (its {differs} differs from the fold)", 0
        recent.append((position, world, max_day, between))
        since, last_day = position, max_day
    return name, None, None, stale


def _stretch_in(store: Store, after: int, upto: int) -> tuple:
    with store.reading() as tx, closing(tx.raw_rows(after, upto)) as rows:
        first = next(rows, None)
        if first is None:
            return ("broken", after + 1, f"position {after + 1} is missing")
        try:
            count, last = verify_stored(_chain(first, rows), start=after + 1, prev=first[12])
        except ChainBroken as broken:
            return ("broken", broken.position, broken.reason)
    if count != upto - after:
        return ("broken", after + count + 1, f"position {after + count + 1} is missing")
    return ("ok", first[12], count, last)


def _stretch(url: str, after: int, upto: int) -> tuple:
    store = Store(url, create=False, check_schema=False)  # the parent checked it
    try:
        return _stretch_in(store, after, upto)
    finally:
        store.dispose()


def _chain(first, rest):
    yield first
    yield from rest
