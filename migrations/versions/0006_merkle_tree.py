"""The interior of the Merkle tree over the events (RFC 6962), for signed
checkpoints and their proofs.

Every complete perfect subtree above the leaves is one row (level, idx,
hash); a leaf is the hash of its event, read from the events. An existing
log's tree is built here, streamed in position order (ledger/tree.py).

Revision ID: 0006
Revises: 0005
"""
import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "merkle_nodes",
        sa.Column("level", sa.Integer, nullable=False, autoincrement=False),
        sa.Column("idx", sa.BigInteger().with_variant(sa.Integer, "sqlite"), nullable=False, autoincrement=False),
        sa.Column("hash", sa.LargeBinary, nullable=False),
        sa.PrimaryKeyConstraint("level", "idx", name="pk_merkle_nodes"),
        sqlite_with_rowid=False,
    )
    from ledger.tree import build

    build(op.get_bind())


def downgrade() -> None:
    op.drop_table("merkle_nodes")
