"""The stored Merkle tree over the log (ledger/merkle.py for the hashing).

Its leaves are the events in position order: leaf i is SHA-256(0x00 || the
32 bytes of the hash of event i + 1). Its interior is the table
``merkle_nodes``: one row for every complete perfect subtree at level
STORED_FROM (16 leaves) or above. The levels below are not stored: a node
there covers at most 8 leaves, recomputed from the events' hashes when a
proof needs it. An append adds on average a sixteenth of a row: the new
leaves are folded onto the tree's right edge — the roots of the perfect
subtrees that make up the tree so far, one for each bit set in its size —
and the stored nodes they complete are written. (Storing every level cost
an append a row, and a page written, for nodes no proof reads often.) Any
hash a proof needs, at any size, is then one of at most a few dozen rows and
a few dozen event hashes, read in two queries.

The tree is derived data: ``check`` recomputes it from the events' hashes
(``tally verify``), ``build`` writes it from nothing (the migration and
``tally db tree --rebuild``).
"""

from __future__ import annotations

from hashlib import sha256
from typing import Iterable, Iterator, Optional, Sequence

from sqlalchemy.engine import Connection

from ledger import merkle
from ledger.errors import StoreError, TreeBroken
from ledger.merkle import Node
from ledger.cursors import driver_cursor as _cursor, stream_rows

_BATCH = 5000
# The lowest level of the interior kept in merkle_nodes (migration 0010 dropped the rows below).
STORED_FROM = 4
# A node already there can only be one left past the head by hand (it covers events not yet
# appended, so no proof has read it): the one the events make replaces it.
_INSERT = ("INSERT INTO merkle_nodes (level, idx, hash) VALUES (?, ?, ?) "
           "ON CONFLICT (level, idx) DO UPDATE SET hash = excluded.hash")


def _bytes(value) -> bytes:
    return bytes(value)  # psycopg gives memoryview for bytea


def _stored(nodes: list[tuple[int, int, bytes]]) -> list[tuple[int, int, bytes]]:
    """The nodes (level, idx, hash) of those just completed that merkle_nodes keeps."""
    return [node for node in nodes if node[0] >= STORED_FROM]


def _perfect(leaves: list[bytes]) -> bytes:
    """The hash of a perfect subtree from its leaves' hashes (a power of two of them)."""
    while len(leaves) > 1:
        leaves = [merkle.node_hash(leaves[i], leaves[i + 1]) for i in range(0, len(leaves), 2)]
    return leaves[0]


class Edge:
    """The tree's right edge at ``size``: (level, hash) of each perfect subtree
    that makes it up, largest first; ``last``, the hash of event ``size`` (the
    edge belongs to that chain: a kept edge is used only where it matches)."""

    def __init__(self, size: int, nodes: list[tuple[int, bytes]], last: Optional[str] = None) -> None:
        self.size, self.nodes, self.last = size, nodes, last

    def copy(self) -> "Edge":
        return Edge(self.size, list(self.nodes), self.last)

    def add(self, event_hash: str) -> list[tuple[int, int, bytes]]:
        """Fold one more leaf on; the interior nodes it completes (level, idx, hash)."""
        level, hashed, index = 0, merkle.leaf_hash(bytes.fromhex(event_hash)), self.size
        completed = []
        while self.nodes and self.nodes[-1][0] == level:
            hashed = merkle.node_hash(self.nodes.pop()[1], hashed)
            level, index = level + 1, index >> 1
            completed.append((level, index, hashed))
        self.nodes.append((level, hashed))
        self.size += 1
        self.last = event_hash
        return completed

    def extend(self, event_hashes: Sequence[str], lowest: int = 1) -> list[tuple[int, int, bytes]]:
        """Fold many leaves on at once; the interior nodes they complete from
        level ``lowest`` up. The same tree as ``add`` one by one, built a level
        at a time: the leaves' hashes, then each level's pairs, in list
        comprehensions rather than a loop per leaf, merkle.leaf_hash and
        node_hash written out (a call each was a third of the work; tests/
        test_tree.py holds the two ways to each other and to merkle's)."""
        fromhex = bytes.fromhex
        layer = [sha256(b"\x00" + fromhex(h)).digest() for h in event_hashes]
        start, level, kept, completed = self.size, 0, [], []
        while layer:
            if start & 1:  # the layer's first node is a right child: its sibling is on the edge
                layer.insert(0, self.nodes.pop()[1])
                start -= 1
            if len(layer) & 1:  # the last has no sibling yet: it stays on the edge
                kept.append((level, layer[-1]))
            joined = b"".join(layer)
            layer = [sha256(b"\x01" + joined[i:i + 64]).digest() for i in range(0, len(joined) - 63, 64)]
            start, level = start >> 1, level + 1
            if level >= lowest:
                completed += [(level, start + j, hashed) for j, hashed in enumerate(layer)]
        self.nodes += reversed(kept)
        self.size += len(event_hashes)
        if event_hashes:
            self.last = event_hashes[-1]
        return completed

    def root(self) -> bytes:
        return merkle.fold([h for _, h in self.nodes]) if self.nodes else merkle.EMPTY_ROOT


