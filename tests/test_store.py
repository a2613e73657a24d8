"""The event store, the same cases on SQLite and PostgreSQL."""

from __future__ import annotations

import sqlite3
import subprocess
import sys

import pytest
import sqlalchemy as sa
from freezegun import freeze_time

from ledger.chain import GENESIS, verify_stored
from ledger.envelope import NewEvent, Pending
from ledger.errors import BadInput, ConcurrencyConflict, StoreError
from ledger.events.campaign import SettingChanged
from ledger.store import Store


def setting(key="purchase_rule", value="pool", previous="discount"):
    return SettingChanged(key=key, value=value, previous=previous)


@pytest.fixture
def store(db_url):
    store = Store(db_url)
    yield store
    store.dispose()


def verify(store):
    with store.reading() as tx:
        return verify_stored(tx.raw_rows())


def test_positions_are_global_gapless_and_start_at_one(store):
    store.append("a", [NewEvent("campaign", setting(), 10)], actor="ref")
    store.append("b", [NewEvent("campaign", setting(), 10), NewEvent("x", setting(), 11)], actor="ref")
    assert [e.position for e in store.read()] == [1, 2, 3]
    assert [e.version for e in store.read("b")] == [1, 1]


def test_each_event_links_to_the_hash_before_it(store):
    store.append("a", [NewEvent("s", setting(), 1), NewEvent("s", setting(), 2)], actor="ref")
    first, second = store.read()
    assert first.prev_hash == GENESIS and second.prev_hash == first.hash
    assert verify(store) == (2, second.hash)


def test_expected_version_mismatch_is_refused_and_writes_nothing(store):
    store.append("a", [NewEvent("s", setting(), 1)], actor="ref", expected={"s": 0})
    with pytest.raises(ConcurrencyConflict, match="is at version 1, not 0"):
        store.append("a", [NewEvent("s", setting(), 1)], actor="ref", expected={"s": 0})
    assert len(store.read()) == 1
    store.append("a", [NewEvent("s", setting(), 1)], actor="ref", expected={"s": 1})
    assert [e.version for e in store.read()] == [1, 2]


def test_a_failing_batch_writes_nothing(store):
    with pytest.raises(ConcurrencyConflict):
        with store.transaction() as tx:
            tx.append("a", [NewEvent("s", setting(), 1)], actor="ref")
            tx.append("a", [NewEvent("s", setting(value="x"), 1)], actor="ref", expected={"s": 0})
    assert store.read() == []


def test_cause_can_point_into_the_same_batch(store):
    first, second = store.append("a", [NewEvent("s", setting(), 1),
                                        NewEvent("s", setting(), 1, cause=Pending(0))], actor="ref")
    assert second.cause == first.position


def test_recorded_at_is_set_by_the_store_and_never_runs_backwards(db_url):
    with freeze_time("2026-11-01 20:00:00"):
        store = Store(db_url)
        (first,) = store.append("a", [NewEvent("s", setting(), 1)], actor="ref")
    assert first.recorded_at == "2026-11-01T20:00:00.000000Z"
    with freeze_time("2026-10-01 20:00:00"):  # a clock set wrong
        (second,) = store.append("a", [NewEvent("s", setting(), 1)], actor="ref")
    assert second.recorded_at == first.recorded_at
    store.dispose()


def test_canonical_json_refuses_floats():
    from ledger.chain import canonical_json

    with pytest.raises(BadInput, match="whole numbers"):
        canonical_json({"odds": [1, {"chance": 0.5}]})


def test_the_database_refuses_update_and_delete(store, db_url):
    store.append("a", [NewEvent("s", setting(), 1)], actor="ref")
    for statement in ("UPDATE events SET actor = 'mallory'", "DELETE FROM events"):
        with pytest.raises((sa.exc.IntegrityError, sa.exc.InternalError, sa.exc.DatabaseError),
                           match="append-only"):
            with store.engine.begin() as conn:
                conn.execute(sa.text(statement))
    assert [e.actor for e in store.read()] == ["ref"]


def test_the_secrets_are_append_only_too(store):
    with store.transaction() as tx:
        tx.put_secret("dice-seed", "a", "c0ffee", "ff")
    if store.engine.dialect.name == "sqlite":  # in their own file beside the database
        conn = sqlite3.connect(store.secrets.path)
        for statement in ("UPDATE ledger_secrets SET value = '00'", "DELETE FROM ledger_secrets"):
            with pytest.raises(sqlite3.DatabaseError, match="ledger_secrets is append-only"):
                conn.execute(statement)
        conn.close()
    else:
        for statement in ("UPDATE ledger_secrets SET value = '00'", "DELETE FROM ledger_secrets",
                          "TRUNCATE ledger_secrets"):
            with pytest.raises(sa.exc.DBAPIError, match="ledger_secrets is append-only"):
                with store.engine.begin() as conn:
                    conn.execute(sa.text(statement))
    with store.reading() as tx:
        assert tx.secret("dice-seed", "a", "c0ffee") == "ff"


