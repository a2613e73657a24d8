"""A ledger's secrets, kept where readers of the ledger cannot read them.

Whoever knows an epoch's seed before its reveal can predict its rolls, so
the seeds (and, once checkpoints are signed, the referee's signing key) are
never stored with the events. On SQLite they live in a file of their own
beside the database, ``<database>.secrets`` (``tally.db`` ->
``tally.db.secrets``), created mode 0600; on PostgreSQL in the table
``ledger_secrets``, readable by no role but the ledger's owner
(``tally db grant-reader``, here, grants a player's role the rest of the
ledger and leaves it out).

A secret is named by its kind, its campaign and a name. A dice seed's name
is its commitment, SHA-256 of the seed: on SQLite the seed is written and
committed before the event that commits to it, so a crash leaves at most an
orphan seed nobody committed to, never a committed epoch without its seed.
The key the snapshots' MACs are made with (ledger/snapshot_mac.py) is kept
here too, one a ledger, made the first time a snapshot is taken.
"""

from __future__ import annotations

import os
import sqlite3
import stat
from pathlib import Path
from typing import Optional, Sequence

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ledger.beside import SECRETS_SUFFIX
from ledger.errors import StoreError
from ledger.schema import ledger_secrets

DICE_SEED = "dice-seed"
SUFFIX = SECRETS_SUFFIX
TABLE = "ledger_secrets"

Row = tuple[str, str, str, str]  # kind, campaign, name, value

_FILE_SCHEMA = (
    f"CREATE TABLE IF NOT EXISTS {TABLE} (kind TEXT NOT NULL, campaign TEXT NOT NULL, name TEXT NOT NULL, "
    "value TEXT NOT NULL, PRIMARY KEY (kind, campaign, name))",
    # Append-only, like the events: a secret is never changed or taken back.
    f"CREATE TRIGGER IF NOT EXISTS {TABLE}_no_update BEFORE UPDATE ON {TABLE} "
    f"BEGIN SELECT RAISE(ABORT, '{TABLE} is append-only: UPDATE refused'); END",
    f"CREATE TRIGGER IF NOT EXISTS {TABLE}_no_delete BEFORE DELETE ON {TABLE} "
    f"BEGIN SELECT RAISE(ABORT, '{TABLE} is append-only: DELETE refused'); END",
)


def file_beside(database: str | Path) -> Path:
    """Where the secrets of the SQLite ledger at ``database`` are kept."""
    return Path(f"{Path(database).absolute()}{SUFFIX}")


class FileSecrets:
    """The secrets of a SQLite ledger, in their own SQLite file (mode 0600).

    Written in a transaction of their own, committed durably (WAL,
    synchronous=FULL) before the ledger's transaction commits."""

    apart = True

    def __init__(self, path: Path) -> None:
        self.path = path
        self.snapshot_key: Optional[bytes] = None  # once read: a kept secret never changes

    def unreadable(self, _conn: Connection) -> Optional[str]:
        """Why this connection may not read the secrets, or None (a file: whoever opens the ledger may)."""
        return None

    def no_key(self) -> str:
        """Why there is no snapshot key to read."""
        if not self.path.exists():
            return f"there is no secrets file {self.path} beside the ledger: copy it with the ledger"
        return f"{self.where} holds no snapshot key"

    @property
    def where(self) -> str:
        return f"the secrets file {self.path}"

    def _open(self, *, create: bool) -> Optional[sqlite3.Connection]:
        if create:
            try:  # the file exists with its mode before SQLite ever opens it
                fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
            except FileExistsError:
                pass
            except OSError as exc:
                raise StoreError(f"cannot create {self.where}: {exc.strerror}") from None
            else:
                os.fchmod(fd, 0o600)  # whatever the umask
                os.close(fd)
        elif not self.path.exists():
            return None
        self._check_mode()
        try:
            conn = sqlite3.connect(f"{self.path.as_uri()}?mode=rw", uri=True, isolation_level=None, timeout=60)
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = FULL")
        except sqlite3.Error as exc:
            raise StoreError(self._failed("open", exc)) from None
        return conn

    def _check_mode(self) -> None:
        """Refuse a secrets file others may read (copied or changed by hand): whoever
        reads it can predict the open epochs' rolls."""
        mode = stat.S_IMODE(os.stat(self.path).st_mode)
        if mode & 0o077:
            raise StoreError(f"{self.where} can be read or written by others (mode {mode:04o}), so they could "
                             f"predict its rolls: run `chmod 600 {self.path}` and try again")

    def _failed(self, doing: str, exc: Exception) -> str:
        detail = (str(exc).strip().splitlines() or [exc.__class__.__name__])[0]
        return (f"cannot {doing} {self.where}: {detail} (it must be the SQLite file tally made "
                "beside this ledger; nothing was written)")

    def get(self, _conn: Connection, kind: str, campaign: str, name: str) -> Optional[str]:
        conn = self._open(create=False)
        if conn is None:
            return None
        try:
            return conn.execute(f"SELECT value FROM {TABLE} WHERE kind = ? AND campaign = ? AND name = ?",
                                (kind, campaign, name)).fetchone()[0]
        except TypeError:  # no such row
            return None
        except sqlite3.OperationalError as exc:
            if "no such table" in str(exc):  # created, then a crash before its first secret
                return None
            raise StoreError(self._failed("read", exc)) from None
        except sqlite3.Error as exc:
            raise StoreError(self._failed("read", exc)) from None
        finally:
            conn.close()

    def put(self, _conn: Connection, rows: Sequence[Row]) -> None:
        """Write the secrets and commit them durably, all or none."""
        conn = self._open(create=True)
        try:
            conn.execute("BEGIN IMMEDIATE")
            for statement in _FILE_SCHEMA:
                conn.execute(statement)
            conn.executemany(f"INSERT INTO {TABLE} (kind, campaign, name, value) VALUES (?, ?, ?, ?)", rows)
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise StoreError(self._failed("write", exc)) from None
        finally:
            conn.close()


