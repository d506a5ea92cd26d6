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

import importlib.util
from pathlib import Path
from types import ModuleType

from alembic import op

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None


def _migration(filename: str) -> ModuleType:
    """An earlier migration's module (its function builder, grants, tenant expression)."""
    path = Path(__file__).with_name(filename)
    spec = importlib.util.spec_from_file_location(f"memforest_migration_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_V14 = _migration("0014_text_candidates_one_call.py")
_V21 = _migration("0021_definer_functions_temp_schema_last.py")
_SIGNATURE = "(bigint, tsquery, tsquery, tsquery, integer, integer, timestamptz)"
_FACT = "memforest_fact_text_candidates"
_NODE = "memforest_node_text_candidates"
_FACT_RETURNS = "fact_id bigint, tsv tsvector"
_FACT_COLS = "m.fact_id, m.tsv"
_FACT_VISIBLE = _V14._V13._FACT_VISIBLE.format(m="m", as_of="$2")
_NODE_RETURNS = "node_id bigint, tree_id bigint, leaf_cell_id bigint, tsv tsvector"
_NODE_COLS = "m.node_id, m.tree_id, m.leaf_cell_id, m.tsv"
_NODE_VISIBLE = "($2 IS NULL OR m.t_start <= $2)"
_CELL_LEAVES = "AND x.leaf_cell_id IS NOT NULL "
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


def _function(name: str, returns: str, cols: str, table: str, only: str, visible: str) -> str:
    """The CREATE FUNCTION statement of one kind's candidates (0014's read, each phase leaving out
    the rows of the one before)."""
    read = _V14._READ.format(cols=cols, table=table, only=only, visible=visible, exclude=_V14._NOT_A_PAIR)
    return _FUNCTION.format(name=name, returns=returns, tenant=_V14._V13._TENANT, read=read)


def upgrade() -> None:
    for fn in (_FACT, _NODE):
        op.execute(f"DROP FUNCTION IF EXISTS {fn}{_V14._SIGNATURE}")
    op.execute(_function(_FACT, _FACT_RETURNS, _FACT_COLS, "facts", "", _FACT_VISIBLE))
    op.execute(_function(_NODE, _NODE_RETURNS, _NODE_COLS, "nodes", _CELL_LEAVES, _NODE_VISIBLE))
    _V14._grant((_FACT, _NODE), _SIGNATURE)
    _V21.upgrade()  # (pg_temp last in the new functions' path, as in every definer function)


def downgrade() -> None:
    for fn in (_FACT, _NODE):
        op.execute(f"DROP FUNCTION IF EXISTS {fn}{_SIGNATURE}")
    op.execute(_V14._function(_FACT, _FACT_RETURNS, _FACT_COLS, "facts", "", _FACT_VISIBLE))
    op.execute(_V14._function(_NODE, _NODE_RETURNS, _NODE_COLS, "nodes", _CELL_LEAVES, _NODE_VISIBLE))
    _V14._grant((_FACT, _NODE), _V14._SIGNATURE)
    _V21.upgrade()
