"""The Merkle tree (RFC 6962 / RFC 9162 section 2.1): the reference vectors,
the verifiers against broken proofs, and pymerkle — an implementation of
its own — agreeing on roots and accepting our inclusion proofs."""

import json
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from ledger import merkle

VECTORS = json.loads((Path(__file__).parent.parent / "fixtures" / "vectors" / "merkle-rfc6962.json").read_text())
LEAVES = [merkle.leaf_hash(bytes.fromhex(data)) for data in VECTORS["leaves"]]


def _node(leaves):
    return lambda node: merkle.root_of(leaves[node[1] << node[0]:(node[1] + 1) << node[0]])


def _hashes(hexes):
    return [bytes.fromhex(h) for h in hexes]


def test_the_hashing_is_rfc_6962s():
    # RFC 6962 2.1: MTH({}) = SHA-256(), leaf = SHA-256(0x00 || d), node = SHA-256(0x01 || left || right)
    assert merkle.EMPTY_ROOT.hex() == VECTORS["empty_root"] == merkle.root_of([]).hex()
    assert merkle.leaf_hash(b"").hex() == VECTORS["roots"][0]
    assert merkle.node_hash(LEAVES[0], LEAVES[1]).hex() == VECTORS["roots"][1]


def test_roots_and_nodes_of_the_reference_tree():
    for size, root in enumerate(VECTORS["roots"], 1):
        assert merkle.root_of(LEAVES[:size]).hex() == root
    for level, row in enumerate(VECTORS["nodes"]):
        assert [_node(LEAVES)((level, i)).hex() for i in range(len(row))] == row


@pytest.mark.parametrize("case", VECTORS["inclusion"], ids=lambda c: f"{c['index']}-of-{c['size']}")
def test_inclusion_proofs_are_the_reference_ones_and_verify(case):
    index, size, proof = case["index"], case["size"], _hashes(case["proof"])
    assert merkle.range_hashes(merkle.inclusion_ranges(index, size), _node(LEAVES)) == proof
    assert merkle.verify_inclusion(index, size, LEAVES[index], proof, bytes.fromhex(VECTORS["roots"][size - 1]))


@pytest.mark.parametrize("case", VECTORS["consistency"], ids=lambda c: f"{c['old']}-to-{c['new']}")
def test_consistency_proofs_are_the_reference_ones_and_verify(case):
    old, new, proof = case["old"], case["new"], _hashes(case["proof"])
    assert merkle.range_hashes(merkle.consistency_ranges(old, new), _node(LEAVES)) == proof
    roots = _hashes(VECTORS["roots"])
    assert merkle.verify_consistency(old, new, roots[old - 1], roots[new - 1], proof)


