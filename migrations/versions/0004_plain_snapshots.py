"""Snapshots hold plain data, bound to the chain and to their own digest.

A snapshot was a pickle: a planted row could run code when it was loaded.
Now its state is plain data (MessagePack through msgspec, decoded into the
read models' own types), and each row carries the hash of the event at its
position (so it belongs to this chain, at this point) and the SHA-256 digest
of its own state and the blobs it names. Snapshots are derived data: the old
rows are dropped rather than converted; the next command takes new ones.

Revision ID: 0004
Revises: 0003
"""
import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

_POSITION = sa.BigInteger().with_variant(sa.Integer, "sqlite")


def _snapshots(*extra: sa.Column) -> None:
    op.create_table(
        "snapshots",
        sa.Column("campaign", sa.String(80), nullable=False),
        sa.Column("position", _POSITION, nullable=False),
        sa.Column("since", _POSITION, nullable=False),
        sa.Column("min_game_time", sa.Integer, nullable=True),
        sa.Column("max_game_time", sa.Integer, nullable=False),
        sa.Column("blobs", sa.Text, nullable=False, server_default="[]"),
        *extra,
        sa.Column("state", sa.LargeBinary, nullable=False),
        sa.PrimaryKeyConstraint("campaign", "position", name="pk_snapshots"),
    )


def _blobs() -> None:
    op.create_table(
        "snapshot_blobs",
        sa.Column("campaign", sa.String(80), nullable=False),
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("data", sa.LargeBinary, nullable=False),
        sa.PrimaryKeyConstraint("campaign", "digest", name="pk_snapshot_blobs"),
    )


def upgrade() -> None:
    op.drop_table("snapshot_blobs")
    op.drop_table("snapshots")
    _snapshots(sa.Column("event_hash", sa.String(64), nullable=False),
               sa.Column("digest", sa.String(64), nullable=False))
    _blobs()


def downgrade() -> None:
    op.drop_table("snapshot_blobs")
    op.drop_table("snapshots")
    _snapshots()
    _blobs()
