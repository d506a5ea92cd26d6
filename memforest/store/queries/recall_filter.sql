-- Query filters on the sources of evidence: session metadata (top-level key equality), client
-- session ids and turn speakers (:m jsonb, :sids text[], :sp text[]; each NULL when not given).
-- A fact matches when one of its sources (a turn and its session) matches every given part; a
-- cell when its session does and, with speakers, one of its turns. The nearest matching items
-- keep rows at the same distance by id, as recall keeps them (TIE_MARGIN, 8, rows past the
-- limit). Used by memforest.store.recall_filter (ADR 0037).

-- name: matching_facts --
-- Those of the facts :ids with a source matching the filter.
SELECT x.fact_id
FROM facts x
WHERE x.tenant_id = :t
  AND x.forest_id = :f
  AND x.fact_id = ANY(:ids)
  AND EXISTS (
  SELECT 1
  FROM fact_sources fs
  JOIN sessions s ON s.tenant_id = fs.tenant_id
    AND s.session_id = fs.session_id
  JOIN turns tu ON tu.tenant_id = fs.tenant_id
    AND tu.turn_id = fs.turn_id
  WHERE fs.tenant_id = :t
    AND fs.fact_id = x.fact_id
    AND (CAST(:m AS jsonb) IS NULL OR NOT EXISTS (
    SELECT 1
    FROM jsonb_each(CAST(:m AS jsonb)) kv
    WHERE s.metadata -> kv.key IS DISTINCT
    FROM kv.value
  ))
    AND (CAST(:sids AS text[]) IS NULL OR s.external_id = ANY(CAST(:sids AS text[])))
    AND (CAST(:sp AS text[]) IS NULL OR tu.speaker = ANY(CAST(:sp AS text[])))
);

-- name: matching_cells --
-- Those of the cells :ids whose session (and, with speakers, a turn) matches the filter.
SELECT c.cell_id
FROM cells c
JOIN sessions s ON s.tenant_id = c.tenant_id
  AND s.session_id = c.session_id
WHERE c.tenant_id = :t
  AND c.forest_id = :f
  AND c.cell_id = ANY(:ids)
  AND (CAST(:m AS jsonb) IS NULL OR NOT EXISTS (
  SELECT 1
  FROM jsonb_each(CAST(:m AS jsonb)) kv
  WHERE s.metadata -> kv.key IS DISTINCT
  FROM kv.value
))
  AND (CAST(:sids AS text[]) IS NULL OR s.external_id = ANY(CAST(:sids AS text[])))
  AND (CAST(:sp AS text[]) IS NULL OR EXISTS (
  SELECT 1
  FROM turns tu
  WHERE tu.tenant_id = c.tenant_id
    AND tu.session_id = c.session_id
    AND tu.seq BETWEEN c.turn_from AND c.turn_to
    AND tu.speaker = ANY(CAST(:sp AS text[]))
));

-- name: nearest_matching_facts --
-- The :k live facts nearest to :q among those with a source matching the filter.
WITH c AS MATERIALIZED (
  SELECT x.fact_id AS id, x.embedding <=> :q AS d
  FROM facts x
  WHERE x.tenant_id = :t
    AND x.forest_id = :f
    AND x.retracted_at IS NULL
    AND x.embedding IS NOT NULL
    AND EXISTS (
    SELECT 1
    FROM fact_sources fs
    JOIN sessions s ON s.tenant_id = fs.tenant_id
      AND s.session_id = fs.session_id
    JOIN turns tu ON tu.tenant_id = fs.tenant_id
      AND tu.turn_id = fs.turn_id
    WHERE fs.tenant_id = :t
      AND fs.fact_id = x.fact_id
      AND (CAST(:m AS jsonb) IS NULL OR NOT EXISTS (
      SELECT 1
      FROM jsonb_each(CAST(:m AS jsonb)) kv
      WHERE s.metadata -> kv.key IS DISTINCT
      FROM kv.value
    ))
      AND (CAST(:sids AS text[]) IS NULL OR s.external_id = ANY(CAST(:sids AS text[])))
      AND (CAST(:sp AS text[]) IS NULL OR tu.speaker = ANY(CAST(:sp AS text[])))
  )
  ORDER BY x.embedding <=> :q LIMIT :k + 8
)
SELECT id, coalesce(1 - d, 0) AS sim
FROM c
ORDER BY d, id LIMIT :k;

-- name: nearest_matching_cells --
-- The :k cells nearest to :q among those matching the filter.
WITH m AS MATERIALIZED (
  SELECT c.cell_id AS id, n.embedding <=> :q AS d
  FROM cells c
  JOIN sessions s ON s.tenant_id = c.tenant_id
    AND s.session_id = c.session_id
  JOIN nodes n ON n.tenant_id = c.tenant_id
    AND n.leaf_cell_id = c.cell_id
    AND n.embedding IS NOT NULL
  WHERE c.tenant_id = :t
    AND c.forest_id = :f
    AND (CAST(:m AS jsonb) IS NULL OR NOT EXISTS (
    SELECT 1
    FROM jsonb_each(CAST(:m AS jsonb)) kv
    WHERE s.metadata -> kv.key IS DISTINCT
    FROM kv.value
  ))
    AND (CAST(:sids AS text[]) IS NULL OR s.external_id = ANY(CAST(:sids AS text[])))
    AND (CAST(:sp AS text[]) IS NULL OR EXISTS (
    SELECT 1
    FROM turns tu
    WHERE tu.tenant_id = c.tenant_id
      AND tu.session_id = c.session_id
      AND tu.seq BETWEEN c.turn_from AND c.turn_to
      AND tu.speaker = ANY(CAST(:sp AS text[]))
  ))
  ORDER BY n.embedding <=> :q LIMIT :k + 8
)
SELECT id, coalesce(1 - d, 0) AS sim
FROM m
ORDER BY d, id LIMIT :k;
