"""Writers racing on one campaign, the same cases on SQLite and PostgreSQL:
nothing lost, no decision taken against a state another writer had already
changed, the chain, the Merkle tree and the snapshots whole; and on
PostgreSQL, where a write transaction commits without waiting for its flush
while it holds the write lock, an append returns only once it is on disk."""

from __future__ import annotations

import subprocess
import sys

from projections.reading import query
from commands.economy import change_cash
from ledger.errors import RuleRefused
from bench.generator import NAME, generate
from ledger.store import Store
from commands.transfer import import_file
from projections.verification import verify_database

WRITER = """
import sys
from commands.economy import change_cash
from ledger.envelope import NewEvent
from ledger.errors import RuleRefused
from ledger.events.stable import CashChanged
from bench.generator import NAME
from ledger.store import Store

url, actor, tries = sys.argv[1], sys.argv[2], int(sys.argv[3])
store = Store(url, create=False)
with store.reading() as tx:
    day = tx.last_day(NAME, tx.head()[0])
taken = 0
for i in range(tries):
    try:  # decided against the state under the lock: never more than there is
        change_cash(store, NAME, "Hero 1", -1, why=f"{actor} takes {i}", actor=actor)
        taken += 1
    except RuleRefused:
        pass
    store.append(NAME, [NewEvent("character:hero-2", CashChanged(character="Hero 2", delta=1, why=f"{actor} {i}"),
                                 game_time=day)], actor=actor)
print(taken)
"""


def cash(store: Store, name: str) -> int:
    return query(store, NAME, lambda ctx: ctx.world.stable.character(name).cash)


def test_four_writers_take_exactly_what_there_is_and_lose_nothing(db_url, tmp_path):
    log = tmp_path / "campaign.jsonl"
    with log.open("w") as out:
        generate(out, events=1500, seed=3)
    store = Store(db_url)
    import_file(store, str(log))
    held = cash(store, "Hero 1")
    if held:  # start from a known purse: 30 Cash
        change_cash(store, NAME, "Hero 1", -held, why="emptied for the race", actor="test")
    change_cash(store, NAME, "Hero 1", 30, why="the purse", actor="test")
    hero_2, head = cash(store, "Hero 2"), store.read()[-1].position
    store.dispose()

    tries = 12  # four writers try to take 48 Cash from 30
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, db_url, f"w{n}", str(tries)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for n in range(4)]
    outcomes = [w.communicate(timeout=300) for w in writers]
    assert [w.returncode for w in writers] == [0, 0, 0, 0], [err[-500:] for _, err in outcomes]
    taken = [int(out) for out, _ in outcomes]

    store = Store(db_url)
    assert sum(taken) == 30 and cash(store, "Hero 1") == 0
    added = store.read(NAME, after=head)
    assert len(added) == 30 + 4 * tries
    assert cash(store, "Hero 2") == hero_2 + 4 * tries
    for n in range(4):  # each writer's appends, all of them, in the order it made them
        assert [e.payload["why"] for e in added if e.actor == f"w{n}" and e.payload["character"] == "Hero 2"] \
            == [f"w{n} {i}" for i in range(tries)]
    verified = verify_database(store)  # the chain, the tree recomputed, every snapshot
    assert verified.events == head + 30 + 4 * tries
    store.dispose()


def test_a_refused_decision_under_the_race_writes_nothing(db_url, tmp_path):
    log = tmp_path / "campaign.jsonl"
    with log.open("w") as out:
        generate(out, events=1000, seed=4)
    store = Store(db_url)
    import_file(store, str(log))
    head = store.read()[-1].position
    try:
        change_cash(store, NAME, "Hero 1", -(cash(store, "Hero 1") + 1), why="more than there is", actor="test")
        raise AssertionError("taking more Cash than there is was not refused")
    except RuleRefused as refused:
        assert "cannot take away" in str(refused)
    assert store.read()[-1].position == head
    store.dispose()


def test_an_append_on_postgresql_returns_only_once_its_commit_is_flushed(pg_server):
    # The write transaction commits with synchronous_commit off (the lock is released at
    # once); the store then waits for the flush. Without that wait the commit record would
    # sit in WAL buffers until the WAL writer's next round, well after the append returned.
    from ledger.envelope import NewEvent
    from ledger.events.campaign import SettingChanged

    store = Store(pg_server.new_database())
    for n in range(5):
        with store.transaction() as tx:
            tx.append("c", [NewEvent("s", SettingChanged(key="k", value=str(n), previous=""), 1)], actor="t")
            before_commit = tx.conn.exec_driver_sql("SELECT pg_current_wal_insert_lsn()").scalar()
            assert tx.conn.exec_driver_sql("SHOW synchronous_commit").scalar() == "off"
        with store.engine.connect() as conn:
            flushed = conn.exec_driver_sql("SELECT pg_current_wal_flush_lsn() - %s::pg_lsn",
                                           (before_commit,)).scalar()
            # and the session's own setting is back for everything else
            assert conn.exec_driver_sql("SHOW synchronous_commit").scalar() == "on"
        assert flushed > 0, f"append {n} returned before its commit was flushed"
    store.dispose()


def test_a_failed_write_transaction_on_postgresql_leaves_no_flush_owed(pg_server):
    store = Store(pg_server.new_database())
    try:
        with store.transaction():
            raise RuleRefused("refused after the lock was taken")
    except RuleRefused:
        pass
    with store.engine.connect() as conn:
        assert "tally_unflushed_commit" not in conn.connection.info
    store.dispose()
