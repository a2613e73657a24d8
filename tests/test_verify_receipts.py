"""verify gives each snapshot it folded and found to agree a receipt (ledger/receipts.py), and
the next verify holds such a snapshot by its receipt instead of folding its stretch of the log
again — while its row is the one that verify saw. A snapshot changed since in any byte, a
receipt written without the key or for other read models, is folded again; --refold folds all.
The chain and the tree are checked from one reading of each stretch: a tampered node is named
wherever it lies, below a stretch's top level or above it."""

import base64
import hashlib

import pytest
import sqlalchemy as sa

from ledger import receipts
from ledger.errors import SnapshotRefuted, TreeBroken
from ledger.store import Store
from projections import verification
from tests.conftest import tamper
from tests.test_verification import forge_cash, rewrite_row, snapshotted_campaign


@pytest.fixture
def snapshotted(tmp_path, monkeypatch):
    """A generated campaign snapshotted every 50 events, split into stretches and runs."""
    url = snapshotted_campaign(tmp_path, monkeypatch)
    monkeypatch.setattr(verification, "PARALLEL_FROM", 100)
    return url


def positions(url):
    store = Store(url)
    with store.reading() as tx:
        found = [t.position for t in tx.snapshot_tiles(tx.snapshotted()[0])]
    store.dispose()
    return found


def verify(url, **options):
    store = Store(url)
    try:
        return verification.verify_database(store, receipts=True, **options)
    finally:
        store.dispose()


@pytest.mark.parametrize("workers", [1, 2])
def test_a_second_verify_holds_every_snapshot_by_its_receipt_with_the_same_verdict(snapshotted, workers):
    first = verify(snapshotted, workers=workers)
    assert first.receipted == 0 and first.snapshots == len(positions(snapshotted)) >= 60
    second = verify(snapshotted, workers=workers)
    assert second.receipted == second.snapshots == first.snapshots
    assert second._replace(receipted=0) == first
    assert verify(snapshotted, workers=workers, refold=True).receipted == 0


@pytest.mark.parametrize("which", [0, 17, -1])
def test_a_snapshot_forged_after_its_receipt_is_folded_again_and_named(snapshotted, which):
    """Sealed with the ledger's own key, so its MAC holds: only that its digest is no longer
    the one the receipt names sends it to the fold, which tells it from the truth."""
    verify(snapshotted, workers=2)
    where = positions(snapshotted)[which]
    forge_cash(snapshotted, where, 9999)
    for workers in (1, 2):
        with pytest.raises(SnapshotRefuted, match="its stable differs from the fold") as refuted:
            verify(snapshotted, workers=workers)
        assert refuted.value.position == where


def test_a_tile_moved_after_its_receipt_is_named(snapshotted):
    verify(snapshotted, workers=2)
    tile = positions(snapshotted)[20]
    store = Store(snapshotted)
    with store.reading() as tx:
        row = next(t for t in tx.snapshot_tiles(tx.snapshotted()[0]) if t.position == tile)
    store.dispose()
    rewrite_row(snapshotted, tile, max_game_time=row.max_game_time - 1)
    with pytest.raises(SnapshotRefuted, match="names game days its events do not have") as refuted:
        verify(snapshotted, workers=2)
    assert refuted.value.position == tile


def forge_receipts(url, key=None, stamp=None):
    """Receipts naming every snapshot row as it is now, under ``key`` (default: the ledger's own,
    a holder of its secrets) and for ``stamp`` (default: these read models and fold code)."""
    store = Store(url)
    with store.transaction() as tx:
        name = tx.snapshotted()[0]
        named = {t.position: t.digest for t in tx.snapshot_tiles(name)}
        receipts.write(tx, key or tx.snapshot_key(), stamp or verification._stamp(), tx.head()[0], {name: named})
    store.dispose()


def test_a_receipt_not_made_with_the_ledgers_key_is_not_believed(snapshotted):
    where = positions(snapshotted)[5]
    forge_cash(snapshotted, where, 9999)
    forge_receipts(snapshotted, key=hashlib.sha256(b"not the ledger's key").digest())
    with pytest.raises(SnapshotRefuted, match="its stable differs from the fold") as refuted:
        verify(snapshotted, workers=2)
    assert refuted.value.position == where


def test_a_receipt_made_for_other_read_models_or_fold_code_is_not_believed(snapshotted):
    where = positions(snapshotted)[5]
    forge_cash(snapshotted, where, 9999)
    forge_receipts(snapshotted, stamp="0123456789abcdef:fedcba9876543210")
    with pytest.raises(SnapshotRefuted, match="its stable differs from the fold"):
        verify(snapshotted, workers=1)


