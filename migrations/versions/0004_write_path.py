"""Write path: the node vector index covers only what is searched by vector (cell leaves).

Revision ID: 0004
Revises: 0001
Create Date: 2026-11-22

Only cell leaves of session trees are found by vector search over ``nodes`` (``nearest_cells``);
roots are ranked by primary key and internal nodes are never searched by vector. A full HNSW index
made every structural edit of a node that has an embedding (dirty marks, key/interval widening,
splits, refresh writes: all non-HOT updates) insert a new HNSW entry, the single largest cost of
ingest. The partial index keeps vector search over cell leaves as it was. See ADR 0012.
"""

from __future__ import annotations

from alembic import op

revision = "0004"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("DROP INDEX IF EXISTS ix_nodes_embedding")
    op.execute(
        "CREATE INDEX ix_nodes_embedding ON nodes USING hnsw (embedding vector_cosine_ops) "
        "WHERE level = 0 AND leaf_cell_id IS NOT NULL"
    )


def downgrade() -> None:
    op.execute("DROP INDEX IF EXISTS ix_nodes_embedding")
    op.execute("CREATE INDEX ix_nodes_embedding ON nodes USING hnsw (embedding vector_cosine_ops)")
