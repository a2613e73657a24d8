"""Verifying a whole database: its hash chain, and every snapshot against
the log, on every core when the log is long.

Each event's hash depends only on its own row, and the chain only links each
row to the one before, so the log splits into stretches that are checked
side by side: every stretch in its own process, on its own connection, and
then each stretch's first prev_hash against the hash that ends the stretch
before it. The log is append-only, so rows up to the head read at the start
are the same whichever connection reads them. The first broken position is
reported, as a single pass would.

The Merkle tree's interior is recomputed from the events' hashes and every
stored node compared (ledger/tree.py), alongside; then every checkpoint the
ledger records must be signed by a key it recorded before, over the tree's
root at its size, and every cosignature likewise by a recorded witness.

Snapshots are checked by induction along each campaign's tiles: the world
at a snapshot is the world at the one before with the events between folded
on (or, past a late fact or a void, the world from an earlier snapshot, as
a query would find it), and it must equal the snapshot's decoded world. So
each event is folded once, and a run of tiles can be checked in its own
process starting from the stored snapshot before it — which the run before
checks. Those runs go alongside the chain's stretches. Where the ledger's
snapshot key can be read, every snapshot's MAC must hold too (a query
ignores one whose MAC fails, and verify names it); where it cannot (a copy
without its secrets, a reader's role), or a snapshot is an older tally's
with no MAC, the snapshots are still held against the fold, and counted.
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
from ledger.errors import ChainBroken, CheckpointRefuted, SnapshotRefuted, SnapshotUnusable, TreeBroken, Unfoldable
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
    root: bytes = b""  # the Merkle tree's root over every event
    checkpoints: int = 0  # recorded checkpoints that hold
    witnesses: tuple = ()  # which witness has cosigned which size (projections/checkpoints.py seen())
    unsigned: int = 0  # snapshots an older tally wrote, with no MAC: never used, held against the fold all the same
    unkeyed: str = ""  # why the snapshots' MACs could not be checked here ("" where they were)


Tile = tuple  # (position, since, min_game_time, max_game_time)


def verify_database(store: Store, workers: Optional[int] = None) -> Verified:
    """The chain and the snapshots of the whole database, or ChainBroken at
    the first bad position, or SnapshotRefuted at the first snapshot that
    fails its checks or disagrees with the log (a broken chain first)."""
    from projections import checkpoints

    with store.reading() as tx:
        head = tx.head()[0]
        tiles = {name: [tuple(t[:4]) for t in tx.snapshot_tiles(name)] for name in tx.snapshotted()}
        recorded = checkpoints.read(tx)
    sizes = sorted({head} | {e.payload["size"] for e in (*recorded.checkpoints, *recorded.cosignatures)})
    workers = workers or min(os.cpu_count() or 1, 4)
    forks = workers >= 2 and "fork" in get_all_start_methods()
    split_chain = forks and head >= PARALLEL_FROM
    split_folds = forks and head >= FOLD_PARALLEL_FROM and any(tiles.values())
    if not (split_chain or split_folds):
        with store.reading() as tx, closing(tx.raw_rows()) as rows:
            count, last = verify_stored(rows)
        roots = _tree_in(store, head, sizes)
        with store.reading() as tx:
            outcomes = [_tiles_in(tx, name, every, 0, len(every)) for name, every in tiles.items()]
        return _verdict(count, last, tiles, outcomes, roots, recorded)
    bounds = [head * i // workers for i in range(workers + 1)] if split_chain else [0, head]
    stretches = list(zip(bounds, bounds[1:]))
    runs = _runs(tiles, workers * RUNS_PER_WORKER)
    with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("fork")) as pool:
        folds = [pool.submit(_run, store.url, name, tiles[name], first, last) for name, first, last in runs]
        chain = [pool.submit(_stretch, store.url, after, upto) for after, upto in stretches]
        grown = pool.submit(_tree, store.url, head, sizes)
        results = [f.result() for f in chain]
        outcomes = [f.result() for f in folds]
        roots = grown.result()
    prev, count = GENESIS, 0
    for (after, _), result in zip(stretches, results):
        if result[0] == "broken":
            raise ChainBroken(result[1], result[2])
        _, first_prev, n, last = result
        if first_prev != prev:
            raise ChainBroken(after + 1, "prev_hash does not match the hash of the event before it")
        count, prev = count + n, last
    return _verdict(count, prev, tiles, outcomes, roots, recorded)


def _verdict(count: int, head: str, tiles: dict, outcomes: list[tuple], roots, recorded) -> Verified:
    """The tree's, the checkpoints' and then the first snapshot problem (by
    campaign, then position), or the tally of what holds."""
    if roots[0] == "broken":
        raise TreeBroken(*roots[1:])
    roots = roots[1]
    held = _checkpoints_hold(recorded, roots)
    problems = sorted((name, position, problem) for name, position, problem, *_ in outcomes if problem)
    if problems:
        raise SnapshotRefuted(*problems[0])
    stale = sum(outcome[3] for outcome in outcomes)
    unsigned = sum(outcome[4] for outcome in outcomes)
    unkeyed = next((outcome[5] for outcome in outcomes if outcome[5]), "")
    return Verified(count, head, sum(map(len, tiles.values())) - stale, stale, roots[count], held,
                    tuple(recorded.seen()), unsigned, unkeyed)


def _tree_in(store: Store, head: int, sizes: list[int]) -> tuple:
    """("ok", {size: root}) for the tree recomputed from the events, or ("broken", level, index, problem)."""
    from ledger import tree

    with store.reading() as tx:
        try:
            levels = tree.check(tx.conn, head)
        except TreeBroken as broken:
            return ("broken", broken.level, broken.index, broken.problem)
    return ("ok", {size: levels.root(size) for size in sizes})


def _tree(url: str, head: int, sizes: list[int]) -> tuple:
    store = Store(url, create=False, check_schema=False)  # the parent checked it
    try:
        return _tree_in(store, head, sizes)
    finally:
        store.dispose()


def _checkpoints_hold(recorded, roots: dict[int, bytes]) -> int:
    """Every recorded checkpoint and cosignature: over the root of the log's
    first ``size`` events (events before it), signed by the key it names as
    its campaign recorded it before; CheckpointRefuted at the first that is not."""
    import base64

    from ledger import tlog

    for e in (*recorded.checkpoints, *recorded.cosignatures):
        p = e.payload
        signed = e.type == "checkpoint.signed"
        where = f"the {'checkpoint' if signed else 'cosignature'} recorded at event {e.position}"
        if not 0 < p["size"] < e.position or base64.b64encode(roots[p["size"]]).decode() != p["root"]:
            raise CheckpointRefuted(f"{where} names the tree of {p['size']} events with root {p['root']}, which is "
                                    "not the tree of the log's first events: the log was rewritten after it")
        name = p["origin"] if signed else p["witness"]
        keys = (recorded.log_verifiers if signed else recorded.witness_verifiers)(e.campaign, before=e.position)
        key = next((k for k in keys if (k.name, k.key_id.hex()) == (name, p["key_id"])), None)
        raw = base64.b64decode(p["signature"])
        if key is None or raw[:4] != key.key_id \
                or not key.verifies(tlog.body(p["origin"], p["size"], roots[p["size"]]), raw[4:]):
            raise CheckpointRefuted(f"{where} is not signed by the key it names ({name}, {p['key_id']}) as "
                                    f"campaign {e.campaign} recorded it before")
    return len(recorded.checkpoints)


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
    """(name, position, problem, stale count, unsigned count, why unkeyed) for
    the tiles[first:last]: the first that fails (position and problem), else
    None, how many are stale, how many carry no MAC, and why their MACs could
    not be checked here ("" if they were).

    The worlds at the last few tiles are kept, with the events after each: a
    tile whose events cannot be folded on the one before (a late fact, a void
    of an earlier event) is folded from one of those, and only past them is
    the database asked for an earlier snapshot."""
    from projections import replay
    from projections import snapshots
    from projections import world as world_model
    from projections.timeline import Point

    try:
        tx.snapshot_key()
        keyed = True
    except SnapshotUnusable:
        keyed = False
    unkeyed = ""  # why a snapshot's MAC could not be checked, once one was met
    if first == 0:
        since, last_day, world = 0, None, world_model.EMPTY
    else:  # the run before checks this one, its MAC too; if it fails, that run says so
        since, last_day = tiles[first - 1][0], tiles[first - 1][3]
        try:
            world = snapshots.load(*tx.snapshot(name, since, authenticate=False))
        except SnapshotUnusable:
            world = None
    recent = deque([(since, world, last_day, [])] if world is not None else [], maxlen=RECENT)
    stale = unsigned = 0
    for position, tile_since, min_day, max_day in tiles[first:last]:
        if tile_since != since:
            return name, position, f"does not follow the snapshot before it (it names {tile_since}, not {since})", \
                0, 0, unkeyed
        between = list(tx.read(name, after=since, upto=position, payload_if=replay.payload_needed))
        days = [e.game_time for e in between] + ([last_day] if last_day is not None else [])
        if (min_day, max_day) != (min((e.game_time for e in between), default=None), max(days, default=None)):
            return name, position, "names game days its events do not have", 0, 0, unkeyed
        try:
            world, following = None, between
            for base, base_world, base_day, before in reversed(recent):
                world = replay.carried(base_world, following, base, base_day)
                if world is not None:
                    break
                following = before + following
            if world is None:
                world = replay.world_at(tx, name, Point(), upto=position, below=position, use_snapshots=keyed)
        except Unfoldable as exc:  # a log that does not fold: an event acts on what is not there
            return name, position, f"cannot be checked: the log does not fold to it ({exc})", 0, 0, unkeyed
        try:
            try:
                state, signed = tx.snapshot(name, position), True
            except SnapshotUnusable as unusable:
                if unusable.kind not in ("unsigned", "unkeyed"):
                    raise
                # an older tally's, or no key here to check it with: held against the fold all the same
                state, signed = tx.snapshot(name, position, authenticate=False), unusable.kind == "unkeyed"
                if signed:
                    unkeyed = unusable.reason
            stored = snapshots.load(*state)
        except SnapshotUnusable as unusable:
            if not unusable.stale:
                return name, position, f"failed its check ({unusable.reason})", 0, 0, unkeyed
            stale += 1
        else:
            if stored != world:
                differs = next(f.name for f in fields(world) if getattr(stored, f.name) != getattr(world, f.name))
                return name, position, f"does not agree with the log (its {differs} differs from the fold)", \
                    0, 0, unkeyed
            unsigned += not signed
        recent.append((position, world, max_day, between))
        since, last_day = position, max_day
    return name, None, None, stale, unsigned, unkeyed


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


class Kept(NamedTuple):
    """A checkpoint a player kept, held against the log now."""

    source: str  # where it came from (a file name)
    origin: str
    size: int
    root: bytes
    key: str  # the log key that signed it (its verifier key)
    witnesses: tuple  # (name, POSIX time) of each cosignature by a recorded witness
    consistent: bool
    head: int  # the log's size now
    head_root: bytes
    proof: tuple  # the consistency proof from size to head (RFC 9162), when there is one
    problem: str  # why it is not consistent ("" when it is)
    double: Optional[int] = None  # the event recording a checkpoint of the same size signed with another root
    double_key: Optional[str] = None  # the key that signed that checkpoint, as name+keyid
    same_key: Optional[bool] = None  # whether the kept checkpoint's own key signed it (two histories, one key)

    @property
    def key_name(self) -> str:
        """The kept checkpoint's key as name+keyid (its verifier key without the public key)."""
        return "+".join(self.key.split("+", 2)[:2])  # a key's name has no "+"; its base64 may