def test_a_receipt_row_changed_by_hand_is_not_believed(snapshotted):
    verify(snapshotted, workers=1)
    where = positions(snapshotted)[5]
    forge_cash(snapshotted, where, 9999)
    store = Store(snapshotted)
    with store.reading() as tx:
        digest = tx.conn.execute(sa.text("SELECT digest FROM snapshots WHERE position = :p"), {"p": where}).scalar()
    store.dispose()
    # The forged row's digest put into the receipts by hand (their MAC left as it was).
    forged = receipts._ENCODER.encode
    store = Store(snapshotted)
    with store.reading() as tx:
        row = tx.conn.execute(sa.text("SELECT data FROM kept_heads WHERE campaign = :c"), {"c": receipts.ROW}).one()
    store.dispose()
    import zlib

    stamp, held = receipts._DECODER.decode(zlib.decompress(row.data))
    held = {name: {**named, where: digest} for name, named in held.items()}
    tamper(snapshotted, f"UPDATE kept_heads SET data = X'{zlib.compress(forged((stamp, held))).hex()}' "
                        f"WHERE campaign = '{receipts.ROW}'")
    with pytest.raises(SnapshotRefuted, match="its stable differs from the fold") as refuted:
        verify(snapshotted, workers=1)
    assert refuted.value.position == where


def test_what_a_receipt_cannot_catch_refold_does(snapshotted):
    """A holder of the ledger's secrets who forges a snapshot and its receipt both is believed by
    default (the receipt says a verify folded that row); --refold folds every snapshot again."""
    where = positions(snapshotted)[5]
    forge_cash(snapshotted, where, 9999)
    forge_receipts(snapshotted)
    assert verify(snapshotted, workers=1).receipted == len(positions(snapshotted))
    with pytest.raises(SnapshotRefuted, match="its stable differs from the fold"):
        verify(snapshotted, workers=1, refold=True)


def test_a_receipted_snapshot_whose_blob_is_gone_fails_its_check(snapshotted, monkeypatch):
    from bench.generator import NAME
    from projections import replay, sessions

    monkeypatch.setattr(sessions, "ARCHIVE_EVERY", 2)  # sessions packed into archives: blobs the rows name
    store = Store(snapshotted)
    with store.transaction() as tx:
        tx.drop_snapshots()
        replay.build_snapshots(tx, NAME, every=50)
    store.dispose()
    verify(snapshotted, workers=1)
    store = Store(snapshotted)
    with store.reading() as tx:
        named = tx.conn.execute(sa.text("SELECT position, blobs FROM snapshots WHERE blobs != '[]' "
                                        "ORDER BY position")).first()
    store.dispose()
    assert named is not None, "the case needs a snapshot that holds a blob"
    tamper(snapshotted, "DELETE FROM snapshot_blobs")
    with pytest.raises(SnapshotRefuted, match="failed its check \\(blob .* is missing\\)") as refuted:
        verify(snapshotted, workers=1)
    assert refuted.value.position == named.position


@pytest.mark.parametrize("level, index", [(4, 0), (4, 90), (4, 140), (5, 33), (6, 20), (9, 4), (11, 0)])
@pytest.mark.parametrize("workers", [1, 2, 3])
def test_a_tampered_tree_node_is_named_below_or_above_a_stretchs_top(snapshotted, level, index, workers):
    """3,000 events in two or three stretches cut at blocks of 2**top events: a node within a
    stretch is checked there, one above every stretch's top level by the parent."""
    store = Store(snapshotted)
    top, bounds = verification._bounds(3000, workers)
    store.dispose()
    assert workers == 1 or level > top or (level, index) != (11, 0), "the cases should reach above the top"
    tamper(snapshotted, f"UPDATE merkle_nodes SET hash = X'{'00' * 32}' WHERE level = {level} AND idx = {index}")
    with pytest.raises(TreeBroken) as broken:
        verify(snapshotted, workers=workers)
    assert (broken.value.level, broken.value.index) == (level, index)
    assert "does not match the events' hashes" in str(broken.value)


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("sql, problem", [
    ("DELETE FROM merkle_nodes WHERE level = 4 AND idx = 150", "level 4, index 150 is missing"),
    (f"INSERT INTO merkle_nodes (level, idx, hash) VALUES (3, 200, X'{'00' * 32}')",
     r"level 3, index 200 should not be stored \(the levels below 16 leaves are recomputed"),
    (f"INSERT INTO merkle_nodes (level, idx, hash) VALUES (5, -1, X'{'00' * 32}')",
     r"level 5, index -1 should not be stored \(no tree has such a node\)"),
    (f"INSERT INTO merkle_nodes (level, idx, hash) VALUES (1, -1, X'{'00' * 32}')",
     r"level 1, index -1 should not be stored \(no tree has such a node\)"),
    (f"INSERT INTO merkle_nodes (level, idx, hash) VALUES (0, 5, X'{'00' * 32}')",
     "level 0, index 5 should not be stored"),
])
def test_a_missing_node_and_a_stray_one_are_named_in_stretches(snapshotted, workers, sql, problem):
    tamper(snapshotted, sql)
    with pytest.raises(TreeBroken, match=problem):
        verify(snapshotted, workers=workers)


