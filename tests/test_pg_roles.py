"""PostgreSQL roles (issue 25): the tables belong to a role no one logs in
as, so the referee's role (a writer) cannot disable the append-only triggers,
update or delete events; a reader cannot take the write lock, and every read
command works for it. The tests' server logs in as a superuser, who may do
anything: what a writer or a reader cannot do is shown with real login roles
of their own (ledger/pgserver.py login_role)."""

from __future__ import annotations

import hashlib
import os
from contextlib import contextmanager

import psycopg
import pytest
import sqlalchemy as sa

from ledger import pgroles
from ledger.schema import SCHEMA_REVISION, target_metadata
from ledger.pgroles import READER_TABLES, WITHHELD
from ledger.secrets import DICE_SEED
from tests.conftest import Tally, kept_seed

# A writer that waited for a lock longer than this would wait for ever: fail instead of hanging.
NO_WAITING = {"PGOPTIONS": "-c lock_timeout=5s"}


def test_every_table_says_what_a_writer_and_a_reader_may_do():
    """A table a migration adds must be named in pgroles.WRITER (and, if readers may
    see it, in READER_TABLES), or no writer could use it on PostgreSQL."""
    tables = {*target_metadata("postgresql").tables, "alembic_version"}
    assert tables == set(pgroles.WRITER)
    assert set(READER_TABLES) <= tables and not set(READER_TABLES) & set(WITHHELD)
    assert all("UPDATE" not in pgroles.WRITER["events"] and "DELETE" not in pgroles.WRITER[t]
               for t in ("events", "ledger_secrets"))


def _role(pg_server, prefix: str, *options: str) -> str:
    return pg_server.login_role(f"{prefix}_{os.getpid()}_{os.urandom(3).hex()}", *options)


def _as(url: str, role: str) -> Tally:
    return Tally(url.replace("tally@", f"{role}@"))


@contextmanager
def _connected(pg_server, url: str, role: str, **options):
    database = url.rsplit("/", 1)[1]
    with psycopg.connect(f"host=127.0.0.1 port={pg_server.port} user={role} dbname={database}", **options) as conn:
        yield conn


def _refused_sql(conn, sql: str) -> None:
    """The statement is refused for want of privilege (in a savepoint: the transaction goes on)."""
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        with conn.transaction():
            conn.execute(sql)


def _owner(url: str, table: str) -> str:
    engine = sa.create_engine(url)
    with engine.connect() as conn:
        owner = conn.execute(sa.text("SELECT tableowner FROM pg_tables WHERE tablename = :t"), {"t": table}).scalar()
    engine.dispose()
    return owner


def _cannot_rewrite_history(pg_server, url: str, role: str) -> None:
    """Everything a writer could try, straight to the database, refused."""
    with _connected(pg_server, url, role) as conn:
        for sql in ("ALTER TABLE events DISABLE TRIGGER ALL", "ALTER TABLE events DISABLE TRIGGER events_no_change",
                    "DROP TRIGGER events_no_change ON events", "UPDATE events SET actor = 'mallory'",
                    "DELETE FROM events", "TRUNCATE events", "DROP TABLE events", "ALTER TABLE events OWNER TO "
                    f"\"{role}\"", f"SET ROLE {pgroles.OWNER}", "UPDATE ledger_secrets SET value = 'x'",
                    "DELETE FROM ledger_secrets", "DELETE FROM ledger_write_lock",
                    "CREATE OR REPLACE FUNCTION events_append_only() RETURNS trigger LANGUAGE plpgsql AS "
                    "$$ BEGIN RETURN NEW; END $$"):
            _refused_sql(conn, sql)


