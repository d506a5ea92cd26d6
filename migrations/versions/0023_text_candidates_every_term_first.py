"""Full-text candidates of a large forest: rows matching every term of the question first (ADR 0033).

Revision ID: 0023
Revises: 0022
Create Date: 2026-11-28

The candidate functions of migration 0014 (the node one over cell leaves since 0016) read a
forest's GIN index for the rows matching a pair of the question's terms (up to the cap), then,
while those did not fill it, for the rows matching any term. A GIN bitmap scan cannot stop early:
an OR of pairs walks the posting list of every term of the question to its end, so in a forest
where the question's words are common it cost as much as reading every match (the 100K-fact forest
of ``bench.query_latency``: 4-7 ms a table for ~7,000 pair matches, of which the cap kept 300 in
physical order). An AND of every term is the cheap shape for GIN (each term is required: the scan
skips through the posting lists; ~1 ms there) and it finds the best matches by coordination level.

Both functions now take ``p_all`` (the question's terms joined by AND; the caller passes NULL below
three terms, where the pairs are that query) and ``p_enough`` (the caller's own row count, the
channel's LIMIT): the rows matching every term come first, up to ``p_cap``; when there are
``p_enough`` of them nothing else is read; otherwise the rows matching a pair but not every term,
up to ``p_cap``, then (while the two did not fill ``p_cap``) those matching one term only, as
before. Tenant filter, visibility, grants and the path searched (``pg_temp`` last: 0021) as before;
same names, a new signature (the old one is dropped). A downgrade restores 0014's functions (the
node one over cell leaves, as 0016 left it). Upgrade with the servers stopped (or restart them right
after): a process of the previous release calls the old signature, and its queries of forests with
their own indexes fail until it restarts.
"""

from __future__ import annotations

from alembic import op

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None