class TableSecrets:
    """The secrets of a PostgreSQL ledger, in the table ``ledger_secrets``,
    written in the ledger's own transaction (no role but its owner reads it)."""

    apart = False

    def __init__(self, database: str) -> None:
        self.database = database
        self.snapshot_key: Optional[bytes] = None  # once read: a kept secret never changes
        self._readable: Optional[bool] = None

    def unreadable(self, conn: Connection) -> Optional[str]:
        """Why this connection's role may not read the secrets (a reader's role), or None.
        Asked before reading, where a refusal would abort the transaction; asked once."""
        if self._readable is None:
            self._readable = bool(conn.execute(sa.text(f"SELECT has_table_privilege('{TABLE}', 'SELECT')")).scalar())
        return None if self._readable else f"this database role may not read {self.where}"

    def no_key(self) -> str:
        return f"{self.where} holds no snapshot key"

    @property
    def where(self) -> str:
        return f"the table {TABLE} of {self.database}"

    def _refused(self, exc: sa.exc.DBAPIError) -> StoreError:
        if getattr(exc.orig, "sqlstate", None) == "42501":  # insufficient privilege
            return StoreError(
                f"this database role may not read {self.where}: it reads the ledger only (as "
                "`tally db grant-reader` made it): roll and reveal as the referee's role")
        detail = (str(exc.orig).strip().splitlines() or [""])[0]
        return StoreError(f"cannot use {self.where}: {detail}")

    def get(self, conn: Connection, kind: str, campaign: str, name: str) -> Optional[str]:
        try:
            return conn.execute(sa.select(ledger_secrets.c.value).where(
                ledger_secrets.c.kind == kind, ledger_secrets.c.campaign == campaign,
                ledger_secrets.c.name == name)).scalar()
        except (sa.exc.ProgrammingError, sa.exc.InternalError) as exc:
            raise self._refused(exc) from None

    def put(self, conn: Connection, rows: Sequence[Row]) -> None:
        try:
            conn.execute(ledger_secrets.insert(), [dict(zip(("kind", "campaign", "name", "value"), row))
                                                   for row in rows])
        except (sa.exc.ProgrammingError, sa.exc.InternalError) as exc:
            raise self._refused(exc) from None


def for_database(backend: str, database: str) -> FileSecrets | TableSecrets:
    """The secrets of a ledger: ``database`` is the SQLite file's path, or the
    PostgreSQL URL as it may be printed."""
    return FileSecrets(file_beside(database)) if backend == "sqlite" else TableSecrets(database)
