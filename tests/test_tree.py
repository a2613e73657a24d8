"""The Merkle tree kept beside the log (ledger/tree.py): grown by every
append and import, rolled back with them, built for an existing ledger by
its migration, and checked (and rebuilt) as derived data. SQLite and PostgreSQL."""

import base64
import hashlib
import random

import pytest
import sqlalchemy as sa

from ledger import merkle, tree
from ledger.envelope import NewEvent
from ledger.errors import TreeBroken
from ledger.events.stable import CashChanged
from ledger.schema import SCHEMA_REVISION
from ledger.store import Store
from tests.conftest import Tally


def _leaves(store: Store) -> list[bytes]:
    with store.reading() as tx:
        return [merkle.leaf_hash(bytes.fromhex(row[13])) for row in tx.raw_rows()]


def _nodes(store: Store) -> int:
    with store.reading() as tx:
        return tx.conn.execute(sa.text("SELECT count(*) FROM merkle_nodes")).scalar()


def _append(store: Store, count: int) -> None:
    store.append("G", [NewEvent("character:bo", CashChanged(character="Bo", delta=1, why=f"fee {i}"), game_time=1)
                       for i in range(count)], actor="referee")


@pytest.fixture
def store(db_url):
    s = Store(db_url)
    yield s
    s.dispose()


def test_every_append_grows_the_tree_the_events_make(store):
    from pymerkle import InmemoryTree

    rng = random.Random(17)
    independent = InmemoryTree(algorithm="sha256")
    for _ in range(25):
        before = len(_leaves(store))
        _append(store, rng.choice([1, 1, 2, 3, 7]))
        leaves = _leaves(store)
        with store.reading() as tx:
            levels = tree.check(tx.conn, len(leaves))  # every stored node is the one the events make
            assert tree.root(tx.conn, len(leaves)) == merkle.root_of(leaves) == levels.root(len(leaves))
            for size in (1, before or 1, len(leaves)):
                assert tree.root(tx.conn, size) == merkle.root_of(leaves[:size])
    # pymerkle, fed the events' hashes as its leaves' data, agrees.
    for leaf in _leaves_data(store):
        independent.append_entry(leaf)
    with store.reading() as tx:
        assert tree.root(tx.conn, independent.get_size()) == independent.get_root()
    # One row per complete node of 16 leaves or more; the levels below are recomputed from the events.
    assert len(leaves) >= 1 << (tree.STORED_FROM + 1), "the case should complete nodes above the lowest stored level"
    assert _nodes(store) == sum(len(leaves) >> level for level in range(tree.STORED_FROM, 64))


def _leaves_data(store: Store) -> list[bytes]:
    with store.reading() as tx:
        return [bytes.fromhex(row[13]) for row in tx.raw_rows()]


def test_a_refused_transaction_keeps_no_node(store):
    _append(store, 5)
    before = _nodes(store)
    with pytest.raises(RuntimeError):
        with store.transaction() as tx:
            tx.append("G", [NewEvent("character:bo", CashChanged(character="Bo", delta=1, why="x"), game_time=1)] * 3,
                      actor="referee")
            raise RuntimeError("the command changed its mind")
    assert _nodes(store) == before
    _append(store, 3)
    with store.reading() as tx:
        tree.check(tx.conn, len(_leaves(store)))


def test_a_refused_script_keeps_no_node(db_url, tmp_path):
    t = Tally(db_url)
    t.ok("campaign", "new", "G", "--start", "1024-03-01")
    store = Store(db_url)
    before = _nodes(store)
    (tmp_path / "s.tally").write_text("player add Ann\nplayer add Bea\nplayer add Ann\n")
    t.refused("script", str(tmp_path / "s.tally"))
    assert _nodes(store) == before
    with store.reading() as tx:
        tree.check(tx.conn, tx.head()[0])
    store.dispose()


def test_an_import_grows_the_tree_of_the_whole_file(tmp_path, db_url):
    from tests.conftest import generated

    source = Store(generated(tmp_path, events=3000, seed=5))
    copy = Store(db_url)
    from commands.transfer import export, import_file

    export(source, str(tmp_path / "log.jsonl"))
    import_file(copy, str(tmp_path / "log.jsonl"), snapshots=False)
    leaves = _leaves(source)
    with source.reading() as a, copy.reading() as b:
        assert tree.check(b.conn, len(leaves)).root(len(leaves)) == tree.root(a.conn, len(leaves)) \
            == merkle.root_of(leaves)
    source.dispose()
    copy.dispose()


