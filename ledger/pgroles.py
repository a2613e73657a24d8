"""PostgreSQL roles: who owns a ledger's tables, who may write, who may read.

Whoever owns a table can ``ALTER TABLE events DISABLE TRIGGER`` and rewrite
history, so no role tally runs as should own them. The tables (and the
append-only triggers' functions) belong to ``tally_owner``, a role that
cannot log in; the role that sets a ledger up (a superuser, or one with
CREATEROLE) creates it and hands everything to it (``settle``, run by every
``tally db upgrade``). The referee's role is a *writer*: it may SELECT and
INSERT events and secrets, keep the derived tables (snapshots, the Merkle
tree, the scheduler's jobs) and take the write lock, and nothing more: it
cannot UPDATE, DELETE or TRUNCATE events, nor disable their triggers.
A *reader* (``tally db grant-reader``, ledger/secrets.py) may SELECT the log
and its derived tables, not the secrets, and cannot take the write lock.

Who is a writer or a reader is read from the grants on ``events`` itself
(INSERT: a writer; SELECT alone: a reader), so a later migration's new table
is granted to each of them by the same ``settle``.
"""

from __future__ import annotations

from typing import Optional

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ledger.errors import NotFound, RuleRefused, StoreError
from ledger.schema import target_metadata
from ledger.secrets import TABLE

OWNER = "tally_owner"

# What a writer may do to each table. A table missing here is granted to no
# writer (tests/test_pg_roles.py holds every table of the schema to this list).
WRITER = {
    "events": ("SELECT", "INSERT"),
    "ledger_secrets": ("SELECT", "INSERT"),
    "snapshots": ("SELECT", "INSERT", "DELETE"),  # derived data: `db snapshot --drop` deletes them
    "snapshot_blobs": ("SELECT", "INSERT", "DELETE"),
    "merkle_nodes": ("SELECT", "INSERT", "UPDATE", "DELETE"),  # grown by upsert; `db tree --rebuild`
    "schedule_jobs": ("SELECT", "INSERT", "UPDATE", "DELETE"),
    "kept_steps": ("SELECT", "INSERT", "DELETE"),  # derived data: a chunk is rewritten, `db snapshot --drop`
    "kept_heads": ("SELECT", "INSERT", "DELETE"),
    "ledger_write_lock": ("SELECT", "UPDATE"),  # SELECT … FOR UPDATE of its row: the write lock
    "alembic_version": ("SELECT",),
}

SETUP = ("run `tally db upgrade` once as a superuser or a role with CREATEROLE (it creates the tables' owner, "
         f"{OWNER}), then `tally db grant-writer ROLE` for the referee's role (README: PostgreSQL roles)")


def _quote(conn: Connection, name: str) -> str:
    return conn.dialect.identifier_preparer.quote_identifier(name)


def _scalar(conn: Connection, sql: str, **params):
    return conn.execute(sa.text(sql), params).scalar()


def _is_superuser(conn: Connection, role: str = "") -> bool:
    return bool(_scalar(conn, "SELECT rolsuper FROM pg_roles WHERE rolname = coalesce(nullif(:r, ''), current_user)",
                        r=role))


def acts_as_owner(conn: Connection) -> bool:
    """Whether the connected role may act as the tables' owner (grant, migrate)."""
    if _is_superuser(conn):
        return True
    return bool(_scalar(conn, "SELECT pg_has_role(current_user, oid, 'USAGE') FROM pg_roles WHERE rolname = :o",
                        o=OWNER))


def refusal_to_set_up(conn: Connection) -> Optional[str]:
    """Why the connected role cannot create or migrate this ledger's tables, or None."""
    if acts_as_owner(conn):
        return None
    can_create = _scalar(conn, "SELECT rolcreaterole FROM pg_roles WHERE rolname = current_user")
    if can_create:
        return None
    return f"role {_scalar(conn, 'SELECT current_user')!r} may not set up or migrate this ledger's tables: {SETUP}"


