"""The Merkle tree of RFC 6962 / RFC 9162 (section 2.1), without storage:
its hashes, the shape of its proofs, and their verification.

A leaf's hash is SHA-256(0x00 || data) and an interior node's is
SHA-256(0x01 || left || right). The tree over n leaves splits at the largest
power of two below n, so every node is either a perfect subtree — ``(level,
index)``, the 2**level leaves from ``index << level`` — or a subtree on the
right edge whose hash folds the perfect subtrees that cover it. Proofs are
built here as lists of leaf ranges; whoever holds the nodes (ledger/tree.py)
hashes each range. The ledger's leaves are its events: the data of leaf i is
the 32 bytes of the hash of the event at position i + 1.
"""

from __future__ import annotations

import hashlib
from typing import Callable, Iterable, Sequence

Node = tuple[int, int]  # (level, index): the perfect subtree over leaves [index << level, (index + 1) << level)
Range = tuple[int, int]  # leaves [start, end)

EMPTY_ROOT = hashlib.sha256(b"").digest()


def leaf_hash(data: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def _split(size: int) -> int:
    """The largest power of two smaller than ``size`` (size >= 2)."""
    return 1 << ((size - 1).bit_length() - 1)


def cover(start: int, end: int) -> list[Node]:
    """The perfect subtrees, left to right, whose hashes make the hash of the
    leaves [start, end) as the tree's own recursion splits them. ``start`` is
    aligned as every range of a proof is: to a power of two at least end - start."""
    nodes = []
    while start < end:
        level = (end - start).bit_length() - 1
        nodes.append((level, start >> level))
        start += 1 << level
    return nodes


def fold(hashes: Sequence[bytes]) -> bytes:
    """The hash of a range from its cover's hashes: the right edge folds leftwards."""
    result = hashes[-1]
    for left in reversed(hashes[:-1]):
        result = node_hash(left, result)
    return result


def inclusion_ranges(index: int, size: int) -> list[Range]:
    """RFC 9162 2.1.3.1: the audit path of leaf ``index`` in the tree of
    ``size`` leaves, as ranges, from the leaf's sibling up to the root's child."""
    if not 0 <= index < size:
        raise ValueError(f"leaf {index} is not in a tree of {size}")
    path, start, end = [], 0, size
    while end - start > 1:
        half = _split(end - start)
        if index < start + half:
            path.append((start + half, end))
            end = start + half
        else:
            path.append((start, start + half))
            start += half
    return path[::-1]


def consistency_ranges(old: int, new: int) -> list[Range]:
    """RFC 9162 2.1.4.1: the consistency proof from the tree of ``old`` leaves
    to the tree of ``new``, as ranges (empty when the sizes are equal)."""
    if not 0 < old <= new:
        raise ValueError(f"no consistency proof from {old} to {new}")
    path, start, end, remaining, whole = [], 0, new, old, True
    while remaining != end - start:
        half = _split(end - start)
        if remaining <= half:
            path.append((start + half, end))
            end = start + half
        else:
            path.append((start, start + half))
            start, remaining, whole = start + half, remaining - half, False
    if not whole:  # the old tree is not a subtree of the new: its last piece is given too
        path.append((start, end))
    return path[::-1]


def range_hashes(ranges: Sequence[Range], node: Callable[[Node], bytes]) -> list[bytes]:
    """Each range's hash, from ``node``, which gives a perfect subtree's hash."""
    return [fold([node(n) for n in cover(*r)]) for r in ranges]


def nodes_for(ranges: Iterable[Range]) -> set[Node]:
    """Every perfect subtree the ranges' hashes need (to read them in one go)."""
    return {n for r in ranges for n in cover(*r)}


def _shift_until_odd(fn: int, sn: int) -> tuple[int, int]:
    while fn and not fn & 1:
        fn, sn = fn >> 1, sn >> 1
    return fn, sn


def verify_inclusion(index: int, size: int, leaf: bytes, proof: Sequence[bytes], root: bytes) -> bool:
    """RFC 9162 2.1.3.2: does ``proof`` show leaf hash ``leaf`` at ``index`` in the tree with ``root``?"""
    if not 0 <= index < size or len(leaf) != 32:
        return False
    fn, sn, result = index, size - 1, leaf
    for sibling in proof:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            result = node_hash(sibling, result)
            if not fn & 1:
                fn, sn = _shift_until_odd(fn, sn)
        else:
            result = node_hash(result, sibling)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and result == root


def verify_consistency(old: int, new: int, old_root: bytes, new_root: bytes, proof: Sequence[bytes]) -> bool:
    """RFC 9162 2.1.4.2: does ``proof`` show the tree of ``old`` leaves with
    ``old_root`` to be a prefix of the tree of ``new`` leaves with ``new_root``?"""
    if not 0 < old <= new:
        return False  # a proof from the empty tree proves nothing
    if old == new:
        return not proof and old_root == new_root
    if not proof:
        return False
    path = list(proof)
    if old & (old - 1) == 0:  # a power of two: the old tree is a node of the new one
        path.insert(0, old_root)
    fn, sn = old - 1, new - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    first = second = path[0]
    for node in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            first = node_hash(node, first)
            second = node_hash(node, second)
            if not fn & 1:
                fn, sn = _shift_until_odd(fn, sn)
        else:
            second = node_hash(second, node)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and first == old_root and second == new_root


def root_of(leaf_hashes: Sequence[bytes]) -> bytes:
    """The root of the tree over these leaf hashes, in memory (tests, small trees)."""
    if not leaf_hashes:
        return EMPTY_ROOT
    stack: list[tuple[int, bytes]] = []
    for leaf in leaf_hashes:
        level, hashed = 0, leaf
        while stack and stack[-1][0] == level:
            hashed = node_hash(stack.pop()[1], hashed)
            level += 1
        stack.append((level, hashed))
    return fold([h for _, h in stack])