def edge_nodes(size: int) -> list[Node]:
    """The perfect subtrees that make up the tree of ``size`` leaves, largest first."""
    return merkle.cover(0, size)


def grow(conn: Connection, rows: Sequence[tuple], cached: Optional[Edge]) -> Edge:
    """After inserting stored rows (tuples in the events table's column order,
    consecutive positions): write the nodes they complete; the new right edge
    (the caller keeps it for its next insert). ``cached``: an edge kept from
    an earlier insert, used — and extended in place — if it is the edge of the
    tree these rows extend (its size theirs, its last hash the hash they chain
    on): one read of the stored edge fewer an append."""
    size = rows[0][0] - 1
    fits = cached is not None and cached.size == size and (size == 0 or cached.last == rows[0][12])
    edge = cached if fits else _edge(conn, size, rows[0][12])
    if edge is None:  # a damaged tree is derived data: rebuilt (these rows and all) rather than left to fail
        return _edge(conn, build(conn), rows[-1][13])
    if len(rows) < 4:  # a command's few events: one at a time costs less than a level at a time
        completed = _stored([node for row in rows for node in edge.add(row[13])])
    else:
        completed = edge.extend([row[13] for row in rows], STORED_FROM)
    if completed:
        _cursor(conn, _INSERT, completed, many=True).close()
    return edge


def _edge(conn: Connection, size: int, head_hash: str) -> Optional[Edge]:
    """The right edge of the stored tree of ``size`` leaves (None if a node of
    it is missing); the hash of event ``size`` is ``head_hash``."""
    wanted = edge_nodes(size)
    try:
        found = hashes(conn, wanted)
    except StoreError:
        return None
    return Edge(size, [(level, found[(level, index)]) for level, index in wanted], head_hash)


def _interior(conn: Connection, nodes: Sequence[Node]) -> dict[Node, bytes]:
    if not nodes:
        return {}
    where = " OR ".join(["(level = ? AND idx = ?)"] * len(nodes))
    cursor = _cursor(conn, f"SELECT level, idx, hash FROM merkle_nodes WHERE {where}",
                     [v for node in nodes for v in node])
    found = {(level, index): _bytes(hashed) for level, index, hashed in cursor.fetchall()}
    cursor.close()
    return found


def _low_leaves(conn: Connection, nodes: Iterable[Node]) -> dict[Node, bytes]:
    """The leaf hashes under nodes below STORED_FROM, from the events' hashes, in one read."""
    positions = sorted({leaf + 1 for level, index in nodes for leaf in range(index << level, (index + 1) << level)})
    if not positions:
        return {}
    cursor = _cursor(conn, f"SELECT position, hash FROM events WHERE position IN ({', '.join('?' * len(positions))})",
                     positions)
    found = {(0, position - 1): merkle.leaf_hash(bytes.fromhex(hashed)) for position, hashed in cursor.fetchall()}
    cursor.close()
    return found