def ensure_owner(conn: Connection) -> None:
    """Create the owner role if no ledger in this cluster has yet, and let the
    connected role act as it (a superuser needs nothing)."""
    # Tolerant of a concurrent creator (another database set up at the same moment).
    conn.execute(sa.text(
        f"DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{OWNER}') THEN "
        f"CREATE ROLE {OWNER} NOLOGIN; END IF; "
        "EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$"))
    if not acts_as_owner(conn):
        conn.execute(sa.text(f"GRANT {OWNER} TO current_user"))


def _tables(conn: Connection) -> list[str]:
    """tally's tables present in the current schema."""
    present = set(sa.inspect(conn).get_table_names())
    ours = [*target_metadata("postgresql").tables, "alembic_version"]
    return [t for t in ours if t in present]


def _owner_of(conn: Connection, table: str) -> str:
    return _scalar(conn, "SELECT pg_get_userbyid(relowner) FROM pg_class WHERE oid = to_regclass(:t)", t=table)


def _grantees(conn: Connection) -> dict[str, set[str]]:
    """Each role granted something on events (PUBLIC and the owner left out): what."""
    rows = conn.execute(sa.text(
        "SELECT pg_get_userbyid(a.grantee), a.privilege_type FROM pg_class c, aclexplode(c.relacl) a "
        "WHERE c.oid = to_regclass('events') AND a.grantee <> 0 AND a.grantee <> c.relowner"))
    held: dict[str, set[str]] = {}
    for role, privilege in rows:
        held.setdefault(role, set()).add(privilege)
    return held


def _missing(conn: Connection, role: str, table: str, privileges) -> list[str]:
    return [p for p in privileges
            if not _scalar(conn, "SELECT has_table_privilege(:r, :t, :p)", r=role, t=table, p=p)]


def settle(conn: Connection) -> None:
    """Hand every table of the ledger and its triggers' functions to the owner
    role, take them from PUBLIC, and grant each writer and reader what it may
    do on every table (a new one included). A role that owned the tables
    before (the referee's, on a ledger made before schema 0008) becomes a
    writer. Does nothing when nothing needs doing, so a writer's `db upgrade`
    of a current ledger changes nothing and needs no privilege."""

    tables = _tables(conn)
    quote = lambda name: _quote(conn, name)  # noqa: E731
    earlier = {owner for owner in (_owner_of(conn, t) for t in tables) if owner != OWNER}
    functions = [row[0] for row in conn.execute(sa.text(
        "SELECT DISTINCT p.oid::regprocedure::text FROM pg_trigger g JOIN pg_proc p ON p.oid = g.tgfoid "
        "WHERE NOT g.tgisinternal AND g.tgrelid = ANY (CAST(:t AS regclass[])) "
        "AND pg_get_userbyid(p.proowner) <> :o"), {"t": "{" + ",".join(tables) + "}", "o": OWNER})]
    database, schema = conn.execute(sa.text("SELECT current_database(), current_schema()")).one()
    if earlier or functions:
        ensure_owner(conn)
        if not _scalar(conn, "SELECT has_schema_privilege(:o, :s, 'CREATE')", o=OWNER, s=schema):
            # A table's new owner must be able to create in its schema (a superuser is not asked).
            conn.execute(sa.text(f"GRANT USAGE, CREATE ON SCHEMA {quote(schema)} TO {OWNER}"))
        for table in tables:
            if _owner_of(conn, table) != OWNER:
                conn.execute(sa.text(f"ALTER TABLE {quote(table)} OWNER TO {OWNER}"))
                conn.execute(sa.text(f"REVOKE ALL ON {quote(table)} FROM PUBLIC"))
        for function in functions:
            conn.execute(sa.text(f"ALTER FUNCTION {function} OWNER TO {OWNER}"))
    # Whoever owns the database owns its schema public (PostgreSQL 15), and a schema's owner
    # may drop any table in it and make a new one: neither may be a role that is not trusted
    # with the tables themselves.
    if _untrusted(conn, _scalar(conn, "SELECT pg_get_userbyid(datdba) FROM pg_database "
                                      "WHERE datname = current_database()")):
        ensure_owner(conn)
        conn.execute(sa.text(f"ALTER DATABASE {quote(database)} OWNER TO {OWNER}"))
    if _untrusted(conn, _scalar(conn, "SELECT pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname = :s",
                                s=schema)):
        ensure_owner(conn)
        conn.execute(sa.text(f"ALTER SCHEMA {quote(schema)} OWNER TO {OWNER}"))
    if "ledger_write_lock" in tables and conn.execute(sa.text("SELECT 1 FROM ledger_write_lock")).first() is None:
        conn.execute(sa.text("INSERT INTO ledger_write_lock (id) VALUES (1)"))  # taken out by hand: put back
    held = _grantees(conn)
    writers = {role for role, privileges in held.items() if "INSERT" in privileges}
    writers |= {role for role in earlier if not _is_superuser(conn, role)}
    readers = {role for role, privileges in held.items() if "SELECT" in privileges} - writers
    for role in sorted(writers - {OWNER}):
        _grant(conn, role, {t: WRITER[t] for t in tables if t in WRITER})
    for role in sorted(readers - {OWNER}):
        _grant(conn, role, {t: ("SELECT",) for t in tables if t in READER_TABLES})