def _levels(db_url: str) -> dict[int, int]:
    engine = sa.create_engine(db_url)
    with engine.connect() as conn:
        found = dict(conn.execute(sa.text("SELECT level, count(*) FROM merkle_nodes GROUP BY level")).all())
    engine.dispose()
    return found


def _proofs(db_url: str, size: int) -> list:
    store = Store(db_url)
    with store.reading() as tx:
        found = [tree.inclusion(tx.conn, index, size) for index in (0, 5, 17, size - 1)]
        found += [tree.consistency(tx.conn, old, size) for old in (1, 7, 16, 33)]
    store.dispose()
    return found


def test_0010_drops_the_levels_below_16_leaves_and_the_roots_stay(db_url):
    """A ledger at 0009 kept every level of the interior; 0010 keeps those of 16 leaves or
    more: the same root, proofs and a tree verify holds, and appends go on from it."""
    from tests.test_migrations import _at_revision

    t = Tally(db_url)
    t.ok("campaign", "new", "G", "--start", "1024-03-01")
    for n in range(40):
        t.ok("player", "add", f"Player {n}")
    before = t.ok("db", "tree", "--json").json
    proofs = _proofs(db_url, before["size"])
    _at_revision(db_url, "0009")  # the downgrade builds every level, as 0009 kept them
    size = before["size"]
    assert _levels(db_url) == {level: size >> level for level in range(1, size.bit_length())}
    assert f"0009 -> {SCHEMA_REVISION}" in t.ok("db", "upgrade").stdout
    assert _levels(db_url) == {level: size >> level for level in range(tree.STORED_FROM, size.bit_length())}
    assert t.ok("db", "tree", "--json").json == before
    assert _proofs(db_url, size) == proofs
    assert before["root"] in t.ok("verify").stdout
    t.ok("player", "add", "Late")
    assert tree.STORED_FROM in _levels(db_url) and min(_levels(db_url)) == tree.STORED_FROM
    assert t.ok("verify", "--json").json["ok"] is True


def test_the_migration_builds_the_tree_of_an_existing_ledger(db_url):
    from tests.test_migrations import _at_revision

    t = Tally(db_url)
    t.ok("campaign", "new", "G", "--start", "1024-03-01")
    for name in ("Ann", "Bea", "Cy", "Di", "Ed"):
        t.ok("player", "add", name)
    expected = base64.b64encode(merkle.root_of(_leaves(Store(db_url)))).decode()
    _at_revision(db_url, "0005")
    engine = sa.create_engine(db_url)
    with engine.connect() as conn:
        assert not sa.inspect(conn).has_table("merkle_nodes")
    engine.dispose()
    assert f"0005 -> {SCHEMA_REVISION}" in t.ok("db", "upgrade").stdout  # 0006 builds the tree
    assert t.ok("db", "tree", "--json").json == {"size": 7, "root": expected, "rebuilt": False}
    assert expected in t.ok("verify").stdout


@pytest.mark.parametrize("damage, said", [
    ("DELETE FROM merkle_nodes WHERE level = 4 AND idx = 0", "level 4, index 0 is missing"),
    ("UPDATE merkle_nodes SET hash = :junk WHERE level = 4 AND idx = 0", "level 4, index 0 does not match"),
    ("INSERT INTO merkle_nodes (level, idx, hash) VALUES (0, 0, :junk)", "should not be stored (the leaves"),
    ("INSERT INTO merkle_nodes (level, idx, hash) VALUES (2, 1, :junk)",
     "level 2, index 1 should not be stored (the levels below 16 leaves are recomputed from the events)"),
])
def test_verify_finds_a_damaged_tree_and_db_tree_rebuilds_it(db_url, damage, said):
    t = Tally(db_url)
    t.ok("campaign", "new", "G", "--start", "1024-03-01")
    for n in range(18):
        t.ok("player", "add", f"Player {n}")
    tree_before = t.ok("db", "tree", "--json").json
    root, size = tree_before["root"], tree_before["size"]
    assert size >= 16, "the case needs a node of the lowest stored level"
    engine = sa.create_engine(db_url)
    with engine.begin() as conn:
        conn.execute(sa.text(damage), {"junk": b"\x00" * 32})
    engine.dispose()
    refused = t("verify", "--json")
    assert refused.exit_code == 1 and said in refused.stderr and "tally db tree --rebuild" in refused.stderr
    assert refused.json["ok"] is False and refused.json["chain_intact"] is True
    assert t.ok("db", "tree", "--rebuild", "--json").json == {"size": size, "root": root, "rebuilt": True}
    assert root in t.ok("verify").stdout