def test_sqlite3_shell_update_fails_with_the_trigger_error(tmp_path):
    path = tmp_path / "t.db"
    store = Store(f"sqlite:///{path}")
    store.append("a", [NewEvent("s", setting(), 1)], actor="ref")
    store.dispose()
    conn = sqlite3.connect(path)
    with pytest.raises(sqlite3.DatabaseError, match="events is append-only: UPDATE refused"):
        conn.execute("UPDATE events SET payload = '{}'")
    with pytest.raises(sqlite3.DatabaseError, match="events is append-only: DELETE refused"):
        conn.execute("DELETE FROM events")
    conn.close()


def test_psql_update_and_delete_fail_with_the_trigger_error(pg_server):
    url = pg_server.new_database()
    store = Store(url)
    store.append("a", [NewEvent("s", setting(), 1)], actor="ref")
    store.dispose()
    for sql, verb in (("UPDATE events SET actor = 'x'", "UPDATE"), ("DELETE FROM events", "DELETE"),
                      ("TRUNCATE events", "TRUNCATE")):
        result = pg_server.psql(url, sql)
        assert result.returncode != 0
        assert f"events is append-only: {verb} refused" in result.stderr


def test_read_filters(store):
    store.append("a", [NewEvent("s", setting(), 1), NewEvent("t", setting(), 2, session=3)], actor="ref")
    store.append("b", [NewEvent("s", setting(), 1)], actor="ref")
    assert [e.position for e in store.read("a", stream="t")] == [2]
    assert [e.position for e in store.read("a", session=3)] == [2]
    assert [e.position for e in store.read(after=1)] == [2, 3]
    assert [e.position for e in store.read(upto=2)] == [1, 2]


WRITER = r"""
import sys
from ledger.envelope import NewEvent
from ledger.events.campaign import SettingChanged
from ledger.store import Store
store = Store(sys.argv[1])
for i in range(int(sys.argv[3])):
    with store.transaction() as tx:
        version = tx.stream_version("c", "shared")
        tx.append("c", [NewEvent("shared", SettingChanged(key=sys.argv[2], value=str(i), previous=""), 1)],
                  actor=sys.argv[2], expected={"shared": version})
"""


def test_concurrent_writers_lose_nothing_and_keep_the_chain(db_url):
    Store(db_url).dispose()  # create and migrate once, before the race
    per_writer = 60
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, db_url, f"w{n}", str(per_writer)])
               for n in range(4)]
    assert [w.wait(timeout=240) for w in writers] == [0, 0, 0, 0]
    store = Store(db_url)
    events = store.read()
    assert len(events) == 4 * per_writer
    assert sorted(e.version for e in events) == list(range(1, 4 * per_writer + 1))
    for n in range(4):
        assert [e.payload["value"] for e in events if e.actor == f"w{n}"] == [str(i) for i in range(per_writer)]
    assert verify(store)[0] == 4 * per_writer
    store.dispose()


def test_an_unreadable_url_is_a_one_line_refusal():
    with pytest.raises(StoreError, match="cannot read the database URL"):
        Store("postgresql+psycopg://u@h:notaport/db")
    with pytest.raises(StoreError, match="cannot use the database .*Connection refused"):
        Store("postgresql+psycopg://tally@127.0.0.1:1/x")
    with pytest.raises(StoreError, match="cannot use database URL"):
        Store("nosuchdb://x/y")


def test_a_missing_file_is_not_created_by_a_read(tmp_path):
    path = tmp_path / "missing.db"
    with pytest.raises(StoreError, match="no ledger at"):
        Store(f"sqlite:///{path}", create=False)
    assert not path.exists()


def test_sqlite_runs_in_wal_mode_with_full_sync(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'w.db'}")
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
    store.dispose()