def _untrusted(conn: Connection, role: str) -> bool:
    """A role that cannot act as the tables' owner, and so must not own what holds them
    (pg_database_owner: whoever owns the database, handed over by itself)."""
    if role in (OWNER, "pg_database_owner"):
        return False
    return not _scalar(conn, "SELECT rolsuper OR pg_has_role(rolname, :o, 'MEMBER') FROM pg_roles "
                             "WHERE rolname = :r", r=role, o=OWNER)


def _grant(conn: Connection, role: str, privileges: dict[str, tuple[str, ...]]) -> None:
    for table, wanted in privileges.items():
        missing = _missing(conn, role, table, wanted)
        if missing:
            conn.execute(sa.text(f"GRANT {', '.join(missing)} ON {_quote(conn, table)} TO {_quote(conn, role)}"))


def grant_writer(store, role: str) -> list[str]:
    """Let an existing PostgreSQL role record in the ledger (and nothing
    more); the tables granted. Refused for a role that could act as the
    tables' owner, which no grant can hold back."""
    if store.engine.dialect.name != "postgresql":
        raise RuleRefused("grant-writer is for PostgreSQL: a writer of a SQLite ledger is whoever can write its "
                          "file (and the secrets file beside it)")
    with store.transaction() as tx:
        conn = tx.conn
        refuse_unless_owner(conn, "grant-writer")
        found = conn.execute(sa.text("SELECT rolsuper, rolcreaterole, pg_has_role(:r, :o, 'MEMBER') "
                                     "FROM pg_roles WHERE rolname = :r"), {"r": role, "o": OWNER}).first()
        if found is None:
            raise NotFound(f"no PostgreSQL role named {role!r}: create it first "
                           f"(CREATE ROLE \"{role}\" LOGIN PASSWORD '…'), then grant it writing")
        quote = lambda name: _quote(conn, name)  # noqa: E731
        database, schema = conn.execute(sa.text("SELECT current_database(), current_schema()")).one()
        if any(found):
            raise RuleRefused(f"role {role!r} can act as the tables' owner (a superuser, a role with CREATEROLE or "
                              f"a member of {OWNER}), so it could disable the append-only triggers whatever is "
                              "granted: give the referee a role of its own (CREATE ROLE … LOGIN); "
                              "nothing was granted")
        if _scalar(conn, "SELECT pg_has_role(:r, datdba, 'MEMBER') OR pg_has_role(:r, n.nspowner, 'MEMBER') "
                         "FROM pg_database, pg_namespace n WHERE datname = current_database() AND n.nspname = :s",
                   r=role, s=schema):
            raise RuleRefused(f"role {role!r} owns the database {database} or its schema {schema}, so it could drop "
                              "the tables and make new ones: give the database to another role first "
                              f"(ALTER DATABASE \"{database}\" OWNER TO …; `tally db upgrade` gives it to "
                              f"{OWNER}); nothing was granted")
        # Usually held through PUBLIC already; granting them needs the database's and the schema's owner.
        if not _scalar(conn, "SELECT has_database_privilege(:r, :d, 'CONNECT')", r=role, d=database):
            conn.execute(sa.text(f"GRANT CONNECT ON DATABASE {quote(database)} TO {quote(role)}"))
        if not _scalar(conn, "SELECT has_schema_privilege(:r, :s, 'USAGE')", r=role, s=schema):
            conn.execute(sa.text(f"GRANT USAGE ON SCHEMA {quote(schema)} TO {quote(role)}"))
        tables = _tables(conn)
        _grant(conn, role, {t: WRITER[t] for t in tables if t in WRITER})
    return [t for t in tables if t in WRITER]