def hashes(conn: Connection, nodes: Iterable[Node]) -> dict[Node, bytes]:
    """The hashes of perfect subtrees of the stored tree: those from level
    STORED_FROM up from merkle_nodes, the rest from the events' hashes;
    StoreError if one is missing."""
    nodes = set(nodes)
    low = [n for n in nodes if n[0] < STORED_FROM]
    found = _interior(conn, [n for n in nodes if n[0] >= STORED_FROM])
    leaves = _low_leaves(conn, low)
    for level, index in low:
        under = [leaves.get((0, leaf)) for leaf in range(index << level, (index + 1) << level)]
        if None not in under:
            found[(level, index)] = _perfect(under)
    missing = nodes - found.keys()
    if missing:
        level, index = min(missing)
        raise StoreError(f"the Merkle tree lacks the node at level {level}, index {index}: it is derived data; "
                         "run `tally db tree --rebuild`, then `tally verify`")
    return found


def range_hashes(conn: Connection, ranges: Sequence[merkle.Range]) -> list[bytes]:
    """The hash of each range of leaves (a proof's ranges), in one read of the stored tree."""
    found = hashes(conn, merkle.nodes_for(ranges))
    return merkle.range_hashes(ranges, found.__getitem__)


def root(conn: Connection, size: int) -> bytes:
    """The root of the tree of the first ``size`` events."""
    return range_hashes(conn, [(0, size)])[0] if size else merkle.EMPTY_ROOT


def inclusion(conn: Connection, index: int, size: int) -> tuple[bytes, list[bytes]]:
    """The root at ``size`` and the audit path of leaf ``index``, read together."""
    ranges = [(0, size), *merkle.inclusion_ranges(index, size)]
    root_hash, *path = range_hashes(conn, ranges)
    return root_hash, path


def consistency(conn: Connection, old: int, new: int) -> tuple[bytes, bytes, list[bytes]]:
    """The roots at ``old`` and ``new`` and the consistency proof between them, read together."""
    ranges = [(0, old), (0, new), *merkle.consistency_ranges(old, new)]
    old_root, new_root, *proof = range_hashes(conn, ranges)
    return old_root, new_root, proof


def _event_hashes(conn: Connection, upto: Optional[int] = None) -> Iterator[str]:
    if upto is None:
        rows = stream_rows(conn, "SELECT hash FROM events ORDER BY position")
    else:
        rows = stream_rows(conn, "SELECT hash FROM events WHERE position <= ? ORDER BY position", (upto,))
    for (hashed,) in rows:
        yield hashed


def build(conn: Connection, lowest: int = STORED_FROM) -> int:
    """Write the whole interior from the events' hashes (any old rows go first); the size.
    (``lowest``: the lowest level written; only migration 0010's downgrade asks for 1.)"""
    conn.exec_driver_sql("DELETE FROM merkle_nodes")
    edge, leaves = Edge(0, []), []
    for hashed in _event_hashes(conn):
        leaves.append(hashed)
        if len(leaves) >= _BATCH:
            _cursor(conn, _INSERT, edge.extend(leaves, lowest), many=True).close()
            leaves = []
    if leaves:
        _cursor(conn, _INSERT, edge.extend(leaves, lowest), many=True).close()
    return edge.size


