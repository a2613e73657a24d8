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

import hashlib
import importlib.util
import json
import os
import sqlite3
import threading
import weakref
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Callable, Iterable, Iterator, Mapping, NamedTuple, Optional, Sequence

import msgspec
import sqlalchemy as sa
from sqlalchemy import event as sa_event
from sqlalchemy.engine import Connection, Engine

from ledger import pgroles
from ledger import secrets as ledger_secrets
from ledger import snapshot_mac
from ledger.chain import GENESIS, canonical_json, fields_hash
from ledger.clock import format_instant, utc_now
from ledger.cursors import driver_cursor, stream_rows
from ledger.envelope import Envelope, NewEvent, Pending
from ledger.errors import ConcurrencyConflict, SnapshotUnusable, StoreError
from ledger.events.upcasters import CURRENT, upcast
from ledger.tree import grow
from ledger.schema import SCHEMA_REVISION, events, snapshot_blobs, snapshots

DEFAULT_DB = "tally.db"
DEFAULT_DB_MODE = 0o600  # a new SQLite ledger file; TALLY_DB_MODE=0640 lets its group read it
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


def resolve_url(target: Optional[str]) -> str:
    """A --db value (path or URL), else TALLY_DB, else ./tally.db, as a URL."""
    target = target or os.environ.get("TALLY_DB") or DEFAULT_DB
    if "://" in target:
        return target
    return f"sqlite:///{Path(target).expanduser().resolve()}"


def describe(url: str) -> str:
    """A URL fit to print: the path for SQLite, no password otherwise."""
    if url.startswith("sqlite:///"):
        return url[len("sqlite:///"):]
    try:
        return sa.engine.make_url(url).render_as_string(hide_password=True)
    except Exception:
        return url




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
        self.engine = _make_engine(url, create=create)
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
                tables = _sqlite_tables(self.engine.url.database)
            except sqlite3.Error as exc:
                raise StoreError(_driver_message(self.url, exc)) from None
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
            raise StoreError(_driver_message(self.url, exc)) from None
        except (sa.exc.ProgrammingError, self.engine.dialect.dbapi.ProgrammingError) as exc:
            if getattr(getattr(exc, "orig", exc), "sqlstate", None) != "42501":  # insufficient privilege
                raise
            detail = (str(getattr(exc, "orig", exc)).strip().splitlines() or [""])[0]
            raise StoreError(f"this database role may not do that on {describe(self.url)} ({detail}): "
                             "a role made by `tally db grant-reader` only reads the ledger; "
                             "record as the referee's role") from None
        except (sa.exc.DatabaseError, self.engine.dialect.dbapi.DatabaseError) as exc:
            if not _not_a_database(exc):
                raise
            raise StoreError(_driver_message(self.url, exc)) from None

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


class Tile(NamedTuple):
    """A snapshot's place in the tiling, without its state."""

    position: int
    since: int
    min_game_time: Optional[int]
    max_game_time: int
    event_hash: str
    digest: str


class _SnapshotRow(NamedTuple):
    since: int
    min_game_time: Optional[int]
    max_game_time: int
    blobs: str
    event_hash: str
    digest: str
    state: bytes