def test_a_node_left_past_the_head_is_inert_and_replaced(store):
    _append(store, 3)
    with store.transaction() as tx:
        tx.conn.execute(sa.text("INSERT INTO merkle_nodes (level, idx, hash) VALUES (4, 0, :junk)"),
                        {"junk": b"\x00" * 32})
    with store.reading() as tx:
        tree.check(tx.conn, 3)  # no proof of the first 3 events reads it
    _append(store, 13)  # completes the node of leaves 0-15
    with store.reading() as tx:
        tree.check(tx.conn, 16)
        assert bytes(tx.conn.execute(sa.text("SELECT hash FROM merkle_nodes WHERE level = 4")).scalar()) \
            == merkle.root_of(_leaves(store))


def test_an_append_over_a_damaged_edge_rebuilds_the_tree(store, db_url):
    _append(store, 20)  # the edge of 20 leaves: the nodes (4, 0), stored, and (2, 4), from the events
    with store.transaction() as tx:
        tx.conn.execute(sa.text("DELETE FROM merkle_nodes WHERE level = 4 AND idx = 0"))
    # The store that appended keeps the edge it grew (it does not read it again); another
    # process — a command — reads it, finds it damaged and rebuilds the tree.
    other = Store(db_url)
    _append(other, 1)
    other.dispose()
    with store.reading() as tx:
        tree.check(tx.conn, 21)
        assert tree.root(tx.conn, 21) == merkle.root_of(_leaves(store))
    with store.transaction() as tx:
        tx.conn.execute(sa.text("DELETE FROM merkle_nodes"))
    with store.reading() as tx, pytest.raises(Exception, match="tally db tree --rebuild"):
        tree.inclusion(tx.conn, 0, 21)
    with store.reading() as tx, pytest.raises(TreeBroken):
        tree.check(tx.conn, 21)


def test_a_store_extends_the_edge_it_kept_only_where_it_fits(store, db_url):
    # The edge a store keeps after its append is a hint: another writer's appends, or a
    # transaction rolled back after it grew, leave it behind, and the next append reads
    # the stored edge instead. Every stored node stays the one the events make.
    _append(store, 5)
    other = Store(db_url)
    _append(other, 3)  # the store's kept edge is now of 5 leaves; the ledger has 8
    _append(store, 2)
    with pytest.raises(RuntimeError):
        with store.transaction() as tx:
            _append_in(tx, 4)  # grows the kept edge to 14 leaves, then rolls back
            raise RuntimeError("changed its mind")
    _append(other, 4)  # the ledger is of 14 leaves again, the kept edge's size, but not its events
    _append(store, 7)
    other.dispose()
    with store.reading() as tx:
        size = tx.head()[0]
        assert size == 21
        assert tree.check(tx.conn, size).root(size) == merkle.root_of(_leaves(store))


def _append_in(tx, count: int) -> None:
    tx.append("G", [NewEvent("character:bo", CashChanged(character="Bo", delta=1, why=f"fee {i}"), game_time=1)
                    for i in range(count)], actor="referee")


def test_folding_leaves_on_in_batches_builds_the_tree_leaf_by_leaf_builds():
    # Edge.extend (appends, imports, the rebuild) against Edge.add, one leaf at a time, for
    # any sizes and any way of cutting the leaves into batches: the same nodes, the same edge.
    from hypothesis import given, settings, strategies as st

    from ledger.tree import Edge

    @settings(max_examples=200, deadline=None)
    @given(st.lists(st.integers(0, 40), min_size=1, max_size=12))
    def check(batches):
        one, many = Edge(0, []), Edge(0, [])
        by_one, by_many, leaf = set(), set(), 0
        for count in batches:
            hashes = [hashlib.sha256(str(leaf + i).encode()).hexdigest() for i in range(count)]
            leaf += count
            for hashed in hashes:
                by_one.update(one.add(hashed))
            by_many.update(many.extend(hashes))
            assert (many.size, many.nodes, many.root()) == (one.size, one.nodes, one.root())
        assert by_many == by_one

    check()
