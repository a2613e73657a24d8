"""Derived data for the whole ledger (commands/derived.py): a campaign's kept
histories folded in a process apart, while this one folds its snapshots, are
byte for byte those folded one after the other; histories folded from the
log as it stood before later appends are stored and caught up, and never
stored over newer ones."""

from __future__ import annotations

from concurrent.futures import Future
from pathlib import Path

import sqlalchemy as sa

from commands import derived
from ledger import kept_rows
from ledger.errors import StoreError
from ledger.schema import kept_heads, kept_steps, snapshots
from ledger.store import Store
from projections import kept

from tests.test_kept_histories import assert_same

FIXTURES = Path(__file__).parent.parent / "fixtures"
NAME = "Central Oregon"


def _derived(store: Store) -> dict[str, list]:
    """Every row of the snapshots and the kept histories, MACs included, in key order."""
    with store.reading() as tx:
        return {table.name: [tuple(row) for row in tx.conn.execute(
                    sa.select(table).where(table.c.campaign == NAME).order_by(*table.primary_key.columns))]
                for table in (snapshots, kept_steps, kept_heads)}


def _open_table(tally) -> Store:
    tally.ok("script", str(FIXTURES / "open-table.tally"), "--quiet")
    return Store(tally.url, create=False)


def test_histories_folded_apart_are_the_histories_folded_in_turn(tally):
    store = _open_table(tally)
    tally.ok("db", "snapshot", "--drop")
    in_turn = derived.build_all(store, apart_from=10**9)
    one_after_the_other = _derived(store)
    tally.ok("db", "snapshot", "--drop")
    assert _derived(store)["kept_steps"] == []
    apart = derived.build_all(store, apart_from=1, cores=2)
    assert apart == in_turn and in_turn[NAME]
    assert _derived(store) == one_after_the_other
    assert one_after_the_other["kept_steps"] and one_after_the_other["kept_heads"]
    # The process apart did the fold: what it sends back is what this process folds.
    with derived._folding_apart(store, [NAME], cores=2) as folding:
        made = folding[NAME].result()
    with store.reading() as tx:
        assert made == kept.built(tx, NAME)
        assert made[0].position == tx.campaign_head(NAME) and made[1]
    store.dispose()


def test_histories_folded_before_later_appends_are_stored_then_caught_up(tally):
    store = _open_table(tally)
    tally.ok("db", "snapshot")  # the derived-data key made, then the data dropped
    tally.ok("db", "snapshot", "--drop")
    with store.reading() as tx:
        made = kept.built(tx, NAME)
    assert made is not None
    # While they were folded apart, the table went on: an append, a fact logged late, a void.
    tally.ok("cash", "Dagny", "+2", "--why", "a finder's fee")
    tally.ok("cash", "Nureddine", "+3", "--why", "a debt repaid", "--game-date", "1024-03-10")
    late = tally.ok("log", "--type", "cash.changed", "--json").json[-1]["position"]
    tally.ok("void", str(late), "--why", "never happened")
    with store.transaction() as tx:
        kept.keep_built(tx, NAME, made)
        assert kept_heads_position(tx) == tx.campaign_head(NAME) > made[0].position
    assert_same(store)  # every story and chart as a fold from the start tells it
    # Histories folded from an older log never replace newer ones (marked, to tell them apart).
    before = _derived(store)
    head, rows = made
    marked = (head, {**rows, "character:marked": [(1, 1, kept.BORE, {}, None, None)]})
    with store.transaction() as tx:
        kept.keep_built(tx, NAME, marked)
    assert _derived(store) == before
    # Where the campaign has none, they are stored (and caught up).
    with store.transaction() as tx:
        kept_rows.drop(tx, NAME)
        kept.keep_built(tx, NAME, marked)
    assert "character:marked" in {row[1] for row in _derived(store)["kept_steps"]}
    store.dispose()


def kept_heads_position(tx) -> int:
    return tx.conn.execute(sa.select(kept_heads.c.position).where(kept_heads.c.campaign == NAME)).scalar_one()


def test_a_process_apart_that_failed_leaves_the_histories_to_this_one():
    failed = Future()
    failed.set_exception(StoreError("cannot use the database: the server went away"))
    assert derived._result(failed) is None
    assert derived._result(None) is None
    folded = Future()
    folded.set_result("histories")
    assert derived._result(folded) == "histories"
