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
stored node compared (ledger/tree.py), from the same reading of each
stretch: the stretches are cut at multiples of 2**top events, so each
builds and checks the levels up to ``top`` wholly inside it, and the levels
above are built from every stretch's top level. Then every checkpoint the
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

A snapshot an earlier verify folded is not folded again while its row is the
one that verify saw: `tally verify` gives every snapshot that agrees a
receipt (ledger/receipts.py) naming its row's MAC, and holds a receipted one
by every check a query makes of its row, its MAC the one the receipt names.
What that proves and does not is in the README (Snapshots); ``refold``
folds them all, as every verify did before.
"""

from __future__ import annotations

import os
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from contextlib import closing
from itertools import chain
from multiprocessing import get_all_start_methods, get_context
from types import ModuleType
from typing import NamedTuple, Optional

import sqlalchemy as sa

from ledger.chain import GENESIS, verify_stored
from ledger.errors import (ChainBroken, CheckpointRefuted, SnapshotRefuted, SnapshotUnusable, StoreError, TreeBroken,
                           Unfoldable)
from ledger.forks import die_with_parent
from ledger.schema import snapshot_blobs
from ledger.store import Store, Transaction

PARALLEL_FROM = 40_000  # events: below, a second process saves nothing on the chain (level at 20k; 1.6-1.9x faster at 100k)
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
    receipted: int = 0  # of the snapshots that agree, those held by an earlier verify's receipt, not folded now


Tile = tuple  # (position, since, min_game_time, max_game_time)


def verify_database(store: Store, workers: Optional[int] = None, *, receipts: bool = False,
                    refold: bool = False) -> Verified:
    """The chain, the tree, the recorded checkpoints and the snapshots of the
    whole database, or ChainBroken at the first bad position, TreeBroken at
    the first bad node, CheckpointRefuted, or SnapshotRefuted at the first
    snapshot that fails its checks or disagrees with the log (in that order).

    With ``receipts``, a snapshot an earlier verify folded and found to agree
    is not folded again while its row is the one that verify saw (its MAC
    holds, and names the same event hash, blobs and state: ledger/receipts.py),
    unless ``refold``; and the snapshots that agree now are given receipts,
    where the ledger's key can be read and the database written."""
    from ledger import receipts as kept_receipts
    from projections import checkpoints

    with store.reading() as tx:
        head = tx.head()[0]
        rows = {name: tx.snapshot_tiles(name) for name in tx.snapshotted()}
        recorded = checkpoints.read(tx)
        key = kept_receipts.key_for(tx) if receipts else None
        held = kept_receipts.read(tx, key, _stamp()) if key is not None and not refold else {}
    tiles = {name: [tuple(t[:4]) for t in every] for name, every in rows.items()}
    digests = {name: [t.digest for t in every] for name, every in rows.items()}
    covered = {name: [held.get(name, {}).get(t.position) == t.digest for t in every] for name, every in rows.items()}
    sizes = sorted({head} | {e.payload["size"] for e in (*recorded.checkpoints, *recorded.cosignatures)})
    wanted = sorted({node for size in sizes for node in tree_edge(size)})
    workers = workers or min(os.cpu_count() or 1, 4)
    forks = workers >= 2 and "fork" in get_all_start_methods()
    folded = sum(t[0] - t[1] for name, every in tiles.items() for t, done in zip(every, covered[name]) if not done)
    split_chain = forks and head >= PARALLEL_FROM
    split_folds = forks and folded >= FOLD_PARALLEL_FROM
    runs = _runs(tiles, covered, workers * RUNS_PER_WORKER if split_folds else 1)
    receipted = [(name, [i for i, done in enumerate(covered[name]) if done]) for name in tiles if any(covered[name])]
    if not (split_chain or split_folds):
        results = [_stretch_in(store, 0, head, None, wanted)]
        with store.reading() as tx:
            outcomes = [_tiles_in(tx, name, tiles[name], first, last) for name, first, last in runs]
            outcomes += [_covered_in(tx, name, tiles[name], indexes) for name, indexes in receipted]
        top, stretches = None, [(0, head)]
    else:
        top, bounds = _bounds(head, workers if split_chain else 1)
        stretches = list(zip(bounds, bounds[1:]))
        with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("fork"),
                                 initializer=die_with_parent, initargs=(os.getpid(),)) as pool:
            folds = [pool.submit(_run, store.url, name, tiles[name], first, last) for name, first, last in runs]
            folds += [pool.submit(_covered, store.url, name, tiles[name], indexes) for name, indexes in receipted]
            stretched = [pool.submit(_stretch, store.url, after, upto, top, wanted) for after, upto in stretches]
            results = [f.result() for f in stretched]
            outcomes = [f.result() for f in folds]
    count, prev = _chain_holds(stretches, results)
    roots = _roots(store, results, top, head, sizes)
    verified = _verdict(count, prev, tiles, outcomes, roots, recorded)
    if key is not None:
        _give_receipts(store, key, head, digests, tiles, outcomes, held)
    return verified