def refuse_unless_owner(conn: Connection, command: str) -> None:
    """Granting is for the role that set the ledger up."""
    if not acts_as_owner(conn):
        raise RuleRefused(f"only a role that may act as the tables' owner ({OWNER}: a superuser, or the role "
                          f"that set the ledger up) may run {command}: run it as that role")


def upgrade_refused(url: str, exc: Exception) -> StoreError:
    """A migration refused for want of privilege: what to do instead."""
    detail = (str(getattr(exc, "orig", exc)).strip().splitlines() or [""])[0]
    return StoreError(f"this role may not migrate {url} ({detail}): {SETUP}")


# What a reader's role may SELECT: the log, what is derived from it (snapshots, kept
# histories, the Merkle tree, the scheduler's plain schedule) and the schema revision
# (checked on opening). Not the secrets; not the write lock's row (ledger/pgroles.py).
READER_TABLES = ("events", "snapshots", "snapshot_blobs", "merkle_nodes", "kept_steps", "kept_heads",
                 "schedule_jobs", "alembic_version")
WITHHELD = (TABLE, "ledger_write_lock")


def grant_reader(store, role: str) -> list[str]:
    """Let an existing PostgreSQL role read the ledger and nothing secret; the tables granted."""
    if store.engine.dialect.name != "postgresql":
        raise RuleRefused(
            "grant-reader is for PostgreSQL: a reader of a SQLite ledger is whoever can read its file "
            "(created 0600; TALLY_DB_MODE=0640 lets its group read it), and the secrets file beside it "
            "stays 0600")
    with store.transaction() as tx:
        conn = tx.conn
        refuse_unless_owner(conn, "grant-reader")
        if not conn.execute(sa.text("SELECT 1 FROM pg_roles WHERE rolname = :r"), {"r": role}).first():
            raise NotFound(f"no PostgreSQL role named {role!r}: create it first "
                           f"(CREATE ROLE \"{role}\" LOGIN PASSWORD '…'), then grant it reading")
        quote = conn.dialect.identifier_preparer.quote_identifier
        database, schema = conn.execute(sa.text("SELECT current_database(), current_schema()")).one()
        who = quote(role)
        conn.execute(sa.text(f"GRANT CONNECT ON DATABASE {quote(database)} TO {who}"))
        conn.execute(sa.text(f"GRANT USAGE ON SCHEMA {quote(schema)} TO {who}"))
        conn.execute(sa.text(f"GRANT SELECT ON {', '.join(READER_TABLES)} TO {who}"))
        for table in WITHHELD:
            if sa.inspect(conn).has_table(table):
                conn.execute(sa.text(f"REVOKE ALL ON {table} FROM {who}"))
        if conn.execute(sa.text("SELECT has_table_privilege(:r, :t, 'SELECT')"), {"r": role, "t": TABLE}).scalar():
            raise RuleRefused(f"role {role!r} can read the dice secrets whatever is granted (a superuser, "
                              "the ledger's owner, or a member of a role that can): choose a role of its own "
                              "for the players; nothing was granted")
    return list(READER_TABLES)