def test_a_writer_records_everything_but_cannot_rewrite_history(pg_server, tmp_path):
    url = pg_server.new_database()
    admin = Tally(url)  # the server's superuser sets the ledger up
    admin.ok("campaign", "new", "G", "--rules", "coeac", "--start", "1024-03-01")
    assert _owner(url, "events") == pgroles.OWNER
    referee = _role(pg_server, "referee")
    database = url.rsplit("/", 1)[1]
    try:
        assert "can act as the tables' owner" in admin.refused("db", "grant-writer", "tally").stderr
        assert "no PostgreSQL role named 'nobody'" in admin.refused("db", "grant-writer", "nobody").stderr
        with _connected(pg_server, url, "tally", autocommit=True) as conn:  # a database of the referee's own
            conn.execute(f'ALTER DATABASE "{database}" OWNER TO "{referee}"')
        assert "owns the database" in admin.refused("db", "grant-writer", referee).stderr
        with _connected(pg_server, url, "tally", autocommit=True) as conn:
            conn.execute(f'ALTER DATABASE "{database}" OWNER TO tally')
        assert "cannot change or delete an event" in admin.ok("db", "grant-writer", referee).stdout
        writer = _as(url, referee)
        writer.ok("player", "add", "Ann")
        writer.ok("char", "new", "Bo", "--player", "Ann", "--max-hp", "5")
        writer.ok("roll", "2d6")
        assert writer.ok("dice", "reveal", "--json").json["seed"] == kept_seed(url, 1)
        writer.ok("roll", "1d6")  # in the next epoch, its seed written by the writer
        writer.ok("schedule", "add", "advance-daily")
        writer.ok("schedule", "remove", "advance-daily")
        writer.ok("db", "snapshot")
        writer.ok("db", "snapshot", "--drop")
        writer.ok("db", "tree", "--rebuild")
        writer.ok("keys", "new", "--key-file", str(tmp_path / "referee.key"))
        writer.ok("checkpoint", "--key-file", str(tmp_path / "referee.key"))
        assert f"-> {SCHEMA_REVISION}" in writer.ok("db", "upgrade").stdout  # nothing to do: no privilege needed
        assert "only a role that may act as the tables' owner" in writer.refused("db", "grant-reader",
                                                                                 referee).stderr
        _cannot_rewrite_history(pg_server, url, referee)
        assert "chain intact" in writer.ok("verify").stdout
    finally:
        pg_server.drop_role(referee, database)


def test_grant_writer_on_sqlite_is_refused_in_one_line(tally_sqlite):
    tally_sqlite.ok("campaign", "new", "G", "--start", "1024-03-01")
    assert "for PostgreSQL" in tally_sqlite.refused("db", "grant-writer", "ann").stderr


def test_db_upgrade_takes_an_old_ledger_from_the_role_that_owned_it(pg_server, tmp_path):
    """Before schema 0008 the referee's role owned the tables and could disable the
    triggers. A superuser's `db upgrade` hands them to tally_owner; the referee's role
    records on as a writer and can no longer touch the triggers. The referee's own
    `db upgrade` is refused in one line, naming who can."""
    from tests.test_migrations import _at_revision

    source = Tally(f"sqlite:///{tmp_path / 'source.db'}")  # what a 0006 tally recorded
    source.ok("campaign", "new", "G", "--rules", "coeac", "--start", "1024-03-01")
    source.ok("player", "add", "Ann")
    source.ok("roll", "2d6")
    seed = kept_seed(source.url, 1)
    url = pg_server.new_database()
    database = url.rsplit("/", 1)[1]
    referee = _role(pg_server, "referee")
    try:
        with _connected(pg_server, url, "tally", autocommit=True) as conn:
            conn.execute(f'ALTER DATABASE "{database}" OWNER TO "{referee}"')  # the referee's own database
        old = url.replace("tally@", f"{referee}@")
        _at_revision(old, "0006")  # made by the referee's role, as tally did before 0008
        read, write = sa.create_engine(source.url), sa.create_engine(old)
        with read.connect() as r, write.begin() as w:
            rows = [dict(row._mapping) for row in r.execute(sa.text("SELECT * FROM events ORDER BY position"))]
            columns = list(rows[0])
            w.execute(sa.text(f"INSERT INTO events ({', '.join(columns)}) VALUES "
                              f"({', '.join(':' + c for c in columns)})"), rows)
            w.execute(sa.text("INSERT INTO ledger_secrets VALUES (:k, 'G', :n, :s)"),
                      {"k": DICE_SEED, "n": hashlib.sha256(bytes.fromhex(seed)).hexdigest(), "s": seed})
        read.dispose()
        write.dispose()
        with _connected(pg_server, url, referee) as conn:  # the finding: the owner could switch the triggers off
            conn.execute("ALTER TABLE events DISABLE TRIGGER events_no_change")
            conn.rollback()

        writer = _as(url, referee)
        refused = writer.refused("db", "upgrade").stderr
        assert "CREATEROLE" in refused and "grant-writer" in refused
        assert _owner(url, "events") == referee  # nothing changed
        assert f"0006 -> {SCHEMA_REVISION}" in Tally(url).ok("db", "upgrade").stdout
        assert {_owner(url, t) for t in pgroles.WRITER} == {pgroles.OWNER}
        with _connected(pg_server, url, "tally") as conn:  # its schema's too: a schema's owner may drop tables
            assert conn.execute("SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = %s",
                                (database,)).fetchone()[0] == pgroles.OWNER
        assert writer.ok("roll", "1d6", "--json").json["nonce"] == 1  # the same epoch rolls on, as a writer
        writer.ok("player", "add", "Cy")
        _cannot_rewrite_history(pg_server, url, referee)
        assert "chain intact" in writer.ok("verify").stdout
    finally:
        with _connected(pg_server, url, "tally", autocommit=True) as conn:
            conn.execute(f'ALTER DATABASE "{database}" OWNER TO tally')
        pg_server.drop_role(referee, database)


