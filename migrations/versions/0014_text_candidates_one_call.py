"""Full-text candidates of a large forest in one call per kind: through the forest's own GIN index,
rows matching two of the question's terms first, then rows matching any (ADR 0024, session 9).

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-26

The read path called each full-text function of migration 0013 twice (the term pairs, then any
term, the second call only while the first did not fill the cap) and joined the two in SQL, for a
forest with its own indexes and for one without alike. Now:

- a forest with its own GIN indexes calls ``memforest_fact_text_candidates`` /
  ``memforest_node_text_candidates`` once: the pairs through the forest's GIN index (up to
  ``cap``), and only if they did not fill it, any term through it, excluding rows that match a
  pair (the first query returned them all);
- a forest without them is read by the recall statement itself (``memforest.store.recall_channels``):
  the tenant's policy applies, and ``@@`` filters the rows read through the ``(tenant, forest)``
  b-tree, as 0013's ``p_scan`` branch did, so that branch goes.

Tenant filter, visibility and the grant to ``memforest_app`` only are as in 0013. The functions of
0013 go (nothing calls them); a downgrade restores them.

Also ``ix_sessions_forest_time``: every query reads the time of the forest's latest session (it
resolves "now" and relative dates), and ``max(time)`` read every session of the forest without it
(1.4 ms at 5,000 sessions; an index-only look at the end of the b-tree with it).
"""

from __future__ import annotations

from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

APP_ROLE = "memforest_app"
# the tenant of the transaction, as the tenant_isolation policy reads it (as in migration 0013)
_TENANT = "NULLIF(current_setting('memforest.tenant_id', true), '')::uuid"
# a fact row m visible as of $2 (NULL: now), as in migration 0013
_FACT_VISIBLE = (
    "CASE WHEN $2 IS NULL THEN m.retracted_at IS NULL "
    "ELSE (m.retracted_at IS NULL OR m.retracted_at > $2) AND m.valid_from <= $2 "
    "AND m.recorded_at <= $2 AND (m.valid_to IS NULL OR m.valid_to > $2) END"
)
_OLD_SIGNATURE = "(bigint, tsquery, integer, timestamptz, boolean)"
_SIGNATURE = "(bigint, tsquery, tsquery, integer, timestamptz)"
_FUNCTIONS = ("memforest_fact_text_candidates", "memforest_node_text_candidates")
_OLD_FUNCTIONS = ("memforest_fact_text_matches", "memforest_node_text_matches")
# The statement that reads the forest's own GIN index, which the planner uses only when the
# statement names the forest as a constant: it is built with it (format %s of a bigint) and run with
# EXECUTE. The tenant and the other tests stay outside the OFFSET 0 fence, so the index is read
# alone. $1 the query, $2 as_of, $3 the cap, $4 the tenant, $5 the pairs.
_READ = (
    "'SELECT {cols} FROM (SELECT x.* FROM {table} x WHERE x.forest_id = %s {only}AND x.tsv @@ $1 OFFSET 0) m '\n"
    "            'WHERE m.tenant_id = $4 AND {visible}{exclude} LIMIT $3'"
)
# rows matching a pair are left out of the read of any term: the first read returned them all
_NOT_A_PAIR = " AND NOT coalesce(m.tsv @@ $5, false)"
_FUNCTION = """
CREATE FUNCTION {name}(p_forest bigint, p_any tsquery, p_two tsquery, p_cap integer, p_as_of timestamptz)
RETURNS TABLE ({returns})
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path FROM CURRENT AS $fn$
#variable_conflict use_column
DECLARE
    v_tenant uuid := {tenant};
    v_two bigint := 0;
BEGIN
    IF p_any IS NULL THEN
        RETURN;
    END IF;
    IF p_two IS NOT NULL THEN
        RETURN QUERY EXECUTE format(
            {read_pairs}, p_forest)
            USING p_two, p_as_of, p_cap, v_tenant;
        GET DIAGNOSTICS v_two = ROW_COUNT;
    END IF;
    IF v_two < p_cap THEN
        RETURN QUERY EXECUTE format(
            {read_any}, p_forest)
            USING p_any, p_as_of, p_cap, v_tenant, p_two;
    END IF;
END
$fn$
"""
# The functions as migration 0013 created them, which a downgrade restores (a frozen copy: history).
_FACT_MATCHES_0013 = """
CREATE FUNCTION memforest_fact_text_matches(
    p_forest bigint, p_query tsquery, p_cap integer, p_as_of timestamptz, p_scan boolean)
RETURNS TABLE (fact_id bigint, tsv tsvector)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path FROM CURRENT AS $fn$
#variable_conflict use_column
DECLARE
    v_tenant uuid := NULLIF(current_setting('memforest.tenant_id', true), '')::uuid;
BEGIN
    IF p_scan THEN
        RETURN QUERY SELECT x.fact_id, x.tsv FROM facts x
            WHERE x.tenant_id = v_tenant AND x.forest_id = p_forest AND x.tsv @@ p_query
              AND CASE WHEN p_as_of IS NULL THEN x.retracted_at IS NULL ELSE (x.retracted_at IS NULL OR x.retracted_at > p_as_of) AND x.valid_from <= p_as_of AND x.recorded_at <= p_as_of AND (x.valid_to IS NULL OR x.valid_to > p_as_of) END
            LIMIT p_cap;
    ELSE
        RETURN QUERY EXECUTE format(
            'SELECT m.fact_id, m.tsv FROM (SELECT x.* FROM facts x WHERE x.forest_id = %s AND x.tsv @@ $1 OFFSET 0) m '
            'WHERE m.tenant_id = $4 AND CASE WHEN $2 IS NULL THEN m.retracted_at IS NULL ELSE (m.retracted_at IS NULL OR m.retracted_at > $2) AND m.valid_from <= $2 AND m.recorded_at <= $2 AND (m.valid_to IS NULL OR m.valid_to > $2) END LIMIT $3', p_forest)
            USING p_query, p_as_of, p_cap, v_tenant;
    END IF;
END
$fn$
"""
_NODE_MATCHES_0013 = """
CREATE FUNCTION memforest_node_text_matches(
    p_forest bigint, p_query tsquery, p_cap integer, p_as_of timestamptz, p_scan boolean)
RETURNS TABLE (node_id bigint, tree_id bigint, leaf_cell_id bigint, tsv tsvector)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path FROM CURRENT AS $fn$
#variable_conflict use_column
DECLARE
    v_tenant uuid := NULLIF(current_setting('memforest.tenant_id', true), '')::uuid;
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


def _function(name: str, returns: str, cols: str, table: str, only: str, visible: str) -> str:
    """The CREATE FUNCTION statement of one kind's candidates."""
    read = {"cols": cols, "table": table, "only": only, "visible": visible}
    return _FUNCTION.format(
        name=name,
        returns=returns,
        tenant=_TENANT,
        read_pairs=_READ.format(**read, exclude=""),
        read_any=_READ.format(**read, exclude=_NOT_A_PAIR),
    )


