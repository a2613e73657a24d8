"""Where a ledger lives and how its database is opened: a --db value as a URL,
an engine for it (a SQLite file made with its mode and set up for the ledger:
write-ahead log, a full fsync at commit, writers beginning IMMEDIATE; psycopg 3
for PostgreSQL), the tables of a file read without changing it, and the
driver's errors in words a referee can act on. ledger/store.py stands on it."""

from __future__ import annotations

import importlib.util
import os
import sqlite3
from contextlib import suppress
from pathlib import Path
from typing import Optional

import sqlalchemy as sa
from sqlalchemy import event as sa_event
from sqlalchemy.engine import Engine

from ledger.errors import StoreError

DEFAULT_DB = "tally.db"
DEFAULT_DB_MODE = 0o600  # a new SQLite ledger file; TALLY_DB_MODE=0640 lets its group read it


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


def make_engine(url: str, *, create: bool) -> Engine:
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


def sqlite_tables(path: str) -> set[str]:
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
            with suppress(OSError):  # a read-only folder: nothing was left there to take away
                sidecar.unlink(missing_ok=True)
        raise
    finally:
        conn.close()


# SQLite's words for a file that is not a database, or not one it can read.
_NOT_A_DATABASE = ("file is not a database", "database disk image is malformed", "unsupported file format",
                   "file is encrypted")


def not_a_database(exc: Exception) -> bool:
    return any(words in str(getattr(exc, "orig", exc)) for words in _NOT_A_DATABASE)


def driver_message(url: str, exc: Exception) -> str:
    detail = (str(getattr(exc, "orig", exc)).strip().splitlines() or [""])[0]
    if url.startswith("sqlite:///"):
        path = Path(url[len("sqlite:///"):])
        if not_a_database(exc):
            return (f"{path} is not a SQLite database, or is damaged ({detail}): point --db at a tally "
                    "ledger, or at a new file to start one")
        if path.parent.is_dir() and not os.access(path.parent, os.W_OK):
            return (f"cannot use the ledger {path}: its folder {path.parent} is read-only, and SQLite writes "
                    "its -wal and -shm files beside the ledger, even to read it: make the folder writable, or "
                    "copy the ledger to one that is")
        if path.exists() and not os.access(path, os.W_OK):
            return (f"cannot use the ledger {path}: the file is read-only ({detail}); make it writable, or copy "
                    "it somewhere you may write")
        return f"cannot use the ledger {path}: {detail}. Check the path, and that you may read and write it"
    return (f"cannot use the database {describe(url)}: {detail}. "
            "Check the path or URL and that the server is running")
