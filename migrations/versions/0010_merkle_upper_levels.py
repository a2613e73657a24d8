"""The Merkle tree keeps its interior from 16 leaves up (ledger/tree.py
STORED_FROM): the nodes of levels 1 to 3 are dropped, recomputed from the
events' hashes when a proof needs one. An append wrote about one node an
event, a row and a page in its commit, for nodes a proof rarely reads.

Derived data only: no event is touched, and the roots, proofs and
checkpoints are the same bytes.

Revision ID: 0010
Revises: 0009
"""
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.get_bind().exec_driver_sql("DELETE FROM merkle_nodes WHERE level < 4")


def downgrade() -> None:
    from ledger.tree import build

    build(op.get_bind(), lowest=1)  # every level, as revision 0009 kept it