def _double(recorded, kept_key) -> tuple[int, str, bool]:
    """The ledger's own checkpoint of a kept one's size with another root: its
    position, the key it names (verify_database has checked it signed it), and
    whether the kept checkpoint's key signed it too. Only then did one key sign
    two histories; a checkpoint signed by another key says the keys differ."""
    import base64
    import binascii

    from ledger import tlog

    p = recorded.payload
    try:
        raw = base64.b64decode(p["signature"], validate=True)
        root = base64.b64decode(p["root"], validate=True)
    except (binascii.Error, ValueError):
        raw, root = b"", b""
    same = raw[:4] == kept_key.key_id and p["origin"] == kept_key.name \
        and kept_key.verifies(tlog.body(p["origin"], p["size"], root), raw[4:])
    return recorded.position, f"{p['origin']}+{p['key_id']}", same


class Parting(NamedTuple):
    """Where the log and the kept checkpoints' history part: after ``after``
    events (the largest kept size that agrees; 0 if none) and at or before
    ``by`` (the smallest that does not)."""

    after: int
    by: int


def check_kept(store: Store, kept: list, keys: Optional[list] = None) -> tuple[list[Kept], Optional[Parting]]:
    """Each kept checkpoint (source, tlog.Checkpoint): signed by a log key —
    ``keys`` the player holds, else those the ledger records — and the log
    now its extension, by a consistency proof from the stored tree
    (ledger/tree.py, which ``verify_database`` checks against the events).
    A bad or unknown signature refuses outright (CheckpointRefuted); an
    inconsistent checkpoint is reported, with where the histories part."""
    import base64

    from ledger import merkle, tlog, tree
    from projections import checkpoints

    results = []
    with store.reading() as tx:
        head = tx.head()[0]
        recorded = checkpoints.read(tx, types=[checkpoints.KEYS, checkpoints.WITNESSES])
        trusted = keys if keys else recorded.log_verifiers()
        known_as = "--key" if keys else "this ledger"
        for source, checkpoint in kept:
            key = tlog.signed_by(checkpoint, trusted, source, known_as)
            cosigned = tuple((w.name, t) for w, t in tlog.cosigned_by(checkpoint, recorded.witness_verifiers(), source))
            head_root, proof, problem = tree.root(tx.conn, head), [], ""
            if checkpoint.size > head:
                problem = (f"the ledger holds {head} events, fewer than the {checkpoint.size} {source} signed: "
                           "events were taken out of it")
            elif checkpoint.size == 0:
                problem = "" if checkpoint.root == merkle.EMPTY_ROOT else f"{source} gives the empty tree a root"
            else:
                old_root, head_root, proof = tree.consistency(tx.conn, checkpoint.size, head)
                if not merkle.verify_consistency(checkpoint.size, head, checkpoint.root, head_root, proof):
                    problem = (f"the ledger's first {checkpoint.size} events are not those {source} signed (their "
                               f"root is {base64.b64encode(old_root).decode()}, the checkpoint's "
                               f"{checkpoint.root_b64})")
            double = next((e for e in checkpoints.read(tx, types=[checkpoints.SIGNED]).checkpoints
                           if e.payload["size"] == checkpoint.size and e.payload["origin"] == checkpoint.origin
                           and e.payload["root"] != checkpoint.root_b64), None) if problem else None
            results.append(Kept(source, checkpoint.origin, checkpoint.size, checkpoint.root, key.vkey, cosigned,
                                not problem, head, head_root, tuple(proof), problem,
                                *(_double(double, key) if double is not None else (None, None, None))))
    bad = [r.size for r in results if not r.consistent]
    if not bad:
        return results, None
    by = min(bad)
    return results, Parting(max((r.size for r in results if r.consistent and r.size < by), default=0), min(by, head))