class Transaction:
    """Reads and appends on one connection inside one transaction."""

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

    # -- snapshots (derived data) ---------------------------------------
    # A tile: a snapshot's place in the tiling, without its state (ledger/snapshot_mac.py checks it).
    _TILE = "SELECT position, since, min_game_time, max_game_time, event_hash, digest FROM snapshots"

    def snapshot_tiles(self, campaign: str, upto: Optional[int] = None) -> list[Tile]:
        """The campaign's snapshots up to ``upto``, oldest first, without their state
        (unchecked: ``check_tile`` checks one)."""
        bound, params = ("", (campaign,)) if upto is None else (" AND position <= ?", (campaign, upto))
        return [Tile(*row) for row in self._rows(f"{self._TILE} WHERE campaign = ?{bound} ORDER BY position", params)]

    def snapshot_heads(self, campaign: str) -> list[tuple[int, bytes]]:
        """(position, the first bytes of its state) of each of the campaign's snapshots, oldest
        first: enough to read the shape stamp a state begins with (projections/snapshots.py
        ``stamp``), without reading the states whole. Unchecked."""
        return [(position, bytes(head)) for position, head in self._rows(
            "SELECT position, substr(state, 1, 256) FROM snapshots WHERE campaign = ? ORDER BY position", (campaign,))]

    def snapshotted(self) -> list[str]:
        """The campaigns the snapshots table holds rows for (whatever the log says)."""
        return list(self.conn.execute(sa.select(snapshots.c.campaign).distinct().order_by(snapshots.c.campaign))
                    .scalars())

    def last_tile(self, campaign: str) -> Optional[Tile]:
        """The campaign's latest snapshot, without its state (unchecked)."""
        row = self._row(f"{self._TILE} WHERE campaign = ? ORDER BY position DESC LIMIT 1", (campaign,))
        return Tile(*row) if row else None

    def snapshot_key(self, *, create: bool = False) -> bytes:
        """The key of the snapshots' MACs, kept with the ledger's secrets, or
        SnapshotUnusable (kind "unkeyed") saying why there is none to use here (a
        copy of the ledger without its secrets, a reader's role). ``create``: a
        writer makes one if the ledger has none yet, or is refused (StoreError)."""
        key = self.secrets.snapshot_key or self._snapshot_key
        if key is not None:
            return key
        try:
            why = self.secrets.unreadable(self.conn)
            value = None if why else self.secret(snapshot_mac.KIND, snapshot_mac.CAMPAIGN, snapshot_mac.NAME)
        except StoreError as exc:
            if create:
                raise
            why, value = str(exc), None
        made = value is None and not why and create
        if made:
            value = snapshot_mac.new_key()
            self.put_secret(snapshot_mac.KIND, snapshot_mac.CAMPAIGN, snapshot_mac.NAME, value)
        key = snapshot_mac.key_bytes(value) if value is not None else None
        if key is None:
            why = why or (self.secrets.no_key() if value is None
                          else f"the snapshot key in {self.secrets.where} is not 32 bytes in hex")
            if create:
                raise StoreError(f"cannot make a snapshot: {why}")
            raise SnapshotUnusable(why, kind="unkeyed")
        self._snapshot_key = key
        # Kept for the store's later transactions once it is surely committed: not one this transaction
        # made; on PostgreSQL, where it is written in the ledger's transaction, not one read inside a
        # batch either (an earlier command of the batch may have made it). A secrets file commits each
        # secret on its own before the ledger's transaction ends: what is read from it stays.
        if not made and (self.secrets.apart or not self.conn.in_nested_transaction()):
            self.secrets.snapshot_key = key
        return key

    def check_tile(self, campaign: str, tile) -> None:
        """Refuse (SnapshotUnusable) a tile whose place in the tiling — since, day
        range, event — is not as a holder of the snapshot key wrote it: one HMAC
        over a few dozen bytes, no state read."""
        if not snapshot_mac.signed(tile.digest):
            raise SnapshotUnusable("it carries no MAC", kind="unsigned")
        if not snapshot_mac.tile_holds(self.snapshot_key(), tile.digest, campaign, tile.position, since=tile.since,
                                       min_game_time=tile.min_game_time, max_game_time=tile.max_game_time,
                                       event_hash=tile.event_hash):
            raise SnapshotUnusable("its MAC does not hold")

    def snapshot(self, campaign: str, position: int, *, authenticate: bool = True) -> tuple[bytes, dict[str, bytes]]:
        """A snapshot's state and the blobs it names, once its row has passed
        every check that needs no decoding: its MAC under the ledger's snapshot
        key (ledger/snapshot_mac.py: its place in the tiling, its event, its
        blobs' names and its state), its binding to the campaign's event at its
        position (one primary-key lookup), and each blob present and matching
        its name. Otherwise SnapshotUnusable, saying which check failed.
        ``authenticate`` false: every check but the MAC (verify, which holds
        the state against a fold of the log, where there is no key to check it)."""
        found = self._row("SELECT since, min_game_time, max_game_time, blobs, event_hash, digest, state "
                          "FROM snapshots WHERE campaign = ? AND position = ?", (campaign, position))
        if found is None:
            raise SnapshotUnusable("there is no such snapshot")
        row = _SnapshotRow(*found[:6], bytes(found[6]))
        try:
            names = json.loads(row.blobs)
        except ValueError:
            names = None
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise SnapshotUnusable("its list of blobs is not readable")
        if authenticate:
            if not snapshot_mac.signed(row.digest):
                raise SnapshotUnusable("it carries no MAC", kind="unsigned")
            if not snapshot_mac.state_holds(self.snapshot_key(), row.digest, campaign, position, since=row.since,
                                            min_game_time=row.min_game_time, max_game_time=row.max_game_time,
                                            event_hash=row.event_hash, blobs=names, state=row.state):
                raise SnapshotUnusable("its MAC does not hold")
        chained = self._row("SELECT hash FROM events WHERE position = ? AND campaign = ?", (position, campaign))
        if chained is None or chained[0] != row.event_hash:
            raise SnapshotUnusable(f"its event hash is not the hash of event {position} of the campaign")
        blobs = {digest: bytes(data) for digest, data in self._rows(
            f"SELECT digest, data FROM snapshot_blobs WHERE campaign = ? AND digest IN ({', '.join('?' * len(names))})",
            (campaign, *names))} if names else {}
        for name in names:
            if name not in blobs:
                raise SnapshotUnusable(f"blob {name[:12]}… is missing")
            if hashlib.sha256(blobs[name]).hexdigest() != name:
                raise SnapshotUnusable(f"blob {name[:12]}… does not match its digest")
        return row.state, blobs

    def put_snapshot(self, campaign: str, position: int, *, since: int, min_game_time: Optional[int],
                     max_game_time: int, state: bytes, blobs: Mapping[str, bytes]) -> None:
        """Store a snapshot bound to the campaign's event at ``position``, with
        its MAC (the ledger's snapshot key made on first need), and the blobs
        it names that are not stored yet."""
        exists = self.conn.execute(sa.select(snapshots.c.position).where(
            snapshots.c.campaign == campaign, snapshots.c.position == position)).first()
        if exists:
            return
        key = self.snapshot_key(create=True)
        held = set(self.conn.execute(sa.select(snapshot_blobs.c.digest).where(
            snapshot_blobs.c.campaign == campaign, snapshot_blobs.c.digest.in_(list(blobs)))).scalars()) \
            if blobs else set()
        new = [{"campaign": campaign, "digest": d, "data": data} for d, data in blobs.items() if d not in held]
        if new:
            self.conn.execute(snapshot_blobs.insert(), new)
        event_hash = self.conn.execute(sa.select(events.c.hash).where(
            events.c.position == position, events.c.campaign == campaign)).scalar_one()
        names = sorted(blobs)
        digest = snapshot_mac.seal(key, campaign, position, since=since, min_game_time=min_game_time,
                                   max_game_time=max_game_time, event_hash=event_hash, blobs=names, state=state)
        self.conn.execute(snapshots.insert(), {
            "campaign": campaign, "position": position, "since": since, "min_game_time": min_game_time,
            "max_game_time": max_game_time, "state": state, "blobs": json.dumps(names),
            "event_hash": event_hash, "digest": digest})

    def drop_snapshots_at(self, campaign: str, positions: Sequence[int]) -> int:
        """Delete the campaign's snapshots at ``positions`` (their blobs stay, for the
        snapshots that replace them, unless the campaign has none left)."""
        dropped = self.conn.execute(snapshots.delete().where(
            snapshots.c.campaign == campaign, snapshots.c.position.in_(list(positions)))).rowcount
        if self.last_tile(campaign) is None:
            self.conn.execute(snapshot_blobs.delete().where(snapshot_blobs.c.campaign == campaign))
        return dropped

    def drop_unnamed_blobs(self, campaign: str) -> int:
        """Delete the campaign's blobs that none of its snapshots names any more (left by
        snapshots dropped while others stayed); how many. Where a row's list of names cannot
        be read, every blob stays (derived data: verify names that row)."""
        named: set = set()
        for (names,) in self._rows("SELECT blobs FROM snapshots WHERE campaign = ?", (campaign,)):
            try:
                named.update(json.loads(names))
            except (ValueError, TypeError):
                return 0
        held = self._rows("SELECT digest FROM snapshot_blobs WHERE campaign = ?", (campaign,))
        unnamed = [digest for (digest,) in held if digest not in named]
        if unnamed:
            self.conn.execute(snapshot_blobs.delete().where(snapshot_blobs.c.campaign == campaign,
                                                            snapshot_blobs.c.digest.in_(unnamed)))
        return len(unnamed)

    def drop_snapshots(self) -> int:
        self.conn.execute(snapshot_blobs.delete())
        return self.conn.execute(snapshots.delete()).rowcount

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