def test_a_new_ledger_is_set_up_once_by_a_role_that_may_create_roles(pg_server):
    """A role that cannot create the owner role cannot start a ledger: one line says who
    can. A role with CREATEROLE (a database's administrator) can, and its ledger's
    tables go to tally_owner; the referee's role it grants writing records."""
    url = pg_server.new_database()
    database = url.rsplit("/", 1)[1]
    plain, admin = _role(pg_server, "plain"), _role(pg_server, "admin", "CREATEROLE")
    try:
        with _connected(pg_server, url, "tally", autocommit=True) as conn:
            conn.execute(f'ALTER DATABASE "{database}" OWNER TO "{admin}"')
            conn.execute(f'GRANT CREATE ON SCHEMA public TO "{plain}"')
        refused = _as(url, plain).refused("campaign", "new", "G", "--start", "1024-03-01").stderr
        assert "may not set up or migrate" in refused and "CREATEROLE" in refused
        engine = sa.create_engine(url)
        with engine.connect() as conn:
            assert sa.inspect(conn).get_table_names() == []  # nothing half-made
        engine.dispose()
        _as(url, admin).ok("db", "upgrade")
        assert _owner(url, "events") == pgroles.OWNER
        _as(url, admin).ok("db", "grant-writer", plain)
        writer = _as(url, plain)
        writer.ok("campaign", "new", "G", "--start", "1024-03-01")
        writer.ok("roll", "1d6")
        _cannot_rewrite_history(pg_server, url, plain)
    finally:
        with _connected(pg_server, url, "tally", autocommit=True) as conn:
            conn.execute(f'ALTER DATABASE "{database}" OWNER TO tally')
        pg_server.drop_role(plain, database)
        pg_server.drop_role(admin, database)


def test_a_reader_cannot_take_or_hold_the_write_lock(pg_server):
    """A reader holds, in one open transaction, every lock it can reach: the advisory
    lock writers used to take, and what PREPARE takes of the lock table without any
    privilege. The referee records on at once (a wait would time out and fail)."""
    url = pg_server.new_database()
    referee = Tally(url)
    referee.ok("campaign", "new", "G", "--rules", "coeac", "--start", "1024-03-01")
    referee.ok("player", "add", "Ann")
    player = _role(pg_server, "player")
    database = url.rsplit("/", 1)[1]
    try:
        referee.ok("db", "grant-reader", player)
        with _connected(pg_server, url, player) as conn:
            conn.execute("SELECT count(*) FROM events").fetchone()
            conn.execute("SELECT pg_advisory_xact_lock(7243315)")  # the lock writers took before
            conn.execute("PREPARE held AS SELECT * FROM ledger_write_lock FOR UPDATE")
            conn.execute("PREPARE also_held AS UPDATE ledger_write_lock SET id = id")
            for sql in ("SELECT * FROM ledger_write_lock FOR UPDATE", "SELECT * FROM ledger_write_lock",
                        "LOCK TABLE ledger_write_lock IN ACCESS EXCLUSIVE MODE",
                        "LOCK TABLE events IN SHARE MODE", "SELECT * FROM events FOR KEY SHARE",
                        "SELECT * FROM schedule_jobs FOR UPDATE"):
                _refused_sql(conn, sql)
            for command in (("player", "add", "Bo"), ("roll", "1d6"), ("schedule", "add", "advance-daily"),
                            ("db", "snapshot"), ("db", "tree", "--rebuild")):
                outcome = referee(*command, env=NO_WAITING)
                assert outcome.exit_code == 0, outcome
            assert "only reads the ledger" in _as(url, player)("player", "add", "Cy", env=NO_WAITING).stderr
        assert len(referee.ok("log", "--json").json) == 6
    finally:
        pg_server.drop_role(player, database)


