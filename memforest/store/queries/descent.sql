-- Reads of the read path's tree descent (emb beam and llm navigator): the children of a
-- frontier, the leaves of the whole emb beam descent in one statement, and node vectors and
-- summaries. Used by memforest.store.browse.descent (ADR 0037).
--
-- The beam descent chooses the beam itself: every level's children of the nodes the level
-- above kept, "kept" = among the :beam best internal children of their tree at that level, then
-- the leaves reached. "Best" is one order throughout: the cosine to the query less :penalty
-- outside the [:after, :before) window, a NaN score (a node or query without content words:
-- pgvector's cosine of a zero vector) after every number, then inside the window before outside,
-- then the node id. OFFSET 0 keeps each level a subquery: the cosine is computed once per node
-- and the window sorts narrow rows. Only the leaves come back. The *_then_key_lookups variants
-- carry db/engine.py's KEY_LOOKUP_PLANS as a "plans" column: the caller's later statements read
-- by key only and run on cached generic plans (ADR 0022). The *_and_candidates_* variants also
-- read assembly's candidates (evidence.sql's candidates_in_scoring_trees) of the ids the caller
-- passes and of the leaves reached, in the same round trip: rows of kind 'leaf' (id = node id,
-- in the descent's order) then 'fact' and 'cell' rows in no particular order (ADR 0056).

-- name: children_with_sim --
-- The children of the frontier :p in time order, by parent, with their cosine to :q.
SELECT node_id, parent_id, tree_id, level, leaf_fact_id, leaf_cell_id, t_start, t_end, coalesce(summary, '') AS summary, coalesce(1 - (embedding <=> :q), 0) AS sim
FROM nodes
WHERE tenant_id = :t
  AND forest_id = :f
  AND parent_id = ANY(:p)
ORDER BY parent_id, t_start, seq;

-- name: children_without_sim --
-- The children of the frontier :p in time order, by parent, without a cosine (NULL, read as 0).
SELECT node_id, parent_id, tree_id, level, leaf_fact_id, leaf_cell_id, t_start, t_end, coalesce(summary, '') AS summary, coalesce(NULL::float8, 0) AS sim
FROM nodes
WHERE tenant_id = :t
  AND forest_id = :f
  AND parent_id = ANY(:p)
ORDER BY parent_id, t_start, seq;

-- name: beam_every_leaf --
-- The emb beam descent from :p in one statement: every leaf reached.
WITH RECURSIVE walk AS (
  SELECT k.*, k.level > 0 AND row_number() OVER (PARTITION BY k.tree_id, k.level > 0 ORDER BY (k.sim - CASE WHEN k.outside THEN CAST(:penalty AS float8) ELSE 0::float8 END) = 'NaN'::float8, (k.sim - CASE WHEN k.outside THEN CAST(:penalty AS float8) ELSE 0::float8 END) DESC, k.outside, k.node_id) <= :beam AS kept
  FROM (
    SELECT 1 AS depth, n.node_id, n.parent_id, n.tree_id, n.level, n.leaf_fact_id, n.leaf_cell_id, n.t_start, n.t_end, n.seq, coalesce(1 - (n.embedding <=> :q), 0) AS sim, coalesce(n.t_end < :after, false) OR coalesce(n.t_start >= :before, false) AS outside
    FROM nodes n
    WHERE n.tenant_id = :t
      AND n.forest_id = :f
      AND n.parent_id = ANY(:p)
    OFFSET 0
  ) k
  UNION ALL SELECT k.*, k.level > 0 AND row_number() OVER (PARTITION BY k.tree_id, k.level > 0 ORDER BY (k.sim - CASE WHEN k.outside THEN CAST(:penalty AS float8) ELSE 0::float8 END) = 'NaN'::float8, (k.sim - CASE WHEN k.outside THEN CAST(:penalty AS float8) ELSE 0::float8 END) DESC, k.outside, k.node_id) <= :beam
  FROM (
    SELECT w.depth + 1, n.node_id, n.parent_id, n.tree_id, n.level, n.leaf_fact_id, n.leaf_cell_id, n.t_start, n.t_end, n.seq, coalesce(1 - (n.embedding <=> :q), 0) AS sim, coalesce(n.t_end < :after, false) OR coalesce(n.t_start >= :before, false) AS outside
    FROM walk w
    JOIN nodes n ON n.tenant_id = :t
      AND n.parent_id = w.node_id
      AND n.forest_id = :f
    WHERE w.kept
    OFFSET 0
  ) k
)
SELECT node_id, tree_id, leaf_fact_id, leaf_cell_id, sim
FROM walk
WHERE level = 0
ORDER BY depth, parent_id, t_start, seq;

-- name: beam_every_leaf_then_key_lookups --
-- The emb beam descent from :p: every leaf reached; the rest of the transaction then runs on generic plans.
WITH RECURSIVE walk AS (
  SELECT k.*, k.level > 0 AND row_number() OVER (PARTITION BY k.tree_id, k.level > 0 ORDER BY (k.sim - CASE WHEN k.outside THEN CAST(:penalty AS float8) ELSE 0::float8 END) = 'NaN'::float8, (k.sim - CASE WHEN k.outside THEN CAST(:penalty AS float8) ELSE 0::float8 END) DESC, k.outside, k.node_id) <= :beam AS kept
  FROM (
    SELECT 1 AS depth, n.node_id, n.parent_id, n.tree_id, n.level, n.leaf_fact_id, n.leaf_cell_id, n.t_start, n.t_end, n.seq, coalesce(1 - (n.embedding <=> :q), 0) AS sim, coalesce(n.t_end < :after, false) OR coalesce(n.t_start >= :before, false) AS outside
    FROM nodes n
    WHERE n.tenant_id = :t
      AND n.forest_id = :f
      AND n.parent_id = ANY(:p)
    OFFSET 0
  ) k
  UNION ALL SELECT k.*, k.level > 0 AND row_number() OVER (PARTITION BY k.tree_id, k.level > 0 ORDER BY (k.sim - CASE WHEN k.outside THEN CAST(:penalty AS float8) ELSE 0::float8 END) = 'NaN'::float8, (k.sim - CASE WHEN k.outside THEN CAST(:penalty AS float8) ELSE 0::float8 END) DESC, k.outside, k.node_id) <= :beam
  FROM (
    SELECT w.depth + 1, n.node_id, n.parent_id, n.tree_id, n.level, n.leaf_fact_id, n.leaf_cell_id, n.t_start, n.t_end, n.seq, coalesce(1 - (n.embedding <=> :q), 0) AS sim, coalesce(n.t_end < :after, false) OR coalesce(n.t_start >= :before, false) AS outside
    FROM walk w
    JOIN nodes n ON n.tenant_id = :t
      AND n.parent_id = w.node_id
      AND n.forest_id = :f
    WHERE w.kept
    OFFSET 0
  ) k
)
SELECT node_id, tree_id, leaf_fact_id, leaf_cell_id, sim, (
  SELECT set_config('plan_cache_mode', 'force_generic_plan', true) || set_config('enable_seqscan', 'off', true)
) AS plans
FROM walk
WHERE level = 0
ORDER BY depth, parent_id, t_start, seq;

-- name: beam_live_leaves --
-- The emb beam descent from :p: the :leaves best leaves of each tree that are not of a superseded or retracted fact.
WITH RECURSIVE walk AS (
  SELECT k.*, k.level > 0 AND row_number() OVER (PARTITION BY k.tree_id, k.level > 0 ORDER BY (k.sim - CASE WHEN k.outside THEN CAST(:penalty AS float8) ELSE 0::float8 END) = 'NaN'::float8, (k.sim - CASE WHEN k.outside THEN CAST(:penalty AS float8) ELSE 0::float8 END) DESC, k.outside, k.node_id) <= :beam AS kept
  FROM (
    SELECT 1 AS depth, n.node_id, n.parent_id, n.tree_id, n.level, n.leaf_fact_id, n.leaf_cell_id, n.t_start, n.t_end, n.seq, coalesce(1 - (n.embedding <=> :q), 0) AS sim, coalesce(n.t_end < :after, false) OR coalesce(n.t_start >= :before, false) AS outside
    FROM nodes n
    WHERE n.tenant_id = :t
      AND n.forest_id = :f
      AND n.parent_id = ANY(:p)
    OFFSET 0
  ) k
  UNION ALL SELECT k.*, k.level > 0 AND row_number() OVER (PARTITION BY k.tree_id, k.level > 0 ORDER BY (k.sim - CASE WHEN k.outside THEN CAST(:penalty AS float8) ELSE 0::float8 END) = 'NaN'::float8, (k.sim - CASE WHEN k.outside THEN CAST(:penalty AS float8) ELSE 0::float8 END) DESC, k.outside, k.node_id) <= :beam
  FROM (
    SELECT w.depth + 1, n.node_id, n.parent_id, n.tree_id, n.level, n.leaf_fact_id, n.leaf_cell_id, n.t_start, n.t_end, n.seq, coalesce(1 - (n.embedding <=> :q), 0) AS sim, coalesce(n.t_end < :after, false) OR coalesce(n.t_start >= :before, false) AS outside
    FROM walk w
    JOIN nodes n ON n.tenant_id = :t
      AND n.parent_id = w.node_id
      AND n.forest_id = :f
    WHERE w.kept
    OFFSET 0
  ) k
)
SELECT node_id, tree_id, leaf_fact_id, leaf_cell_id, sim
FROM (
  SELECT w.*, row_number() OVER (PARTITION BY w.tree_id ORDER BY (w.sim - CASE WHEN w.outside THEN CAST(:penalty AS float8) ELSE 0::float8 END) = 'NaN'::float8, (w.sim - CASE WHEN w.outside THEN CAST(:penalty AS float8) ELSE 0::float8 END) DESC, w.outside, w.node_id) AS r
  FROM walk w
  LEFT JOIN facts x ON x.tenant_id = :t
    AND x.fact_id = w.leaf_fact_id
  WHERE w.level = 0
    AND x.superseded_by IS NULL
    AND x.retracted_at IS NULL
) l
WHERE r <= :leaves
ORDER BY depth, parent_id, t_start, seq;

-- name: beam_live_leaves_then_key_lookups --
-- The emb beam descent from :p: the :leaves best live leaves of each tree; the rest of the transaction then runs on generic plans.
WITH RECURSIVE walk AS (
  SELECT k.*, k.level > 0 AND row_number() OVER (PARTITION BY k.tree_id, k.level > 0 ORDER BY (k.sim - CASE WHEN k.outside THEN CAST(:penalty AS float8) ELSE 0::float8 END) = 'NaN'::float8, (k.sim - CASE WHEN k.outside THEN CAST(:penalty AS float8) ELSE 0::float8 END) DESC, k.outside, k.node_id) <= :beam AS kept
  FROM (
    SELECT 1 AS depth, n.node_id, n.parent_id, n.tree_id, n.level, n.leaf_fact_id, n.leaf_cell_id, n.t_start, n.t_end, n.seq, coalesce(1 - (n.embedding <=> :q), 0) AS sim, coalesce(n.t_end < :after, false) OR coalesce(n.t_start >= :before, false) AS outside
    FROM nodes n
    WHERE n.tenant_id = :t
      AND n.forest_id = :f
      AND n.parent_id = ANY(:p)
    OFFSET 0
  ) k
  UNION ALL SELECT k.*, k.level > 0 AND row_number() OVER (PARTITION BY k.tree_id, k.level > 0 ORDER BY (k.sim - CASE WHEN k.outside THEN CAST(:penalty AS float8) ELSE 0::float8 END) = 'NaN'::float8, (k.sim - CASE WHEN k.outside THEN CAST(:penalty AS float8) ELSE 0::float8 END) DESC, k.outside, k.node_id) <= :beam
  FROM (
    SELECT w.depth + 1, n.node_id, n.parent_id, n.tree_id, n.level, n.leaf_fact_id, n.leaf_cell_id, n.t_start, n.t_end, n.seq, coalesce(1 - (n.embedding <=> :q), 0) AS sim, coalesce(n.t_end < :after, false) OR coalesce(n.t_start >= :before, false) AS outside
    FROM walk w
    JOIN nodes n ON n.tenant_id = :t
      AND n.parent_id = w.node_id
      AND n.forest_id = :f
    WHERE w.kept
    OFFSET 0
  ) k
)
SELECT node_id, tree_id, leaf_fact_id, leaf_cell_id, sim, (
  SELECT set_config('plan_cache_mode', 'force_generic_plan', true) || set_config('enable_seqscan', 'off', true)
) AS plans
FROM (
  SELECT w.*, row_number() OVER (PARTITION BY w.tree_id ORDER BY (w.sim - CASE WHEN w.outside THEN CAST(:penalty AS float8) ELSE 0::float8 END) = 'NaN'::float8, (w.sim - CASE WHEN w.outside THEN CAST(:penalty AS float8) ELSE 0::float8 END) DESC, w.outside, w.node_id) AS r
  FROM walk w
  LEFT JOIN facts x ON x.tenant_id = :t
    AND x.fact_id = w.leaf_fact_id
  WHERE w.level = 0
    AND x.superseded_by IS NULL
    AND x.retracted_at IS NULL
) l
WHERE r <= :leaves
ORDER BY depth, parent_id, t_start, seq;

-- name: node_summaries --
-- The summaries of the given nodes.
SELECT node_id, summary
FROM nodes
WHERE tenant_id = :t
  AND forest_id = :f
  AND node_id = ANY(:ids);

-- name: node_vectors --
-- The vectors of the given nodes that have one.
SELECT node_id, embedding
FROM nodes
WHERE tenant_id = :t
  AND forest_id = :f
  AND node_id = ANY(:ids)
  AND embedding IS NOT NULL;

-- name: beam_every_leaf_and_candidates_then_key_lookups --
-- The emb beam descent from :p (every leaf reached) and the candidates of assembly (as candidates_in_scoring_trees) of :fids, :cids and the leaves' facts and cells, in one statement; the rest of the transaction then runs on generic plans.
WITH RECURSIVE walk AS (
  SELECT k.*, k.level > 0 AND row_number() OVER (PARTITION BY k.tree_id, k.level > 0 ORDER BY (k.sim - CASE WHEN k.outside THEN CAST(:penalty AS float8) ELSE 0::float8 END) = 'NaN'::float8, (k.sim - CASE WHEN k.outside THEN CAST(:penalty AS float8) ELSE 0::float8 END) DESC, k.outside, k.node_id) <= :beam AS kept
  FROM (
    SELECT 1 AS depth, n.node_id, n.parent_id, n.tree_id, n.level, n.leaf_fact_id, n.leaf_cell_id, n.t_start, n.t_end, n.seq, coalesce(1 - (n.embedding <=> :q), 0) AS sim, coalesce(n.t_end < :after, false) OR coalesce(n.t_start >= :before, false) AS outside
    FROM nodes n
    WHERE n.tenant_id = :t
      AND n.forest_id = :f
      AND n.parent_id = ANY(:p)
    OFFSET 0
  ) k
  UNION ALL SELECT k.*, k.level > 0 AND row_number() OVER (PARTITION BY k.tree_id, k.level > 0 ORDER BY (k.sim - CASE WHEN k.outside THEN CAST(:penalty AS float8) ELSE 0::float8 END) = 'NaN'::float8, (k.sim - CASE WHEN k.outside THEN CAST(:penalty AS float8) ELSE 0::float8 END) DESC, k.outside, k.node_id) <= :beam
  FROM (
    SELECT w.depth + 1, n.node_id, n.parent_id, n.tree_id, n.level, n.leaf_fact_id, n.leaf_cell_id, n.t_start, n.t_end, n.seq, coalesce(1 - (n.embedding <=> :q), 0) AS sim, coalesce(n.t_end < :after, false) OR coalesce(n.t_start >= :before, false) AS outside
    FROM walk w
    JOIN nodes n ON n.tenant_id = :t
      AND n.parent_id = w.node_id
      AND n.forest_id = :f
    WHERE w.kept
    OFFSET 0
  ) k
),
leaves AS MATERIALIZED (
  SELECT node_id, tree_id, leaf_fact_id, leaf_cell_id, sim, row_number() OVER (ORDER BY depth, parent_id, t_start, seq) AS ord
  FROM walk
  WHERE level = 0
)
SELECT u.*, (
  SELECT set_config('plan_cache_mode', 'force_generic_plan', true) || set_config('enable_seqscan', 'off', true)
) AS plans
FROM (
  SELECT 'leaf' AS kind, l.node_id AS id, NULL AS text, NULL AS t_start, NULL AS t_end, NULL AS time_text, NULL AS superseded_by, NULL AS recorded_at, NULL AS retracted_at, NULL AS session_ext, l.sim, NULL AS trees, NULL AS in_trees, NULL AS first_tree, l.tree_id, l.leaf_fact_id, l.leaf_cell_id, l.ord
  FROM leaves l
  UNION ALL SELECT 'fact', x.fact_id, x.text, x.valid_from, x.valid_to, x.time_text, x.superseded_by, x.recorded_at, x.retracted_at, NULL::text, coalesce(1 - (x.embedding <=> :q), 0), NULL, pt.in_trees, pt.first_tree, NULL, NULL, NULL, NULL
  FROM facts x
  LEFT JOIN LATERAL (
    SELECT min(p.tree_id) AS first_tree, array_agg(p.tree_id) FILTER (WHERE p.tree_id = ANY(:rt)) AS in_trees
    FROM placements p
    WHERE p.tenant_id = :t
      AND p.source_kind = 'fact'
      AND p.source_id = x.fact_id
  ) pt ON true
  WHERE x.tenant_id = :t
    AND x.forest_id = :f
    AND x.fact_id = ANY(array_cat(CAST(:fids AS bigint[]), ARRAY(
      SELECT l.leaf_fact_id
      FROM leaves l
      WHERE l.leaf_fact_id IS NOT NULL
    )))
  UNION ALL SELECT 'cell', c.cell_id, c.text, c.t_start, c.t_end, NULL, NULL, NULL, NULL, s.external_id, (
    SELECT coalesce(1 - (n.embedding <=> :q), 0)
    FROM nodes n
    WHERE n.tenant_id = c.tenant_id
      AND n.leaf_cell_id = c.cell_id
      AND n.embedding IS NOT NULL
    LIMIT 1
  ), NULL, pt.in_trees, pt.first_tree, NULL, NULL, NULL, NULL
  FROM cells c
  JOIN sessions s ON s.tenant_id = c.tenant_id
    AND s.session_id = c.session_id
  LEFT JOIN LATERAL (
    SELECT min(p.tree_id) AS first_tree, array_agg(p.tree_id) FILTER (WHERE p.tree_id = ANY(:rt)) AS in_trees
    FROM placements p
    WHERE p.tenant_id = :t
      AND p.source_kind = 'cell'
      AND p.source_id = c.cell_id
  ) pt ON true
  WHERE c.tenant_id = :t
    AND c.forest_id = :f
    AND c.cell_id = ANY(array_cat(CAST(:cids AS bigint[]), ARRAY(
      SELECT l.leaf_cell_id
      FROM leaves l
      WHERE l.leaf_cell_id IS NOT NULL
    )))
) u
ORDER BY u.ord;

-- name: beam_live_leaves_and_candidates_then_key_lookups --
-- The emb beam descent from :p (the :leaves best live leaves of each tree) and the candidates of assembly (as candidates_in_scoring_trees) of :fids, :cids and the leaves' facts and cells, in one statement; the rest of the transaction then runs on generic plans.
WITH RECURSIVE walk AS (
  SELECT k.*, k.level > 0 AND row_number() OVER (PARTITION BY k.tree_id, k.level > 0 ORDER BY (k.sim - CASE WHEN k.outside THEN CAST(:penalty AS float8) ELSE 0::float8 END) = 'NaN'::float8, (k.sim - CASE WHEN k.outside THEN CAST(:penalty AS float8) ELSE 0::float8 END) DESC, k.outside, k.node_id) <= :beam AS kept
  FROM (
    SELECT 1 AS depth, n.node_id, n.parent_id, n.tree_id, n.level, n.leaf_fact_id, n.leaf_cell_id, n.t_start, n.t_end, n.seq, coalesce(1 - (n.embedding <=> :q), 0) AS sim, coalesce(n.t_end < :after, false) OR coalesce(n.t_start >= :before, false) AS outside
    FROM nodes n
    WHERE n.tenant_id = :t
      AND n.forest_id = :f
      AND n.parent_id = ANY(:p)
    OFFSET 0
  ) k
  UNION ALL SELECT k.*, k.level > 0 AND row_number() OVER (PARTITION BY k.tree_id, k.level > 0 ORDER BY (k.sim - CASE WHEN k.outside THEN CAST(:penalty AS float8) ELSE 0::float8 END) = 'NaN'::float8, (k.sim - CASE WHEN k.outside THEN CAST(:penalty AS float8) ELSE 0::float8 END) DESC, k.outside, k.node_id) <= :beam
  FROM (
    SELECT w.depth + 1, n.node_id, n.parent_id, n.tree_id, n.level, n.leaf_fact_id, n.leaf_cell_id, n.t_start, n.t_end, n.seq, coalesce(1 - (n.embedding <=> :q), 0) AS sim, coalesce(n.t_end < :after, false) OR coalesce(n.t_start >= :before, false) AS outside
    FROM walk w
    JOIN nodes n ON n.tenant_id = :t
      AND n.parent_id = w.node_id
      AND n.forest_id = :f
    WHERE w.kept
    OFFSET 0
  ) k
),
leaves AS MATERIALIZED (
  SELECT node_id, tree_id, leaf_fact_id, leaf_cell_id, sim, row_number() OVER (ORDER BY depth, parent_id, t_start, seq) AS ord
  FROM (
    SELECT w.*, row_number() OVER (PARTITION BY w.tree_id ORDER BY (w.sim - CASE WHEN w.outside THEN CAST(:penalty AS float8) ELSE 0::float8 END) = 'NaN'::float8, (w.sim - CASE WHEN w.outside THEN CAST(:penalty AS float8) ELSE 0::float8 END) DESC, w.outside, w.node_id) AS r
    FROM walk w
    LEFT JOIN facts x ON x.tenant_id = :t
      AND x.fact_id = w.leaf_fact_id
    WHERE w.level = 0
      AND x.superseded_by IS NULL
      AND x.retracted_at IS NULL
  ) l
  WHERE r <= :leaves
)
SELECT u.*, (
  SELECT set_config('plan_cache_mode', 'force_generic_plan', true) || set_config('enable_seqscan', 'off', true)
) AS plans
FROM (
  SELECT 'leaf' AS kind, l.node_id AS id, NULL AS text, NULL AS t_start, NULL AS t_end, NULL AS time_text, NULL AS superseded_by, NULL AS recorded_at, NULL AS retracted_at, NULL AS session_ext, l.sim, NULL AS trees, NULL AS in_trees, NULL AS first_tree, l.tree_id, l.leaf_fact_id, l.leaf_cell_id, l.ord
  FROM leaves l
  UNION ALL SELECT 'fact', x.fact_id, x.text, x.valid_from, x.valid_to, x.time_text, x.superseded_by, x.recorded_at, x.retracted_at, NULL::text, coalesce(1 - (x.embedding <=> :q), 0), NULL, pt.in_trees, pt.first_tree, NULL, NULL, NULL, NULL
  FROM facts x
  LEFT JOIN LATERAL (
    SELECT min(p.tree_id) AS first_tree, array_agg(p.tree_id) FILTER (WHERE p.tree_id = ANY(:rt)) AS in_trees
    FROM placements p
    WHERE p.tenant_id = :t
      AND p.source_kind = 'fact'
      AND p.source_id = x.fact_id
  ) pt ON true
  WHERE x.tenant_id = :t
    AND x.forest_id = :f
    AND x.fact_id = ANY(array_cat(CAST(:fids AS bigint[]), ARRAY(
      SELECT l.leaf_fact_id
      FROM leaves l
      WHERE l.leaf_fact_id IS NOT NULL
    )))
  UNION ALL SELECT 'cell', c.cell_id, c.text, c.t_start, c.t_end, NULL, NULL, NULL, NULL, s.external_id, (
    SELECT coalesce(1 - (n.embedding <=> :q), 0)
    FROM nodes n
    WHERE n.tenant_id = c.tenant_id
      AND n.leaf_cell_id = c.cell_id
      AND n.embedding IS NOT NULL
    LIMIT 1
  ), NULL, pt.in_trees, pt.first_tree, NULL, NULL, NULL, NULL
  FROM cells c
  JOIN sessions s ON s.tenant_id = c.tenant_id
    AND s.session_id = c.session_id
  LEFT JOIN LATERAL (
    SELECT min(p.tree_id) AS first_tree, array_agg(p.tree_id) FILTER (WHERE p.tree_id = ANY(:rt)) AS in_trees
    FROM placements p
    WHERE p.tenant_id = :t
      AND p.source_kind = 'cell'
      AND p.source_id = c.cell_id
  ) pt ON true
  WHERE c.tenant_id = :t
    AND c.forest_id = :f
    AND c.cell_id = ANY(array_cat(CAST(:cids AS bigint[]), ARRAY(
      SELECT l.leaf_cell_id
      FROM leaves l
      WHERE l.leaf_cell_id IS NOT NULL
    )))
) u
ORDER BY u.ord;