def _broken_inclusions(index, size, leaf, proof, root):
    """The kinds of broken probe transparency-dev/merkle's test data holds (its
    cmd/proofgen). A size one larger is not among them: for many leaves the
    audit path has the same shape in both trees, and only the root tells them apart."""
    yield "random root", (index, size, leaf, proof, merkle.leaf_hash(b"other"))
    yield "empty root", (index, size, leaf, proof, merkle.EMPTY_ROOT)
    yield "wrong leaf", (index, size, merkle.leaf_hash(b"other"), proof, root)
    yield "a leaf that is no hash", (index, size, b"WrongLeaf", proof, root)
    yield "index + 1", (index + 1, size, leaf, proof, root)
    yield "index ^ 2", (index ^ 2, size, leaf, proof, root)
    if index:
        yield "index - 1", (index - 1, size, leaf, proof, root)
    yield "size * 2", (index, size * 2, leaf, proof, root)
    yield "size / 2", (index, size // 2, leaf, proof, root)
    yield "trailing garbage", (index, size, leaf, proof + [merkle.leaf_hash(b"x")], root)
    yield "preceding garbage", (index, size, leaf, [merkle.leaf_hash(b"x")] + proof, root)
    yield "root appended", (index, size, leaf, proof + [root], root)
    for i in range(len(proof)):
        flipped = bytearray(proof[i])
        flipped[0] ^= 16
        yield f"bit flipped in hash {i}", (index, size, leaf, proof[:i] + [bytes(flipped)] + proof[i + 1:], root)
    if proof:
        yield "truncated", (index, size, leaf, proof[:-1], root)


@pytest.mark.parametrize("case", VECTORS["inclusion"], ids=lambda c: f"{c['index']}-of-{c['size']}")
def test_broken_inclusion_proofs_are_refused(case):
    index, size, proof = case["index"], case["size"], _hashes(case["proof"])
    root = bytes.fromhex(VECTORS["roots"][size - 1])
    for what, args in _broken_inclusions(index, size, LEAVES[index], proof, root):
        assert not merkle.verify_inclusion(*args), what


@pytest.mark.parametrize("case", VECTORS["consistency"], ids=lambda c: f"{c['old']}-to-{c['new']}")
def test_broken_consistency_proofs_are_refused(case):
    old, new, proof = case["old"], case["new"], _hashes(case["proof"])
    roots = _hashes(VECTORS["roots"])
    first, second = roots[old - 1], roots[new - 1]
    broken = {"wrong root1": (old, new, b"WrongRoot", second, proof),
              "wrong root2": (old, new, first, b"WrongRoot", proof),
              "trailing garbage": (old, new, first, second, proof + [b""]),
              "trailing root1": (old, new, first, second, proof + [first]),
              "trailing root2": (old, new, first, second, proof + [second]),
              "preceding garbage": (old, new, first, second, [b""] + proof),
              "preceding root1": (old, new, first, second, [first] + proof),
              "preceding root2": (old, new, first, second, [second] + proof),
              "from the empty tree": (0, new, merkle.EMPTY_ROOT, second, proof)}
    if old != new:  # the probes of transparency-dev/merkle's cmd/proofgen
        broken.update({"swapped roots": (old, new, second, first, proof),
                       "sizes reversed": (new, old, second, first, proof),
                       "empty proof": (old, new, first, second, []),
                       "preceding proof @0": (old, new, first, second, [proof[0]] + proof),
                       "truncated proof": (old, new, first, second, proof[:-1]),
                       "size1 sub @1": (old - 1, new, first, second, proof),
                       "size1 plus @1": (old + 1, new, first, second, proof),
                       "size1 XOR @2": (old ^ 2, new, first, second, proof),
                       "size2 mul @2": (old, new * 2, first, second, proof),
                       "size2 div @2": (old, new // 2, first, second, proof)})
    for i in range(len(proof)):
        flipped = bytearray(proof[i])
        flipped[4] ^= 1
        broken[f"bit flipped in hash {i}"] = (old, new, first, second, proof[:i] + [bytes(flipped)] + proof[i + 1:])
    for what, args in broken.items():
        assert not merkle.verify_consistency(*args), what


def _pymerkle(leaf_data):
    from pymerkle import InmemoryTree

    tree = InmemoryTree(algorithm="sha256")  # its default security mode is RFC 6962's 0x00/0x01 prefixes
    for data in leaf_data:
        tree.append_entry(data)
    return tree


@settings(max_examples=40, deadline=None)
@given(st.lists(st.binary(max_size=8), min_size=1, max_size=70), st.data())
def test_pymerkle_computes_the_same_roots_and_accepts_our_proofs(leaf_data, data):
    from pymerkle import InclusionProof, verify_inclusion

    ours = [merkle.leaf_hash(d) for d in leaf_data]
    theirs = _pymerkle(leaf_data)
    size = data.draw(st.integers(1, len(leaf_data)))
    index = data.draw(st.integers(0, size - 1))
    root = merkle.root_of(ours[:size])
    assert theirs.get_root(size) == root
    path = merkle.range_hashes(merkle.inclusion_ranges(index, size), _node(ours))
    # pymerkle's inclusion proof is the leaf hash followed by the RFC 9162 audit path; the
    # parenthesisation ("rule") is its own, computed by pymerkle from the index and size.
    rule = theirs.prove_inclusion(index + 1, size).rule
    verify_inclusion(ours[index], root, InclusionProof("sha256", True, size, index + 1, rule, [ours[index], *path]))


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 300), st.data())
def test_every_consistency_proof_verifies_and_a_fork_is_refused(new, data):
    old = data.draw(st.integers(1, new))
    leaves = [merkle.leaf_hash(i.to_bytes(4, "big")) for i in range(new)]
    proof = merkle.range_hashes(merkle.consistency_ranges(old, new), _node(leaves))
    assert len(proof) <= 2 * new.bit_length()
    old_root, new_root = merkle.root_of(leaves[:old]), merkle.root_of(leaves)
    assert merkle.verify_consistency(old, new, old_root, new_root, proof)
    assert _pymerkle([i.to_bytes(4, "big") for i in range(new)]).get_root(old) == old_root
    changed = data.draw(st.integers(0, old - 1))  # a history that parts at or before the old size
    forked = leaves[:changed] + [merkle.leaf_hash(b"rewritten")] + leaves[changed + 1:]
    fork_proof = merkle.range_hashes(merkle.consistency_ranges(old, new), _node(forked))
    assert not merkle.verify_consistency(old, new, old_root, merkle.root_of(forked), fork_proof)


def test_an_inclusion_proof_at_a_million_leaves_has_twenty_hashes():
    assert max(len(merkle.inclusion_ranges(i, 1_000_000)) for i in (0, 1, 524_287, 999_999)) == 20