class Levels:
    """Levels of the tree over leaves ``start`` onwards, in memory (32 bytes a
    node): what ``check`` recomputed, to answer roots at any size. ``start`` is
    a multiple of 2**``top`` and no level above ``top`` is built: a stretch of
    the leaves (projections/verification.py) builds its own levels up to ``top``,
    where every node lies wholly inside it, and the levels above are built
    from every stretch's top level."""

    def __init__(self, leaves: bytearray, start: int = 0, top: Optional[int] = None, base: int = 0) -> None:
        self.start, self.base, self.levels = start, base, [leaves]  # levels[0] is the tree's level ``base``
        while (top is None or len(self.levels) <= top) and len(self.levels[-1]) >= 64:
            below = self.levels[-1]
            # merkle.node_hash, without the call and the joining of the pair (the pair lies together)
            self.levels.append(bytearray(b"".join(
                sha256(b"\x01" + below[i:i + 64]).digest() for i in range(0, len(below) - 63, 64))))

    @property
    def size(self) -> int:
        return len(self.levels[0]) // 32

    def node(self, node: Node) -> bytes:
        level, index = node
        index -= self.start >> level
        return bytes(self.levels[level - self.base][32 * index:32 * index + 32])

    def span(self, level: int, low: int, high: int) -> bytes:
        """The hashes of nodes low..high-1 of a level, one after another."""
        low, high = low - (self.start >> level), high - (self.start >> level)
        return bytes(self.levels[level - self.base][32 * low:32 * high])

    def holds(self, node: Node) -> bool:
        level, index = node
        return 0 <= level - self.base < len(self.levels) \
            and 0 <= index - (self.start >> level) < len(self.levels[level - self.base]) // 32

    def root(self, size: int) -> bytes:
        return merkle.fold([self.node(n) for n in edge_nodes(size)]) if size else merkle.EMPTY_ROOT


def check(conn: Connection, upto: int) -> Levels:
    """Recompute the tree over events 1..upto from their hashes and compare
    every stored node with it; TreeBroken at the first that differs, is
    missing or should not be there (lowest level first)."""
    leaves = bytearray()
    for hashed in _event_hashes(conn, upto):
        leaves += merkle.leaf_hash(bytes.fromhex(hashed))
    check_stray(conn)
    levels = Levels(leaves)
    check_levels(conn, levels, 0, upto)
    return levels


def check_stray(conn: Connection) -> None:
    """TreeBroken for a stored node no tree has (a negative index) or the tree
    does not store (a leaf, or a level below STORED_FROM)."""
    cursor = _cursor(conn, "SELECT level, idx FROM merkle_nodes WHERE level < ? OR idx < 0 ORDER BY level, idx",
                     (STORED_FROM,))
    stray = cursor.fetchone()
    cursor.close()
    if stray is not None:
        level, index = stray
        raise TreeBroken(level, index, "should not be stored (the leaves are the events' own hashes)" if level < 1
                         else "should not be stored (no tree has such a node)" if index < 0
                         else "should not be stored (the levels below 16 leaves are recomputed from the events)")


def check_levels(conn: Connection, levels: Levels, after: int, upto: int, top: Optional[int] = None,
                 above: int = 0) -> None:
    """Compare the stored nodes at levels ``above`` + 1 to ``top`` (every level if None) that
    lie wholly within leaves [after, upto) with ``levels`` (built from those leaves, or, with
    ``above``, from the nodes at that level); TreeBroken at the first that differs or is
    missing, lowest level first. Nodes past ``upto`` are over events appended since.
    Nothing is stored below STORED_FROM (check_stray holds it so)."""
    level = max(above, STORED_FROM - 1)
    while top is None or level < top:
        level += 1
        low, high = after >> level, upto >> level
        if high <= low:
            return
        cursor = _cursor(conn, "SELECT idx, hash FROM merkle_nodes WHERE level = ? AND idx >= ? AND idx < ? "
                               "ORDER BY idx", (level, low, high))
        stored = cursor.fetchall()
        cursor.close()
        # The whole level compared at once; walked node by node only to name the first that fails.
        indexes, hashes = zip(*stored) if stored else ((), ())
        if indexes == tuple(range(low, high)) and levels.holds((level, high - 1)) \
                and set(map(len, hashes)) == {32} and b"".join(hashes) == levels.span(level, low, high):
            continue  # (each 32 bytes: two nodes cut otherwise could join to the right bytes)
        want = low
        for index, hashed in stored:
            if index != want:
                raise TreeBroken(level, want, "is missing")
            if not levels.holds((level, index)) or _bytes(hashed) != levels.node((level, index)):
                raise TreeBroken(level, index, "does not match the events' hashes")
            want += 1
        raise TreeBroken(level, want, "is missing")