def test_two_nodes_cut_to_join_to_the_right_bytes_are_named(snapshotted):
    """A level is compared in one comparison of its joined hashes: each node must be 32 bytes."""
    store = Store(snapshotted)
    with store.reading() as tx:
        a, b = [bytes(h) for h in tx.conn.execute(sa.text(
            "SELECT hash FROM merkle_nodes WHERE level = 4 AND idx IN (10, 11) ORDER BY idx")).scalars()]
    store.dispose()
    engine = sa.create_engine(snapshotted)  # the tree is derived data: no trigger guards it
    with engine.begin() as conn:
        for index, cut in ((10, a[:31]), (11, a[31:] + b)):
            conn.execute(sa.text("UPDATE merkle_nodes SET hash = :h WHERE level = 4 AND idx = :i"),
                         {"h": cut, "i": index})
    engine.dispose()
    with pytest.raises(TreeBroken, match="level 4, index 10 does not match"):
        verify(snapshotted, workers=2)


@pytest.mark.parametrize("workers", [2, 3])
def test_stretches_give_the_roots_one_pass_gives(snapshotted, workers):
    from ledger import tree

    store = Store(snapshotted)
    with store.reading() as tx:
        want = tree.root(tx.conn, tx.head()[0])
    store.dispose()
    assert verify(snapshotted, workers=workers).root == want == verify(snapshotted, workers=1).root
    assert base64.b64encode(want)


def test_verify_on_the_command_line_folds_only_what_it_has_not_folded(tally):
    """On both backends: the second verify holds the snapshots by their receipts; a forged one
    (sealed with the ledger's key) is folded again and named; --refold folds all."""
    from tests.test_snapshot_safety import CAMPAIGN, forged_cash, head, put_row, SEALED

    tally.ok("campaign", "new", CAMPAIGN, "--rules", "coeac", "--start", "1024-03-01")
    tally.ok("player", "add", "Ann")
    tally.ok("char", "new", "Nureddine", "--player", "Ann", "--class", "Warrior", "--max-hp", "6",
             "--wealth", "5", "--cash", "40")
    tally.ok("db", "snapshot")
    first = tally.ok("verify", "--json").json
    assert first["snapshots"] >= 1 and first["snapshots_by_receipt"] == 0
    again = tally.ok("verify")
    assert "folded by an earlier verify, their rows unchanged since" in again.stdout
    assert tally.ok("verify", "--json").json["snapshots_by_receipt"] == first["snapshots"]
    assert tally.ok("verify", "--refold", "--json").json["snapshots_by_receipt"] == 0

    position = head(tally.url)
    state, blobs = forged_cash(tally.url, position)
    put_row(tally.url, position, state, blobs=blobs, digest=SEALED)
    refused = tally("verify")
    assert refused.exit_code == 1 and "(its stable differs from the fold)" in refused.stderr


@pytest.mark.parametrize("workers", [1, 2])
def test_stretches_read_on_both_backends_name_a_tampered_node(campaign, monkeypatch, workers):
    """The stretches' own connections (a fork each), on SQLite and PostgreSQL: the same root as
    one pass, and a node changed by hand named."""
    from ledger import tree

    monkeypatch.setattr(verification, "PARALLEL_FROM", 10)
    for day in range(2, 36):
        campaign.ok("calendar", "advance", "1d", "--why", f"day {day}")
    store = Store(campaign.url)
    with store.reading() as tx:
        head = tx.head()[0]
        want = tree.root(tx.conn, head)
    assert head >= 32  # two nodes of the lowest stored level
    assert verification.verify_database(store, workers=workers).root == want
    engine = sa.create_engine(campaign.url)
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE merkle_nodes SET hash = :h WHERE level = 4 AND idx = 1"), {"h": b"\0" * 32})
    engine.dispose()
    with pytest.raises(TreeBroken, match="level 4, index 1 does not match"):
        verification.verify_database(store, workers=workers)
    store.dispose()


def test_a_verify_that_folds_nothing_new_writes_nothing(snapshotted, monkeypatch):
    verify(snapshotted, workers=1)

    def refused(*args, **kwargs):
        raise AssertionError("the receipts were written again")

    monkeypatch.setattr(receipts, "write", refused)
    assert verify(snapshotted, workers=1).receipted == len(positions(snapshotted))
    with pytest.raises(AssertionError, match="written again"):
        verify(snapshotted, workers=1, refold=True)