class _Unread(dict):
    """The payload of an event read without it: reading it is a bug, said loudly."""

    def _refuse(self, *_args, **_kwargs):
        raise RuntimeError("this event's payload was not read (payload_if said it is not needed)")

    __getitem__ = get = items = keys = values = __iter__ = __contains__ = __len__ = _refuse


UNREAD = _Unread()


def envelope_from_row(row: Sequence, read_payload: bool = True) -> Envelope:
    """The one place a stored row becomes an envelope, for every reader: its
    payload decoded (unless ``read_payload`` is false: then UNREAD) and lifted
    to its type's current schema by the upcasters. Nearly every row is at the
    current schema already, and costs one look-up more than ``json.loads``."""
    # The table's columns are the envelope's fields, in the same order.
    (position, campaign, stream, version, type_, schema, game_time, recorded_at, session, actor, cause,
     payload, prev_hash, hash_) = row
    body = _decode(payload) if read_payload else UNREAD
    current = CURRENT.get(type_, 1)  # a look-up, not a call: this runs for every row read
    if schema == current:
        return Envelope(position, campaign, stream, version, type_, schema, game_time, recorded_at, session,
                        actor, cause, body, prev_hash, hash_)
    # An unread payload stays unread; a schema newer than this tally knows is refused either way.
    body = upcast(type_, schema, body) if read_payload or schema > current else UNREAD
    return Envelope(position, campaign, stream, version, type_, current, game_time, recorded_at, session,
                    actor, cause, body, prev_hash, hash_, schema)