def test_threads_appending_through_one_store_lose_nothing(store):
    # The store keeps one write connection between transactions (ledger/store.py _writer):
    # while one thread's transaction holds it, another's takes a fresh one and waits for the
    # database's write lock. Every append lands, once, on one valid chain.
    import threading

    def write(thread: int) -> None:
        for i in range(15):
            store.append("a", [NewEvent(f"stream-{thread}", setting(value=f"v{i}"), 10)], actor=f"t{thread}")

    threads = [threading.Thread(target=write, args=(n,)) for n in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert verify(store) == (45, store.read()[-1].hash)
    assert {s: [e.version for e in store.read("a", stream=s)] for s in ("stream-0", "stream-1", "stream-2")} \
        == {f"stream-{n}": list(range(1, 16)) for n in range(3)}


def test_dispose_closes_the_kept_write_connection(tmp_path):
    # SQLite removes a file's write-ahead log when its last connection closes: a write
    # connection the store kept open past dispose() would leave it.
    path = tmp_path / "kept.db"
    store = Store(f"sqlite:///{path}")
    store.append("a", [NewEvent("campaign", setting(), 10)], actor="ref")
    assert (tmp_path / "kept.db-wal").exists()
    store.dispose()
    assert not (tmp_path / "kept.db-wal").exists()


def _end_connections(url: str, *, refuse_new: bool = False, allow_again: bool = False) -> int:
    """As an administrator would (or a restart): end every other connection to the database
    ``url`` names; with ``refuse_new``, let no new one in until ``allow_again``. How many ended."""
    import psycopg

    admin = sa.engine.make_url(url)
    with psycopg.connect(host=admin.host, port=admin.port, user=admin.username, dbname="postgres",
                         autocommit=True) as conn:
        if refuse_new or allow_again:
            conn.execute(f'ALTER DATABASE "{admin.database}" ALLOW_CONNECTIONS {"false" if refuse_new else "true"}')
        if allow_again:
            return 0
        return conn.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                            "WHERE datname = %s", (admin.database,)).fetchone()[0]


def test_a_kept_write_connection_the_server_dropped_is_replaced(pg_server):
    # A long-lived store (tally serve, the scheduler) keeps its write connection between
    # appends. When the server ends it (a restart, an administrator), the append that finds
    # it gone begins again on a new connection: the lock's statement, the first, is where the
    # loss shows, before anything is written, so nothing is written twice.
    url = pg_server.new_database()
    store = Store(url)
    store.append("a", [NewEvent("campaign", setting(), 10)], actor="ref")
    assert _end_connections(url) >= 1
    store.append("a", [NewEvent("campaign", setting(value="v2"), 10)], actor="ref")
    store.append("a", [NewEvent("campaign", setting(value="v3"), 10)], actor="ref")
    assert [e.payload["value"] for e in store.read("a")] == ["pool", "v2", "v3"]
    assert [e.position for e in store.read("a")] == [1, 2, 3]
    assert verify(store) == (3, store.read()[-1].hash)
    store.dispose()


def test_a_pooled_reading_connection_the_server_dropped_is_replaced(pg_server):
    # The pool keeps readers' connections too: a page of tally serve after a restart reads on.
    url = pg_server.new_database()
    store = Store(url)
    store.append("a", [NewEvent("campaign", setting(), 10)], actor="ref")
    assert [e.payload["value"] for e in store.read("a")] == ["pool"]  # a connection back in the pool
    assert store.engine.pool.checkedin() >= 1
    assert _end_connections(url) >= 1
    assert [e.payload["value"] for e in store.read("a")] == ["pool"]
    with store.batch():  # a batch's one connection, found dropped at its lock, begun again too
        store.append("a", [NewEvent("campaign", setting(value="v2"), 10)], actor="ref")
    assert [e.payload["value"] for e in store.read("a")] == ["pool", "v2"]
    store.dispose()


def test_a_server_that_takes_no_connection_refuses_the_append_in_one_line(pg_server):
    # Begun again once, not for ever: when the new connection cannot be had either, the
    # append is refused in one line, nothing written, and the next one after works.
    url = pg_server.new_database()
    store = Store(url)
    store.append("a", [NewEvent("campaign", setting(), 10)], actor="ref")
    try:
        assert _end_connections(url, refuse_new=True) >= 1
        with pytest.raises(StoreError) as refused:
            store.append("a", [NewEvent("campaign", setting(value="v2"), 10)], actor="ref")
        assert "\n" not in str(refused.value) and "not currently accepting connections" in str(refused.value)
        with pytest.raises(StoreError) as unread:
            store.read("a")
        assert "\n" not in str(unread.value)
    finally:
        _end_connections(url, allow_again=True)
    store.append("a", [NewEvent("campaign", setting(value="v3"), 10)], actor="ref")
    assert [e.payload["value"] for e in store.read("a")] == ["pool", "v3"]
    assert verify(store) == (2, store.read()[-1].hash)
    store.dispose()
