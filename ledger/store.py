"""The event store on SQLAlchemy Core: append-only, hash-chained, one
global gapless position per database.

Writers are serialised (SQLite ``BEGIN IMMEDIATE``; on PostgreSQL the row
of ``ledger_write_lock`` locked FOR UPDATE, which a reader's role may not),
so a command can read the state, decide and append in one transaction, and
two processes never interleave positions.
Appends still name the stream versions they expect, so a caller that read
outside the transaction is refused rather than silently overtaken. On
PostgreSQL the lock is not held through the commit's flush; the append
waits for the flush after releasing it (``_flushed``).
"""

from __future__ import annotations

import sqlite3
import threading
import weakref
from contextlib import contextmanager, suppress
from typing import Callable, Iterable, Iterator, Mapping, Optional, Sequence

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ledger import pgroles
from ledger import secrets as ledger_secrets
from ledger.chain import GENESIS, canonical_json, fields_hash
from ledger.clock import format_instant, utc_now
from ledger.cursors import driver_cursor, stream_rows
from ledger.engines import describe, driver_message, make_engine, migrations_folder, not_a_database, sqlite_tables
from ledger.envelope import Envelope, NewEvent, Pending
from ledger.errors import ConcurrencyConflict, StoreError
from ledger.snapshot_rows import SnapshotRows
from ledger.stored_rows import envelope_from_row
from ledger.tree import grow
from ledger.schema import SCHEMA_REVISION, events

# One writer at a time per database: the lock row's FOR UPDATE needs the UPDATE privilege,
# which only writers have (ledger/pgroles.py); an advisory lock any reader could take and hold.
# The commit will not wait for its flush while it holds the lock (_flushed): set in the same round trip.
_PG_WRITE_LOCK = "SELECT set_config('synchronous_commit', 'off', true) FROM ledger_write_lock FOR UPDATE"
_COLUMNS = [c.name for c in events.columns]
_SELECT = f"SELECT {', '.join(_COLUMNS)} FROM events"
_VERSION = "SELECT coalesce(max(version), 0) FROM events WHERE campaign = ? AND stream = ?"  # a stream's version
_TYPE_NAMES: dict[type, str] = {}


def _type_name(kind) -> str:
    """An event model's dotted type (asked of the model once: every append asks)."""
    name = _TYPE_NAMES.get(kind)
    if name is None:
        name = _TYPE_NAMES[kind] = kind.type_name()
    return name


# PostgreSQL: set on a connection whose write transaction commits without
# waiting for its WAL flush (_flushed).
_UNFLUSHED = "tally_unflushed_commit"


def _dropped(conn: Connection, exc: BaseException) -> bool:
    """Whether ``exc`` says the PostgreSQL server ended the connection (a file does not)."""
    if conn.dialect.name != "postgresql":
        return False
    if isinstance(exc, sa.exc.DBAPIError):  # a statement through the SQL layer, which looked
        return exc.connection_invalidated
    driver = conn.connection.dbapi_connection if not conn.invalidated else None
    return isinstance(exc, conn.dialect.dbapi.Error) and (driver is None or conn.dialect.is_disconnect(exc, driver, None))


def _read_only(conn: Connection) -> None:
    """A reading's connection on PostgreSQL, until it goes back to the pool: one snapshot, no writes."""
    if conn.dialect.name == "postgresql":
        conn.execution_options(isolation_level="REPEATABLE READ", postgresql_readonly=True)


def _snapshot_taken(conn: Connection) -> None:
    """A reading's first statement, which pins its snapshot (SQLite takes it at the first read)."""
    driver_cursor(conn, "PRAGMA schema_version" if conn.dialect.name == "sqlite" else "SELECT 1").close()


