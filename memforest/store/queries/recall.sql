-- Forest recall reads outside the one-statement channels: the nearest facts, cell leaves and
-- roots, the HNSW knobs and the anchor lookup of time cues. Used by memforest.store.recall
-- (ADR 0037).
--
-- Exact scans materialise (id, distance) pairs, not vectors (a CTE of vectors spills to
-- temporary files: ADR 0022), restricted to the forest so the planner cannot route them through
-- the global HNSW index and lose rows to the filter. HNSW scans read TIE_MARGIN (8) rows past
-- the limit and keep the nearest by full-precision distance and id (ADR 0024); node graphs are
-- read by their half-precision key, graph_embedding as halfvec({dim}) (ADR 0026; the column only
-- roots and cell leaves fill, migration 0029, ADR 0102). A fact is visible when not
-- retracted; as of a time, also valid and recorded then; a node, when it starts by then.

-- name: nearest_facts_exact --
-- The :n facts nearest to :q, live, scanned exactly.
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
ORDER BY d, fact_id LIMIT :n;

-- name: nearest_cells_exact --
-- The :n cell leaves nearest to :q, live, scanned exactly.
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
ORDER BY d, leaf_cell_id LIMIT :n;

-- name: nearest_facts_exact_as_of --
-- The :n facts nearest to :q, visible as of :as_of, scanned exactly.
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
ORDER BY d, fact_id LIMIT :n;

-- name: nearest_cells_exact_as_of --
-- The :n cell leaves nearest to :q, visible as of :as_of, scanned exactly.
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
ORDER BY d, leaf_cell_id LIMIT :n;

-- name: nearest_roots_exact --
-- The :n tree roots nearest to :q, scanned exactly.
WITH c AS MATERIALIZED (
  SELECT x.node_id, x.embedding <=> :q AS d
  FROM nodes x
  WHERE x.tenant_id = :t
    AND x.forest_id = :f
    AND x.parent_id IS NULL
    AND x.embedding IS NOT NULL
)
SELECT node_id, 1 - d AS sim
FROM c
ORDER BY d, node_id LIMIT :n;

-- name: nearest_facts_hnsw --
-- The :n facts nearest to :q, live, through the forest's HNSW graph.
WITH c AS MATERIALIZED (
  SELECT x.fact_id, x.embedding <=> :q AS d
  FROM facts x
  WHERE x.tenant_id = :t
    AND x.forest_id = :f
    AND x.retracted_at IS NULL
  ORDER BY x.embedding <=> :q LIMIT :n + 8
)
SELECT fact_id, 1 - d AS sim
FROM c
ORDER BY d, fact_id LIMIT :n;

-- name: nearest_cells_hnsw --
-- The :n cell leaves nearest to :q, live, through the forest's HNSW graph.
WITH c AS MATERIALIZED (
  SELECT x.leaf_cell_id, x.embedding <=> :q AS d
  FROM nodes x
  WHERE x.tenant_id = :t
    AND x.forest_id = :f
    AND x.level = 0
    AND x.leaf_cell_id IS NOT NULL
    AND x.embedding IS NOT NULL
  ORDER BY CAST(x.graph_embedding AS halfvec({dim})) <=> CAST(CAST(:q AS vector) AS halfvec({dim})) LIMIT :n + 8
)
SELECT leaf_cell_id, 1 - d AS sim
FROM c
ORDER BY d, leaf_cell_id LIMIT :n;

-- name: nearest_facts_hnsw_as_of --
-- The :n facts nearest to :q, visible as of :as_of, through the forest's HNSW graph.
WITH c AS MATERIALIZED (
  SELECT x.fact_id, x.embedding <=> :q AS d
  FROM facts x
  WHERE x.tenant_id = :t
    AND x.forest_id = :f
    AND (x.retracted_at IS NULL OR x.retracted_at > :as_of)
    AND x.valid_from <= :as_of
    AND x.recorded_at <= :as_of
    AND (x.valid_to IS NULL OR x.valid_to > :as_of)
  ORDER BY x.embedding <=> :q LIMIT :n + 8
)
SELECT fact_id, 1 - d AS sim
FROM c
ORDER BY d, fact_id LIMIT :n;

-- name: nearest_cells_hnsw_as_of --
-- The :n cell leaves nearest to :q, visible as of :as_of, through the forest's HNSW graph.
WITH c AS MATERIALIZED (
  SELECT x.leaf_cell_id, x.embedding <=> :q AS d
  FROM nodes x
  WHERE x.tenant_id = :t
    AND x.forest_id = :f
    AND x.level = 0
    AND x.leaf_cell_id IS NOT NULL
    AND x.embedding IS NOT NULL
    AND x.t_start <= :as_of
  ORDER BY CAST(x.graph_embedding AS halfvec({dim})) <=> CAST(CAST(:q AS vector) AS halfvec({dim})) LIMIT :n + 8
)
SELECT leaf_cell_id, 1 - d AS sim
FROM c
ORDER BY d, leaf_cell_id LIMIT :n;

-- name: nearest_roots_hnsw --
-- The :n tree roots nearest to :q, through the forest's HNSW graph.
WITH c AS MATERIALIZED (
  SELECT x.node_id, x.embedding <=> :q AS d
  FROM nodes x
  WHERE x.tenant_id = :t
    AND x.forest_id = :f
    AND x.parent_id IS NULL
    AND x.embedding IS NOT NULL
  ORDER BY CAST(x.graph_embedding AS halfvec({dim})) <=> CAST(CAST(:q AS vector) AS halfvec({dim})) LIMIT :n + 8
)
SELECT node_id, 1 - d AS sim
FROM c
ORDER BY d, node_id LIMIT :n;

-- name: anchor_candidates --
-- Text and time of the given facts and cells.
SELECT 'fact' AS k, fact_id AS id, text, valid_from AS ts
FROM facts
WHERE tenant_id = :t
  AND forest_id = :f
  AND fact_id = ANY(:fids)
UNION ALL SELECT 'cell', cell_id, text, t_start
FROM cells
WHERE tenant_id = :t
  AND forest_id = :f
  AND cell_id = ANY(:cids);

-- name: set_iterative_scan --
-- HNSW scans go on past their candidate list while filters drop rows (transaction-local).
SET LOCAL hnsw.iterative_scan = relaxed_order;

-- name: set_ef_search --
-- HNSW scans' candidate list for the rest of the transaction.
SET LOCAL hnsw.ef_search = {ef_search};
