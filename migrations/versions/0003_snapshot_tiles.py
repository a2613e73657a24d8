"""Snapshots say what lies between them; events are found by type in position order.

Each snapshot row now also records ``since`` (the campaign's previous
snapshot when it was taken) and ``min_game_time`` (the earliest game day
among the campaign's events in ``(since, position]``). With those, a query
knows which stretches of the log can hold a fact logged late, or a fact for
the day it asks about, and reads only those. Snapshots are derived data, so
the old rows are dropped rather than converted; the next command takes new ones.
Large byte strings a snapshot holds (the packed session archives) go to
``snapshot_blobs``, stored once and named by digest by every snapshot that
holds them.

The type index leads with the type and gains ``position``, so "the latest
event of this type up to here" and "every campaign" are index seeks, on
PostgreSQL as on SQLite.

Revision ID: 0003
Revises: 0002
"""
import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

_POSITION = sa.BigInteger().with_variant(sa.Integer, "sqlite")


def _snapshots(*extra: sa.Column) -> None:
    op.create_table(
        "snapshots",
        sa.Column("campaign", sa.String(80), nullable=False),
        sa.Column("position", _POSITION, nullable=False),
        *extra,
        sa.Column("max_game_time", sa.Integer, nullable=False),
        sa.Column("state", sa.LargeBinary, nullable=False),
        sa.PrimaryKeyConstraint("campaign", "position", name="pk_snapshots"),
    )


def upgrade() -> None:
    op.drop_table("snapshots")
    _snapshots(sa.Column("since", _POSITION, nullable=False),
               sa.Column("min_game_time", sa.Integer, nullable=True),
               sa.Column("blobs", sa.Text, nullable=False, server_default="[]"))
    op.create_table(
        "snapshot_blobs",
        sa.Column("campaign", sa.String(80), nullable=False),
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("data", sa.LargeBinary, nullable=False),
        sa.PrimaryKeyConstraint("campaign", "digest", name="pk_snapshot_blobs"),
    )
    op.drop_index("ix_events_campaign_type", "events")
    op.create_index("ix_events_type_campaign", "events", ["type", "campaign", "position"])


def downgrade() -> None:
    op.drop_index("ix_events_type_campaign", "events")
    op.create_index("ix_events_campaign_type", "events", ["campaign", "type"])
    op.drop_table("snapshot_blobs")
    op.drop_table("snapshots")
    _snapshots()
