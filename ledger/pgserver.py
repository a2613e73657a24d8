"""A throwaway PostgreSQL server for the test suite and the benchmark: initdb on a temporary
folder, loopback only, a free port, stopped and deleted at the end.

The server's own user, ``tally``, is a superuser: a database it creates is
set up by tally's first use of it (``tally db upgrade``'s path), which makes
the role ``tally_owner`` (once per server) and hands the tables to it
(ledger/pgroles.py). A superuser can do anything, so the tests that show what
a writer or a reader cannot do log in as roles of their own (``login_role``):
the server trusts every role on loopback.

PostgreSQL refuses to run as root; when the suite runs as root (as CI does)
the server binaries run as the existing `postgres` user via runuser.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path
from typing import Optional


def find_bindir() -> Optional[Path]:
    candidates = []
    if shutil.which("pg_config"):
        out = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True)
        candidates.append(out.stdout.strip())
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    for folder in candidates:
        if folder and (Path(folder) / "initdb").exists() and (Path(folder) / "pg_ctl").exists():
            return Path(folder)
    return None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class PostgresServer:
    """``durable``: fsync on, as a real server runs (the benchmark); off for the
    test suite, whose data is thrown away."""

    def __init__(self, bindir: Path, durable: bool = False) -> None:
        self.bindir = bindir
        self.durable = durable
        self.root = Path(tempfile.mkdtemp(prefix="tally-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self.prefix: list[str] = []
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            os.chown(self.root, user.pw_uid, user.pw_gid)
            self.prefix = ["runuser", "-u", "postgres", "--"]

    def _run(self, *args: str) -> None:
        result = subprocess.run([*self.prefix, *args], capture_output=True, text=True)
        if result.returncode != 0:
            log = self.root / "server.log"
            tail = log.read_text()[-2000:] if log.exists() else ""
            raise RuntimeError(f"{args[0]} failed: {result.stdout}{result.stderr}{tail}")

    def start(self) -> "PostgresServer":
        self._run(str(self.bindir / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "tally",
                  "-E", "UTF8", "--no-sync", "--no-instructions")
        options = f"-h 127.0.0.1 -p {self.port} -k {self.root} {'' if self.durable else '-F '}-c max_connections=60"
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-l", str(self.root / "server.log"),
                  "-o", options, "-w", "-t", "60", "start")
        return self

    def stop(self) -> None:
        try:
            self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres", user: str = "tally") -> str:
        return f"postgresql+psycopg://{user}@127.0.0.1:{self.port}/{database}"

    def login_role(self, name: str, *options: str) -> str:
        """Create a role that can log in (no superuser, unless ``options`` say so:
        CREATEROLE, SUPERUSER…); its name."""
        import psycopg

        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=tally dbname=postgres",
                             autocommit=True) as conn:
            conn.execute(f'CREATE ROLE "{name}" LOGIN {" ".join(options)}')
        return name

    def drop_role(self, name: str, database: str) -> None:
        """Drop a role made by ``login_role``, with its grants in ``database`` (its only one)."""
        import psycopg

        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=tally dbname={database}",
                             autocommit=True) as conn:
            conn.execute(f'DROP OWNED BY "{name}"')
            conn.execute(f'DROP ROLE "{name}"')

    def new_database(self) -> str:
        """A fresh, empty database; its URL."""
        import psycopg

        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=tally dbname=postgres",
                             autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def psql(self, url: str, sql: str) -> subprocess.CompletedProcess:
        database = url.rsplit("/", 1)[1]
        return subprocess.run(
            [str(self.bindir / "psql"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "tally",
             "-d", database, "-v", "ON_ERROR_STOP=1", "-c", sql],
            capture_output=True, text=True,
        )
