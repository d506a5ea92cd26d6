"""The full-text channel of nodes reads cell leaves only, not internal nodes (ADR 0024, session 14).

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-26

Internal nodes' summaries gather their leaves' words (30 lexemes a node against 10 a cell leaf in
bench.query_latency's 100K forest), so a pair of a question's words was found in 43% of them
(12,773 of 29,337): 12,773 of the 19,610 rows the node channel's GIN index returned for that
question's term pairs, 8.4 ms of bitmap before the first row. A match on an internal node names a
tree whose leaves the fact and cell channels reach directly. So:

- ``memforest_node_text_candidates`` (migration 0014) reads rows with ``leaf_cell_id IS NOT NULL``
  (the cell leaves) where it read every row without ``leaf_fact_id``; signature, tenant filter,
  visibility and grants unchanged;
- every forest's own node GIN index ``ix_nodes_tsv_f<forest>`` is rebuilt over its cell leaves
  (``memforest.store.forest_indexes``): a third of the posting entries, and the write path no longer
  adds an internal node's words to it each time a refresh rewrites its summary. Each new index is
  built beside the old one (``CREATE INDEX`` takes a SHARE lock: writes to nodes wait, reads go
  on; a few seconds per 100K-fact forest), then the old ones are dropped and the new renamed,
  and the function replaced: those take ACCESS EXCLUSIVE locks, held until the migration commits
  (moments after). Stop the workers for the upgrade: an old worker could build a forest's index
  with the old predicate afterwards, which the read path's check (by name) would take as current
  (``memforest db index-forests`` compares predicates and rebuilds it).

A downgrade restores both.
"""

from __future__ import annotations

from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None

APP_ROLE = "memforest_app"
_NAME = "memforest_node_text_candidates"
_SIGNATURE = "(bigint, tsquery, tsquery, integer, timestamptz)"
# The node candidates function over the cell leaves (this migration's): migration 0014's function
# with only the rows it reads changed.
_OVER_CELL_LEAVES = """
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
# The node candidates function as migration 0014 created it, which a downgrade restores (a frozen
# copy: history).
_OVER_NODES_BUT_FACT_LEAVES = """
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
            'SELECT m.node_id, m.tree_id, m.leaf_cell_id, m.tsv FROM (SELECT x.* FROM nodes x WHERE x.forest_id = %s AND x.leaf_fact_id IS NULL AND x.tsv @@ $1 OFFSET 0) m '
            'WHERE m.tenant_id = $4 AND ($2 IS NULL OR m.t_start <= $2) LIMIT $3', p_forest)
            USING p_two, p_as_of, p_cap, v_tenant;
        GET DIAGNOSTICS v_two = ROW_COUNT;
    END IF;
    IF v_two < p_cap THEN
        RETURN QUERY EXECUTE format(
            'SELECT m.node_id, m.tree_id, m.leaf_cell_id, m.tsv FROM (SELECT x.* FROM nodes x WHERE x.forest_id = %s AND x.leaf_fact_id IS NULL AND x.tsv @@ $1 OFFSET 0) m '
            'WHERE m.tenant_id = $4 AND ($2 IS NULL OR m.t_start <= $2) AND NOT coalesce(m.tsv @@ $5, false) LIMIT $3', p_forest)
            USING p_any, p_as_of, p_cap, v_tenant, p_two;
    END IF;
END
$fn$
"""
_CELLS = "leaf_cell_id IS NOT NULL"
_NOT_FACTS = "leaf_fact_id IS NULL"
# every forest's own node GIN index, built again over the rows of ``{rows}``: each new one beside
# the old (reads go on), then the old ones dropped and the new renamed (brief exclusive locks)
_FOREST_NODE_TEXT = (
    "SELECT c.relname::text AS name, substring(c.relname FROM '[0-9]+$') AS forest FROM pg_class c "
    "JOIN pg_namespace ns ON ns.oid = c.relnamespace WHERE c.relkind = 'i' AND ns.nspname = current_schema() "
    "AND c.relname ~ '^ix_nodes_tsv_f[0-9]+$'"
)
_REBUILD = f"""
DO $$
DECLARE
    r record;
BEGIN
    FOR r IN {_FOREST_NODE_TEXT} LOOP
        EXECUTE format('CREATE INDEX %I ON nodes USING gin (tsv) WHERE forest_id = %s AND {{rows}}',
                       r.name || '_m16', r.forest);
    END LOOP;
    FOR r IN {_FOREST_NODE_TEXT} LOOP
        EXECUTE format('DROP INDEX %I', r.name);
        EXECUTE format('ALTER INDEX %I RENAME TO %I', r.name || '_m16', r.name);
    END LOOP;
END $$
"""


def _replace(rows: str, function: str) -> None:
    """The forests' node GIN indexes over the rows of ``rows`` and the node candidates function
    ``function`` reading them (the indexes first: replacing the function locks it until the
    migration commits)."""
    op.execute("SET LOCAL statement_timeout = 0")  # a forest's GIN build may take seconds
    op.execute("SET LOCAL maintenance_work_mem = '256MB'")  # as forest index builds (settings)
    op.execute(_REBUILD.format(rows=rows))
    op.execute(f"DROP FUNCTION IF EXISTS {_NAME}{_SIGNATURE}")
    op.execute(function)
    op.execute(f"REVOKE ALL ON FUNCTION {_NAME}{_SIGNATURE} FROM PUBLIC")
    op.execute(
        f"DO $$ BEGIN IF EXISTS (SELECT FROM pg_roles WHERE rolname = '{APP_ROLE}') THEN "
        f"EXECUTE 'GRANT EXECUTE ON FUNCTION {_NAME}{_SIGNATURE} TO {APP_ROLE}'; END IF; END $$"
    )


def upgrade() -> None:
    _replace(_CELLS, _OVER_CELL_LEAVES)


def downgrade() -> None:
    _replace(_NOT_FACTS, _OVER_NODES_BUT_FACT_LEAVES)
