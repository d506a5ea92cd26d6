-- Forest recall: the forest by name, then the candidate channels of the read path, in one
-- statement ("all_*") or in their two parts ("vector_*": roots, facts, cells, entity labels and
-- the forest's own row; "lexical_*": full text), which the read path runs at the same time in
-- two transactions (ADR 0024). Each part is CTEs, the trees they name ("ids") and its result
-- rows, closed by the "tree" rows of every tree named. Selected by
-- memforest.store.recall_channels.channels_sql (ADR 0037).
--
-- Result columns: ch, id, s, trees, cell, kind, label, root, height (the first, empty SELECT
-- gives their types). Channels, each bounded by its own LIMIT (none reads the whole forest):
--   root: the top roots by cosine. Roots are the nodes without a parent: ix_nodes_roots
--     (b-tree on tenant, forest) and the forest's root graph hold only them, so an exact scan
--     reads the forest's roots alone and an indexed forest orders by its graph (:nrg read, :nr
--     kept). Each root is kept when its tree is of the asked kinds and rooted at it, looked up
--     by the trees' primary key per root (LATERAL ... LIMIT 1): a join lets the planner hash a
--     sequential scan of all the tenant's trees.
--   fact / cell: the nearest facts and cell leaves (as recall.sql's nearest_*), each with the
--     trees that hold it (placements). Every channel of a forest read exactly ("all_exact*")
--     reads the forest's facts once and its cell leaves once for both parts (fa, na: each row's
--     distance, and its full-text rank where its text matches the question), not once a part.
--   lexical_fact / lexical_node: full-text matches of facts and of cell leaves (not internal
--     nodes, whose summaries gather their leaves' words: migration 0016), ranked by ts_rank
--     (normalised by document length; ts_rank_cd's cover density costs far more a row: ADR
--     0024). A forest without its own indexes is scanned: its rows through the (tenant, forest)
--     b-trees, the policy applying, @@ a filter on each, every match ranked; its cell leaves are
--     written "level = 0 AND leaf_cell_id IS NOT NULL" (the same rows: ck_nodes_leaf), the
--     predicate of ix_nodes_cell_leaves, so a generic plan cannot read the forest's internal
--     nodes or every cell leaf of the tenant instead. A forest with its own GIN indexes calls
--     memforest_fact_text_candidates / memforest_node_text_candidates (migration 0014; ADRs
--     0022, 0024): under row-level security @@ (not leakproof) cannot be an index condition, so
--     the functions run as the owner with the policy's tenant filter written out: rows matching
--     every term first (:tsq3, a question of three terms or more; up to :cap, and only those when
--     there are :nl of them: migration 0023, ADR 0033), then rows matching >= 2 terms (up to
--     :cap), then rows matching any term (up to :cap) while the former did not fill :cap, so
--     the ranking reads at most 2 * :cap rows whatever the forest's size.
--     The full-text part alone ("lexical_*") is always planned for its parameters, which folds
--     to_tsquery of the question into a constant. In every channel's statement ("all_*"), which
--     runs on a known forest's generic plan when no side transaction reads full text beside it,
--     the question's tsquery is an InitPlan, "(SELECT to_tsquery('english', :tsq))", computed
--     once per execution: a generic plan cannot fold to_tsquery of a parameter into a constant
--     and would parse it again for every row it tests and ranks (ADR 0022).
--   label: entity trees whose key is a word of the question (:names, casefolded as
--     rules.entity_key keys them), through the trees' unique key (ADR 0029).
--   tree: the tree rows (kind, label, root, height) of every tree named above, probed by primary
--     key (= ANY(ARRAY(...))): written IN (SELECT ...), the planner hash-joins them to a scan of
--     every tree of the forest (ADR 0024). No root summary: llm mode reads one for its few top
--     trees, in a statement of its own.
--   forest: the forest the vector channels read, as it is now (a caller that took its id from a
--     cache learns whether the name still means it): id, name (label), "indexed" or "exact"
--     (kind) and its latest session's time in microseconds since the epoch (root); no row once
--     it is gone. Its name column carries the planner switch for the rest of the transaction
--     (db/engine.py: CUSTOM_PLANS_AGAIN, or GENERIC_PLANS_NEXT in the *_then_generic variants,
--     whose later statements read by key only: ADR 0022).
--
-- An indexed forest's vector channels name the forest by the literal {f} (ADR 0024: a generic
-- plan of them must prove the forest's partial indexes apply) and order its node graphs by their
-- half-precision key, graph_embedding as halfvec({dim}) (ADR 0026; graph_embedding: the vector of
-- a root or a cell leaf, NULL on inner nodes, migration 0029, ADR 0102); queries.fill writes both in.

-- name: vector_exact --
-- The vector channels (roots, facts, cells, entity labels) and the forest's own row of a forest read exactly, live facts and nodes; the forest row puts the rest of the transaction back on custom plans.
WITH rt AS MATERIALIZED (
  SELECT c.tree_id, 1 - c.d AS s
  FROM (
    SELECT x.node_id, x.tree_id, x.embedding <=> :q AS d
    FROM nodes x
    WHERE x.tenant_id = :t
      AND x.forest_id = :f
      AND x.parent_id IS NULL
      AND x.embedding IS NOT NULL
    OFFSET 0
  ) c
  CROSS JOIN LATERAL (
    SELECT 1
    FROM trees tr
    WHERE tr.tenant_id = :t
      AND tr.tree_id = c.tree_id
      AND tr.root_node_id = c.node_id
      AND tr.kind = ANY(:kinds)
    LIMIT 1
  ) z
  ORDER BY c.d, c.tree_id LIMIT :nr
),
fh AS MATERIALIZED (
  WITH c AS MATERIALIZED (
    SELECT x.fact_id, x.embedding <=> :q AS d
    FROM facts x
    WHERE x.tenant_id = :t
      AND x.forest_id = :f
      AND x.embedding IS NOT NULL
      AND x.retracted_at IS NULL
  )
  SELECT fact_id, 1 - d AS sim
  FROM c
  ORDER BY d, fact_id LIMIT :nf
),
ch AS MATERIALIZED (
  WITH c AS MATERIALIZED (
    SELECT x.leaf_cell_id, x.embedding <=> :q AS d
    FROM nodes x
    WHERE x.tenant_id = :t
      AND x.forest_id = :f
      AND x.level = 0
      AND x.leaf_cell_id IS NOT NULL
      AND x.embedding IS NOT NULL
  )
  SELECT leaf_cell_id, 1 - d AS sim
  FROM c
  ORDER BY d, leaf_cell_id LIMIT :nc
),
lab AS MATERIALIZED (
  SELECT tree_id, n_leaves
  FROM trees
  WHERE tenant_id = :t
    AND forest_id = :f
    AND kind = 'entity'
    AND key = ANY(:names)
),
fx AS MATERIALIZED (
  SELECT fact_id, sim, (
    SELECT array_agg(p.tree_id ORDER BY p.tree_id)
    FROM placements p
    WHERE p.tenant_id = :t
      AND p.source_kind = 'fact'
      AND p.source_id = fh.fact_id
      AND p.forest_id = :f
  ) AS trees
  FROM fh
),
cx AS MATERIALIZED (
  SELECT leaf_cell_id, sim, (
    SELECT array_agg(p.tree_id ORDER BY p.tree_id)
    FROM placements p
    WHERE p.tenant_id = :t
      AND p.source_kind = 'cell'
      AND p.source_id = ch.leaf_cell_id
      AND p.forest_id = :f
  ) AS trees
  FROM ch
),
ids(tree_id) AS (
  SELECT tree_id
  FROM rt
  UNION SELECT unnest(trees)
  FROM fx
  UNION SELECT unnest(trees)
  FROM cx
  UNION SELECT tree_id
  FROM lab
)
SELECT NULL::text AS ch, NULL::bigint AS id, NULL::float8 AS s, NULL::bigint[] AS trees, NULL::bigint AS cell, NULL::text AS kind, NULL::text AS label, NULL::bigint AS root, NULL::int AS height
WHERE false
UNION ALL SELECT 'root', tree_id, s, NULL, NULL, NULL, NULL, NULL, NULL
FROM rt
UNION ALL SELECT 'fact', fact_id, sim, trees, NULL, NULL, NULL, NULL, NULL
FROM fx
UNION ALL SELECT 'cell', leaf_cell_id, sim, trees, NULL, NULL, NULL, NULL, NULL
FROM cx
UNION ALL SELECT 'label', tree_id, n_leaves, NULL, NULL, NULL, NULL, NULL, NULL
FROM lab
UNION ALL SELECT 'forest', f.forest_id, NULL, NULL, NULL, CASE WHEN (
  SELECT count(*) = 5
  FROM pg_index i
  WHERE i.indisvalid
    AND i.indexrelid IN (to_regclass('ix_nodes_root_vec_f' || f.forest_id), to_regclass('ix_nodes_cell_vec_f' || f.forest_id), to_regclass('ix_nodes_tsv_f' || f.forest_id), to_regclass('ix_facts_tsv_f' || f.forest_id), to_regclass('ix_facts_vec_f' || f.forest_id))
) THEN 'indexed' ELSE 'exact' END, f.name || left(set_config('plan_cache_mode', 'force_custom_plan', true) || set_config('enable_seqscan', 'on', true), 0), (
  SELECT CAST(extract(epoch FROM max(s.time)) * 1000000 AS bigint)
  FROM sessions s
  WHERE s.tenant_id = :t
    AND s.forest_id = f.forest_id
), NULL
FROM forests f
WHERE f.tenant_id = :t
  AND f.forest_id = :f
UNION ALL SELECT 'tree', t.tree_id, NULL, NULL, NULL, t.kind, t.label, t.root_node_id, t.height
FROM trees t
WHERE t.tenant_id = :t
  AND t.forest_id = :f
  AND t.kind = ANY(:kinds)
  AND t.root_node_id IS NOT NULL
  AND t.tree_id = ANY(ARRAY(SELECT tree_id FROM ids));

-- name: vector_exact_then_generic --
-- The vector channels (roots, facts, cells, entity labels) and the forest's own row of a forest read exactly, live facts and nodes; the forest row puts the rest of the transaction on generic plans without sequential scans.
WITH rt AS MATERIALIZED (
  SELECT c.tree_id, 1 - c.d AS s
  FROM (
    SELECT x.node_id, x.tree_id, x.embedding <=> :q AS d
    FROM nodes x
    WHERE x.tenant_id = :t
      AND x.forest_id = :f
      AND x.parent_id IS NULL
      AND x.embedding IS NOT NULL
    OFFSET 0
  ) c
  CROSS JOIN LATERAL (
    SELECT 1
    FROM trees tr
    WHERE tr.tenant_id = :t
      AND tr.tree_id = c.tree_id
      AND tr.root_node_id = c.node_id
      AND tr.kind = ANY(:kinds)
    LIMIT 1
  ) z
  ORDER BY c.d, c.tree_id LIMIT :nr
),
fh AS MATERIALIZED (
  WITH c AS MATERIALIZED (
    SELECT x.fact_id, x.embedding <=> :q AS d
    FROM facts x
    WHERE x.tenant_id = :t
      AND x.forest_id = :f
      AND x.embedding IS NOT NULL
      AND x.retracted_at IS NULL
  )
  SELECT fact_id, 1 - d AS sim
  FROM c
  ORDER BY d, fact_id LIMIT :nf
),
ch AS MATERIALIZED (
  WITH c AS MATERIALIZED (
    SELECT x.leaf_cell_id, x.embedding <=> :q AS d
    FROM nodes x
    WHERE x.tenant_id = :t
      AND x.forest_id = :f
      AND x.level = 0
      AND x.leaf_cell_id IS NOT NULL
      AND x.embedding IS NOT NULL
  )
  SELECT leaf_cell_id, 1 - d AS sim
  FROM c
  ORDER BY d, leaf_cell_id LIMIT :nc
),
lab AS MATERIALIZED (
  SELECT tree_id, n_leaves
  FROM trees
  WHERE tenant_id = :t
    AND forest_id = :f
    AND kind = 'entity'
    AND key = ANY(:names)
),
fx AS MATERIALIZED (
  SELECT fact_id, sim, (
    SELECT array_agg(p.tree_id ORDER BY p.tree_id)
    FROM placements p
    WHERE p.tenant_id = :t
      AND p.source_kind = 'fact'
      AND p.source_id = fh.fact_id
      AND p.forest_id = :f
  ) AS trees
  FROM fh
),
cx AS MATERIALIZED (
  SELECT leaf_cell_id, sim, (
    SELECT array_agg(p.tree_id ORDER BY p.tree_id)
    FROM placements p
    WHERE p.tenant_id = :t
      AND p.source_kind = 'cell'
      AND p.source_id = ch.leaf_cell_id
      AND p.forest_id = :f
  ) AS trees
  FROM ch
),
ids(tree_id) AS (
  SELECT tree_id
  FROM rt
  UNION SELECT unnest(trees)
  FROM fx
  UNION SELECT unnest(trees)
  FROM cx
  UNION SELECT tree_id
  FROM lab
)
SELECT NULL::text AS ch, NULL::bigint AS id, NULL::float8 AS s, NULL::bigint[] AS trees, NULL::bigint AS cell, NULL::text AS kind, NULL::text AS label, NULL::bigint AS root, NULL::int AS height
WHERE false
UNION ALL SELECT 'root', tree_id, s, NULL, NULL, NULL, NULL, NULL, NULL
FROM rt
UNION ALL SELECT 'fact', fact_id, sim, trees, NULL, NULL, NULL, NULL, NULL
FROM fx
UNION ALL SELECT 'cell', leaf_cell_id, sim, trees, NULL, NULL, NULL, NULL, NULL
FROM cx
UNION ALL SELECT 'label', tree_id, n_leaves, NULL, NULL, NULL, NULL, NULL, NULL
FROM lab
UNION ALL SELECT 'forest', f.forest_id, NULL, NULL, NULL, CASE WHEN (
  SELECT count(*) = 5
  FROM pg_index i
  WHERE i.indisvalid
    AND i.indexrelid IN (to_regclass('ix_nodes_root_vec_f' || f.forest_id), to_regclass('ix_nodes_cell_vec_f' || f.forest_id), to_regclass('ix_nodes_tsv_f' || f.forest_id), to_regclass('ix_facts_tsv_f' || f.forest_id), to_regclass('ix_facts_vec_f' || f.forest_id))
) THEN 'indexed' ELSE 'exact' END, f.name || left(set_config('plan_cache_mode', 'force_generic_plan', true) || set_config('enable_seqscan', 'off', true), 0), (
  SELECT CAST(extract(epoch FROM max(s.time)) * 1000000 AS bigint)
  FROM sessions s
  WHERE s.tenant_id = :t
    AND s.forest_id = f.forest_id
), NULL
FROM forests f
WHERE f.tenant_id = :t
  AND f.forest_id = :f
UNION ALL SELECT 'tree', t.tree_id, NULL, NULL, NULL, t.kind, t.label, t.root_node_id, t.height
FROM trees t
WHERE t.tenant_id = :t
  AND t.forest_id = :f
  AND t.kind = ANY(:kinds)
  AND t.root_node_id IS NOT NULL
  AND t.tree_id = ANY(ARRAY(SELECT tree_id FROM ids));

-- name: all_exact --
-- Every recall channel of a forest read exactly, live facts and nodes, full text scanned from the forest's rows; the forest row puts the rest of the transaction back on custom plans.
WITH rt AS MATERIALIZED (
  SELECT c.tree_id, 1 - c.d AS s
  FROM (
    SELECT x.node_id, x.tree_id, x.embedding <=> :q AS d
    FROM nodes x
    WHERE x.tenant_id = :t
      AND x.forest_id = :f
      AND x.parent_id IS NULL
      AND x.embedding IS NOT NULL
    OFFSET 0
  ) c
  CROSS JOIN LATERAL (
    SELECT 1
    FROM trees tr
    WHERE tr.tenant_id = :t
      AND tr.tree_id = c.tree_id
      AND tr.root_node_id = c.node_id
      AND tr.kind = ANY(:kinds)
    LIMIT 1
  ) z
  ORDER BY c.d, c.tree_id LIMIT :nr
),
fa AS MATERIALIZED (
  SELECT x.fact_id, x.embedding <=> :q AS d, CASE WHEN x.tsv @@ (SELECT to_tsquery('english', :tsq)) THEN ts_rank(x.tsv, (SELECT to_tsquery('english', :tsq)), 1) END AS s
  FROM facts x
  WHERE x.tenant_id = :t
    AND x.forest_id = :f
    AND x.retracted_at IS NULL
),
na AS MATERIALIZED (
  SELECT x.node_id, x.tree_id, x.leaf_cell_id, x.embedding <=> :q AS d, CASE WHEN x.tsv @@ (SELECT to_tsquery('english', :tsq)) THEN ts_rank(x.tsv, (SELECT to_tsquery('english', :tsq)), 1) END AS s
  FROM nodes x
  WHERE x.tenant_id = :t
    AND x.forest_id = :f
    AND x.level = 0
    AND x.leaf_cell_id IS NOT NULL
),
fh AS MATERIALIZED (
  SELECT fact_id, 1 - d AS sim
  FROM fa
  WHERE d IS NOT NULL
  ORDER BY d, fact_id LIMIT :nf
),
ch AS MATERIALIZED (
  SELECT leaf_cell_id, 1 - d AS sim
  FROM na
  WHERE d IS NOT NULL
  ORDER BY d, leaf_cell_id LIMIT :nc
),
lab AS MATERIALIZED (
  SELECT tree_id, n_leaves
  FROM trees
  WHERE tenant_id = :t
    AND forest_id = :f
    AND kind = 'entity'
    AND key = ANY(:names)
),
fx AS MATERIALIZED (
  SELECT fact_id, sim, (
    SELECT array_agg(p.tree_id ORDER BY p.tree_id)
    FROM placements p
    WHERE p.tenant_id = :t
      AND p.source_kind = 'fact'
      AND p.source_id = fh.fact_id
      AND p.forest_id = :f
  ) AS trees
  FROM fh
),
cx AS MATERIALIZED (
  SELECT leaf_cell_id, sim, (
    SELECT array_agg(p.tree_id ORDER BY p.tree_id)
    FROM placements p
    WHERE p.tenant_id = :t
      AND p.source_kind = 'cell'
      AND p.source_id = ch.leaf_cell_id
      AND p.forest_id = :f
  ) AS trees
  FROM ch
),
lf AS MATERIALIZED (
  SELECT fact_id, s
  FROM fa
  WHERE s IS NOT NULL
  ORDER BY s DESC, fact_id LIMIT :nl
),
ln AS MATERIALIZED (
  SELECT node_id, tree_id, leaf_cell_id, s
  FROM na
  WHERE s IS NOT NULL
  ORDER BY s DESC, node_id LIMIT :nl
),
lx AS MATERIALIZED (
  SELECT fact_id, s, (
    SELECT array_agg(p.tree_id ORDER BY p.tree_id)
    FROM placements p
    WHERE p.tenant_id = :t
      AND p.source_kind = 'fact'
      AND p.source_id = lf.fact_id
      AND p.forest_id = :f
  ) AS trees
  FROM lf
),
ids(tree_id) AS (
  SELECT tree_id
  FROM rt
  UNION SELECT unnest(trees)
  FROM fx
  UNION SELECT unnest(trees)
  FROM cx
  UNION SELECT tree_id
  FROM lab
  UNION SELECT unnest(trees)
  FROM lx
  UNION SELECT tree_id
  FROM ln
)
SELECT NULL::text AS ch, NULL::bigint AS id, NULL::float8 AS s, NULL::bigint[] AS trees, NULL::bigint AS cell, NULL::text AS kind, NULL::text AS label, NULL::bigint AS root, NULL::int AS height
WHERE false
UNION ALL SELECT 'root', tree_id, s, NULL, NULL, NULL, NULL, NULL, NULL
FROM rt
UNION ALL SELECT 'fact', fact_id, sim, trees, NULL, NULL, NULL, NULL, NULL
FROM fx
UNION ALL SELECT 'cell', leaf_cell_id, sim, trees, NULL, NULL, NULL, NULL, NULL
FROM cx
UNION ALL SELECT 'label', tree_id, n_leaves, NULL, NULL, NULL, NULL, NULL, NULL
FROM lab
UNION ALL SELECT 'forest', f.forest_id, NULL, NULL, NULL, CASE WHEN (
  SELECT count(*) = 5
  FROM pg_index i
  WHERE i.indisvalid
    AND i.indexrelid IN (to_regclass('ix_nodes_root_vec_f' || f.forest_id), to_regclass('ix_nodes_cell_vec_f' || f.forest_id), to_regclass('ix_nodes_tsv_f' || f.forest_id), to_regclass('ix_facts_tsv_f' || f.forest_id), to_regclass('ix_facts_vec_f' || f.forest_id))
) THEN 'indexed' ELSE 'exact' END, f.name || left(set_config('plan_cache_mode', 'force_custom_plan', true) || set_config('enable_seqscan', 'on', true), 0), (
  SELECT CAST(extract(epoch FROM max(s.time)) * 1000000 AS bigint)
  FROM sessions s
  WHERE s.tenant_id = :t
    AND s.forest_id = f.forest_id
), NULL
FROM forests f
WHERE f.tenant_id = :t
  AND f.forest_id = :f
UNION ALL SELECT 'lexical_fact', fact_id, s, trees, NULL, NULL, NULL, NULL, NULL
FROM lx
UNION ALL SELECT 'lexical_node', node_id, s, ARRAY[tree_id], leaf_cell_id, NULL, NULL, NULL, NULL
FROM ln
UNION ALL SELECT 'tree', t.tree_id, NULL, NULL, NULL, t.kind, t.label, t.root_node_id, t.height
FROM trees t
WHERE t.tenant_id = :t
  AND t.forest_id = :f
  AND t.kind = ANY(:kinds)
  AND t.root_node_id IS NOT NULL
  AND t.tree_id = ANY(ARRAY(SELECT tree_id FROM ids));

-- name: all_exact_then_generic --
-- Every recall channel of a forest read exactly, live facts and nodes, full text scanned from the forest's rows; the forest row puts the rest of the transaction on generic plans without sequential scans.
WITH rt AS MATERIALIZED (
  SELECT c.tree_id, 1 - c.d AS s
  FROM (
    SELECT x.node_id, x.tree_id, x.embedding <=> :q AS d
    FROM nodes x
    WHERE x.tenant_id = :t
      AND x.forest_id = :f
      AND x.parent_id IS NULL
      AND x.embedding IS NOT NULL
    OFFSET 0
  ) c
  CROSS JOIN LATERAL (
    SELECT 1
    FROM trees tr
    WHERE tr.tenant_id = :t
      AND tr.tree_id = c.tree_id
      AND tr.root_node_id = c.node_id
      AND tr.kind = ANY(:kinds)
    LIMIT 1
  ) z
  ORDER BY c.d, c.tree_id LIMIT :nr
),
fa AS MATERIALIZED (
  SELECT x.fact_id, x.embedding <=> :q AS d, CASE WHEN x.tsv @@ (SELECT to_tsquery('english', :tsq)) THEN ts_rank(x.tsv, (SELECT to_tsquery('english', :tsq)), 1) END AS s
  FROM facts x
  WHERE x.tenant_id = :t
    AND x.forest_id = :f
    AND x.retracted_at IS NULL
),
na AS MATERIALIZED (
  SELECT x.node_id, x.tree_id, x.leaf_cell_id, x.embedding <=> :q AS d, CASE WHEN x.tsv @@ (SELECT to_tsquery('english', :tsq)) THEN ts_rank(x.tsv, (SELECT to_tsquery('english', :tsq)), 1) END AS s
  FROM nodes x
  WHERE x.tenant_id = :t
    AND x.forest_id = :f
    AND x.level = 0
    AND x.leaf_cell_id IS NOT NULL
),
fh AS MATERIALIZED (
  SELECT fact_id, 1 - d AS sim
  FROM fa
  WHERE d IS NOT NULL
  ORDER BY d, fact_id LIMIT :nf
),
ch AS MATERIALIZED (
  SELECT leaf_cell_id, 1 - d AS sim
  FROM na
  WHERE d IS NOT NULL
  ORDER BY d, leaf_cell_id LIMIT :nc
),
lab AS MATERIALIZED (
  SELECT tree_id, n_leaves
  FROM trees
  WHERE tenant_id = :t
    AND forest_id = :f
    AND kind = 'entity'
    AND key = ANY(:names)
),
fx AS MATERIALIZED (
  SELECT fact_id, sim, (
    SELECT array_agg(p.tree_id ORDER BY p.tree_id)
    FROM placements p
    WHERE p.tenant_id = :t
      AND p.source_kind = 'fact'
      AND p.source_id = fh.fact_id
      AND p.forest_id = :f
  ) AS trees
  FROM fh
),
cx AS MATERIALIZED (
  SELECT leaf_cell_id, sim, (
    SELECT array_agg(p.tree_id ORDER BY p.tree_id)
    FROM placements p
    WHERE p.tenant_id = :t
      AND p.source_kind = 'cell'
      AND p.source_id = ch.leaf_cell_id
      AND p.forest_id = :f
  ) AS trees
  FROM ch
),
lf AS MATERIALIZED (
  SELECT fact_id, s
  FROM fa
  WHERE s IS NOT NULL
  ORDER BY s DESC, fact_id LIMIT :nl
),
ln AS MATERIALIZED (
  SELECT node_id, tree_id, leaf_cell_id, s
  FROM na
  WHERE s IS NOT NULL
  ORDER BY s DESC, node_id LIMIT :nl
),
lx AS MATERIALIZED (
  SELECT fact_id, s, (
    SELECT array_agg(p.tree_id ORDER BY p.tree_id)
    FROM placements p
    WHERE p.tenant_id = :t
      AND p.source_kind = 'fact'
      AND p.source_id = lf.fact_id
      AND p.forest_id = :f
  ) AS trees
  FROM lf
),
ids(tree_id) AS (
  SELECT tree_id
  FROM rt
  UNION SELECT unnest(trees)
  FROM fx
  UNION SELECT unnest(trees)
  FROM cx
  UNION SELECT tree_id
  FROM lab
  UNION SELECT unnest(trees)
  FROM lx
  UNION SELECT tree_id
  FROM ln
)
SELECT NULL::text AS ch, NULL::bigint AS id, NULL::float8 AS s, NULL::bigint[] AS trees, NULL::bigint AS cell, NULL::text AS kind, NULL::text AS label, NULL::bigint AS root, NULL::int AS height
WHERE false
UNION ALL SELECT 'root', tree_id, s, NULL, NULL, NULL, NULL, NULL, NULL
FROM rt
UNION ALL SELECT 'fact', fact_id, sim, trees, NULL, NULL, NULL, NULL, NULL
FROM fx
UNION ALL SELECT 'cell', leaf_cell_id, sim, trees, NULL, NULL, NULL, NULL, NULL
FROM cx
UNION ALL SELECT 'label', tree_id, n_leaves, NULL, NULL, NULL, NULL, NULL, NULL
FROM lab
UNION ALL SELECT 'forest', f.forest_id, NULL, NULL, NULL, CASE WHEN (
  SELECT count(*) = 5
  FROM pg_index i
  WHERE i.indisvalid
    AND i.indexrelid IN (to_regclass('ix_nodes_root_vec_f' || f.forest_id), to_regclass('ix_nodes_cell_vec_f' || f.forest_id), to_regclass('ix_nodes_tsv_f' || f.forest_id), to_regclass('ix_facts_tsv_f' || f.forest_id), to_regclass('ix_facts_vec_f' || f.forest_id))
) THEN 'indexed' ELSE 'exact' END, f.name || left(set_config('plan_cache_mode', 'force_generic_plan', true) || set_config('enable_seqscan', 'off', true), 0), (
  SELECT CAST(extract(epoch FROM max(s.time)) * 1000000 AS bigint)
  FROM sessions s
  WHERE s.tenant_id = :t
    AND s.forest_id = f.forest_id
), NULL
FROM forests f
WHERE f.tenant_id = :t
  AND f.forest_id = :f
UNION ALL SELECT 'lexical_fact', fact_id, s, trees, NULL, NULL, NULL, NULL, NULL
FROM lx
UNION ALL SELECT 'lexical_node', node_id, s, ARRAY[tree_id], leaf_cell_id, NULL, NULL, NULL, NULL
FROM ln
UNION ALL SELECT 'tree', t.tree_id, NULL, NULL, NULL, t.kind, t.label, t.root_node_id, t.height
FROM trees t
WHERE t.tenant_id = :t
  AND t.forest_id = :f
  AND t.kind = ANY(:kinds)
  AND t.root_node_id IS NOT NULL
  AND t.tree_id = ANY(ARRAY(SELECT tree_id FROM ids));

-- name: vector_exact_as_of --
-- The vector channels (roots, facts, cells, entity labels) and the forest's own row of a forest read exactly, as of :as_of; the forest row puts the rest of the transaction back on custom plans.
WITH rt AS MATERIALIZED (
  SELECT c.tree_id, 1 - c.d AS s
  FROM (
    SELECT x.node_id, x.tree_id, x.embedding <=> :q AS d
    FROM nodes x
    WHERE x.tenant_id = :t
      AND x.forest_id = :f
      AND x.parent_id IS NULL
      AND x.embedding IS NOT NULL
    OFFSET 0
  ) c
  CROSS JOIN LATERAL (
    SELECT 1
    FROM trees tr
    WHERE tr.tenant_id = :t
      AND tr.tree_id = c.tree_id
      AND tr.root_node_id = c.node_id
      AND tr.kind = ANY(:kinds)
    LIMIT 1
  ) z
  ORDER BY c.d, c.tree_id LIMIT :nr
),
fh AS MATERIALIZED (
  WITH c AS MATERIALIZED (
    SELECT x.fact_id, x.embedding <=> :q AS d
    FROM facts x
    WHERE x.tenant_id = :t
      AND x.forest_id = :f
      AND x.embedding IS NOT NULL
      AND (x.retracted_at IS NULL OR x.retracted_at > :as_of)
      AND x.valid_from <= :as_of
      AND x.recorded_at <= :as_of
      AND (x.valid_to IS NULL OR x.valid_to > :as_of)
  )
  SELECT fact_id, 1 - d AS sim
  FROM c
  ORDER BY d, fact_id LIMIT :nf
),
ch AS MATERIALIZED (
  WITH c AS MATERIALIZED (
    SELECT x.leaf_cell_id, x.embedding <=> :q AS d
    FROM nodes x
    WHERE x.tenant_id = :t
      AND x.forest_id = :f
      AND x.level = 0
      AND x.leaf_cell_id IS NOT NULL
      AND x.embedding IS NOT NULL
      AND x.t_start <= :as_of
  )
  SELECT leaf_cell_id, 1 - d AS sim
  FROM c
  ORDER BY d, leaf_cell_id LIMIT :nc
),
lab AS MATERIALIZED (
  SELECT tree_id, n_leaves
  FROM trees
  WHERE tenant_id = :t
    AND forest_id = :f
    AND kind = 'entity'
    AND key = ANY(:names)
),
fx AS MATERIALIZED (
  SELECT fact_id, sim, (
    SELECT array_agg(p.tree_id ORDER BY p.tree_id)
    FROM placements p
    WHERE p.tenant_id = :t
      AND p.source_kind = 'fact'
      AND p.source_id = fh.fact_id
      AND p.forest_id = :f
  ) AS trees
  FROM fh
),
cx AS MATERIALIZED (
  SELECT leaf_cell_id, sim, (
    SELECT array_agg(p.tree_id ORDER BY p.tree_id)
    FROM placements p
    WHERE p.tenant_id = :t
      AND p.source_kind = 'cell'
      AND p.source_id = ch.leaf_cell_id
      AND p.forest_id = :f
  ) AS trees
  FROM ch
),
ids(tree_id) AS (
  SELECT tree_id
  FROM rt
  UNION SELECT unnest(trees)
  FROM fx
  UNION SELECT unnest(trees)
  FROM cx
  UNION SELECT tree_id
  FROM lab
)
SELECT NULL::text AS ch, NULL::bigint AS id, NULL::float8 AS s, NULL::bigint[] AS trees, NULL::bigint AS cell, NULL::text AS kind, NULL::text AS label, NULL::bigint AS root, NULL::int AS height
WHERE false
UNION ALL SELECT 'root', tree_id, s, NULL, NULL, NULL, NULL, NULL, NULL
FROM rt
UNION ALL SELECT 'fact', fact_id, sim, trees, NULL, NULL, NULL, NULL, NULL
FROM fx
UNION ALL SELECT 'cell', leaf_cell_id, sim, trees, NULL, NULL, NULL, NULL, NULL
FROM cx
UNION ALL SELECT 'label', tree_id, n_leaves, NULL, NULL, NULL, NULL, NULL, NULL
FROM lab
UNION ALL SELECT 'forest', f.forest_id, NULL, NULL, NULL, CASE WHEN (
  SELECT count(*) = 5
  FROM pg_index i
  WHERE i.indisvalid
    AND i.indexrelid IN (to_regclass('ix_nodes_root_vec_f' || f.forest_id), to_regclass('ix_nodes_cell_vec_f' || f.forest_id), to_regclass('ix_nodes_tsv_f' || f.forest_id), to_regclass('ix_facts_tsv_f' || f.forest_id), to_regclass('ix_facts_vec_f' || f.forest_id))
) THEN 'indexed' ELSE 'exact' END, f.name || left(set_config('plan_cache_mode', 'force_custom_plan', true) || set_config('enable_seqscan', 'on', true), 0), (
  SELECT CAST(extract(epoch FROM max(s.time)) * 1000000 AS bigint)
  FROM sessions s
  WHERE s.tenant_id = :t
    AND s.forest_id = f.forest_id
), NULL
FROM forests f
WHERE f.tenant_id = :t
  AND f.forest_id = :f
UNION ALL SELECT 'tree', t.tree_id, NULL, NULL, NULL, t.kind, t.label, t.root_node_id, t.height
FROM trees t
WHERE t.tenant_id = :t
  AND t.forest_id = :f
  AND t.kind = ANY(:kinds)
  AND t.root_node_id IS NOT NULL
  AND t.tree_id = ANY(ARRAY(SELECT tree_id FROM ids));

-- name: vector_exact_as_of_then_generic --
-- The vector channels (roots, facts, cells, entity labels) and the forest's own row of a forest read exactly, as of :as_of; the forest row puts the rest of the transaction on generic plans without sequential scans.
WITH rt AS MATERIALIZED (
  SELECT c.tree_id, 1 - c.d AS s
  FROM (
    SELECT x.node_id, x.tree_id, x.embedding <=> :q AS d
    FROM nodes x
    WHERE x.tenant_id = :t
      AND x.forest_id = :f
      AND x.parent_id IS NULL
      AND x.embedding IS NOT NULL
    OFFSET 0
  ) c
  CROSS JOIN LATERAL (
    SELECT 1
    FROM trees tr
    WHERE tr.tenant_id = :t
      AND tr.tree_id = c.tree_id
      AND tr.root_node_id = c.node_id
      AND tr.kind = ANY(:kinds)
    LIMIT 1
  ) z
  ORDER BY c.d, c.tree_id LIMIT :nr
),
fh AS MATERIALIZED (
  WITH c AS MATERIALIZED (
    SELECT x.fact_id, x.embedding <=> :q AS d
    FROM facts x
    WHERE x.tenant_id = :t
      AND x.forest_id = :f
      AND x.embedding IS NOT NULL
      AND (x.retracted_at IS NULL OR x.retracted_at > :as_of)
      AND x.valid_from <= :as_of
      AND x.recorded_at <= :as_of
      AND (x.valid_to IS NULL OR x.valid_to > :as_of)
  )
  SELECT fact_id, 1 - d AS sim
  FROM c
  ORDER BY d, fact_id LIMIT :nf
),
ch AS MATERIALIZED (
  WITH c AS MATERIALIZED (
    SELECT x.leaf_cell_id, x.embedding <=> :q AS d
    FROM nodes x
    WHERE x.tenant_id = :t
      AND x.forest_id = :f
      AND x.level = 0
      AND x.leaf_cell_id IS NOT NULL
      AND x.embedding IS NOT NULL
      AND x.t_start <= :as_of
  )
  SELECT leaf_cell_id, 1 - d AS sim
  FROM c
  ORDER BY d, leaf_cell_id LIMIT :nc
),
lab AS MATERIALIZED (
  SELECT tree_id, n_leaves
  FROM trees
  WHERE tenant_id = :t
    AND forest_id = :f
    AND kind = 'entity'
    AND key = ANY(:names)
),
fx AS MATERIALIZED (
  SELECT fact_id, sim, (
    SELECT array_agg(p.tree_id ORDER BY p.tree_id)
    FROM placements p
    WHERE p.tenant_id = :t
      AND p.source_kind = 'fact'
      AND p.source_id = fh.fact_id
      AND p.forest_id = :f
  ) AS trees
  FROM fh
),
cx AS MATERIALIZED (
  SELECT leaf_cell_id, sim, (
    SELECT array_agg(p.tree_id ORDER BY p.tree_id)
    FROM placements p
    WHERE p.tenant_id = :t
      AND p.source_kind = 'cell'
      AND p.source_id = ch.leaf_cell_id
      AND p.forest_id = :f
  ) AS trees
  FROM ch
),
ids(tree_id) AS (
  SELECT tree_id
  FROM rt
  UNION SELECT unnest(trees)
  FROM fx
  UNION SELECT unnest(trees)
  FROM cx
  UNION SELECT tree_id
  FROM lab
)
SELECT NULL::text AS ch, NULL::bigint AS id, NULL::float8 AS s, NULL::bigint[] AS trees, NULL::bigint AS cell, NULL::text AS kind, NULL::text AS label, NULL::bigint AS root, NULL::int AS height
WHERE false
UNION ALL SELECT 'root', tree_id, s, NULL, NULL, NULL, NULL, NULL, NULL
FROM rt
UNION ALL SELECT 'fact', fact_id, sim, trees, NULL, NULL, NULL, NULL, NULL
FROM fx
UNION ALL SELECT 'cell', leaf_cell_id, sim, trees, NULL, NULL, NULL, NULL, NULL
FROM cx
UNION ALL SELECT 'label', tree_id, n_leaves, NULL, NULL, NULL, NULL, NULL, NULL
FROM lab
UNION ALL SELECT 'forest', f.forest_id, NULL, NULL, NULL, CASE WHEN (
  SELECT count(*) = 5
  FROM pg_index i
  WHERE i.indisvalid
    AND i.indexrelid IN (to_regclass('ix_nodes_root_vec_f' || f.forest_id), to_regclass('ix_nodes_cell_vec_f' || f.forest_id), to_regclass('ix_nodes_tsv_f' || f.forest_id), to_regclass('ix_facts_tsv_f' || f.forest_id), to_regclass('ix_facts_vec_f' || f.forest_id))
) THEN 'indexed' ELSE 'exact' END, f.name || left(set_config('plan_cache_mode', 'force_generic_plan', true) || set_config('enable_seqscan', 'off', true), 0), (
  SELECT CAST(extract(epoch FROM max(s.time)) * 1000000 AS bigint)
  FROM sessions s
  WHERE s.tenant_id = :t
    AND s.forest_id = f.forest_id
), NULL
FROM forests f
WHERE f.tenant_id = :t
  AND f.forest_id = :f
UNION ALL SELECT 'tree', t.tree_id, NULL, NULL, NULL, t.kind, t.label, t.root_node_id, t.height
FROM trees t
WHERE t.tenant_id = :t
  AND t.forest_id = :f
  AND t.kind = ANY(:kinds)
  AND t.root_node_id IS NOT NULL
  AND t.tree_id = ANY(ARRAY(SELECT tree_id FROM ids));

-- name: all_exact_as_of --
-- Every recall channel of a forest read exactly, as of :as_of, full text scanned from the forest's rows; the forest row puts the rest of the transaction back on custom plans.
WITH rt AS MATERIALIZED (
  SELECT c.tree_id, 1 - c.d AS s
  FROM (
    SELECT x.node_id, x.tree_id, x.embedding <=> :q AS d
    FROM nodes x
    WHERE x.tenant_id = :t
      AND x.forest_id = :f
      AND x.parent_id IS NULL
      AND x.embedding IS NOT NULL
    OFFSET 0
  ) c
  CROSS JOIN LATERAL (
    SELECT 1
    FROM trees tr
    WHERE tr.tenant_id = :t
      AND tr.tree_id = c.tree_id
      AND tr.root_node_id = c.node_id
      AND tr.kind = ANY(:kinds)
    LIMIT 1
  ) z
  ORDER BY c.d, c.tree_id LIMIT :nr
),
fa AS MATERIALIZED (
  SELECT x.fact_id, x.embedding <=> :q AS d, CASE WHEN x.tsv @@ (SELECT to_tsquery('english', :tsq)) THEN ts_rank(x.tsv, (SELECT to_tsquery('english', :tsq)), 1) END AS s
  FROM facts x
  WHERE x.tenant_id = :t
    AND x.forest_id = :f
    AND (x.retracted_at IS NULL OR x.retracted_at > :as_of)
    AND x.valid_from <= :as_of
    AND x.recorded_at <= :as_of
    AND (x.valid_to IS NULL OR x.valid_to > :as_of)
),
na AS MATERIALIZED (
  SELECT x.node_id, x.tree_id, x.leaf_cell_id, x.embedding <=> :q AS d, CASE WHEN x.tsv @@ (SELECT to_tsquery('english', :tsq)) THEN ts_rank(x.tsv, (SELECT to_tsquery('english', :tsq)), 1) END AS s
  FROM nodes x
  WHERE x.tenant_id = :t
    AND x.forest_id = :f
    AND x.level = 0
    AND x.leaf_cell_id IS NOT NULL
    AND x.t_start <= :as_of
),
fh AS MATERIALIZED (
  SELECT fact_id, 1 - d AS sim
  FROM fa
  WHERE d IS NOT NULL
  ORDER BY d, fact_id LIMIT :nf
),
ch AS MATERIALIZED (
  SELECT leaf_cell_id, 1 - d AS sim
  FROM na
  WHERE d IS NOT NULL
  ORDER BY d, leaf_cell_id LIMIT :nc
),
lab AS MATERIALIZED (
  SELECT tree_id, n_leaves
  FROM trees
  WHERE tenant_id = :t
    AND forest_id = :f
    AND kind = 'entity'
    AND key = ANY(:names)
),
fx AS MATERIALIZED (
  SELECT fact_id, sim, (
    SELECT array_agg(p.tree_id ORDER BY p.tree_id)
    FROM placements p
    WHERE p.tenant_id = :t
      AND p.source_kind = 'fact'
      AND p.source_id = fh.fact_id
      AND p.forest_id = :f
  ) AS trees
  FROM fh
),
cx AS MATERIALIZED (
  SELECT leaf_cell_id, sim, (
    SELECT array_agg(p.tree_id ORDER BY p.tree_id)
    FROM placements p
    WHERE p.tenant_id = :t
      AND p.source_kind = 'cell'
      AND p.source_id = ch.leaf_cell_id
      AND p.forest_id = :f
  ) AS trees
  FROM ch
),
lf AS MATERIALIZED (
  SELECT fact_id, s
  FROM fa
  WHERE s IS NOT NULL
  ORDER BY s DESC, fact_id LIMIT :nl
),
ln AS MATERIALIZED (
  SELECT node_id, tree_id, leaf_cell_id, s
  FROM na
  WHERE s IS NOT NULL
  ORDER BY s DESC, node_id LIMIT :nl
),
lx AS MATERIALIZED (
  SELECT fact_id, s, (
    SELECT array_agg(p.tree_id ORDER BY p.tree_id)
    FROM placements p
    WHERE p.tenant_id = :t
      AND p.source_kind = 'fact'
      AND p.source_id = lf.fact_id
      AND p.forest_id = :f
  ) AS trees
  FROM lf
),
ids(tree_id) AS (
  SELECT tree_id
  FROM rt
  UNION SELECT unnest(trees)
  FROM fx
  UNION SELECT unnest(trees)
  FROM cx
  UNION SELECT tree_id
  FROM lab
  UNION SELECT unnest(trees)
  FROM lx
  UNION SELECT tree_id
  FROM ln
)
SELECT NULL::text AS ch, NULL::bigint AS id, NULL::float8 AS s, NULL::bigint[] AS trees, NULL::bigint AS cell, NULL::text AS kind, NULL::text AS label, NULL::bigint AS root, NULL::int AS height
WHERE false
UNION ALL SELECT 'root', tree_id, s, NULL, NULL, NULL, NULL, NULL, NULL
FROM rt
UNION ALL SELECT 'fact', fact_id, sim, trees, NULL, NULL, NULL, NULL, NULL
FROM fx
UNION ALL SELECT 'cell', leaf_cell_id, sim, trees, NULL, NULL, NULL, NULL, NULL
FROM cx
UNION ALL SELECT 'label', tree_id, n_leaves, NULL, NULL, NULL, NULL, NULL, NULL
FROM lab
UNION ALL SELECT 'forest', f.forest_id, NULL, NULL, NULL, CASE WHEN (
  SELECT count(*) = 5
  FROM pg_index i
  WHERE i.indisvalid
    AND i.indexrelid IN (to_regclass('ix_nodes_root_vec_f' || f.forest_id), to_regclass('ix_nodes_cell_vec_f' || f.forest_id), to_regclass('ix_nodes_tsv_f' || f.forest_id), to_regclass('ix_facts_tsv_f' || f.forest_id), to_regclass('ix_facts_vec_f' || f.forest_id))
) THEN 'indexed' ELSE 'exact' END, f.name || left(set_config('plan_cache_mode', 'force_custom_plan', true) || set_config('enable_seqscan', 'on', true), 0), (
  SELECT CAST(extract(epoch FROM max(s.time)) * 1000000 AS bigint)
  FROM sessions s
  WHERE s.tenant_id = :t
    AND s.forest_id = f.forest_id
), NULL
FROM forests f
WHERE f.tenant_id = :t
  AND f.forest_id = :f
UNION ALL SELECT 'lexical_fact', fact_id, s, trees, NULL, NULL, NULL, NULL, NULL
FROM lx
UNION ALL SELECT 'lexical_node', node_id, s, ARRAY[tree_id], leaf_cell_id, NULL, NULL, NULL, NULL
FROM ln
UNION ALL SELECT 'tree', t.tree_id, NULL, NULL, NULL, t.kind, t.label, t.root_node_id, t.height
FROM trees t
WHERE t.tenant_id = :t
  AND t.forest_id = :f
  AND t.kind = ANY(:kinds)
  AND t.root_node_id IS NOT NULL
  AND t.tree_id = ANY(ARRAY(SELECT tree_id FROM ids));

-- name: all_exact_as_of_then_generic --
-- Every recall channel of a forest read exactly, as of :as_of, full text scanned from the forest's rows; the forest row puts the rest of the transaction on generic plans without sequential scans.
WITH rt AS MATERIALIZED (
  SELECT c.tree_id, 1 - c.d AS s
  FROM (
    SELECT x.node_id, x.tree_id, x.embedding <=> :q AS d
    FROM nodes x
    WHERE x.tenant_id = :t
      AND x.forest_id = :f
      AND x.parent_id IS NULL
      AND x.embedding IS NOT NULL
    OFFSET 0
  ) c
  CROSS JOIN LATERAL (
    SELECT 1
    FROM trees tr
    WHERE tr.tenant_id = :t
      AND tr.tree_id = c.tree_id
      AND tr.root_node_id = c.node_id
      AND tr.kind = ANY(:kinds)
    LIMIT 1
  ) z
  ORDER BY c.d, c.tree_id LIMIT :nr
),
fa AS MATERIALIZED (
  SELECT x.fact_id, x.embedding <=> :q AS d, CASE WHEN x.tsv @@ (SELECT to_tsquery('english', :tsq)) THEN ts_rank(x.tsv, (SELECT to_tsquery('english', :tsq)), 1) END AS s
  FROM facts x
  WHERE x.tenant_id = :t
    AND x.forest_id = :f
    AND (x.retracted_at IS NULL OR x.retracted_at > :as_of)
    AND x.valid_from <= :as_of
    AND x.recorded_at <= :as_of
    AND (x.valid_to IS NULL OR x.valid_to > :as_of)
),
na AS MATERIALIZED (
  SELECT x.node_id, x.tree_id, x.leaf_cell_id, x.embedding <=> :q AS d, CASE WHEN x.tsv @@ (SELECT to_tsquery('english', :tsq)) THEN ts_rank(x.tsv, (SELECT to_tsquery('english', :tsq)), 1) END AS s
  FROM nodes x
  WHERE x.tenant_id = :t
    AND x.forest_id = :f
    AND x.level = 0
    AND x.leaf_cell_id IS NOT NULL
    AND x.t_start <= :as_of
),
fh AS MATERIALIZED (
  SELECT fact_id, 1 - d AS sim
  FROM fa
  WHERE d IS NOT NULL
  ORDER BY d, fact_id LIMIT :nf
),
ch AS MATERIALIZED (
  SELECT leaf_cell_id, 1 - d AS sim
  FROM na
  WHERE d IS NOT NULL
  ORDER BY d, leaf_cell_id LIMIT :nc
),
lab AS MATERIALIZED (
  SELECT tree_id, n_leaves
  FROM trees
  WHERE tenant_id = :t
    AND forest_id = :f
    AND kind = 'entity'
    AND key = ANY(:names)
),
fx AS MATERIALIZED (
  SELECT fact_id, sim, (
    SELECT array_agg(p.tree_id ORDER BY p.tree_id)
    FROM placements p
    WHERE p.tenant_id = :t
      AND p.source_kind = 'fact'
      AND p.source_id = fh.fact_id
      AND p.forest_id = :f
  ) AS trees
  FROM fh
),
cx AS MATERIALIZED (
  SELECT leaf_cell_id, sim, (
    SELECT array_agg(p.tree_id ORDER BY p.tree_id)
    FROM placements p
    WHERE p.tenant_id = :t
      AND p.source_kind = 'cell'
      AND p.source_id = ch.leaf_cell_id
      AND p.forest_id = :f
  ) AS trees
  FROM ch
),
lf AS MATERIALIZED (
  SELECT fact_id, s
  FROM fa
  WHERE s IS NOT NULL
  ORDER BY s DESC, fact_id LIMIT :nl
),
ln AS MATERIALIZED (
  SELECT node_id, tree_id, leaf_cell_id, s
  FROM na
  WHERE s IS NOT NULL
  ORDER BY s DESC, node_id LIMIT :nl
),
lx AS MATERIALIZED (
  SELECT fact_id, s, (
    SELECT array_agg(p.tree_id ORDER BY p.tree_id)
    FROM placements p
    WHERE p.tenant_id = :t
      AND p.source_kind = 'fact'
      AND p.source_id = lf.fact_id
      AND p.forest_id = :f
  ) AS trees
  FROM lf
),
ids(tree_id) AS (
  SELECT tree_id
  FROM rt
  UNION SELECT unnest(trees)
  FROM fx
  UNION SELECT unnest(trees)
  FROM cx
  UNION SELECT tree_id
  FROM lab
  UNION SELECT unnest(trees)
  FROM lx
  UNION SELECT tree_id
  FROM ln
)
SELECT NULL::text AS ch, NULL::bigint AS id, NULL::float8 AS s, NULL::bigint[] AS trees, NULL::bigint AS cell, NULL::text AS kind, NULL::text AS label, NULL::bigint AS root, NULL::int AS height
WHERE false
UNION ALL SELECT 'root', tree_id, s, NULL, NULL, NULL, NULL, NULL, NULL
FROM rt
UNION ALL SELECT 'fact', fact_id, sim, trees, NULL, NULL, NULL, NULL, NULL
FROM fx
UNION ALL SELECT 'cell', leaf_cell_id, sim, trees, NULL, NULL, NULL, NULL, NULL
FROM cx
UNION ALL SELECT 'label', tree_id, n_leaves, NULL, NULL, NULL, NULL, NULL, NULL
FROM lab
UNION ALL SELECT 'forest', f.forest_id, NULL, NULL, NULL, CASE WHEN (
  SELECT count(*) = 5
  FROM pg_index i
  WHERE i.indisvalid
    AND i.indexrelid IN (to_regclass('ix_nodes_root_vec_f' || f.forest_id), to_regclass('ix_nodes_cell_vec_f' || f.forest_id), to_regclass('ix_nodes_tsv_f' || f.forest_id), to_regclass('ix_facts_tsv_f' || f.forest_id), to_regclass('ix_facts_vec_f' || f.forest_id))
) THEN 'indexed' ELSE 'exact' END, f.name || left(set_config('plan_cache_mode', 'force_generic_plan', true) || set_config('enable_seqscan', 'off', true), 0), (
  SELECT CAST(extract(epoch FROM max(s.time)) * 1000000 AS bigint)
  FROM sessions s
  WHERE s.tenant_id = :t
    AND s.forest_id = f.forest_id
), NULL
FROM forests f
WHERE f.tenant_id = :t
  AND f.forest_id = :f
UNION ALL SELECT 'lexical_fact', fact_id, s, trees, NULL, NULL, NULL, NULL, NULL
FROM lx
UNION ALL SELECT 'lexical_node', node_id, s, ARRAY[tree_id], leaf_cell_id, NULL, NULL, NULL, NULL
FROM ln
UNION ALL SELECT 'tree', t.tree_id, NULL, NULL, NULL, t.kind, t.label, t.root_node_id, t.height
FROM trees t
WHERE t.tenant_id = :t
  AND t.forest_id = :f
  AND t.kind = ANY(:kinds)
  AND t.root_node_id IS NOT NULL
  AND t.tree_id = ANY(ARRAY(SELECT tree_id FROM ids));

-- name: vector_indexed --
-- The vector channels (roots, facts, cells, entity labels) and the forest's own row of a forest with its own indexes (its graphs, named by a literal forest id), live facts and nodes; the forest row puts the rest of the transaction back on custom plans.
WITH rt AS MATERIALIZED (
  SELECT c.tree_id, 1 - c.d AS s
  FROM (
    SELECT x.node_id, x.tree_id, x.embedding <=> :q AS d
    FROM nodes x
    WHERE x.tenant_id = :t
      AND x.forest_id = {f}
      AND x.parent_id IS NULL
    ORDER BY CAST(x.graph_embedding AS halfvec({dim})) <=> CAST(CAST(:q AS vector) AS halfvec({dim})) LIMIT :nrg
  ) c
  CROSS JOIN LATERAL (
    SELECT 1
    FROM trees tr
    WHERE tr.tenant_id = :t
      AND tr.tree_id = c.tree_id
      AND tr.root_node_id = c.node_id
      AND tr.kind = ANY(:kinds)
    LIMIT 1
  ) z
  ORDER BY c.d, c.tree_id LIMIT :nr
),
fh AS MATERIALIZED (
  WITH c AS MATERIALIZED (
    SELECT x.fact_id, x.embedding <=> :q AS d
    FROM facts x
    WHERE x.tenant_id = :t
      AND x.forest_id = {f}
      AND x.retracted_at IS NULL
    ORDER BY x.embedding <=> :q LIMIT :nf + 8
  )
  SELECT fact_id, 1 - d AS sim
  FROM c
  ORDER BY d, fact_id LIMIT :nf
),
ch AS MATERIALIZED (
  WITH c AS MATERIALIZED (
    SELECT x.leaf_cell_id, x.embedding <=> :q AS d
    FROM nodes x
    WHERE x.tenant_id = :t
      AND x.forest_id = {f}
      AND x.level = 0
      AND x.leaf_cell_id IS NOT NULL
      AND x.embedding IS NOT NULL
    ORDER BY CAST(x.graph_embedding AS halfvec({dim})) <=> CAST(CAST(:q AS vector) AS halfvec({dim})) LIMIT :nc + 8
  )
  SELECT leaf_cell_id, 1 - d AS sim
  FROM c
  ORDER BY d, leaf_cell_id LIMIT :nc
),
lab AS MATERIALIZED (
  SELECT tree_id, n_leaves
  FROM trees
  WHERE tenant_id = :t
    AND forest_id = {f}
    AND kind = 'entity'
    AND key = ANY(:names)
),
fx AS MATERIALIZED (
  SELECT fact_id, sim, (
    SELECT array_agg(p.tree_id ORDER BY p.tree_id)
    FROM placements p
    WHERE p.tenant_id = :t
      AND p.source_kind = 'fact'
      AND p.source_id = fh.fact_id
      AND p.forest_id = {f}
  ) AS trees
  FROM fh
),
cx AS MATERIALIZED (
  SELECT leaf_cell_id, sim, (
    SELECT array_agg(p.tree_id ORDER BY p.tree_id)
    FROM placements p
    WHERE p.tenant_id = :t
      AND p.source_kind = 'cell'
      AND p.source_id = ch.leaf_cell_id
      AND p.forest_id = {f}
  ) AS trees
  FROM ch
),
ids(tree_id) AS (
  SELECT tree_id
  FROM rt
  UNION SELECT unnest(trees)
  FROM fx
  UNION SELECT unnest(trees)
  FROM cx
  UNION SELECT tree_id
  FROM lab
)
SELECT NULL::text AS ch, NULL::bigint AS id, NULL::float8 AS s, NULL::bigint[] AS trees, NULL::bigint AS cell, NULL::text AS kind, NULL::text AS label, NULL::bigint AS root, NULL::int AS height
WHERE false
UNION ALL SELECT 'root', tree_id, s, NULL, NULL, NULL, NULL, NULL, NULL
FROM rt
UNION ALL SELECT 'fact', fact_id, sim, trees, NULL, NULL, NULL, NULL, NULL
FROM fx
UNION ALL SELECT 'cell', leaf_cell_id, sim, trees, NULL, NULL, NULL, NULL, NULL
FROM cx
UNION ALL SELECT 'label', tree_id, n_leaves, NULL, NULL, NULL, NULL, NULL, NULL
FROM lab
UNION ALL SELECT 'forest', f.forest_id, NULL, NULL, NULL, CASE WHEN (
  SELECT count(*) = 5
  FROM pg_index i
  WHERE i.indisvalid
    AND i.indexrelid IN (to_regclass('ix_nodes_root_vec_f' || f.forest_id), to_regclass('ix_nodes_cell_vec_f' || f.forest_id), to_regclass('ix_nodes_tsv_f' || f.forest_id), to_regclass('ix_facts_tsv_f' || f.forest_id), to_regclass('ix_facts_vec_f' || f.forest_id))
) THEN 'indexed' ELSE 'exact' END, f.name || left(set_config('plan_cache_mode', 'force_custom_plan', true) || set_config('enable_seqscan', 'on', true), 0), (
  SELECT CAST(extract(epoch FROM max(s.time)) * 1000000 AS bigint)
  FROM sessions s
  WHERE s.tenant_id = :t
    AND s.forest_id = f.forest_id
), NULL
FROM forests f
WHERE f.tenant_id = :t
  AND f.forest_id = {f}
UNION ALL SELECT 'tree', t.tree_id, NULL, NULL, NULL, t.kind, t.label, t.root_node_id, t.height
FROM trees t
WHERE t.tenant_id = :t
  AND t.forest_id = {f}
  AND t.kind = ANY(:kinds)
  AND t.root_node_id IS NOT NULL
  AND t.tree_id = ANY(ARRAY(SELECT tree_id FROM ids));

-- name: vector_indexed_then_generic --
-- The vector channels (roots, facts, cells, entity labels) and the forest's own row of a forest with its own indexes (its graphs, named by a literal forest id), live facts and nodes; the forest row puts the rest of the transaction on generic plans without sequential scans.
WITH rt AS MATERIALIZED (
  SELECT c.tree_id, 1 - c.d AS s
  FROM (
    SELECT x.node_id, x.tree_id, x.embedding <=> :q AS d
    FROM nodes x
    WHERE x.tenant_id = :t
      AND x.forest_id = {f}
      AND x.parent_id IS NULL
    ORDER BY CAST(x.graph_embedding AS halfvec({dim})) <=> CAST(CAST(:q AS vector) AS halfvec({dim})) LIMIT :nrg
  ) c
  CROSS JOIN LATERAL (
    SELECT 1
    FROM trees tr
    WHERE tr.tenant_id = :t
      AND tr.tree_id = c.tree_id
      AND tr.root_node_id = c.node_id
      AND tr.kind = ANY(:kinds)
    LIMIT 1
  ) z
  ORDER BY c.d, c.tree_id LIMIT :nr
),
fh AS MATERIALIZED (
  WITH c AS MATERIALIZED (
    SELECT x.fact_id, x.embedding <=> :q AS d
    FROM facts x
    WHERE x.tenant_id = :t
      AND x.forest_id = {f}
      AND x.retracted_at IS NULL
    ORDER BY x.embedding <=> :q LIMIT :nf + 8
  )
  SELECT fact_id, 1 - d AS sim
  FROM c
  ORDER BY d, fact_id LIMIT :nf
),
ch AS MATERIALIZED (
  WITH c AS MATERIALIZED (
    SELECT x.leaf_cell_id, x.embedding <=> :q AS d
    FROM nodes x
    WHERE x.tenant_id = :t
      AND x.forest_id = {f}
      AND x.level = 0
      AND x.leaf_cell_id IS NOT NULL
      AND x.embedding IS NOT NULL
    ORDER BY CAST(x.graph_embedding AS halfvec({dim})) <=> CAST(CAST(:q AS vector) AS halfvec({dim})) LIMIT :nc + 8
  )
  SELECT leaf_cell_id, 1 - d AS sim
  FROM c
  ORDER BY d, leaf_cell_id LIMIT :nc
),
lab AS MATERIALIZED (
  SELECT tree_id, n_leaves
  FROM trees
  WHERE tenant_id = :t
    AND forest_id = {f}
    AND kind = 'entity'
    AND key = ANY(:names)
),
fx AS MATERIALIZED (
  SELECT fact_id, sim, (
    SELECT array_agg(p.tree_id ORDER BY p.tree_id)
    FROM placements p
    WHERE p.tenant_id = :t
      AND p.source_kind = 'fact'
      AND p.source_id = fh.fact_id
      AND p.forest_id = {f}
  ) AS trees
  FROM fh
),
cx AS MATERIALIZED (
  SELECT leaf_cell_id, sim, (
    SELECT array_agg(p.tree_id ORDER BY p.tree_id)
    FROM placements p
    WHERE p.tenant_id = :t
      AND p.source_kind = 'cell'
      AND p.source_id = ch.leaf_cell_id
      AND p.forest_id = {f}
  ) AS trees
  FROM ch
),
ids(tree_id) AS (
  SELECT tree_id
  FROM rt
  UNION SELECT unnest(trees)
  FROM fx
  UNION SELECT unnest(trees)
  FROM cx
  UNION SELECT tree_id
  FROM lab
)
SELECT NULL::text AS ch, NULL::bigint AS id, NULL::float8 AS s, NULL::bigint[] AS trees, NULL::bigint AS cell, NULL::text AS kind, NULL::text AS label, NULL::bigint AS root, NULL::int AS height
WHERE false
UNION ALL SELECT 'root', tree_id, s, NULL, NULL, NULL, NULL, NULL, NULL
FROM rt
UNION ALL SELECT 'fact', fact_id, sim, trees, NULL, NULL, NULL, NULL, NULL
FROM fx
UNION ALL SELECT 'cell', leaf_cell_id, sim, trees, NULL, NULL, NULL, NULL, NULL
FROM cx
UNION ALL SELECT 'label', tree_id, n_leaves, NULL, NULL, NULL, NULL, NULL, NULL
FROM lab
UNION ALL SELECT 'forest', f.forest_id, NULL, NULL, NULL, CASE WHEN (
  SELECT count(*) = 5
  FROM pg_index i
  WHERE i.indisvalid
    AND i.indexrelid IN (to_regclass('ix_nodes_root_vec_f' || f.forest_id), to_regclass('ix_nodes_cell_vec_f' || f.forest_id), to_regclass('ix_nodes_tsv_f' || f.forest_id), to_regclass('ix_facts_tsv_f' || f.forest_id), to_regclass('ix_facts_vec_f' || f.forest_id))
) THEN 'indexed' ELSE 'exact' END, f.name || left(set_config('plan_cache_mode', 'force_generic_plan', true) || set_config('enable_seqscan', 'off', true), 0), (
  SELECT CAST(extract(epoch FROM max(s.time)) * 1000000 AS bigint)
  FROM sessions s
  WHERE s.tenant_id = :t
    AND s.forest_id = f.forest_id
), NULL
FROM forests f
WHERE f.tenant_id = :t
  AND f.forest_id = {f}
UNION ALL SELECT 'tree', t.tree_id, NULL, NULL, NULL, t.kind, t.label, t.root_node_id, t.height
FROM trees t
WHERE t.tenant_id = :t
  AND t.forest_id = {f}
  AND t.kind = ANY(:kinds)
  AND t.root_node_id IS NOT NULL
  AND t.tree_id = ANY(ARRAY(SELECT tree_id FROM ids));

-- name: all_indexed --
-- Every recall channel of a forest with its own indexes (its graphs, named by a literal forest id), live facts and nodes, full text from the forest's GIN indexes; the forest row puts the rest of the transaction back on custom plans.
WITH rt AS MATERIALIZED (
  SELECT c.tree_id, 1 - c.d AS s
  FROM (
    SELECT x.node_id, x.tree_id, x.embedding <=> :q AS d
    FROM nodes x
    WHERE x.tenant_id = :t
      AND x.forest_id = {f}
      AND x.parent_id IS NULL
    ORDER BY CAST(x.graph_embedding AS halfvec({dim})) <=> CAST(CAST(:q AS vector) AS halfvec({dim})) LIMIT :nrg
  ) c
  CROSS JOIN LATERAL (
    SELECT 1
    FROM trees tr
    WHERE tr.tenant_id = :t
      AND tr.tree_id = c.tree_id
      AND tr.root_node_id = c.node_id
      AND tr.kind = ANY(:kinds)
    LIMIT 1
  ) z
  ORDER BY c.d, c.tree_id LIMIT :nr
),
fh AS MATERIALIZED (
  WITH c AS MATERIALIZED (
    SELECT x.fact_id, x.embedding <=> :q AS d
    FROM facts x
    WHERE x.tenant_id = :t
      AND x.forest_id = {f}
      AND x.retracted_at IS NULL
    ORDER BY x.embedding <=> :q LIMIT :nf + 8
  )
  SELECT fact_id, 1 - d AS sim
  FROM c
  ORDER BY d, fact_id LIMIT :nf
),
ch AS MATERIALIZED (
  WITH c AS MATERIALIZED (
    SELECT x.leaf_cell_id, x.embedding <=> :q AS d
    FROM nodes x
    WHERE x.tenant_id = :t
      AND x.forest_id = {f}
      AND x.level = 0
      AND x.leaf_cell_id IS NOT NULL
      AND x.embedding IS NOT NULL
    ORDER BY CAST(x.graph_embedding AS halfvec({dim})) <=> CAST(CAST(:q AS vector) AS halfvec({dim})) LIMIT :nc + 8
  )
  SELECT leaf_cell_id, 1 - d AS sim
  FROM c
  ORDER BY d, leaf_cell_id LIMIT :nc
),
lab AS MATERIALIZED (
  SELECT tree_id, n_leaves
  FROM trees
  WHERE tenant_id = :t
    AND forest_id = {f}
    AND kind = 'entity'
    AND key = ANY(:names)
),
fx AS MATERIALIZED (
  SELECT fact_id, sim, (
    SELECT array_agg(p.tree_id ORDER BY p.tree_id)
    FROM placements p
    WHERE p.tenant_id = :t
      AND p.source_kind = 'fact'
      AND p.source_id = fh.fact_id
      AND p.forest_id = {f}
  ) AS trees
  FROM fh
),
cx AS MATERIALIZED (
  SELECT leaf_cell_id, sim, (
    SELECT array_agg(p.tree_id ORDER BY p.tree_id)
    FROM placements p
    WHERE p.tenant_id = :t
      AND p.source_kind = 'cell'
      AND p.source_id = ch.leaf_cell_id
      AND p.forest_id = {f}
  ) AS trees
  FROM ch
),
lf AS MATERIALIZED (
  SELECT m.fact_id, ts_rank(m.tsv, (SELECT to_tsquery('english', :tsq)), 1) AS s
  FROM memforest_fact_text_candidates({f}, to_tsquery('english', :tsq), to_tsquery('english', :tsq2), to_tsquery('english', :tsq3), :nl, :cap, CAST(:as_of AS timestamptz)) m
  ORDER BY s DESC, m.fact_id LIMIT :nl
),
ln AS MATERIALIZED (
  SELECT m.node_id, m.tree_id, m.leaf_cell_id, ts_rank(m.tsv, (SELECT to_tsquery('english', :tsq)), 1) AS s
  FROM memforest_node_text_candidates({f}, to_tsquery('english', :tsq), to_tsquery('english', :tsq2), to_tsquery('english', :tsq3), :nl, :cap, CAST(:as_of AS timestamptz)) m
  ORDER BY s DESC, m.node_id LIMIT :nl
),
lx AS MATERIALIZED (
  SELECT fact_id, s, (
    SELECT array_agg(p.tree_id ORDER BY p.tree_id)
    FROM placements p
    WHERE p.tenant_id = :t
      AND p.source_kind = 'fact'
      AND p.source_id = lf.fact_id
      AND p.forest_id = {f}
  ) AS trees
  FROM lf
),
ids(tree_id) AS (
  SELECT tree_id
  FROM rt
  UNION SELECT unnest(trees)
  FROM fx
  UNION SELECT unnest(trees)
  FROM cx
  UNION SELECT tree_id
  FROM lab
  UNION SELECT unnest(trees)
  FROM lx
  UNION SELECT tree_id
  FROM ln
)
SELECT NULL::text AS ch, NULL::bigint AS id, NULL::float8 AS s, NULL::bigint[] AS trees, NULL::bigint AS cell, NULL::text AS kind, NULL::text AS label, NULL::bigint AS root, NULL::int AS height
WHERE false
UNION ALL SELECT 'root', tree_id, s, NULL, NULL, NULL, NULL, NULL, NULL
FROM rt
UNION ALL SELECT 'fact', fact_id, sim, trees, NULL, NULL, NULL, NULL, NULL
FROM fx
UNION ALL SELECT 'cell', leaf_cell_id, sim, trees, NULL, NULL, NULL, NULL, NULL
FROM cx
UNION ALL SELECT 'label', tree_id, n_leaves, NULL, NULL, NULL, NULL, NULL, NULL
FROM lab
UNION ALL SELECT 'forest', f.forest_id, NULL, NULL, NULL, CASE WHEN (
  SELECT count(*) = 5
  FROM pg_index i
  WHERE i.indisvalid
    AND i.indexrelid IN (to_regclass('ix_nodes_root_vec_f' || f.forest_id), to_regclass('ix_nodes_cell_vec_f' || f.forest_id), to_regclass('ix_nodes_tsv_f' || f.forest_id), to_regclass('ix_facts_tsv_f' || f.forest_id), to_regclass('ix_facts_vec_f' || f.forest_id))
) THEN 'indexed' ELSE 'exact' END, f.name || left(set_config('plan_cache_mode', 'force_custom_plan', true) || set_config('enable_seqscan', 'on', true), 0), (
  SELECT CAST(extract(epoch FROM max(s.time)) * 1000000 AS bigint)
  FROM sessions s
  WHERE s.tenant_id = :t
    AND s.forest_id = f.forest_id
), NULL
FROM forests f
WHERE f.tenant_id = :t
  AND f.forest_id = {f}
UNION ALL SELECT 'lexical_fact', fact_id, s, trees, NULL, NULL, NULL, NULL, NULL
FROM lx
UNION ALL SELECT 'lexical_node', node_id, s, ARRAY[tree_id], leaf_cell_id, NULL, NULL, NULL, NULL
FROM ln
UNION ALL SELECT 'tree', t.tree_id, NULL, NULL, NULL, t.kind, t.label, t.root_node_id, t.height
FROM trees t
WHERE t.tenant_id = :t
  AND t.forest_id = {f}
  AND t.kind = ANY(:kinds)
  AND t.root_node_id IS NOT NULL
  AND t.tree_id = ANY(ARRAY(SELECT tree_id FROM ids));

-- name: vector_indexed_as_of --
-- The vector channels (roots, facts, cells, entity labels) and the forest's own row of a forest with its own indexes (its graphs, named by a literal forest id), as of :as_of; the forest row puts the rest of the transaction back on custom plans.
WITH rt AS MATERIALIZED (
  SELECT c.tree_id, 1 - c.d AS s
  FROM (
    SELECT x.node_id, x.tree_id, x.embedding <=> :q AS d
    FROM nodes x
    WHERE x.tenant_id = :t
      AND x.forest_id = {f}
      AND x.parent_id IS NULL
    ORDER BY CAST(x.graph_embedding AS halfvec({dim})) <=> CAST(CAST(:q AS vector) AS halfvec({dim})) LIMIT :nrg
  ) c
  CROSS JOIN LATERAL (
    SELECT 1
    FROM trees tr
    WHERE tr.tenant_id = :t
      AND tr.tree_id = c.tree_id
      AND tr.root_node_id = c.node_id
      AND tr.kind = ANY(:kinds)
    LIMIT 1
  ) z
  ORDER BY c.d, c.tree_id LIMIT :nr
),
fh AS MATERIALIZED (
  WITH c AS MATERIALIZED (
    SELECT x.fact_id, x.embedding <=> :q AS d
    FROM facts x
    WHERE x.tenant_id = :t
      AND x.forest_id = {f}
      AND (x.retracted_at IS NULL OR x.retracted_at > :as_of)
      AND x.valid_from <= :as_of
      AND x.recorded_at <= :as_of
      AND (x.valid_to IS NULL OR x.valid_to > :as_of)
    ORDER BY x.embedding <=> :q LIMIT :nf + 8
  )
  SELECT fact_id, 1 - d AS sim
  FROM c
  ORDER BY d, fact_id LIMIT :nf
),
ch AS MATERIALIZED (
  WITH c AS MATERIALIZED (
    SELECT x.leaf_cell_id, x.embedding <=> :q AS d
    FROM nodes x
    WHERE x.tenant_id = :t
      AND x.forest_id = {f}
      AND x.level = 0
      AND x.leaf_cell_id IS NOT NULL
      AND x.embedding IS NOT NULL
      AND x.t_start <= :as_of
    ORDER BY CAST(x.graph_embedding AS halfvec({dim})) <=> CAST(CAST(:q AS vector) AS halfvec({dim})) LIMIT :nc + 8
  )
  SELECT leaf_cell_id, 1 - d AS sim
  FROM c
  ORDER BY d, leaf_cell_id LIMIT :nc
),
lab AS MATERIALIZED (
  SELECT tree_id, n_leaves
  FROM trees
  WHERE tenant_id = :t
    AND forest_id = {f}
    AND kind = 'entity'
    AND key = ANY(:names)
),
fx AS MATERIALIZED (
  SELECT fact_id, sim, (
    SELECT array_agg(p.tree_id ORDER BY p.tree_id)
    FROM placements p
    WHERE p.tenant_id = :t
      AND p.source_kind = 'fact'
      AND p.source_id = fh.fact_id
      AND p.forest_id = {f}
  ) AS trees
  FROM fh
),
cx AS MATERIALIZED (
  SELECT leaf_cell_id, sim, (
    SELECT array_agg(p.tree_id ORDER BY p.tree_id)
    FROM placements p
    WHERE p.tenant_id = :t
      AND p.source_kind = 'cell'
      AND p.source_id = ch.leaf_cell_id
      AND p.forest_id = {f}
  ) AS trees
  FROM ch
),
ids(tree_id) AS (
  SELECT tree_id
  FROM rt
  UNION SELECT unnest(trees)
  FROM fx
  UNION SELECT unnest(trees)
  FROM cx
  UNION SELECT tree_id
  FROM lab
)
SELECT NULL::text AS ch, NULL::bigint AS id, NULL::float8 AS s, NULL::bigint[] AS trees, NULL::bigint AS cell, NULL::text AS kind, NULL::text AS label, NULL::bigint AS root, NULL::int AS height
WHERE false
UNION ALL SELECT 'root', tree_id, s, NULL, NULL, NULL, NULL, NULL, NULL
FROM rt
UNION ALL SELECT 'fact', fact_id, sim, trees, NULL, NULL, NULL, NULL, NULL
FROM fx
UNION ALL SELECT 'cell', leaf_cell_id, sim, trees, NULL, NULL, NULL, NULL, NULL
FROM cx
UNION ALL SELECT 'label', tree_id, n_leaves, NULL, NULL, NULL, NULL, NULL, NULL
FROM lab
UNION ALL SELECT 'forest', f.forest_id, NULL, NULL, NULL, CASE WHEN (
  SELECT count(*) = 5
  FROM pg_index i
  WHERE i.indisvalid
    AND i.indexrelid IN (to_regclass('ix_nodes_root_vec_f' || f.forest_id), to_regclass('ix_nodes_cell_vec_f' || f.forest_id), to_regclass('ix_nodes_tsv_f' || f.forest_id), to_regclass('ix_facts_tsv_f' || f.forest_id), to_regclass('ix_facts_vec_f' || f.forest_id))
) THEN 'indexed' ELSE 'exact' END, f.name || left(set_config('plan_cache_mode', 'force_custom_plan', true) || set_config('enable_seqscan', 'on', true), 0), (
  SELECT CAST(extract(epoch FROM max(s.time)) * 1000000 AS bigint)
  FROM sessions s
  WHERE s.tenant_id = :t
    AND s.forest_id = f.forest_id
), NULL
FROM forests f
WHERE f.tenant_id = :t
  AND f.forest_id = {f}
UNION ALL SELECT 'tree', t.tree_id, NULL, NULL, NULL, t.kind, t.label, t.root_node_id, t.height
FROM trees t
WHERE t.tenant_id = :t
  AND t.forest_id = {f}
  AND t.kind = ANY(:kinds)
  AND t.root_node_id IS NOT NULL
  AND t.tree_id = ANY(ARRAY(SELECT tree_id FROM ids));

-- name: vector_indexed_as_of_then_generic --
-- The vector channels (roots, facts, cells, entity labels) and the forest's own row of a forest with its own indexes (its graphs, named by a literal forest id), as of :as_of; the forest row puts the rest of the transaction on generic plans without sequential scans.
WITH rt AS MATERIALIZED (
  SELECT c.tree_id, 1 - c.d AS s
  FROM (
    SELECT x.node_id, x.tree_id, x.embedding <=> :q AS d
    FROM nodes x
    WHERE x.tenant_id = :t
      AND x.forest_id = {f}
      AND x.parent_id IS NULL
    ORDER BY CAST(x.graph_embedding AS halfvec({dim})) <=> CAST(CAST(:q AS vector) AS halfvec({dim})) LIMIT :nrg
  ) c
  CROSS JOIN LATERAL (
    SELECT 1
    FROM trees tr
    WHERE tr.tenant_id = :t
      AND tr.tree_id = c.tree_id
      AND tr.root_node_id = c.node_id
      AND tr.kind = ANY(:kinds)
    LIMIT 1
  ) z
  ORDER BY c.d, c.tree_id LIMIT :nr
),
fh AS MATERIALIZED (
  WITH c AS MATERIALIZED (
    SELECT x.fact_id, x.embedding <=> :q AS d
    FROM facts x
    WHERE x.tenant_id = :t
      AND x.forest_id = {f}
      AND (x.retracted_at IS NULL OR x.retracted_at > :as_of)
      AND x.valid_from <= :as_of
      AND x.recorded_at <= :as_of
      AND (x.valid_to IS NULL OR x.valid_to > :as_of)
    ORDER BY x.embedding <=> :q LIMIT :nf + 8
  )
  SELECT fact_id, 1 - d AS sim
  FROM c
  ORDER BY d, fact_id LIMIT :nf
),
ch AS MATERIALIZED (
  WITH c AS MATERIALIZED (
    SELECT x.leaf_cell_id, x.embedding <=> :q AS d
    FROM nodes x
    WHERE x.tenant_id = :t
      AND x.forest_id = {f}
      AND x.level = 0
      AND x.leaf_cell_id IS NOT NULL
      AND x.embedding IS NOT NULL
      AND x.t_start <= :as_of
    ORDER BY CAST(x.graph_embedding AS halfvec({dim})) <=> CAST(CAST(:q AS vector) AS halfvec({dim})) LIMIT :nc + 8
  )
  SELECT leaf_cell_id, 1 - d AS sim
  FROM c
  ORDER BY d, leaf_cell_id LIMIT :nc
),
lab AS MATERIALIZED (
  SELECT tree_id, n_leaves
  FROM trees
  WHERE tenant_id = :t
    AND forest_id = {f}
    AND kind = 'entity'
    AND key = ANY(:names)
),
fx AS MATERIALIZED (
  SELECT fact_id, sim, (
    SELECT array_agg(p.tree_id ORDER BY p.tree_id)
    FROM placements p
    WHERE p.tenant_id = :t
      AND p.source_kind = 'fact'
      AND p.source_id = fh.fact_id
      AND p.forest_id = {f}
  ) AS trees
  FROM fh
),
cx AS MATERIALIZED (
  SELECT leaf_cell_id, sim, (
    SELECT array_agg(p.tree_id ORDER BY p.tree_id)
    FROM placements p
    WHERE p.tenant_id = :t
      AND p.source_kind = 'cell'
      AND p.source_id = ch.leaf_cell_id
      AND p.forest_id = {f}
  ) AS trees
  FROM ch
),
ids(tree_id) AS (
  SELECT tree_id
  FROM rt
  UNION SELECT unnest(trees)
  FROM fx
  UNION SELECT unnest(trees)
  FROM cx
  UNION SELECT tree_id
  FROM lab
)
SELECT NULL::text AS ch, NULL::bigint AS id, NULL::float8 AS s, NULL::bigint[] AS trees, NULL::bigint AS cell, NULL::text AS kind, NULL::text AS label, NULL::bigint AS root, NULL::int AS height
WHERE false
UNION ALL SELECT 'root', tree_id, s, NULL, NULL, NULL, NULL, NULL, NULL
FROM rt
UNION ALL SELECT 'fact', fact_id, sim, trees, NULL, NULL, NULL, NULL, NULL
FROM fx
UNION ALL SELECT 'cell', leaf_cell_id, sim, trees, NULL, NULL, NULL, NULL, NULL
FROM cx
UNION ALL SELECT 'label', tree_id, n_leaves, NULL, NULL, NULL, NULL, NULL, NULL
FROM lab
UNION ALL SELECT 'forest', f.forest_id, NULL, NULL, NULL, CASE WHEN (
  SELECT count(*) = 5
  FROM pg_index i
  WHERE i.indisvalid
    AND i.indexrelid IN (to_regclass('ix_nodes_root_vec_f' || f.forest_id), to_regclass('ix_nodes_cell_vec_f' || f.forest_id), to_regclass('ix_nodes_tsv_f' || f.forest_id), to_regclass('ix_facts_tsv_f' || f.forest_id), to_regclass('ix_facts_vec_f' || f.forest_id))
) THEN 'indexed' ELSE 'exact' END, f.name || left(set_config('plan_cache_mode', 'force_generic_plan', true) || set_config('enable_seqscan', 'off', true), 0), (
  SELECT CAST(extract(epoch FROM max(s.time)) * 1000000 AS bigint)
  FROM sessions s
  WHERE s.tenant_id = :t
    AND s.forest_id = f.forest_id
), NULL
FROM forests f
WHERE f.tenant_id = :t
  AND f.forest_id = {f}
UNION ALL SELECT 'tree', t.tree_id, NULL, NULL, NULL, t.kind, t.label, t.root_node_id, t.height
FROM trees t
WHERE t.tenant_id = :t
  AND t.forest_id = {f}
  AND t.kind = ANY(:kinds)
  AND t.root_node_id IS NOT NULL
  AND t.tree_id = ANY(ARRAY(SELECT tree_id FROM ids));

-- name: all_indexed_as_of --
-- Every recall channel of a forest with its own indexes (its graphs, named by a literal forest id), as of :as_of, full text from the forest's GIN indexes; the forest row puts the rest of the transaction back on custom plans.
WITH rt AS MATERIALIZED (
  SELECT c.tree_id, 1 - c.d AS s
  FROM (
    SELECT x.node_id, x.tree_id, x.embedding <=> :q AS d
    FROM nodes x
    WHERE x.tenant_id = :t
      AND x.forest_id = {f}
      AND x.parent_id IS NULL
    ORDER BY CAST(x.graph_embedding AS halfvec({dim})) <=> CAST(CAST(:q AS vector) AS halfvec({dim})) LIMIT :nrg
  ) c
  CROSS JOIN LATERAL (
    SELECT 1
    FROM trees tr
    WHERE tr.tenant_id = :t
      AND tr.tree_id = c.tree_id
      AND tr.root_node_id = c.node_id
      AND tr.kind = ANY(:kinds)
    LIMIT 1
  ) z
  ORDER BY c.d, c.tree_id LIMIT :nr
),
fh AS MATERIALIZED (
  WITH c AS MATERIALIZED (
    SELECT x.fact_id, x.embedding <=> :q AS d
    FROM facts x
    WHERE x.tenant_id = :t
      AND x.forest_id = {f}
      AND (x.retracted_at IS NULL OR x.retracted_at > :as_of)
      AND x.valid_from <= :as_of
      AND x.recorded_at <= :as_of
      AND (x.valid_to IS NULL OR x.valid_to > :as_of)
    ORDER BY x.embedding <=> :q LIMIT :nf + 8
  )
  SELECT fact_id, 1 - d AS sim
  FROM c
  ORDER BY d, fact_id LIMIT :nf
),
ch AS MATERIALIZED (
  WITH c AS MATERIALIZED (
    SELECT x.leaf_cell_id, x.embedding <=> :q AS d
    FROM nodes x
    WHERE x.tenant_id = :t
      AND x.forest_id = {f}
      AND x.level = 0
      AND x.leaf_cell_id IS NOT NULL
      AND x.embedding IS NOT NULL
      AND x.t_start <= :as_of
    ORDER BY CAST(x.graph_embedding AS halfvec({dim})) <=> CAST(CAST(:q AS vector) AS halfvec({dim})) LIMIT :nc + 8
  )
  SELECT leaf_cell_id, 1 - d AS sim
  FROM c
  ORDER BY d, leaf_cell_id LIMIT :nc
),
lab AS MATERIALIZED (
  SELECT tree_id, n_leaves
  FROM trees
  WHERE tenant_id = :t
    AND forest_id = {f}
    AND kind = 'entity'
    AND key = ANY(:names)
),
fx AS MATERIALIZED (
  SELECT fact_id, sim, (
    SELECT array_agg(p.tree_id ORDER BY p.tree_id)
    FROM placements p
    WHERE p.tenant_id = :t
      AND p.source_kind = 'fact'
      AND p.source_id = fh.fact_id
      AND p.forest_id = {f}
  ) AS trees
  FROM fh
),
cx AS MATERIALIZED (
  SELECT leaf_cell_id, sim, (
    SELECT array_agg(p.tree_id ORDER BY p.tree_id)
    FROM placements p
    WHERE p.tenant_id = :t
      AND p.source_kind = 'cell'
      AND p.source_id = ch.leaf_cell_id
      AND p.forest_id = {f}
  ) AS trees
  FROM ch
),
lf AS MATERIALIZED (
  SELECT m.fact_id, ts_rank(m.tsv, (SELECT to_tsquery('english', :tsq)), 1) AS s
  FROM memforest_fact_text_candidates({f}, to_tsquery('english', :tsq), to_tsquery('english', :tsq2), to_tsquery('english', :tsq3), :nl, :cap, CAST(:as_of AS timestamptz)) m
  ORDER BY s DESC, m.fact_id LIMIT :nl
),
ln AS MATERIALIZED (
  SELECT m.node_id, m.tree_id, m.leaf_cell_id, ts_rank(m.tsv, (SELECT to_tsquery('english', :tsq)), 1) AS s
  FROM memforest_node_text_candidates({f}, to_tsquery('english', :tsq), to_tsquery('english', :tsq2), to_tsquery('english', :tsq3), :nl, :cap, CAST(:as_of AS timestamptz)) m
  ORDER BY s DESC, m.node_id LIMIT :nl
),
lx AS MATERIALIZED (
  SELECT fact_id, s, (
    SELECT array_agg(p.tree_id ORDER BY p.tree_id)
    FROM placements p
    WHERE p.tenant_id = :t
      AND p.source_kind = 'fact'
      AND p.source_id = lf.fact_id
      AND p.forest_id = {f}
  ) AS trees
  FROM lf
),
ids(tree_id) AS (
  SELECT tree_id
  FROM rt
  UNION SELECT unnest(trees)
  FROM fx
  UNION SELECT unnest(trees)
  FROM cx
  UNION SELECT tree_id
  FROM lab
  UNION SELECT unnest(trees)
  FROM lx
  UNION SELECT tree_id
  FROM ln
)
SELECT NULL::text AS ch, NULL::bigint AS id, NULL::float8 AS s, NULL::bigint[] AS trees, NULL::bigint AS cell, NULL::text AS kind, NULL::text AS label, NULL::bigint AS root, NULL::int AS height
WHERE false
UNION ALL SELECT 'root', tree_id, s, NULL, NULL, NULL, NULL, NULL, NULL
FROM rt
UNION ALL SELECT 'fact', fact_id, sim, trees, NULL, NULL, NULL, NULL, NULL
FROM fx
UNION ALL SELECT 'cell', leaf_cell_id, sim, trees, NULL, NULL, NULL, NULL, NULL
FROM cx
UNION ALL SELECT 'label', tree_id, n_leaves, NULL, NULL, NULL, NULL, NULL, NULL
FROM lab
UNION ALL SELECT 'forest', f.forest_id, NULL, NULL, NULL, CASE WHEN (
  SELECT count(*) = 5
  FROM pg_index i
  WHERE i.indisvalid
    AND i.indexrelid IN (to_regclass('ix_nodes_root_vec_f' || f.forest_id), to_regclass('ix_nodes_cell_vec_f' || f.forest_id), to_regclass('ix_nodes_tsv_f' || f.forest_id), to_regclass('ix_facts_tsv_f' || f.forest_id), to_regclass('ix_facts_vec_f' || f.forest_id))
) THEN 'indexed' ELSE 'exact' END, f.name || left(set_config('plan_cache_mode', 'force_custom_plan', true) || set_config('enable_seqscan', 'on', true), 0), (
  SELECT CAST(extract(epoch FROM max(s.time)) * 1000000 AS bigint)
  FROM sessions s
  WHERE s.tenant_id = :t
    AND s.forest_id = f.forest_id
), NULL
FROM forests f
WHERE f.tenant_id = :t
  AND f.forest_id = {f}
UNION ALL SELECT 'lexical_fact', fact_id, s, trees, NULL, NULL, NULL, NULL, NULL
FROM lx
UNION ALL SELECT 'lexical_node', node_id, s, ARRAY[tree_id], leaf_cell_id, NULL, NULL, NULL, NULL
FROM ln
UNION ALL SELECT 'tree', t.tree_id, NULL, NULL, NULL, t.kind, t.label, t.root_node_id, t.height
FROM trees t
WHERE t.tenant_id = :t
  AND t.forest_id = {f}
  AND t.kind = ANY(:kinds)
  AND t.root_node_id IS NOT NULL
  AND t.tree_id = ANY(ARRAY(SELECT tree_id FROM ids));

-- name: lexical_scan --
-- The full-text channels of a forest without its own indexes, its live rows scanned and ranked.
WITH lf AS MATERIALIZED (
  SELECT x.fact_id, ts_rank(x.tsv, to_tsquery('english', :tsq), 1) AS s
  FROM facts x
  WHERE x.tenant_id = :t
    AND x.forest_id = :f
    AND x.tsv @@ to_tsquery('english', :tsq)
    AND x.retracted_at IS NULL
  ORDER BY s DESC, x.fact_id LIMIT :nl
),
ln AS MATERIALIZED (
  SELECT x.node_id, x.tree_id, x.leaf_cell_id, ts_rank(x.tsv, to_tsquery('english', :tsq), 1) AS s
  FROM nodes x
  WHERE x.tenant_id = :t
    AND x.forest_id = :f
    AND x.level = 0
    AND x.leaf_cell_id IS NOT NULL
    AND x.tsv @@ to_tsquery('english', :tsq)
  ORDER BY s DESC, x.node_id LIMIT :nl
),
lx AS MATERIALIZED (
  SELECT fact_id, s, (
    SELECT array_agg(p.tree_id ORDER BY p.tree_id)
    FROM placements p
    WHERE p.tenant_id = :t
      AND p.source_kind = 'fact'
      AND p.source_id = lf.fact_id
      AND p.forest_id = :f
  ) AS trees
  FROM lf
),
ids(tree_id) AS (SELECT unnest(trees) FROM lx UNION SELECT tree_id FROM ln)
SELECT NULL::text AS ch, NULL::bigint AS id, NULL::float8 AS s, NULL::bigint[] AS trees, NULL::bigint AS cell, NULL::text AS kind, NULL::text AS label, NULL::bigint AS root, NULL::int AS height
WHERE false
UNION ALL SELECT 'lexical_fact', fact_id, s, trees, NULL, NULL, NULL, NULL, NULL
FROM lx
UNION ALL SELECT 'lexical_node', node_id, s, ARRAY[tree_id], leaf_cell_id, NULL, NULL, NULL, NULL
FROM ln
UNION ALL SELECT 'tree', t.tree_id, NULL, NULL, NULL, t.kind, t.label, t.root_node_id, t.height
FROM trees t
WHERE t.tenant_id = :t
  AND t.forest_id = :f
  AND t.kind = ANY(:kinds)
  AND t.root_node_id IS NOT NULL
  AND t.tree_id = ANY(ARRAY(SELECT tree_id FROM ids));

-- name: lexical_scan_as_of --
-- The full-text channels of a forest without its own indexes, its rows as of :as_of scanned and ranked.
WITH lf AS MATERIALIZED (
  SELECT x.fact_id, ts_rank(x.tsv, to_tsquery('english', :tsq), 1) AS s
  FROM facts x
  WHERE x.tenant_id = :t
    AND x.forest_id = :f
    AND x.tsv @@ to_tsquery('english', :tsq)
    AND (x.retracted_at IS NULL OR x.retracted_at > :as_of)
    AND x.valid_from <= :as_of
    AND x.recorded_at <= :as_of
    AND (x.valid_to IS NULL OR x.valid_to > :as_of)
  ORDER BY s DESC, x.fact_id LIMIT :nl
),
ln AS MATERIALIZED (
  SELECT x.node_id, x.tree_id, x.leaf_cell_id, ts_rank(x.tsv, to_tsquery('english', :tsq), 1) AS s
  FROM nodes x
  WHERE x.tenant_id = :t
    AND x.forest_id = :f
    AND x.level = 0
    AND x.leaf_cell_id IS NOT NULL
    AND x.tsv @@ to_tsquery('english', :tsq)
    AND x.t_start <= :as_of
  ORDER BY s DESC, x.node_id LIMIT :nl
),
lx AS MATERIALIZED (
  SELECT fact_id, s, (
    SELECT array_agg(p.tree_id ORDER BY p.tree_id)
    FROM placements p
    WHERE p.tenant_id = :t
      AND p.source_kind = 'fact'
      AND p.source_id = lf.fact_id
      AND p.forest_id = :f
  ) AS trees
  FROM lf
),
ids(tree_id) AS (SELECT unnest(trees) FROM lx UNION SELECT tree_id FROM ln)
SELECT NULL::text AS ch, NULL::bigint AS id, NULL::float8 AS s, NULL::bigint[] AS trees, NULL::bigint AS cell, NULL::text AS kind, NULL::text AS label, NULL::bigint AS root, NULL::int AS height
WHERE false
UNION ALL SELECT 'lexical_fact', fact_id, s, trees, NULL, NULL, NULL, NULL, NULL
FROM lx
UNION ALL SELECT 'lexical_node', node_id, s, ARRAY[tree_id], leaf_cell_id, NULL, NULL, NULL, NULL
FROM ln
UNION ALL SELECT 'tree', t.tree_id, NULL, NULL, NULL, t.kind, t.label, t.root_node_id, t.height
FROM trees t
WHERE t.tenant_id = :t
  AND t.forest_id = :f
  AND t.kind = ANY(:kinds)
  AND t.root_node_id IS NOT NULL
  AND t.tree_id = ANY(ARRAY(SELECT tree_id FROM ids));

-- name: lexical_indexed --
-- The full-text channels of a forest with its own GIN indexes, through the candidate functions (live or as of :as_of).
WITH lf AS MATERIALIZED (
  SELECT m.fact_id, ts_rank(m.tsv, to_tsquery('english', :tsq), 1) AS s
  FROM memforest_fact_text_candidates(:f, to_tsquery('english', :tsq), to_tsquery('english', :tsq2), to_tsquery('english', :tsq3), :nl, :cap, CAST(:as_of AS timestamptz)) m
  ORDER BY s DESC, m.fact_id LIMIT :nl
),
ln AS MATERIALIZED (
  SELECT m.node_id, m.tree_id, m.leaf_cell_id, ts_rank(m.tsv, to_tsquery('english', :tsq), 1) AS s
  FROM memforest_node_text_candidates(:f, to_tsquery('english', :tsq), to_tsquery('english', :tsq2), to_tsquery('english', :tsq3), :nl, :cap, CAST(:as_of AS timestamptz)) m
  ORDER BY s DESC, m.node_id LIMIT :nl
),
lx AS MATERIALIZED (
  SELECT fact_id, s, (
    SELECT array_agg(p.tree_id ORDER BY p.tree_id)
    FROM placements p
    WHERE p.tenant_id = :t
      AND p.source_kind = 'fact'
      AND p.source_id = lf.fact_id
      AND p.forest_id = :f
  ) AS trees
  FROM lf
),
ids(tree_id) AS (SELECT unnest(trees) FROM lx UNION SELECT tree_id FROM ln)
SELECT NULL::text AS ch, NULL::bigint AS id, NULL::float8 AS s, NULL::bigint[] AS trees, NULL::bigint AS cell, NULL::text AS kind, NULL::text AS label, NULL::bigint AS root, NULL::int AS height
WHERE false
UNION ALL SELECT 'lexical_fact', fact_id, s, trees, NULL, NULL, NULL, NULL, NULL
FROM lx
UNION ALL SELECT 'lexical_node', node_id, s, ARRAY[tree_id], leaf_cell_id, NULL, NULL, NULL, NULL
FROM ln
UNION ALL SELECT 'tree', t.tree_id, NULL, NULL, NULL, t.kind, t.label, t.root_node_id, t.height
FROM trees t
WHERE t.tenant_id = :t
  AND t.forest_id = :f
  AND t.kind = ANY(:kinds)
  AND t.root_node_id IS NOT NULL
  AND t.tree_id = ANY(ARRAY(SELECT tree_id FROM ids));

-- name: indexed_and_knobs --
-- Whether the forest :f has every one of its own indexes, valid; sets the transaction's HNSW knobs.
SELECT 0 * length(set_config('hnsw.ef_search', :ef, true)) + 0 * length(set_config('hnsw.iterative_scan', 'relaxed_order', true)) AS knobs, (
  SELECT count(*) = 5
  FROM pg_index i
  WHERE i.indisvalid
    AND i.indexrelid IN (to_regclass('ix_nodes_root_vec_f' || CAST(:f AS bigint)), to_regclass('ix_nodes_cell_vec_f' || CAST(:f AS bigint)), to_regclass('ix_nodes_tsv_f' || CAST(:f AS bigint)), to_regclass('ix_facts_tsv_f' || CAST(:f AS bigint)), to_regclass('ix_facts_vec_f' || CAST(:f AS bigint)))
) AS indexed;

-- name: forest_for_recall --
-- The forest named :n, its latest session's time and whether it has its own indexes; sets the HNSW knobs.
SELECT f.forest_id, (
  SELECT max(s.time)
  FROM sessions s
  WHERE s.tenant_id = :t
    AND s.forest_id = f.forest_id
) AS latest, (
  SELECT count(*) = 5
  FROM pg_index i
  WHERE i.indisvalid
    AND i.indexrelid IN (to_regclass('ix_nodes_root_vec_f' || f.forest_id), to_regclass('ix_nodes_cell_vec_f' || f.forest_id), to_regclass('ix_nodes_tsv_f' || f.forest_id), to_regclass('ix_facts_tsv_f' || f.forest_id), to_regclass('ix_facts_vec_f' || f.forest_id))
) AS indexed, 0 * length(set_config('hnsw.ef_search', :ef, true)) + 0 * length(set_config('hnsw.iterative_scan', 'relaxed_order', true)) AS knobs
FROM forests f
WHERE f.tenant_id = :t
  AND f.name = :n;

-- name: plans_as_usual --
-- Hands the rest of the transaction back to custom plans with sequential scans allowed.
SELECT left(set_config('plan_cache_mode', 'force_custom_plan', true) || set_config('enable_seqscan', 'on', true), 0) AS reset;