def tree_edge(size: int) -> list:
    from ledger import tree

    return tree.edge_nodes(size) if size else []


def _bounds(head: int, stretches: int) -> tuple[Optional[int], list[int]]:
    """Where the log is cut into stretches: at multiples of a block of 2**top events, so that
    every node of the tree up to level ``top`` lies wholly within one stretch; the levels
    above are built from each stretch's top level (None: one stretch builds every level)."""
    if stretches < 2:
        return None, [0, head]
    top = max(0, (head // (stretches * 8)).bit_length() - 1)  # about eight blocks a stretch
    block = 1 << top
    cuts = [0, *sorted({round(head * i / stretches / block) * block for i in range(1, stretches)}), head]
    return top, sorted({c for c in cuts if 0 <= c <= head})


def _chain_holds(stretches: list[tuple[int, int]], results: list[tuple]) -> tuple[int, str]:
    """Each stretch's chain, and each stretch's first prev_hash against the hash ending the one
    before it; ChainBroken at the first position that fails. (count, head hash)."""
    prev, count = GENESIS, 0
    for (after, _), result in zip(stretches, results):
        if result[0] == "broken":
            raise ChainBroken(result[1], result[2])
        first_prev, n, last = result[1:4]
        if first_prev != prev:
            raise ChainBroken(after + 1, "prev_hash does not match the hash of the event before it")
        count, prev = count + n, last
    return count, prev


def _roots(store: Store, results: list[tuple], top: Optional[int], head: int, sizes: list[int]) -> tuple:
    """("ok", {size: root}) for the tree recomputed from the events, or ("broken", level, index,
    problem) at its first stored node (lowest level first) that differs, is missing or should not
    be there."""
    from ledger import merkle, tree

    problems = [r[6] for r in results if r[6] is not None]
    found: dict = {}
    for r in results:
        found.update(r[5])
    if top is not None and not problems:
        upper = tree.Levels(bytearray(b"".join(r[4] for r in results)), 0, None, base=top)
        with store.reading() as tx:
            try:
                tree.check_levels(tx.conn, upper, 0, head, None, above=top)
            except TreeBroken as broken:
                problems.append((broken.level, broken.index, broken.problem))
        found.update({node: upper.node(node) for size in sizes for node in tree_edge(size) if upper.holds(node)})
    if problems:
        return ("broken", *min(problems))
    return ("ok", {size: merkle.fold([found[n] for n in tree_edge(size)]) if size else merkle.EMPTY_ROOT
                   for size in sizes})


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
                    tuple(recorded.seen()), unsigned, unkeyed, sum(outcome[7] for outcome in outcomes))


def _stamp() -> str:
    """What a receipt is made for: the read models' shape and the very code that folds them (a
    fold rule changed without a change of shape must fold every snapshot again)."""
    import hashlib
    import sys

    from projections import replay, snapshots
    from projections import world as world_model

    modules = {world_model.__name__, replay.__name__, snapshots.__name__}
    modules |= {m.__name__ for m in vars(world_model).values()
                if isinstance(m, ModuleType) and m.__name__.startswith(("projections.", "ledger."))}
    digest = hashlib.sha256()
    for name in sorted(modules):
        path = getattr(sys.modules[name], "__file__", None)
        digest.update(name.encode() + b"\0" + (open(path, "rb").read() if path else b"") + b"\0")
    return f"{snapshots.shape()}:{digest.hexdigest()[:16]}"


def _give_receipts(store: Store, key: bytes, head: int, digests: dict, tiles: dict, outcomes: list[tuple],
                   held: dict) -> None:
    """Receipts for the snapshots that agree now, their MACs checked (not a stale one, not one
    without a MAC), where this connection may write; else the next verify folds them again."""
    from ledger import receipts as kept_receipts

    agreed: dict[str, set] = {}
    for outcome in outcomes:
        agreed.setdefault(outcome[0], set()).update(outcome[6])
    given = {name: {t[0]: digest for t, digest in zip(tiles[name], digests[name]) if t[0] in agreed.get(name, ())}
             for name in tiles}
    given = {name: found for name, found in given.items() if found}
    if given == held:
        return  # nothing new folded: no write
    try:
        with store.transaction() as tx:
            kept_receipts.write(tx, key, _stamp(), head, given)
    except StoreError:
        pass  # a role that may not write: the next verify folds again


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


def _runs(tiles: dict[str, list[Tile]], covered: dict[str, list[bool]], pieces: int) -> list[tuple[str, int, int]]:
    """The tiles to fold — each campaign's not covered by a receipt, in runs of consecutive
    tiles — cut into about ``pieces`` runs in all, by events covered. A run starts from the
    stored snapshot before it, which the run before it (or its receipt) checks."""
    spans = []
    for name, every in tiles.items():
        first = None
        for i, done in enumerate([*covered[name], True]):
            if not done and first is None:
                first = i
            elif done and first is not None:
                spans.append((name, first, i))
                first = None
    size = {span: tiles[span[0]][span[2] - 1][0] - (tiles[span[0]][span[1] - 1][0] if span[1] else 0)
            for span in spans}
    total = sum(size.values()) or 1
    runs = []
    for span in spans:
        name, first, last = span
        share = max(1, min(last - first, round(pieces * size[span] / total)))
        cuts = sorted({first + (last - first) * i // share for i in range(share)} | {last})
        runs += [(name, a, b) for a, b in zip(cuts, cuts[1:])]
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
    agreed = []  # positions of those that agree, their MACs checked: what a receipt may be given for
    for position, tile_since, min_day, max_day in tiles[first:last]:
        if tile_since != since:
            return name, position, f"does not follow the snapshot before it (it names {tile_since}, not {since})", \
                0, 0, unkeyed, (), 0
        between = list(tx.read(name, after=since, upto=position, payload_if=replay.payload_needed))
        days = [e.game_time for e in between] + ([last_day] if last_day is not None else [])
        if (min_day, max_day) != (min((e.game_time for e in between), default=None), max(days, default=None)):
            return name, position, "names game days its events do not have", 0, 0, unkeyed, (), 0
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
            return name, position, f"cannot be checked: the log does not fold to it ({exc})", 0, 0, unkeyed, (), 0
        try:
            try:
                state, signed, checked = tx.snapshot(name, position), True, True
            except SnapshotUnusable as unusable:
                if unusable.kind not in ("unsigned", "unkeyed"):
                    raise
                # an older tally's, or no key here to check it with: held against the fold all the same
                state, signed = tx.snapshot(name, position, authenticate=False), unusable.kind == "unkeyed"
                checked = False
                if signed:
                    unkeyed = unusable.reason
            stored = snapshots.load(*state)
        except SnapshotUnusable as unusable:
            if not unusable.stale:
                return name, position, f"failed its check ({unusable.reason})", 0, 0, unkeyed, (), 0
            stale += 1
        else:
            if stored != world:
                differs = next(f for f in world.__struct_fields__ if getattr(stored, f) != getattr(world, f))
                return name, position, f"does not agree with the log (its {differs} differs from the fold)", \
                    0, 0, unkeyed, (), 0
            unsigned += not signed
            if checked:
                agreed.append(position)
        recent.append((position, world, max_day, between))
        since, last_day = position, max_day
    return name, None, None, stale, unsigned, unkeyed, agreed, 0


def _covered_in(tx: Transaction, name: str, tiles: list[Tile], indexes: list[int]) -> tuple:
    """As ``_tiles_in``, for tiles an earlier verify folded: each must still follow the one
    before it, and its row must pass every check a query makes of it (Transaction.snapshot's:
    its MAC, which covers its place in the tiling, the hash of its event, its blobs' names and
    its state; that hash the hash of the campaign's event at its position; its blobs there and
    matching their names) — so it is the row whose digest the receipt names, the very state
    that verify held against the fold. The rows are read in one query, each blob checked once."""
    import hashlib
    import json

    from ledger import snapshot_mac
    from ledger.cursors import stream_rows

    wanted = {tiles[i][0] for i in indexes}
    for i in indexes:
        position, since = tiles[i][:2]
        before = tiles[i - 1][0] if i else 0
        if since != before:
            return name, position, f"does not follow the snapshot before it (it names {since}, not {before})", \
                0, 0, "", (), 0
    try:
        key = tx.snapshot_key()
    except SnapshotUnusable as unusable:  # the receipts were read with it: gone since
        return name, min(wanted), f"failed its check ({unusable.reason})", 0, 0, "", (), 0
    blobs = {digest: bytes(data) for digest, data in tx.conn.execute(
        sa.select(snapshot_blobs.c.digest, snapshot_blobs.c.data).where(snapshot_blobs.c.campaign == name))}
    sound = {digest for digest, data in blobs.items() if hashlib.sha256(data).hexdigest() == digest}
    seen = set()
    for position, since, low, high, event_hash, digest, names, state, chained in stream_rows(
            tx.conn, "SELECT s.position, s.since, s.min_game_time, s.max_game_time, s.event_hash, s.digest, "
                     "s.blobs, s.state, e.hash FROM snapshots s LEFT JOIN events e ON e.position = s.position "
                     "AND e.campaign = s.campaign WHERE s.campaign = ? ORDER BY s.position", (name,)):
        if position not in wanted:
            continue
        seen.add(position)
        try:
            names = json.loads(names)
        except ValueError:
            names = None
        problem = None
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            problem = "its list of blobs is not readable"
        elif not snapshot_mac.signed(digest):
            problem = "it carries no MAC"
        elif not snapshot_mac.state_holds(key, digest, name, position, since=since, min_game_time=low,
                                          max_game_time=high, event_hash=event_hash, blobs=names,
                                          state=bytes(state)):
            problem = "its MAC does not hold"
        elif chained != event_hash:
            problem = f"its event hash is not the hash of event {position} of the campaign"
        else:
            missing = next((n for n in names if n not in blobs), None)
            wrong = next((n for n in names if n not in sound), None)
            problem = (f"blob {missing[:12]}… is missing" if missing is not None
                       else f"blob {wrong[:12]}… does not match its digest" if wrong is not None else None)
        if problem:
            return name, position, f"failed its check ({problem})", 0, 0, "", (), 0
    if seen != wanted:
        return name, min(wanted - seen), "failed its check (there is no such snapshot)", 0, 0, "", (), 0
    return name, None, None, 0, 0, "", sorted(wanted), len(wanted)


def _covered(url: str, name: str, tiles: list[Tile], indexes: list[int]) -> tuple:
    store = Store(url, create=False, check_schema=False)  # the parent checked it
    try:
        with store.reading() as tx:
            return _covered_in(tx, name, tiles, indexes)
    finally:
        store.dispose()


def _stretch_in(store: Store, after: int, upto: int, top: Optional[int], wanted: list) -> tuple:
    """Events after..upto read once: their chain checked, and from the same rows the tree's
    leaves, its levels up to ``top`` (every level if None) and the stored nodes over them
    (ledger/tree.py). ("broken", position, reason) for the chain, else ("ok", first
    prev_hash, count, last hash, the top level's hashes, the ``wanted`` nodes that lie here,
    the tree's first problem (level, index, problem) or None)."""
    from ledger import tree

    leaves = bytearray()
    with store.reading() as tx, closing(tx.raw_rows(after, upto)) as rows:
        first = next(rows, None)
        if first is None and upto > after:
            return ("broken", after + 1, f"position {after + 1} is missing")
        start = first[12] if first is not None else GENESIS  # an empty log: its tree must be empty too
        try:
            count, last = verify_stored(chain((first,), rows) if first is not None else (), start=after + 1,
                                        prev=start, leaves=leaves)
        except ChainBroken as broken:
            return ("broken", broken.position, broken.reason)
        if count != upto - after:
            return ("broken", after + count + 1, f"position {after + count + 1} is missing")
        levels = tree.Levels(leaves, after, top)
        problem = None
        try:
            if after == 0:
                tree.check_stray(tx.conn)
            tree.check_levels(tx.conn, levels, after, upto, top)
        except TreeBroken as broken:
            problem = (broken.level, broken.index, broken.problem)
    summit = bytes(levels.levels[top]) if top is not None and top < len(levels.levels) else b""
    return ("ok", start, count, last, summit, {n: levels.node(n) for n in wanted if levels.holds(n)}, problem)


def _stretch(url: str, after: int, upto: int, top: Optional[int], wanted: list) -> tuple:
    store = Store(url, create=False, check_schema=False)  # the parent checked it
    try:
        return _stretch_in(store, after, upto, top, wanted)
    finally:
        store.dispose()


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
