"""Index the tree roots, so forest recall reads the top roots instead of every root.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-23

Root nodes are the nodes without a parent. ``ix_nodes_roots`` (b-tree on tenant and forest, only
roots) lets the exact root scan of a small forest read the forest's roots alone, and
``ix_nodes_root_embedding`` (HNSW, only roots) lets a large forest order its roots by the index.
Both are partial, so they hold a few percent of the nodes and only an update that makes or changes
a root touches them. See ADR 0021.
"""

from __future__ import annotations

from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("CREATE INDEX ix_nodes_roots ON nodes (tenant_id, forest_id) WHERE parent_id IS NULL")
    op.execute(
        "CREATE INDEX ix_nodes_root_embedding ON nodes USING hnsw (embedding vector_cosine_ops) "
        "WHERE parent_id IS NULL"
    )


def downgrade() -> None:
    op.execute("DROP INDEX IF EXISTS ix_nodes_root_embedding")
    op.execute("DROP INDEX IF EXISTS ix_nodes_roots")