def _flushed(conn: Connection) -> None:
    """After a PostgreSQL write transaction has committed: wait until its
    commit is on disk.

    Writers serialise on a row lock (_lock), which PostgreSQL releases only
    after the commit's WAL flush, so the next writer waited a whole flush
    (about a millisecond with fsync on) behind each one and four writers
    were slower than one. A write transaction therefore commits
    with synchronous_commit off, releasing the lock at once, and then — the
    lock released, before the append returns — commits one small transaction
    that writes a WAL record (a logical message, which needs no table and no
    privilege) with the session's own synchronous_commit: its flush covers
    every WAL record before it, our commit's included, and the flushes of
    writers waiting at once are one flush (PostgreSQL's group commit).

    So an append returns only once it is durable, as before. The chain is
    safe in a crash: WAL is replayed in order, so a later event that chained
    on an unflushed one is lost with it, never kept without it; what a crash
    can lose is only appends whose callers had not yet been told they were
    recorded (which a reader may have seen meanwhile)."""
    if not conn.info.pop(_UNFLUSHED, False):
        return
    driver = conn.connection.driver_connection
    driver.autocommit = True  # one statement, its own transaction: one round trip
    try:
        driver.execute("SELECT pg_logical_emit_message(true, 'tally', 'flush')").close()
    finally:
        driver.autocommit = False


def _release(held: list) -> None:
    """Give a store's held write connection back to its pool."""
    conn, held[0] = held[0], None
    if conn is not None and not conn.closed:
        conn.close()


