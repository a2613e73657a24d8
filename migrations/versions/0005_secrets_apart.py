"""Dice secrets apart from the events: readers of the ledger cannot read them.

The table ``dice_secrets`` sat beside the events, so whoever could read the
ledger could predict every unrevealed roll. On SQLite its rows move to the
secrets file beside the database (``<database>.secrets``, mode 0600; see
ledger/secrets.py), keyed by their commitment, and the table is emptied with
secure_delete on and dropped (Store.upgrade then rebuilds the file with VACUUM,
so no copy of a seed stays in free pages or in the slack of reused ones). On
PostgreSQL they move to the table ``ledger_secrets`` in the same shape, from
which PUBLIC is revoked; ``tally db grant-reader`` never grants it.

Revision ID: 0005
Revises: 0004
"""
import hashlib

import sqlalchemy as sa
from alembic import op

from ledger.secrets import DICE_SEED, FileSecrets, file_beside

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

# A row of dice_secrets whose seed is not 32 bytes of hex cannot be keyed by its
# commitment; it is kept, under this kind and its epoch, rather than lost.
UNCHECKED = "dice-seed-unchecked"


def _keyed(campaign: str, epoch: int, seed: str) -> tuple[str, str, str, str]:
    try:
        if len(seed) == 64:
            return DICE_SEED, campaign, hashlib.sha256(bytes.fromhex(seed)).hexdigest(), seed
    except ValueError:
        pass
    return UNCHECKED, campaign, f"epoch:{epoch}", seed


def _database_file(conn) -> str:
    return next(row[2] for row in conn.exec_driver_sql("PRAGMA database_list") if row[1] == "main")


def _append_only(table: str, dialect: str) -> None:
    if dialect == "sqlite":
        for verb in ("UPDATE", "DELETE"):
            op.execute(f"CREATE TRIGGER {table}_no_{verb.lower()} BEFORE {verb} ON {table} "
                       f"BEGIN SELECT RAISE(ABORT, '{table} is append-only: {verb} refused'); END")
        return
    op.execute(f"CREATE FUNCTION {table}_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ "
               f"BEGIN RAISE EXCEPTION '{table} is append-only: % refused', TG_OP; END $$")
    op.execute(f"CREATE TRIGGER {table}_no_change BEFORE UPDATE OR DELETE ON {table} "
               f"FOR EACH ROW EXECUTE FUNCTION {table}_append_only()")
    op.execute(f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
               f"FOR EACH STATEMENT EXECUTE FUNCTION {table}_append_only()")


def _drop_append_only(table: str, dialect: str) -> None:
    if dialect == "sqlite":
        op.execute(f"DROP TRIGGER IF EXISTS {table}_no_update")
        op.execute(f"DROP TRIGGER IF EXISTS {table}_no_delete")
        return
    op.execute(f"DROP TRIGGER IF EXISTS {table}_no_change ON {table}")
    op.execute(f"DROP TRIGGER IF EXISTS {table}_no_truncate ON {table}")
    op.execute(f"DROP FUNCTION IF EXISTS {table}_append_only()")


def upgrade() -> None:
    conn = op.get_bind()
    dialect = conn.dialect.name
    rows = [_keyed(*row) for row in conn.execute(sa.text("SELECT campaign, epoch, seed FROM dice_secrets"))]
    if dialect == "sqlite":
        if rows:  # written and committed before the table goes: a failure below loses nothing
            secrets = FileSecrets(file_beside(_database_file(conn)))
            todo = [row for row in rows if secrets.get(None, *row[:3]) is None]
            if todo:
                secrets.put(None, todo)
        was = conn.exec_driver_sql("PRAGMA secure_delete").scalar()
        conn.exec_driver_sql("PRAGMA secure_delete = ON")  # deleted cells are overwritten with zeros
        _drop_append_only("dice_secrets", dialect)
        op.execute("DELETE FROM dice_secrets")
        op.drop_table("dice_secrets")
        conn.exec_driver_sql(f"PRAGMA secure_delete = {int(was)}")
        return
    op.create_table(
        "ledger_secrets",
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("campaign", sa.String(80), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("value", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("kind", "campaign", "name", name="pk_ledger_secrets"),
    )
    if rows:
        conn.execute(sa.text("INSERT INTO ledger_secrets (kind, campaign, name, value) VALUES (:k, :c, :n, :v)"),
                     [{"k": k, "c": c, "n": n, "v": v} for k, c, n, v in rows])
    _append_only("ledger_secrets", dialect)
    op.execute("REVOKE ALL ON ledger_secrets FROM PUBLIC")
    _drop_append_only("dice_secrets", dialect)
    op.drop_table("dice_secrets")


def downgrade() -> None:
    """Back into dice_secrets (campaign, epoch, seed): each committed epoch's
    seed, found by its commitment; orphan seeds stay where they are."""
    import json

    conn = op.get_bind()
    dialect = conn.dialect.name
    committed = [(campaign, json.loads(payload)) for campaign, payload in conn.execute(sa.text(
        "SELECT campaign, payload FROM events WHERE type = 'dice.committed' ORDER BY position"))]
    if dialect == "sqlite":
        secrets = FileSecrets(file_beside(_database_file(conn)))
        kept = {}
        for campaign, p in committed:
            kept[(campaign, p["epoch"])] = secrets.get(None, DICE_SEED, campaign, p["commitment"])
            if kept[(campaign, p["epoch"])] is None:
                kept[(campaign, p["epoch"])] = secrets.get(None, UNCHECKED, campaign, f"epoch:{p['epoch']}")
    else:
        held = {(k, c, n): v for k, c, n, v in conn.execute(sa.text(
            "SELECT kind, campaign, name, value FROM ledger_secrets"))}
        kept = {(campaign, p["epoch"]): held.get((DICE_SEED, campaign, p["commitment"]))
                or held.get((UNCHECKED, campaign, f"epoch:{p['epoch']}")) for campaign, p in committed}
    op.create_table(
        "dice_secrets",
        sa.Column("campaign", sa.String(80), nullable=False),
        sa.Column("epoch", sa.Integer, nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("campaign", "epoch", name="pk_dice_secrets"),
    )
    rows = [{"c": c, "e": e, "s": s} for (c, e), s in kept.items() if s is not None]
    if rows:
        conn.execute(sa.text("INSERT INTO dice_secrets (campaign, epoch, seed) VALUES (:c, :e, :s)"), rows)
    _append_only("dice_secrets", dialect)
    if dialect != "sqlite":
        _drop_append_only("ledger_secrets", dialect)
        op.drop_table("ledger_secrets")