APP_ROLE = "memforest_app"
_OLD_SIGNATURE = "(bigint, tsquery, tsquery, integer, timestamptz)"
_SIGNATURE = "(bigint, tsquery, tsquery, tsquery, integer, integer, timestamptz)"
_FACT = "memforest_fact_text_candidates"
_NODE = "memforest_node_text_candidates"
_FACT_RETURNS = "fact_id bigint, tsv tsvector"
_FACT_COLS = "m.fact_id, m.tsv"
# the tenant of the transaction, as the tenant_isolation policy reads it (as in migration 0013)
_TENANT = "NULLIF(current_setting('memforest.tenant_id', true), '')::uuid"
# a fact row m visible as of $2 (NULL: now), as in migration 0013
_FACT_VISIBLE = (
    "CASE WHEN $2 IS NULL THEN m.retracted_at IS NULL "
    "ELSE (m.retracted_at IS NULL OR m.retracted_at > $2) AND m.valid_from <= $2 "
    "AND m.recorded_at <= $2 AND (m.valid_to IS NULL OR m.valid_to > $2) END"
)
_NODE_RETURNS = "node_id bigint, tree_id bigint, leaf_cell_id bigint, tsv tsvector"
_NODE_COLS = "m.node_id, m.tree_id, m.leaf_cell_id, m.tsv"
_NODE_VISIBLE = "($2 IS NULL OR m.t_start <= $2)"
_CELL_LEAVES = "AND x.leaf_cell_id IS NOT NULL "
# One phase's read of the forest's own GIN index, as in migration 0014: built with the forest id
# (format %s of a bigint) and run with EXECUTE, so the planner can use the index; the tenant and
# the other tests stay outside the OFFSET 0 fence.
_READ = (
    "'SELECT {cols} FROM (SELECT x.* FROM {table} x WHERE x.forest_id = %s {only}AND x.tsv @@ $1 OFFSET 0) m '\n"
    "            'WHERE m.tenant_id = $4 AND {visible}{exclude} LIMIT $3'"
)
_LEAVE_OUT = " AND NOT coalesce(m.tsv @@ $5, false)"
# $1 the query of the phase, $2 as_of, $3 the cap, $4 the tenant, $5 the rows a phase leaves out
# (those an earlier phase read: ``m.tsv @@ $5``; NULL leaves none out)
_FUNCTION = """
CREATE FUNCTION {name}(p_forest bigint, p_any tsquery, p_two tsquery, p_all tsquery, p_enough integer,
                       p_cap integer, p_as_of timestamptz)
RETURNS TABLE ({returns})
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path FROM CURRENT AS $fn$
#variable_conflict use_column
DECLARE
    v_tenant uuid := {tenant};
    v_all bigint := 0;
    v_two bigint := 0;
BEGIN
    IF p_any IS NULL THEN
        RETURN;
    END IF;
    IF p_all IS NOT NULL THEN
        RETURN QUERY EXECUTE format(
            {read}, p_forest)
            USING p_all, p_as_of, p_cap, v_tenant, NULL::tsquery;
        GET DIAGNOSTICS v_all = ROW_COUNT;
        IF v_all >= p_enough THEN
            RETURN;
        END IF;
    END IF;
    IF p_two IS NOT NULL THEN
        RETURN QUERY EXECUTE format(
            {read}, p_forest)
            USING p_two, p_as_of, p_cap, v_tenant, p_all;
        GET DIAGNOSTICS v_two = ROW_COUNT;
    END IF;
    IF v_all + v_two < p_cap THEN
        RETURN QUERY EXECUTE format(
            {read}, p_forest)
            USING p_any, p_as_of, p_cap, v_tenant, p_two;
    END IF;
END
$fn$
"""
# The functions a downgrade restores, as migration 0014 created the fact one and migration 0016 the
# node one (frozen copies: history).
_FACT_CANDIDATES_0014 = """
CREATE FUNCTION memforest_fact_text_candidates(p_forest bigint, p_any tsquery, p_two tsquery, p_cap integer, p_as_of timestamptz)
RETURNS TABLE (fact_id bigint, tsv tsvector)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path FROM CURRENT AS $fn$
#variable_conflict use_column
DECLARE
    v_tenant uuid := NULLIF(current_setting('memforest.tenant_id', true), '')::uuid;
    v_two bigint := 0;
BEGIN
    IF p_any IS NULL THEN
        RETURN;
    END IF;
    IF p_two IS NOT NULL THEN
        RETURN QUERY EXECUTE format(
            'SELECT m.fact_id, m.tsv FROM (SELECT x.* FROM facts x WHERE x.forest_id = %s AND x.tsv @@ $1 OFFSET 0) m '
            'WHERE m.tenant_id = $4 AND CASE WHEN $2 IS NULL THEN m.retracted_at IS NULL ELSE (m.retracted_at IS NULL OR m.retracted_at > $2) AND m.valid_from <= $2 AND m.recorded_at <= $2 AND (m.valid_to IS NULL OR m.valid_to > $2) END LIMIT $3', p_forest)
            USING p_two, p_as_of, p_cap, v_tenant;
        GET DIAGNOSTICS v_two = ROW_COUNT;
    END IF;
    IF v_two < p_cap THEN
        RETURN QUERY EXECUTE format(
            'SELECT m.fact_id, m.tsv FROM (SELECT x.* FROM facts x WHERE x.forest_id = %s AND x.tsv @@ $1 OFFSET 0) m '
            'WHERE m.tenant_id = $4 AND CASE WHEN $2 IS NULL THEN m.retracted_at IS NULL ELSE (m.retracted_at IS NULL OR m.retracted_at > $2) AND m.valid_from <= $2 AND m.recorded_at <= $2 AND (m.valid_to IS NULL OR m.valid_to > $2) END AND NOT coalesce(m.tsv @@ $5, false) LIMIT $3', p_forest)
            USING p_any, p_as_of, p_cap, v_tenant, p_two;
    END IF;
END
$fn$
"""
_NODE_CANDIDATES_0016 = """
CREATE FUNCTION memforest_node_text_candidates(p_forest bigint, p_any tsquery, p_two tsquery, p_cap integer, p_as_of timestamptz)
RETURNS TABLE (node_id bigint, tree_id bigint, leaf_cell_id bigint, tsv tsvector)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path FROM CURRENT AS $fn$
#variable_conflict use_column
DECLARE
    v_tenant uuid := NULLIF(current_setting('memforest.tenant_id', true), '')::uuid;
    v_two bigint := 0;
BEGIN
    IF p_any IS NULL THEN
        RETURN;
    END IF;
    IF p_two IS NOT NULL THEN
        RETURN QUERY EXECUTE format(
            'SELECT m.node_id, m.tree_id, m.leaf_cell_id, m.tsv FROM (SELECT x.* FROM nodes x WHERE x.forest_id = %s AND x.leaf_cell_id IS NOT NULL AND x.tsv @@ $1 OFFSET 0) m '
            'WHERE m.tenant_id = $4 AND ($2 IS NULL OR m.t_start <= $2) LIMIT $3', p_forest)
            USING p_two, p_as_of, p_cap, v_tenant;
        GET DIAGNOSTICS v_two = ROW_COUNT;
    END IF;
    IF v_two < p_cap THEN
        RETURN QUERY EXECUTE format(
            'SELECT m.node_id, m.tree_id, m.leaf_cell_id, m.tsv FROM (SELECT x.* FROM nodes x WHERE x.forest_id = %s AND x.leaf_cell_id IS NOT NULL AND x.tsv @@ $1 OFFSET 0) m '
            'WHERE m.tenant_id = $4 AND ($2 IS NULL OR m.t_start <= $2) AND NOT coalesce(m.tsv @@ $5, false) LIMIT $3', p_forest)
            USING p_any, p_as_of, p_cap, v_tenant, p_two;
    END IF;
END
$fn$
"""
# Migration 0021's statement (a frozen copy): ``pg_temp`` last in the stored path of every definer
# function of the schema that lacks it, here the functions just created.
_DEFINERS = r"""
    SELECT p.oid::regprocedure AS signature,
           (SELECT substr(c, length('search_path=') + 1) FROM unnest(p.proconfig) AS c
             WHERE c LIKE 'search_path=%') AS path
      FROM pg_proc p
     WHERE p.prosecdef AND p.pronamespace = current_schema()::regnamespace AND p.proname LIKE 'memforest\_%'
"""
_TEMP_SCHEMA_LAST = rf"""
        DO $$
        DECLARE f record;
        BEGIN
            FOR f IN {_DEFINERS} LOOP
                IF f.path IS NULL OR f.path !~ '(^|,)\s*pg_temp\s*$' THEN
                    EXECUTE format('ALTER FUNCTION %s SET search_path = %s', f.signature, coalesce(f.path, current_setting('search_path')) || ', pg_temp');
                END IF;
            END LOOP;
        END $$
        """


