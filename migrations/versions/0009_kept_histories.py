"""Kept histories (projections/kept.py): each subject's figures step by step,
derived data beside the snapshots, built on first use.

Revision ID: 0009
Revises: 0008
"""
import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    position = sa.BigInteger().with_variant(sa.Integer, "sqlite")
    op.create_table(
        "kept_steps",
        sa.Column("campaign", sa.String(80), nullable=False),
        sa.Column("subject", sa.String(200), nullable=False),
        sa.Column("game_time", sa.Integer, nullable=False, autoincrement=False),
        sa.Column("position", position, nullable=False, autoincrement=False),
        sa.Column("last_time", sa.Integer, nullable=False),
        sa.Column("data", sa.LargeBinary, nullable=False),
        sa.Column("mac", sa.LargeBinary, nullable=False),
        sa.PrimaryKeyConstraint("campaign", "subject", "game_time", "position", name="pk_kept_steps"),
        sqlite_with_rowid=False,
    )
    op.create_table(
        "kept_heads",
        sa.Column("campaign", sa.String(80), nullable=False),
        sa.Column("position", position, nullable=False),
        sa.Column("data", sa.LargeBinary, nullable=False),
        sa.Column("mac", sa.LargeBinary, nullable=False),
        sa.PrimaryKeyConstraint("campaign", name="pk_kept_heads"),
    )


def downgrade() -> None:
    op.drop_table("kept_heads")
    op.drop_table("kept_steps")