# What a player may run: every command that only reads. Each must answer the reader
# exactly as it answers the referee.
READS = [
    ("campaign", "list"), ("campaign", "show"), ("char", "list"), ("char", "show", "Bo"),
    ("char", "show", "Bo", "--json"),
    ("stable", "Ann"), ("company",), ("rep", "show"), ("log",), ("log", "--json"), ("log", "--type", "dice.rolled"),
    ("audit",), ("audit", "--json"), ("dice", "epochs"), ("calendar", "show"), ("session", "show", "1"),
    ("diff", "--from", "session:1:start", "--to", "session:1:end"),
    ("diff", "--from", "event:1", "--to", "session:1:end", "Bo", "--json"), ("why", "Bo", "hp"),
    ("schedule", "list"), ("schedule", "list", "--json"), ("note", "list"), ("checkpoint", "list"),
    ("proof", "3"), ("db", "tree"), ("downtime", "due"), ("keys", "show"), ("checkpoint", "show"),
]


def test_every_read_command_works_for_a_reader(pg_server, tmp_path):
    url = pg_server.new_database()
    referee = Tally(url)
    referee.ok("campaign", "new", "G", "--rules", "coeac", "--start", "1024-03-01")
    referee.ok("player", "add", "Ann")
    referee.ok("char", "new", "Bo", "--player", "Ann", "--max-hp", "5")
    referee.ok("roll", "2d6")
    referee.ok("session", "open", "--activate", "Bo", "--no-income")
    referee.ok("hp", "damage", "Bo", "2")
    referee.ok("session", "close")
    referee.ok("note", "add", "The guild's rent is due")
    referee.ok("schedule", "add", "remind", "--id", "rent", "--text", "collect the rent")
    referee.ok("dice", "reveal")
    referee.ok("db", "snapshot")
    referee.ok("keys", "new", "--key-file", str(tmp_path / "referee.key"))
    referee.ok("checkpoint", "--key-file", str(tmp_path / "referee.key"))
    player = _role(pg_server, "player")
    try:
        referee.ok("db", "grant-reader", player)
        reader = _as(url, player)
        for command in READS:
            assert reader.ok(*command).stdout == referee.ok(*command).stdout, command
        assert "chain intact" in reader.ok("verify").stdout
        assert reader.ok("db", "status", "--json").json["events"] == referee.ok("db", "status", "--json").json["events"]
        reader.ok("export", str(tmp_path / "export.jsonl"))
        referee.ok("export", str(tmp_path / "referee.jsonl"))
        assert (tmp_path / "export.jsonl").read_bytes() == (tmp_path / "referee.jsonl").read_bytes()
        reader.ok("chronicle", "--out", str(tmp_path / "site"))
        with _connected(pg_server, url, player) as conn:  # the secrets stay out of reach
            _refused_sql(conn, "SELECT * FROM ledger_secrets")
    finally:
        pg_server.drop_role(player, url.rsplit("/", 1)[1])


def test_a_reader_granted_before_the_upgrade_reads_the_new_tables(pg_server):
    """Readers and writers are found from the grants on events, so a table a migration
    adds is granted to each of them by `db upgrade`."""
    from tests.test_migrations import _at_revision

    url = pg_server.new_database()
    referee = Tally(url)
    referee.ok("campaign", "new", "G", "--start", "1024-03-01")
    referee.ok("schedule", "add", "advance-daily")
    player = _role(pg_server, "player")
    try:
        referee.ok("db", "grant-reader", player)
        _at_revision(url, "0006")  # as if granted before schedule_jobs existed
        with _connected(pg_server, url, "tally", autocommit=True) as conn:
            conn.execute(f'GRANT SELECT ON events, snapshots, snapshot_blobs, merkle_nodes, alembic_version '
                         f'TO "{player}"')
        referee.ok("db", "upgrade")
        listed = _as(url, player).ok("schedule", "list", "--json").json
        assert [r["job"] for r in listed] == ["advance-daily"]
        assert "only reads the ledger" in _as(url, player).refused("player", "add", "Cy").stderr
    finally:
        pg_server.drop_role(player, url.rsplit("/", 1)[1])