_decode = msgspec.json.Decoder().decode  # a stored payload is canonical JSON: plain dicts, lists, str, int


def _make_engine(url: str, *, create: bool) -> Engine:
    try:
        parsed = sa.engine.make_url(url)
    except (sa.exc.ArgumentError, ValueError):
        raise StoreError(
            f"cannot read the database URL {url!r}: give a file path or a URL such as "
            "postgresql+psycopg://user@host/dbname"
        ) from None
    if parsed.get_backend_name() == "sqlite":
        path = parsed.database
        if not path or path == ":memory:":
            raise StoreError("an in-memory SQLite database cannot hold a ledger: give a file path")
        if not create and not Path(path).exists():
            raise StoreError(
                f"no ledger at {path}: create one with `tally campaign new NAME`, "
                "or point --db / TALLY_DB at an existing one"
            )
        if create and not Path(path).parent.is_dir():
            raise StoreError(f"cannot create {path}: the folder {Path(path).parent} does not exist")
        if create:
            _create_file(path)
    elif parsed.get_backend_name() == "postgresql" and parsed.get_driver_name() in ("psycopg2", ""):
        # psycopg 3 is the driver we ship; a bare postgresql:// URL means it too.
        parsed = parsed.set(drivername="postgresql+psycopg")
    try:
        engine = sa.create_engine(parsed)
    except (sa.exc.NoSuchModuleError, ModuleNotFoundError, sa.exc.ArgumentError) as exc:
        raise StoreError(
            f"cannot use database URL {describe(url)!r} ({exc.__class__.__name__}): "
            "use a SQLite file path or postgresql+psycopg://…"
        ) from None
    if engine.dialect.name == "sqlite":
        _configure_sqlite(engine)
    elif engine.dialect.name != "postgresql":
        raise StoreError(f"tally supports SQLite and PostgreSQL, not {engine.dialect.name}")
    return engine


