"""Forest-scoped full-text indexes, subject/speaker lookups and a cell-leaf index for the read path.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-23

Profiling the read path at 10K and 100K facts (ADR 0022) found three statements reading a whole
forest where an index would read a few rows:

- the lexical recall channels scanned the forest row by row, evaluating ``@@`` on each: under
  row-level security the planner may use an index condition only when its operator is leakproof,
  and neither ``@@`` (``ts_match_vq``) nor ``@>`` on arrays is, so ``ix_facts_tsv`` /
  ``ix_nodes_tsv`` were never used by tenant work. Two ``SECURITY DEFINER`` functions
  (``memforest_fact_text_matches``, ``memforest_node_text_matches``) run the match as the owner,
  which RLS does not apply to, with the tenant filter of the policy written out
  (``current_setting('memforest.tenant_id')``), so they return exactly the rows the policy would
  let the caller see; only ``memforest_app`` may call them. Their GIN indexes carry the forest as a
  second key (``ARRAY[forest_id]``: a scalar GIN key needs ``btree_gin``, which the bundled server
  lacks), so a bitmap holds only the forest's matches. The node index is partial to the nodes the
  lexical channel reads (not fact leaves, whose text is the fact's). They replace the old indexes:
  one GIN per table, as before;
- the known-subject test of temporal questions: b-tree indexes on ``lower(speaker)`` and
  ``lower(subject)`` per forest;
- the exact scan of cell leaves: a partial b-tree of the forest's cell leaves
  (``level = 0 AND leaf_cell_id IS NOT NULL``, the predicate of ``ix_nodes_embedding``).
"""

from __future__ import annotations

from alembic import op

APP_ROLE = "memforest_app"
# the tenant of the transaction, as the tenant_isolation policy reads it
_TENANT = "NULLIF(current_setting('memforest.tenant_id', true), '')::uuid"
# the forest's facts matching a tsquery, visible (as of p_as_of when given), at most p_cap of them
_FACT_MATCHES = f"""
CREATE FUNCTION memforest_fact_text_matches(p_forest bigint, p_query tsquery, p_cap integer, p_as_of timestamptz)
RETURNS TABLE (fact_id bigint, tsv tsvector)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path FROM CURRENT AS $$
    SELECT m.fact_id, m.tsv FROM (
        SELECT x.* FROM facts x WHERE ARRAY[x.forest_id] @> ARRAY[p_forest] AND x.tsv @@ p_query OFFSET 0
    ) m
    WHERE m.tenant_id = {_TENANT} AND m.forest_id = p_forest
      AND CASE WHEN p_as_of IS NULL THEN m.retracted_at IS NULL
               ELSE (m.retracted_at IS NULL OR m.retracted_at > p_as_of) AND m.valid_from <= p_as_of
                    AND m.recorded_at <= p_as_of AND (m.valid_to IS NULL OR m.valid_to > p_as_of) END
    LIMIT p_cap
$$
"""
# the forest's nodes other than fact leaves (summaries, cell leaves) matching a tsquery
_NODE_MATCHES = f"""
CREATE FUNCTION memforest_node_text_matches(p_forest bigint, p_query tsquery, p_cap integer, p_as_of timestamptz)
RETURNS TABLE (node_id bigint, tree_id bigint, leaf_cell_id bigint, tsv tsvector)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path FROM CURRENT AS $$
    SELECT m.node_id, m.tree_id, m.leaf_cell_id, m.tsv FROM (
        SELECT x.* FROM nodes x
        WHERE ARRAY[x.forest_id] @> ARRAY[p_forest] AND x.tsv @@ p_query AND x.leaf_fact_id IS NULL OFFSET 0
    ) m
    WHERE m.tenant_id = {_TENANT} AND m.forest_id = p_forest AND (p_as_of IS NULL OR m.t_start <= p_as_of)
    LIMIT p_cap
$$
"""
_SIGNATURE = "(bigint, tsquery, integer, timestamptz)"
# The inner query reads the GIN index alone (OFFSET 0 keeps the tenant and forest tests out of it):
# left to itself the planner ANDed the GIN bitmap with a b-tree bitmap of the whole forest
# (ix_facts_forest_time, 100K entries, 15-28 ms at 100K facts) that removes nothing.

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("DROP INDEX IF EXISTS ix_facts_tsv")
    op.execute("CREATE INDEX ix_facts_forest_tsv ON facts USING gin ((ARRAY[forest_id]), tsv)")
    op.execute("DROP INDEX IF EXISTS ix_nodes_tsv")
    op.execute(
        "CREATE INDEX ix_nodes_forest_tsv ON nodes USING gin ((ARRAY[forest_id]), tsv) WHERE leaf_fact_id IS NULL"
    )
    op.execute(
        "CREATE INDEX ix_facts_speaker ON facts (tenant_id, forest_id, lower(speaker)) WHERE speaker IS NOT NULL"
    )
    op.execute(
        "CREATE INDEX ix_facts_subject ON facts (tenant_id, forest_id, lower(subject)) WHERE subject IS NOT NULL"
    )
    op.execute(
        "CREATE INDEX ix_nodes_cell_leaves ON nodes (tenant_id, forest_id) "
        "WHERE level = 0 AND leaf_cell_id IS NOT NULL"
    )
    op.execute(_FACT_MATCHES)
    op.execute(_NODE_MATCHES)
    for fn in ("memforest_fact_text_matches", "memforest_node_text_matches"):
        op.execute(f"REVOKE ALL ON FUNCTION {fn}{_SIGNATURE} FROM PUBLIC")
        op.execute(
            f"DO $$ BEGIN IF EXISTS (SELECT FROM pg_roles WHERE rolname = '{APP_ROLE}') THEN "
            f"EXECUTE 'GRANT EXECUTE ON FUNCTION {fn}{_SIGNATURE} TO {APP_ROLE}'; END IF; END $$"
        )


def downgrade() -> None:
    op.execute(f"DROP FUNCTION IF EXISTS memforest_node_text_matches{_SIGNATURE}")
    op.execute(f"DROP FUNCTION IF EXISTS memforest_fact_text_matches{_SIGNATURE}")
    op.execute("DROP INDEX IF EXISTS ix_nodes_cell_leaves")
    op.execute("DROP INDEX IF EXISTS ix_facts_subject")
    op.execute("DROP INDEX IF EXISTS ix_facts_speaker")
    op.execute("DROP INDEX IF EXISTS ix_nodes_forest_tsv")
    op.execute("CREATE INDEX ix_nodes_tsv ON nodes USING gin (tsv)")
    op.execute("DROP INDEX IF EXISTS ix_facts_forest_tsv")
    op.execute("CREATE INDEX ix_facts_tsv ON facts USING gin (tsv)")