class Store:
    """One database of campaigns."""

    def __init__(self, url: str, *, create: bool = True,
                 clock: Callable = utc_now, check_schema: bool = True) -> None:
        self.url = url
        self.clock = clock
        self.notes: list = []  # what the read path noticed on the way (an ignored snapshot): the CLI prints them
        # The Merkle tree's right edge after this store's last append (ledger/tree.py grow): the
        # next append extends it instead of reading it, if the head it finds is the edge's own.
        self._edges: list = [None]
        self._held: list = [None]  # the write connection (_writer), closed by dispose() or when the store goes
        self._write_mutex = threading.Lock()
        weakref.finalize(self, _release, self._held)
        self.engine = make_engine(url, create=create)
        self.secrets = ledger_secrets.for_database(
            self.engine.dialect.name,
            self.engine.url.database if self.engine.dialect.name == "sqlite" else describe(url))
        if check_schema:
            self._check_schema(create)

    # -- schema ---------------------------------------------------------
    def _check_schema(self, create: bool) -> None:
        tables = self.refuse_foreign()
        revision = self._revision() if "alembic_version" in tables else None
        if revision is None and create:
            self.upgrade()
        elif revision is None:
            raise StoreError(
                f"{describe(self.url)} holds no tally ledger: point --db at a ledger, "
                "or create one with `tally campaign new NAME`"
            )
        elif revision != SCHEMA_REVISION:
            if revision not in self.known_revisions():
                raise StoreError(self._unknown_revision(revision))
            raise StoreError(
                f"{describe(self.url)} has schema revision {revision}, this tally "
                f"uses {SCHEMA_REVISION}: run `tally db upgrade`"
            )

    def refuse_foreign(self) -> set[str]:
        """The database's tables, or a refusal if it holds something other than a
        tally ledger: tally never installs its tables beside another application's.
        An empty database (a new or empty file) is fine: tally makes it a ledger."""
        if self.engine.dialect.name == "sqlite":
            try:  # read before the engine's first connection switches the file to WAL
                tables = sqlite_tables(self.engine.url.database)
            except sqlite3.Error as exc:
                raise StoreError(driver_message(self.url, exc)) from None
        else:
            with self._connect() as conn:
                tables = set(sa.inspect(conn).get_table_names())
        if not tables or {"events", "alembic_version"} <= tables:
            return tables
        kind = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}.get(self.engine.dialect.name, "")
        shown = sorted(tables)
        listed = ", ".join(shown[:6]) + (f" and {len(shown) - 6} more" if len(shown) > 6 else "")
        own = "file" if self.engine.dialect.name == "sqlite" else "database"
        raise StoreError(f"{describe(self.url)} is a {kind} database that is not a tally ledger "
                         f"(it has tables {listed}): give tally its own {own}")

    @staticmethod
    def _alembic_config():
        from alembic.config import Config

        config = Config()
        config.set_main_option("script_location", migrations_folder())
        return config

    @classmethod
    def known_revisions(cls) -> list[str]:
        """The schema revisions this tally's migrations know, oldest first."""
        from alembic.script import ScriptDirectory

        return [r.revision for r in reversed(list(ScriptDirectory.from_config(cls._alembic_config()).walk_revisions()))]

    def _unknown_revision(self, revision: str) -> str:
        """A ledger a newer tally migrated: refused, naming both revisions and what to do."""
        return (f"{describe(self.url)} has schema revision {revision!r}, which this tally does not know (the "
                f"newest it knows is {SCHEMA_REVISION}): a newer tally wrote it; upgrade tally to use this "
                "ledger (nothing was changed)")

    def _revision(self) -> Optional[str]:
        """The revision of a database known to hold alembic_version (one statement, no inspector)."""
        with self._connect() as conn:
            cursor = driver_cursor(conn, "SELECT version_num FROM alembic_version")
            row = cursor.fetchone()
            cursor.close()
            return row[0] if row else None

    def schema_revision(self) -> Optional[str]:
        with self._connect() as conn:
            if not sa.inspect(conn).has_table("alembic_version"):
                return None
            return conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()

    def upgrade(self) -> str:
        """Migrate to the newest schema (imports Alembic only here); a database
        at a revision this tally does not know (a newer tally's) is refused."""
        from alembic import command

        config = self._alembic_config()
        postgres = self.engine.dialect.name == "postgresql"
        with self._connect(write=True) as conn, conn.begin():
            before = conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar() \
                if sa.inspect(conn).has_table("alembic_version") else None
            if before is not None and before not in self.known_revisions():  # Alembic would not find it
                raise StoreError(self._unknown_revision(before))
            # PostgreSQL: a role that can neither create nor act as the tables' owner is told who
            # can, before a migration half-runs; after it, every table goes to the owner role and
            # every writer and reader is granted what it may do on each (ledger/pgroles.py).
            pending = before is None or before < SCHEMA_REVISION
            refusal = pgroles.refusal_to_set_up(conn) if postgres and pending else None
            if refusal:
                raise StoreError(refusal)
            config.attributes["connection"] = conn
            try:
                command.upgrade(config, "head")
                if postgres:
                    pgroles.settle(conn)
            except (sa.exc.ProgrammingError, conn.dialect.dbapi.ProgrammingError) as exc:
                if getattr(getattr(exc, "orig", exc), "sqlstate", None) != "42501":  # insufficient privilege
                    raise
                raise pgroles.upgrade_refused(describe(self.url), exc) from None
        if self.engine.dialect.name == "sqlite" and before is not None and before < "0005":
            # 0005 moved the seeds out of the file: rebuild it, so no copy of one lingers in
            # free pages or the slack of reused ones (once; the file keeps its mode).
            with self._connect() as conn:
                conn.connection.driver_connection.execute("VACUUM")
        self.checkpoint()  # nor in old WAL frames
        return SCHEMA_REVISION

    # -- transactions ---------------------------------------------------
    # While batch() runs: its connection, on which every transaction and read runs.
    _batch: Optional[Connection] = None

    @contextmanager
    def _driver_errors(self) -> Iterator[None]:
        try:
            yield
        except (sa.exc.OperationalError, self.engine.dialect.dbapi.OperationalError) as exc:
            # the second: from the statements the append path hands the driver's cursor directly
            raise StoreError(driver_message(self.url, exc)) from None
        except (sa.exc.ProgrammingError, self.engine.dialect.dbapi.ProgrammingError) as exc:
            if getattr(getattr(exc, "orig", exc), "sqlstate", None) != "42501":  # insufficient privilege
                raise
            detail = (str(getattr(exc, "orig", exc)).strip().splitlines() or [""])[0]
            raise StoreError(f"this database role may not do that on {describe(self.url)} ({detail}): "
                             "a role made by `tally db grant-reader` only reads the ledger; "
                             "record as the referee's role") from None
        except (sa.exc.DatabaseError, self.engine.dialect.dbapi.DatabaseError) as exc:
            if not not_a_database(exc):
                raise
            raise StoreError(driver_message(self.url, exc)) from None

    @contextmanager
    def _connect(self, write: bool = False) -> Iterator[Connection]:
        if self._batch is not None:  # inside a batch there is one connection, already in its transaction
            with self._driver_errors():
                yield self._batch
            return
        with self._driver_errors(), self.engine.connect() as conn:
            yield conn.execution_options(tally_write=write)

    @contextmanager
    def _writer(self) -> Iterator[Connection]:
        """The connection a write transaction runs on: the store's own, kept
        checked out between transactions (a connection checked out of the pool
        and back cost a fifth of a durable single append, more than its queries),
        one writer of this store at a time; while it is busy (a transaction
        opened inside another), a fresh one as before."""
        if self._batch is not None or not self._write_mutex.acquire(blocking=False):
            with self._connect(write=True) as conn:
                yield conn
            return
        try:
            conn = self._held[0]
            # One whose database connection was lost is invalidated by the SQL layer, which
            # connects it again on its next use (tests/test_store.py).
            if conn is None or conn.closed:
                conn = self._held[0] = self.engine.connect().execution_options(tally_write=True)
            with self._driver_errors():
                yield conn
        finally:
            self._write_mutex.release()

    @staticmethod
    @contextmanager
    def _begun(conn: Connection, first: Callable[[Connection], None],
               prepare: Callable[[Connection], None] = lambda conn: None) -> Iterator[None]:
        """``conn.begin()`` for the length of the block, its first statement (``first``) run.

        A connection kept between transactions (the store's writer, the pool's
        readers) may have been ended by the PostgreSQL server since it was last
        used: a restart, an administrator's ``pg_terminate_backend``. The first
        statement is where that shows, before anything is read or written; the
        transaction is then begun once more, on a new connection, and the command
        goes on. ``prepare`` sets what a connection needs before it begins."""
        for again in (True, False):
            prepare(conn)
            began = conn.begin()
            try:
                first(conn)
            except BaseException as exc:
                dropped = again and _dropped(conn, exc)
                with suppress(sa.exc.DBAPIError, conn.dialect.dbapi.Error):
                    began.rollback()
                if not dropped:
                    raise
                if not conn.invalidated:
                    conn.invalidate()  # the SQL layer connects it again when it is next used
                continue
            with began:
                yield
            return

    @staticmethod
    def _lock(conn: Connection) -> None:
        """Take the write lock (SQLite took it with BEGIN IMMEDIATE)."""
        if conn.dialect.name == "postgresql":
            # The commit will not wait for its flush while it holds the lock: the store
            # waits for it once the lock is released (_flushed), before it returns.
            cursor = driver_cursor(conn, _PG_WRITE_LOCK)
            held = cursor.fetchone()
            cursor.close()
            if held is None:  # taken out by hand: writers would no longer wait for each other
                raise StoreError("the write lock's row is missing from the table ledger_write_lock: run "
                                 "`tally db upgrade` as the role that set the ledger up, which puts it back")
            conn.info[_UNFLUSHED] = True

    @contextmanager
    def transaction(self) -> Iterator["Transaction"]:
        """One atomic unit of work holding the write lock: all or nothing.
        Inside a batch: a savepoint in the batch's transaction."""
        with self._writer() as conn:
            try:
                with conn.begin_nested() if self._batch is not None else self._begun(conn, self._lock):
                    tx = Transaction(conn, self.clock, self.secrets, self.notes, self._edges)
                    yield tx
                    # Before the events commit, durably: a crash between the two leaves at most
                    # an orphan secret, never a committed event naming a secret that is gone.
                    tx.write_secrets()
            except BaseException:
                if self._batch is None:
                    conn.info.pop(_UNFLUSHED, None)
                raise
            if self._batch is None:
                _flushed(conn)

    @contextmanager
    def reading(self) -> Iterator["Transaction"]:
        """A read-only view of the ledger as it stood when the reading opened:
        every query in it sees that one snapshot, however long it runs and
        whatever commits meanwhile, so a page read during an import sees the
        ledger before the import or after it, never part of it. SQLite: one
        read transaction, its snapshot pinned at once (in WAL mode it is
        taken at the first read, so one is made); PostgreSQL: REPEATABLE
        READ, READ ONLY, its snapshot likewise taken by a first statement.
        Inside a batch: what the batch has written so far, uncommitted, in a
        savepoint (a failed read leaves the batch usable on PostgreSQL)."""
        with self._connect() as conn:
            if self._batch is not None:
                with conn.begin_nested():
                    yield Transaction(conn, self.clock, self.secrets, self.notes)
                return
            with self._begun(conn, _snapshot_taken, _read_only):
                yield Transaction(conn, self.clock, self.secrets, self.notes)

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Many commands as one transaction (`tally script`): one connection
        holding the write lock throughout; each transaction() and reading()
        inside is a savepoint on it, so a command sees the events of the
        commands before it. Committed when the block ends; rolled back, all of
        it, if the block raises. Other writers wait until then."""
        if self._batch is not None:
            raise RuntimeError("a batch is already open on this store")
        with self._writer() as conn:
            try:
                with self._begun(conn, self._lock):
                    self._batch = conn
                    try:
                        yield
                    finally:
                        self._batch = None
            except BaseException:
                conn.info.pop(_UNFLUSHED, None)
                raise
            _flushed(conn)

    # -- conveniences for single calls ---------------------------------
    def append(self, campaign: str, new_events: Sequence[NewEvent], *, actor: str,
               expected: Optional[Mapping[str, int]] = None) -> list[Envelope]:
        with self.transaction() as tx:
            return tx.append(campaign, new_events, actor=actor, expected=expected)

    def read(self, campaign: Optional[str] = None, **filters) -> list[Envelope]:
        with self.reading() as tx:
            return list(tx.read(campaign, **filters))

    def checkpoint(self) -> None:
        """After a bulk load on SQLite: fold the write-ahead log back into the
        database file and truncate it (a million imported events leave a WAL
        of over a gigabyte that every later read would consult)."""
        if self.engine.dialect.name == "sqlite":
            with self._connect() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")

    def dispose(self) -> None:
        _release(self._held)
        self.engine.dispose()


class Transaction(SnapshotRows):
    """Reads and appends on one connection inside one transaction (its
    snapshots' rows: ledger/snapshot_rows.py)."""

    def __init__(self, conn: Connection, clock: Callable, secrets, notes: Optional[list] = None,
                 edges: Optional[list] = None) -> None:
        self.conn = conn
        self.clock = clock
        self.secrets = secrets  # ledger/secrets.py: a file apart (SQLite), or a table (PostgreSQL)
        self._pending: list[ledger_secrets.Row] = []
        self.notes = [] if notes is None else notes
        self._edge = None  # the Merkle tree's right edge after this transaction's last insert (ledger/tree.py)
        self._edges = edges  # the store's, kept between transactions (a hint: grow checks it fits)
        self._snapshot_key: Optional[bytes] = None

    def note(self, note) -> None:
        """Something the caller should hear about though the answer stands (an
        ignored snapshot); the store's notes, each once."""
        if note not in self.notes:
            self.notes.append(note)

    def _ranged(self) -> str:
        """The campaign column in a query bounded by positions, which should read
        that range of the table. Without statistics SQLite takes ``campaign = ?``
        for a selective index and walks every event of the campaign; its unary
        ``+`` keeps the term off the index, so the primary key's range is used.
        (PostgreSQL's planner has its statistics.)"""
        return "+campaign" if self.conn.dialect.name == "sqlite" else "campaign"

    def _cursor(self, sql: str, params=(), *, many: bool = False):
        return driver_cursor(self.conn, sql, params, many=many)

    def head(self) -> tuple[int, str, Optional[str]]:
        cursor = self._cursor("SELECT position, hash, recorded_at FROM events ORDER BY position DESC LIMIT 1")
        row = cursor.fetchone()
        cursor.close()
        return (row[0], row[1], row[2]) if row else (0, GENESIS, None)

    def head_and_versions(self, campaign: str, streams: Sequence[str]) -> tuple[tuple[int, str, Optional[str]], list[int]]:
        """``head()`` and each stream's ``stream_version``, in one statement (the
        append path's one read before it writes)."""
        versions = ", ".join([f"({_VERSION})"] * len(streams))
        cursor = self._cursor(f"SELECT position, hash, recorded_at{', ' if streams else ''}{versions} "
                              "FROM events ORDER BY position DESC LIMIT 1",
                              [v for stream in streams for v in (campaign, stream)])
        row = cursor.fetchone()
        cursor.close()
        if row is None:  # an empty ledger: no stream has a version yet
            return (0, GENESIS, None), [0] * len(streams)
        return (row[0], row[1], row[2]), list(row[3:])

    def stream_version(self, campaign: str, stream: str) -> int:
        cursor = self._cursor(_VERSION, (campaign, stream))
        version = cursor.fetchone()[0]
        cursor.close()
        return version

    def append(self, campaign: str, new_events: Sequence[NewEvent], *, actor: str,
               expected: Optional[Mapping[str, int]] = None) -> list[Envelope]:
        """Chain and insert the events; refuse if an expected version is stale."""
        expected = dict(expected or {})
        streams = list(dict.fromkeys([*(e.stream for e in new_events), *expected]))
        (position, prev_hash, last_recorded), found = self.head_and_versions(campaign, streams)
        recorded_at = format_instant(self.clock())
        if last_recorded and recorded_at < last_recorded:
            recorded_at = last_recorded  # transaction time never runs backwards
        versions = dict(zip(streams, found))
        for stream, version in expected.items():
            if version != versions[stream]:
                raise ConcurrencyConflict(stream, version, versions[stream])
        appended: list[Envelope] = []
        rows: list[tuple] = []
        for new in new_events:  # (every value named once, no row rebuilt: a batch's loop is a third of its append)
            position += 1
            stream = new.stream
            version = versions[stream] = versions[stream] + 1
            cause = new.cause
            if isinstance(cause, Pending):
                cause = appended[cause.index].position
            event = new.event
            kind = type(event)
            type_name, schema, game_time, session = _type_name(kind), kind.schema_version, new.game_time, new.session
            payload = event.payload()
            text = canonical_json(payload)  # encoded once: this text is hashed (as verify will) and stored
            digest = fields_hash(position, campaign, stream, version, type_name, schema, game_time, recorded_at,
                                 session, actor, cause, text, prev_hash)
            rows.append((position, campaign, stream, version, type_name, schema, game_time, recorded_at, session,
                         actor, cause, text, prev_hash, digest))
            appended.append(Envelope(position, campaign, stream, version, type_name, schema, game_time, recorded_at,
                                     session, actor, cause, payload, prev_hash, digest))
            prev_hash = digest
        self.insert_tuples(rows)
        return appended

    def insert_rows(self, rows: list[dict]) -> None:
        """Insert stored rows (payload as canonical text) exactly as given."""
        self.insert_tuples([tuple(row[c] for c in _COLUMNS) for row in rows])

    def insert_tuples(self, rows: list[tuple]) -> None:
        """Insert stored rows as tuples in the table's column order (import uses this).

        Straight to the driver's executemany: for a bulk load, building each
        row's parameters through the SQL expression layer cost as much as the insert."""
        if not rows:
            return
        sql = f"INSERT INTO events ({', '.join(_COLUMNS)}) VALUES ({', '.join(['?'] * len(_COLUMNS))})"
        try:
            self._cursor(sql, rows, many=True).close()
        except self.conn.dialect.dbapi.IntegrityError:
            raise StoreError(
                "another writer recorded the same stream version at the same time: run the command again"
            ) from None

        cached = self._edge
        if cached is None and self._edges is not None and self._edges[0] is not None:
            cached = self._edges[0].copy()
        self._edge = grow(self.conn, rows, cached)
        if self._edges is not None:
            self._edges[0] = self._edge.copy()

    def read(self, campaign: Optional[str] = None, *, after: int = 0,
             upto: Optional[int] = None, types: Optional[Sequence[str]] = None,
             stream: Optional[str] = None, session: Optional[int] = None,
             recorded_by: Optional[str] = None, until_day: Optional[int] = None,
             from_day: Optional[int] = None,
             fold_order: bool = False, payload_if: Optional[Callable[[str], bool]] = None,
             newest_first: bool = False, limit: Optional[int] = None) -> Iterator[Envelope]:
        """Envelopes streamed from the database, in position order (or, with
        ``fold_order``, in (game_time, position) order, as projections fold them;
        with ``newest_first``, the last first), at most ``limit`` of them.
        ``payload_if``: decode the payload only of the types it says yes to (the
        others carry UNREAD, which refuses to be read)."""
        # Written for the driver and streamed from its cursor (stream_rows): reading a
        # row through the SQL layer's result cost more than decoding its payload.
        where, params = ["position > ?"], [after]
        if campaign is not None:
            # On SQLite the unary + keeps a read in position order on the primary key (see
            # _ranged): without statistics it would take the campaign's game-time index and
            # sort every row it finds, where stepping over other campaigns' rows costs less.
            ranged = not (types or stream or fold_order)
            where.append(f"{self._ranged() if ranged else 'campaign'} = ?")
            params.append(campaign)
        for column, value in (("position <=", upto), ("stream =", stream), ("session =", session),
                              ("recorded_at <=", recorded_by), ("game_time <=", until_day),
                              ("game_time >=", from_day)):
            if value is not None:
                where.append(f"{column} ?")
                params.append(value)
        if types:
            where.append(f"type IN ({', '.join('?' * len(types))})")
            params += types
        order = "game_time, position" if fold_order else "position DESC" if newest_first else "position"
        tail = f" LIMIT {int(limit)}" if limit is not None else ""
        rows = stream_rows(self.conn, f"{_SELECT} WHERE {' AND '.join(where)} ORDER BY {order}{tail}", tuple(params))
        if payload_if is None:
            for row in rows:
                yield envelope_from_row(row)
            return
        for row in rows:
            yield envelope_from_row(row, payload_if(row[4]))

    # The reads every command's first fold makes (the campaign, its snapshots, its first and
    # latest events) are written for the driver, as the append path is: in a fresh process the
    # SQL layer's first compilation of each statement cost more than running it (a cold
    # `tally roll` spent 55 ms compiling eleven small selects).
    def _row(self, sql: str, params=()) -> Optional[tuple]:
        cursor = self._cursor(sql, params)
        row = cursor.fetchone()
        cursor.close()
        return row

    def _rows(self, sql: str, params=()) -> list[tuple]:
        cursor = self._cursor(sql, params)
        rows = cursor.fetchall()
        cursor.close()
        return rows

    def first(self, campaign: str) -> Optional[Envelope]:
        """The campaign's first event, its campaign.created (an index seek)."""
        row = self._row(f"{_SELECT} WHERE type = ? AND campaign = ? ORDER BY position LIMIT 1",
                        ("campaign.created", campaign))
        return envelope_from_row(row) if row else None

    def latest_of(self, campaign: str, type_: str, *, upto: Optional[int] = None) -> Optional[Envelope]:
        """The campaign's last event of one type up to a position (one index seek)."""
        bound, params = ("", (campaign, type_)) if upto is None else (" AND position <= ?", (campaign, type_, upto))
        row = self._row(f"{_SELECT} WHERE campaign = ? AND type = ?{bound} ORDER BY position DESC LIMIT 1", params)
        return envelope_from_row(row) if row else None

    def campaign_head(self, campaign: str, upto: Optional[int] = None) -> Optional[int]:
        """The position of the campaign's last event (up to ``upto``), or None:
        the table read backwards from ``upto`` to the first of the campaign's events."""
        bound, params = ("", (campaign,)) if upto is None else (" AND position <= ?", (campaign, upto))
        row = self._row(f"SELECT position FROM events WHERE {self._ranged()} = ?{bound} "
                        "ORDER BY position DESC LIMIT 1", params)
        return row[0] if row else None

    def count(self, campaign: str, *, after: int = 0, upto: Optional[int] = None) -> int:
        if not after and self.campaigns() == [campaign]:  # the positions are the campaign's alone, gapless
            head = self.head()[0]
            return max(0, (head if upto is None else min(upto, head)) - after)
        column = self._ranged() if after else "campaign"
        bound, params = ("", (campaign, after)) if upto is None else (" AND position <= ?", (campaign, after, upto))
        return self._row(f"SELECT count(*) FROM events WHERE {column} = ? AND position > ?{bound}", params)[0]

    def positions(self, campaign: str, *, after: int = 0, every: int = 1) -> list[int]:
        """Every ``every``-th position of the campaign's events after ``after``."""
        rows = stream_rows(self.conn, f"SELECT position FROM events WHERE {self._ranged()} = ? AND position > ? "
                           "ORDER BY position", (campaign, after))
        return [p for i, (p,) in enumerate(rows, 1) if i % every == 0]

    def recorded_prefix(self, instant: str) -> int:
        """The last position P such that every event up to P was recorded by ``instant``.

        Transaction time never runs backwards along positions (the store
        clamps it, import refuses a file where it does), so this is a
        binary search of primary-key lookups, not a scan."""
        head, _, last = self.head()
        if last is None or last <= instant:
            return head
        at = sa.select(events.c.recorded_at).where(events.c.position == sa.bindparam("p"))
        low, high = 0, head  # recorded_at(low) <= instant (0: before the log); recorded_at(high) > instant
        while high - low > 1:
            middle = (low + high) // 2
            if self.conn.execute(at, {"p": middle}).scalar_one() <= instant:
                low = middle
            else:
                high = middle
        return low

    def game_days(self, campaign: str, after: int, upto: int) -> tuple[Optional[int], Optional[int]]:
        """The earliest and latest game day among the campaign's events in (after, upto]."""
        row = self._row(f"SELECT min(game_time), max(game_time) FROM events WHERE {self._ranged()} = ? "
                        "AND position > ? AND position <= ?", (campaign, after, upto))
        return row[0], row[1]

    def last_day(self, campaign: str, upto: int) -> Optional[int]:
        """The latest game day among the campaign's events up to ``upto``."""
        return self._row("SELECT max(game_time) FROM events WHERE campaign = ? AND position <= ?", (campaign, upto))[0]

    def positions_and_days(self, campaign: str, after: int, upto: int) -> Iterator[tuple[int, int]]:
        """(position, game day) of the campaign's events in (after, upto], in position order."""
        # On the primary key's range (_ranged): the campaign's game-time index would
        # walk every event of the campaign to find a few recent ones.
        return stream_rows(self.conn, f"SELECT position, game_time FROM events WHERE position > ? AND position <= ? "
                           f"AND {self._ranged()} = ? ORDER BY position", (after, upto, campaign))

    def last_fact_day(self, campaign: str, upto: int, before_day: int) -> Optional[int]:
        """The latest game day before ``before_day`` among the campaign's events up to ``upto``."""
        return self.conn.execute(
            sa.select(sa.func.max(events.c.game_time))
            .where(events.c.campaign == campaign, events.c.position <= upto, events.c.game_time < before_day)
        ).scalar()

    def get_many(self, positions: Iterable[int]) -> dict[int, Envelope]:
        """The events at these positions, by position (those that exist)."""
        wanted = sorted(set(positions))
        found: dict[int, Envelope] = {}
        for start in range(0, len(wanted), 500):
            chunk = wanted[start:start + 500]
            for row in self.conn.execute(sa.select(events).where(events.c.position.in_(chunk))):
                found[row.position] = envelope_from_row(row)
        return found

    def raw_rows(self, after: int = 0, upto: Optional[int] = None) -> Iterator[tuple]:
        """Rows as stored (payload as text), as tuples in the table's column order, for verification.
        On SQLite straight from the driver's cursor; on PostgreSQL from a server-side cursor."""
        sql = f"SELECT {', '.join(_COLUMNS)} FROM events WHERE position > ?"
        params: tuple = (after,)
        if upto is not None:
            sql, params = sql + " AND position <= ?", (after, upto)
        return stream_rows(self.conn, sql + " ORDER BY position", params)

    def campaigns(self) -> list[str]:
        return [name for (name,) in self._rows("SELECT campaign FROM events WHERE type = ? ORDER BY position",
                                               ("campaign.created",))]

    def get(self, position: int) -> Optional[Envelope]:
        row = self._row(f"{_SELECT} WHERE position = ?", (position,))
        return envelope_from_row(row) if row else None

    # -- secrets (ledger/secrets.py) -----------------------------------
    def put_secret(self, kind: str, campaign: str, name: str, value: str) -> None:
        """Keep a secret: on PostgreSQL in this transaction; on SQLite in the
        secrets file, written just before this transaction commits."""
        if self.secrets.apart:
            self._pending.append((kind, campaign, name, value))
        else:
            self.secrets.put(self.conn, [(kind, campaign, name, value)])

    def secret(self, kind: str, campaign: str, name: str) -> Optional[str]:
        for row in self._pending:
            if row[:3] == (kind, campaign, name):
                return row[3]
        return self.secrets.get(self.conn, kind, campaign, name)

    def write_secrets(self) -> None:
        """Write and commit the secrets this transaction kept (SQLite; once)."""
        if self._pending:
            self.secrets.put(self.conn, self._pending)
            self._pending = []
