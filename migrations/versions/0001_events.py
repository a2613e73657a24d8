"""The append-only events table and the dice secrets.

Revision ID: 0001
Revises:
"""
import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

APPEND_ONLY = ("events", "dice_secrets")


def upgrade() -> None:
    op.create_table(
        "events",
        sa.Column("position", sa.BigInteger().with_variant(sa.Integer, "sqlite"),
                  primary_key=True, autoincrement=False),
        sa.Column("campaign", sa.String(80), nullable=False),
        sa.Column("stream", sa.String(200), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("type", sa.String(80), nullable=False),
        sa.Column("schema", sa.Integer, nullable=False),
        sa.Column("game_time", sa.Integer, nullable=False),
        sa.Column("recorded_at", sa.String(32), nullable=False),
        sa.Column("session", sa.Integer, nullable=True),
        sa.Column("actor", sa.String(80), nullable=False),
        sa.Column("cause", sa.BigInteger().with_variant(sa.Integer, "sqlite"), nullable=True),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("prev_hash", sa.String(64), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("position", name="pk_events"),
        sa.UniqueConstraint("campaign", "stream", "version", name="uq_events_stream_version"),
    )
    op.create_index("ix_events_campaign_game_time", "events", ["campaign", "game_time", "position"])
    op.create_index("ix_events_campaign_type", "events", ["campaign", "type"])
    op.create_table(
        "dice_secrets",
        sa.Column("campaign", sa.String(80), nullable=False),
        sa.Column("epoch", sa.Integer, nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("campaign", "epoch", name="pk_dice_secrets"),
    )
    dialect = op.get_bind().dialect.name
    for table in APPEND_ONLY:
        if dialect == "sqlite":
            for verb in ("UPDATE", "DELETE"):
                op.execute(
                    f"CREATE TRIGGER {table}_no_{verb.lower()} BEFORE {verb} ON {table} "
                    f"BEGIN SELECT RAISE(ABORT, '{table} is append-only: {verb} refused'); END"
                )
        else:
            op.execute(
                f"CREATE FUNCTION {table}_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ "
                f"BEGIN RAISE EXCEPTION '{table} is append-only: % refused', TG_OP; END $$"
            )
            op.execute(
                f"CREATE TRIGGER {table}_no_change BEFORE UPDATE OR DELETE ON {table} "
                f"FOR EACH ROW EXECUTE FUNCTION {table}_append_only()"
            )
            op.execute(
                f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
                f"FOR EACH STATEMENT EXECUTE FUNCTION {table}_append_only()"
            )


def downgrade() -> None:
    dialect = op.get_bind().dialect.name
    for table in APPEND_ONLY:
        if dialect != "sqlite":
            op.execute(f"DROP TRIGGER IF EXISTS {table}_no_change ON {table}")
            op.execute(f"DROP TRIGGER IF EXISTS {table}_no_truncate ON {table}")
            op.execute(f"DROP FUNCTION IF EXISTS {table}_append_only()")
    op.drop_table("dice_secrets")
    op.drop_index("ix_events_campaign_type", "events")
    op.drop_index("ix_events_campaign_game_time", "events")
    op.drop_table("events")
