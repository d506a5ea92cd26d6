-- memforest_node_text_candidates: the full-text candidates among a large forest's cell leaves,
-- read through the forest's own GIN index (ix_nodes_tsv_f<forest>, over cell leaves) as the owner,
-- because under row-level security the planner keeps `@@` off an index; the policy's tenant filter
-- is written out. Rows matching every term first, then a pair, then any term, each phase leaving
-- out the rows of the one before (ADRs 0024, 0033). Called by memforest/store/recall_channels.py.
-- Installed by migration 0023 (text_candidates_every_term_first).
-- Stored search_path: the migration session's ("$user", public by default: SET search_path FROM
-- CURRENT) with pg_temp appended by migration 0021 (ADR 0030).
-- tests/db/test_migration_functions.py checks that a database migrated to head holds exactly this.

CREATE OR REPLACE FUNCTION memforest_node_text_candidates(p_forest bigint, p_any tsquery, p_two tsquery, p_all tsquery,
                                                          p_enough integer, p_cap integer, p_as_of timestamptz)
RETURNS TABLE (node_id bigint, tree_id bigint, leaf_cell_id bigint, tsv tsvector)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = "$user", public, pg_temp AS $fn$
#variable_conflict use_column
DECLARE
    v_tenant uuid := NULLIF(current_setting('memforest.tenant_id', true), '')::uuid;
    v_all bigint := 0;
    v_two bigint := 0;
BEGIN
    IF p_any IS NULL THEN
        RETURN;
    END IF;
    IF p_all IS NOT NULL THEN
        RETURN QUERY EXECUTE format(
            'SELECT m.node_id, m.tree_id, m.leaf_cell_id, m.tsv FROM (SELECT x.* FROM nodes x WHERE x.forest_id = %s AND x.leaf_cell_id IS NOT NULL AND x.tsv @@ $1 OFFSET 0) m '
            'WHERE m.tenant_id = $4 AND ($2 IS NULL OR m.t_start <= $2) AND NOT coalesce(m.tsv @@ $5, false) LIMIT $3', p_forest)
            USING p_all, p_as_of, p_cap, v_tenant, NULL::tsquery;
        GET DIAGNOSTICS v_all = ROW_COUNT;
        IF v_all >= p_enough THEN
            RETURN;
        END IF;
    END IF;
    IF p_two IS NOT NULL THEN
        RETURN QUERY EXECUTE format(
            'SELECT m.node_id, m.tree_id, m.leaf_cell_id, m.tsv FROM (SELECT x.* FROM nodes x WHERE x.forest_id = %s AND x.leaf_cell_id IS NOT NULL AND x.tsv @@ $1 OFFSET 0) m '
            'WHERE m.tenant_id = $4 AND ($2 IS NULL OR m.t_start <= $2) AND NOT coalesce(m.tsv @@ $5, false) LIMIT $3', p_forest)
            USING p_two, p_as_of, p_cap, v_tenant, p_all;
        GET DIAGNOSTICS v_two = ROW_COUNT;
    END IF;
    IF v_all + v_two < p_cap THEN
        RETURN QUERY EXECUTE format(
            'SELECT m.node_id, m.tree_id, m.leaf_cell_id, m.tsv FROM (SELECT x.* FROM nodes x WHERE x.forest_id = %s AND x.leaf_cell_id IS NOT NULL AND x.tsv @@ $1 OFFSET 0) m '
            'WHERE m.tenant_id = $4 AND ($2 IS NULL OR m.t_start <= $2) AND NOT coalesce(m.tsv @@ $5, false) LIMIT $3', p_forest)
            USING p_any, p_as_of, p_cap, v_tenant, p_two;
    END IF;
END
$fn$;

REVOKE ALL ON FUNCTION memforest_node_text_candidates(bigint, tsquery, tsquery, tsquery, integer, integer, timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memforest_node_text_candidates(bigint, tsquery, tsquery, tsquery, integer, integer, timestamptz) TO memforest_app;