def _function(name: str, returns: str, cols: str, table: str, only: str, visible: str) -> str:
    """The CREATE FUNCTION statement of one kind's candidates (0014's read, each phase leaving out
    the rows of the one before)."""
    read = _READ.format(cols=cols, table=table, only=only, visible=visible, exclude=_LEAVE_OUT)
    return _FUNCTION.format(name=name, returns=returns, tenant=_TENANT, read=read)


def _grant(functions: tuple[str, ...], signature: str) -> None:
    for fn in functions:
        op.execute(f"REVOKE ALL ON FUNCTION {fn}{signature} FROM PUBLIC")
        op.execute(
            f"DO $$ BEGIN IF EXISTS (SELECT FROM pg_roles WHERE rolname = '{APP_ROLE}') THEN "
            f"EXECUTE 'GRANT EXECUTE ON FUNCTION {fn}{signature} TO {APP_ROLE}'; END IF; END $$"
        )


def upgrade() -> None:
    for fn in (_FACT, _NODE):
        op.execute(f"DROP FUNCTION IF EXISTS {fn}{_OLD_SIGNATURE}")
    op.execute(_function(_FACT, _FACT_RETURNS, _FACT_COLS, "facts", "", _FACT_VISIBLE))
    op.execute(_function(_NODE, _NODE_RETURNS, _NODE_COLS, "nodes", _CELL_LEAVES, _NODE_VISIBLE))
    _grant((_FACT, _NODE), _SIGNATURE)
    op.execute(_TEMP_SCHEMA_LAST)  # (pg_temp last in the new functions' path, as in every definer function)


def downgrade() -> None:
    for fn in (_FACT, _NODE):
        op.execute(f"DROP FUNCTION IF EXISTS {fn}{_SIGNATURE}")
    op.execute(_FACT_CANDIDATES_0014)
    op.execute(_NODE_CANDIDATES_0016)
    _grant((_FACT, _NODE), _OLD_SIGNATURE)
    op.execute(_TEMP_SCHEMA_LAST)