def _grant(functions: tuple[str, ...], signature: str) -> None:
    for fn in functions:
        op.execute(f"REVOKE ALL ON FUNCTION {fn}{signature} FROM PUBLIC")
        op.execute(
            f"DO $$ BEGIN IF EXISTS (SELECT FROM pg_roles WHERE rolname = '{APP_ROLE}') THEN "
            f"EXECUTE 'GRANT EXECUTE ON FUNCTION {fn}{signature} TO {APP_ROLE}'; END IF; END $$"
        )


def upgrade() -> None:
    for fn in _OLD_FUNCTIONS:
        op.execute(f"DROP FUNCTION IF EXISTS {fn}{_OLD_SIGNATURE}")
    fact_cols = "m.fact_id, m.tsv"
    op.execute(_function(_FUNCTIONS[0], "fact_id bigint, tsv tsvector", fact_cols, "facts", "", _FACT_VISIBLE))
    node_returns = "node_id bigint, tree_id bigint, leaf_cell_id bigint, tsv tsvector"
    node_cols = "m.node_id, m.tree_id, m.leaf_cell_id, m.tsv"
    node_visible = "($2 IS NULL OR m.t_start <= $2)"
    only_cells = "AND x.leaf_fact_id IS NULL "
    op.execute(_function(_FUNCTIONS[1], node_returns, node_cols, "nodes", only_cells, node_visible))
    _grant(_FUNCTIONS, _SIGNATURE)
    op.create_index("ix_sessions_forest_time", "sessions", ["tenant_id", "forest_id", "time"])


def downgrade() -> None:
    op.drop_index("ix_sessions_forest_time", table_name="sessions")
    for fn in _FUNCTIONS:
        op.execute(f"DROP FUNCTION IF EXISTS {fn}{_SIGNATURE}")
    op.execute(_FACT_MATCHES_0013)
    op.execute(_NODE_MATCHES_0013)
    _grant(_OLD_FUNCTIONS, _OLD_SIGNATURE)
