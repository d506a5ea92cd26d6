"""Full-text matches: a small forest reads its rows, a large one its own GIN indexes (ADR 0024).

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-23

The forest-keyed GIN indexes of migration 0011 kept one posting list per lexeme for the whole
table: the bitmap of a 1K forest's matches intersected the forest's entries with posting lists that
hold every forest's rows (a common word of the benchmark vocabulary: 10% of all facts), ~7 ms and
~300 buffers for 169 rows among 130K facts, growing with the database, not with the forest. Read
through the ``(tenant, forest)`` b-trees with ``@@`` as a filter, the same 1K forest takes ~0.6 ms.
So the global GIN indexes go; a forest past ``exact_scan_max_rows`` facts gets GIN indexes of its
own with its HNSW indexes (``memforest.store.forest_indexes``), and the two ``SECURITY DEFINER``
match functions gain ``p_scan``: true (a forest without its own indexes) reads the forest's rows,
false reads its own GIN index through a statement built with the forest id. Tenant filter,
visibility and the cap are unchanged; EXECUTE stays granted to ``memforest_app`` only.
"""

from __future__ import annotations

from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

APP_ROLE = "memforest_app"
_TENANT = "NULLIF(current_setting('memforest.tenant_id', true), '')::uuid"
_OLD_SIGNATURE = "(bigint, tsquery, integer, timestamptz)"
_SIGNATURE = "(bigint, tsquery, integer, timestamptz, boolean)"
# visibility of a fact row {m} as of {as_of} (NULL: now)
_FACT_VISIBLE = (
    "CASE WHEN {as_of} IS NULL THEN {m}.retracted_at IS NULL "
    "ELSE ({m}.retracted_at IS NULL OR {m}.retracted_at > {as_of}) AND {m}.valid_from <= {as_of} "
    "AND {m}.recorded_at <= {as_of} AND ({m}.valid_to IS NULL OR {m}.valid_to > {as_of}) END"
)
# p_scan: the forest's rows by b-tree, @@ tested on each. Otherwise the forest's own GIN index,
# which the planner can use only when the statement names the forest as a constant: the statement
# is built with it (format %s of a bigint) and run with EXECUTE, so it is planned for that forest.
# The tenant and the other tests stay outside the OFFSET 0 fence, so the index is read alone.
_FACT_MATCHES = f"""
CREATE FUNCTION memforest_fact_text_matches(
    p_forest bigint, p_query tsquery, p_cap integer, p_as_of timestamptz, p_scan boolean)
RETURNS TABLE (fact_id bigint, tsv tsvector)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path FROM CURRENT AS $fn$
#variable_conflict use_column
DECLARE
    v_tenant uuid := {_TENANT};
BEGIN
    IF p_scan THEN
        RETURN QUERY SELECT x.fact_id, x.tsv FROM facts x
            WHERE x.tenant_id = v_tenant AND x.forest_id = p_forest AND x.tsv @@ p_query
              AND {_FACT_VISIBLE.format(m="x", as_of="p_as_of")}
            LIMIT p_cap;
    ELSE
        RETURN QUERY EXECUTE format(
            'SELECT m.fact_id, m.tsv FROM (SELECT x.* FROM facts x WHERE x.forest_id = %s AND x.tsv @@ $1 OFFSET 0) m '
            'WHERE m.tenant_id = $4 AND {_FACT_VISIBLE.format(m="m", as_of="$2")} LIMIT $3', p_forest)
            USING p_query, p_as_of, p_cap, v_tenant;
    END IF;
END
$fn$
"""
_NODE_MATCHES = f"""
CREATE FUNCTION memforest_node_text_matches(
    p_forest bigint, p_query tsquery, p_cap integer, p_as_of timestamptz, p_scan boolean)
RETURNS TABLE (node_id bigint, tree_id bigint, leaf_cell_id bigint, tsv tsvector)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path FROM CURRENT AS $fn$
#variable_conflict use_column
DECLARE
    v_tenant uuid := {_TENANT};
BEGIN
    IF p_scan THEN
        RETURN QUERY SELECT x.node_id, x.tree_id, x.leaf_cell_id, x.tsv FROM nodes x
            WHERE x.tenant_id = v_tenant AND x.forest_id = p_forest AND x.leaf_fact_id IS NULL
              AND x.tsv @@ p_query AND (p_as_of IS NULL OR x.t_start <= p_as_of)
            LIMIT p_cap;
    ELSE
        RETURN QUERY EXECUTE format(
            'SELECT m.node_id, m.tree_id, m.leaf_cell_id, m.tsv FROM (SELECT x.* FROM nodes x '
            'WHERE x.forest_id = %s AND x.leaf_fact_id IS NULL AND x.tsv @@ $1 OFFSET 0) m '
            'WHERE m.tenant_id = $4 AND ($2 IS NULL OR m.t_start <= $2) LIMIT $3', p_forest)
            USING p_query, p_as_of, p_cap, v_tenant;
    END IF;
END
$fn$
"""
# The functions as migration 0011 created them, which a downgrade restores (a frozen copy: history).
_FACT_MATCHES_0011 = """
CREATE FUNCTION memforest_fact_text_matches(p_forest bigint, p_query tsquery, p_cap integer, p_as_of timestamptz)
RETURNS TABLE (fact_id bigint, tsv tsvector)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path FROM CURRENT AS $$
    SELECT m.fact_id, m.tsv FROM (
        SELECT x.* FROM facts x WHERE ARRAY[x.forest_id] @> ARRAY[p_forest] AND x.tsv @@ p_query OFFSET 0
    ) m
    WHERE m.tenant_id = NULLIF(current_setting('memforest.tenant_id', true), '')::uuid AND m.forest_id = p_forest
      AND CASE WHEN p_as_of IS NULL THEN m.retracted_at IS NULL
               ELSE (m.retracted_at IS NULL OR m.retracted_at > p_as_of) AND m.valid_from <= p_as_of
                    AND m.recorded_at <= p_as_of AND (m.valid_to IS NULL OR m.valid_to > p_as_of) END
    LIMIT p_cap
$$
"""
_NODE_MATCHES_0011 = """
CREATE FUNCTION memforest_node_text_matches(p_forest bigint, p_query tsquery, p_cap integer, p_as_of timestamptz)
RETURNS TABLE (node_id bigint, tree_id bigint, leaf_cell_id bigint, tsv tsvector)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path FROM CURRENT AS $$
    SELECT m.node_id, m.tree_id, m.leaf_cell_id, m.tsv FROM (
        SELECT x.* FROM nodes x
        WHERE ARRAY[x.forest_id] @> ARRAY[p_forest] AND x.tsv @@ p_query AND x.leaf_fact_id IS NULL OFFSET 0
    ) m
    WHERE m.tenant_id = NULLIF(current_setting('memforest.tenant_id', true), '')::uuid AND m.forest_id = p_forest AND (p_as_of IS NULL OR m.t_start <= p_as_of)
    LIMIT p_cap
$$
"""
# the global full-text indexes of migration 0011, replaced by each large forest's own
_GLOBAL_GIN = {
    "ix_facts_forest_tsv": "facts USING gin ((ARRAY[forest_id]), tsv)",
    "ix_nodes_forest_tsv": "nodes USING gin ((ARRAY[forest_id]), tsv) WHERE leaf_fact_id IS NULL",
}


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
    for name in _GLOBAL_GIN:
        op.execute(f"DROP INDEX IF EXISTS {name}")
    op.execute(_FACT_MATCHES)
    op.execute(_NODE_MATCHES)
    _grant(_SIGNATURE)


def downgrade() -> None:
    for fn in ("memforest_fact_text_matches", "memforest_node_text_matches"):
        op.execute(f"DROP FUNCTION IF EXISTS {fn}{_SIGNATURE}")
    op.execute(_FACT_MATCHES_0011)
    op.execute(_NODE_MATCHES_0011)
    _grant(_OLD_SIGNATURE)
    for name, definition in _GLOBAL_GIN.items():
        op.execute(f"CREATE INDEX IF NOT EXISTS {name} ON {definition}")
