"""Full-text matches of a small forest read the forest's rows, not the GIN index (ADR 0024).

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-23

The forest-keyed GIN indexes of migration 0011 keep one posting list per lexeme for the whole
table: the bitmap of a 1K forest's matches intersects the forest's entries with posting lists that
hold every forest's rows (a common word of the benchmark vocabulary: 10% of all facts), ~7 ms and
~300 buffers for 169 rows among 130K facts, growing with the database, not with the forest. Read
through the ``(tenant, forest)`` b-trees with ``@@`` as a filter, the same 1K forest takes ~0.6 ms.
The two ``SECURITY DEFINER`` match functions therefore gain ``p_scan``: true (a forest of at most
``exact_scan_max_rows`` facts, which the caller already counted) reads the forest's rows, false
keeps the GIN path. Tenant filter, visibility and the cap are unchanged; EXECUTE stays granted to
``memforest_app`` only.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

APP_ROLE = "memforest_app"
_TENANT = "NULLIF(current_setting('memforest.tenant_id', true), '')::uuid"
_OLD_SIGNATURE = "(bigint, tsquery, integer, timestamptz)"
_SIGNATURE = "(bigint, tsquery, integer, timestamptz, boolean)"
_FACT_VISIBLE = """CASE WHEN p_as_of IS NULL THEN {m}.retracted_at IS NULL
               ELSE ({m}.retracted_at IS NULL OR {m}.retracted_at > p_as_of) AND {m}.valid_from <= p_as_of
                    AND {m}.recorded_at <= p_as_of AND ({m}.valid_to IS NULL OR {m}.valid_to > p_as_of) END"""
# OFFSET 0 fences: the GIN branch reads the index alone (migration 0011), the scan branch reads the
# forest's rows by b-tree and tests @@ on each (otherwise the planner ANDs in the GIN bitmap)
_FACT_MATCHES = f"""
CREATE FUNCTION memforest_fact_text_matches(
    p_forest bigint, p_query tsquery, p_cap integer, p_as_of timestamptz, p_scan boolean)
RETURNS TABLE (fact_id bigint, tsv tsvector)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path FROM CURRENT AS $$
    SELECT m.fact_id, m.tsv FROM (
        SELECT x.* FROM facts x WHERE NOT p_scan AND ARRAY[x.forest_id] @> ARRAY[p_forest] AND x.tsv @@ p_query
        OFFSET 0
    ) m
    WHERE m.tenant_id = {_TENANT} AND m.forest_id = p_forest AND {_FACT_VISIBLE.format(m="m")}
    UNION ALL
    SELECT s.fact_id, s.tsv FROM (
        SELECT x.* FROM facts x WHERE p_scan AND x.tenant_id = {_TENANT} AND x.forest_id = p_forest OFFSET 0
    ) s
    WHERE s.tsv @@ p_query AND {_FACT_VISIBLE.format(m="s")}
    LIMIT p_cap
$$
"""
_NODE_MATCHES = f"""
CREATE FUNCTION memforest_node_text_matches(
    p_forest bigint, p_query tsquery, p_cap integer, p_as_of timestamptz, p_scan boolean)
RETURNS TABLE (node_id bigint, tree_id bigint, leaf_cell_id bigint, tsv tsvector)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path FROM CURRENT AS $$
    SELECT m.node_id, m.tree_id, m.leaf_cell_id, m.tsv FROM (
        SELECT x.* FROM nodes x
        WHERE NOT p_scan AND ARRAY[x.forest_id] @> ARRAY[p_forest] AND x.tsv @@ p_query AND x.leaf_fact_id IS NULL
        OFFSET 0
    ) m
    WHERE m.tenant_id = {_TENANT} AND m.forest_id = p_forest AND (p_as_of IS NULL OR m.t_start <= p_as_of)
    UNION ALL
    SELECT s.node_id, s.tree_id, s.leaf_cell_id, s.tsv FROM (
        SELECT x.* FROM nodes x WHERE p_scan AND x.tenant_id = {_TENANT} AND x.forest_id = p_forest
        AND x.leaf_fact_id IS NULL OFFSET 0
    ) s
    WHERE s.tsv @@ p_query AND (p_as_of IS NULL OR s.t_start <= p_as_of)
    LIMIT p_cap
$$
"""


def _grant(signature: str) -> None:
    for fn in ("memforest_fact_text_matches", "memforest_node_text_matches"):
        op.execute(f"REVOKE ALL ON FUNCTION {fn}{signature} FROM PUBLIC")
        op.execute(
            f"DO $$ BEGIN IF EXISTS (SELECT FROM pg_roles WHERE rolname = '{APP_ROLE}') THEN "
            f"EXECUTE 'GRANT EXECUTE ON FUNCTION {fn}{signature} TO {APP_ROLE}'; END IF; END $$"
        )


def upgrade() -> None:
    for fn in ("memforest_fact_text_matches", "memforest_node_text_matches"):
        op.execute(f"DROP FUNCTION IF EXISTS {fn}{_OLD_SIGNATURE}")
    op.execute(_FACT_MATCHES)
    op.execute(_NODE_MATCHES)
    _grant(_SIGNATURE)


def _revision_0011() -> Any:
    """Migration 0011's module (its function bodies are what a downgrade restores)."""
    path = Path(__file__).with_name("0011_forest_scoped_lookups.py")
    spec = importlib.util.spec_from_file_location("memforest_migration_0011", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def downgrade() -> None:
    previous = _revision_0011()
    for fn in ("memforest_fact_text_matches", "memforest_node_text_matches"):
        op.execute(f"DROP FUNCTION IF EXISTS {fn}{_SIGNATURE}")
    op.execute(previous._FACT_MATCHES)
    op.execute(previous._NODE_MATCHES)
    _grant(_OLD_SIGNATURE)