def migrations_folder() -> str:
    """Where the schema's history lies. Alembic runs those scripts itself; the
    store only names their folder (the migrations stand on the core, not the
    other way round)."""
    spec = importlib.util.find_spec("migrations")
    if spec is None or not spec.submodule_search_locations:
        raise StoreError("this installation of tally lacks its migrations folder: reinstall tally")
    return spec.submodule_search_locations[0]


def db_mode() -> int:
    """The mode a new SQLite ledger file is created with: TALLY_DB_MODE (octal), else 0600."""
    text = os.environ.get("TALLY_DB_MODE", "").strip()
    if not text:
        return DEFAULT_DB_MODE
    try:
        mode = int(text, 8)
    except ValueError:
        mode = -1
    if not 0 <= mode <= 0o777 or mode & 0o600 != 0o600:
        raise StoreError(f"TALLY_DB_MODE must be an octal file mode that lets its owner read and write, "
                         f"such as 0600 or 0640 (not {text!r})")
    return mode


def _create_file(path: str) -> None:
    """Create a new ledger file with its mode before SQLite opens it (SQLite
    would make it 0644 under the usual umask; its -wal and -shm files take the
    mode of the database file)."""
    if Path(path).exists():  # TALLY_DB_MODE is only read for a new file
        return
    mode = db_mode()
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, mode)
    except FileExistsError:
        return
    except OSError as exc:
        raise StoreError(f"cannot create {path}: {exc.strerror}") from None
    os.fchmod(fd, mode)  # exactly the mode asked for, whatever the umask
    os.close(fd)


def _configure_sqlite(engine: Engine) -> None:
    @sa_event.listens_for(engine, "connect")
    def on_connect(dbapi_connection, _record):
        # Let us issue BEGIN ourselves (pysqlite's own handling defers it).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA busy_timeout = 60000")
        cursor.execute("PRAGMA journal_mode = WAL")
        # FULL: a commit in WAL mode survives power loss, not only a crash.
        cursor.execute("PRAGMA synchronous = FULL")
        cursor.close()

    @sa_event.listens_for(engine, "begin")
    def on_begin(conn):
        write = conn.get_execution_options().get("tally_write", False)
        conn.connection.driver_connection.execute("BEGIN IMMEDIATE" if write else "BEGIN")


def _sqlite_tables(path: str) -> set[str]:
    """The tables of a SQLite file, read-only and without changing it; none for a
    file not yet there. A folder, a device or a pipe is refused."""
    if not Path(path).exists():
        return set()
    if Path(path).is_dir():
        raise StoreError(f"{path} is a folder, not a ledger file: point --db at a file (a new one is created)")
    if not Path(path).is_file():
        raise StoreError(f"{path} is not a regular file (a device or a pipe?): point --db at a ledger file")
    # A damaged file whose header says WAL leaves fresh -wal and -shm files behind: not ours to keep.
    fresh = [p for p in (Path(f"{path}-wal"), Path(f"{path}-shm")) if not p.exists()]
    conn = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True, timeout=60)
    try:
        return {name for (name,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")}
    except sqlite3.Error:
        conn.close()
        for sidecar in fresh:
            sidecar.unlink(missing_ok=True)
        raise
    finally:
        conn.close()


# SQLite's words for a file that is not a database, or not one it can read.
_NOT_A_DATABASE = ("file is not a database", "database disk image is malformed", "unsupported file format",
                   "file is encrypted")


def _not_a_database(exc: Exception) -> bool:
    return any(words in str(getattr(exc, "orig", exc)) for words in _NOT_A_DATABASE)


def _driver_message(url: str, exc: Exception) -> str:
    detail = (str(getattr(exc, "orig", exc)).strip().splitlines() or [""])[0]
    if url.startswith("sqlite:///"):
        path = Path(url[len("sqlite:///"):])
        if _not_a_database(exc):
            return (f"{path} is not a SQLite database, or is damaged ({detail}): point --db at a tally "
                    "ledger, or at a new file to start one")
    return (f"cannot use the database {describe(url)}: {detail}. "
            "Check the path or URL and that the server is running")
