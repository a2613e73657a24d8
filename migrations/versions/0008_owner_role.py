"""PostgreSQL: the tables belong to a role of their own, and the write lock is
a row readers cannot lock.

The role the application connects as owned the tables, so it could
``ALTER TABLE events DISABLE TRIGGER`` and rewrite history. Every table and
the append-only triggers' functions now belong to ``tally_owner`` (NOLOGIN),
and the role that owned them before keeps only a writer's grants
(ledger/pgroles.py). Running this needs a superuser, or a role with
CREATEROLE that owns the tables.

Writers serialised on ``pg_advisory_xact_lock``, which any role that can
connect may take, a reader's included, and hold to block every append.
They now lock the one row of ``ledger_write_lock`` FOR UPDATE, which needs
the UPDATE privilege only writers have. (A table lock would not do: any role
can hold a weaker lock on any table by name, without privilege, through
PREPARE, and that blocks LOCK TABLE … IN EXCLUSIVE MODE; a row lock it
cannot take.)

SQLite: nothing (its writers take BEGIN IMMEDIATE; its roles are file modes).

Revision ID: 0008
Revises: 0007
"""
import sqlalchemy as sa
from alembic import op

from ledger import pgroles

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    conn = op.get_bind()
    if conn.dialect.name != "postgresql":
        return
    op.create_table("ledger_write_lock", sa.Column("id", sa.Integer, autoincrement=False, nullable=False),
                    sa.PrimaryKeyConstraint("id", name="pk_ledger_write_lock"))
    op.execute("INSERT INTO ledger_write_lock (id) VALUES (1)")
    pgroles.settle(conn)


def downgrade() -> None:
    """The lock table goes (the advisory lock of 0007's tally needs none); the
    tables stay with their owner role, which only a superuser could hand back
    to the right role."""
    if op.get_bind().dialect.name == "postgresql":
        op.drop_table("ledger_write_lock")
