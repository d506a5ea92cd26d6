"""Drop the global HNSW indexes: a forest past ``exact_scan_max_rows`` facts gets its own (ADR 0024).

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-23

One HNSW graph over every tenant's facts (and one over cell leaves, one over roots) served neither
end well: a 100K forest among 1.1M facts was 9% of the graph, so a search filtered to it walked
mostly other forests' vectors (overlap with the exact top-60 fell to 0.20), and every insert into
a forest of a few hundred facts paid for a graph over everyone's. Small forests are scanned exactly
(they always were, below the threshold); a large one is searched through partial indexes
``WHERE forest_id = N`` that the refresh job builds when the forest crosses the threshold
(``memforest.pipeline.forest_indexes``). Those are runtime objects, not part of this schema.

After upgrading, large forests are scanned exactly until their next refresh builds their indexes;
``memforest db index-forests`` builds them all at once.
"""

from __future__ import annotations

from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

_GLOBAL = {
    "ix_facts_embedding": "facts USING hnsw (embedding vector_cosine_ops)",
    "ix_nodes_embedding": "nodes USING hnsw (embedding vector_cosine_ops) WHERE level = 0 AND leaf_cell_id IS NOT NULL",
    "ix_nodes_root_embedding": "nodes USING hnsw (embedding vector_cosine_ops) WHERE parent_id IS NULL",
}


def upgrade() -> None:
    for name in _GLOBAL:
        op.execute(f"DROP INDEX IF EXISTS {name}")


def downgrade() -> None:
    for name, definition in _GLOBAL.items():
        op.execute(f"CREATE INDEX IF NOT EXISTS {name} ON {definition}")
