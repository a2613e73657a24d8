"""Snapshots of folded state: derived data, safe to delete.

Revision ID: 0002
Revises: 0001
"""
import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "snapshots",
        sa.Column("campaign", sa.String(80), nullable=False),
        sa.Column("position", sa.BigInteger().with_variant(sa.Integer, "sqlite"), nullable=False),
        sa.Column("max_game_time", sa.Integer, nullable=False),
        sa.Column("state", sa.LargeBinary, nullable=False),
        sa.PrimaryKeyConstraint("campaign", "position", name="pk_snapshots"),
    )


def downgrade() -> None:
    op.drop_table("snapshots")
