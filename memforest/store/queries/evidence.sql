-- Evidence assembly reads: the candidates with their similarity to the query and their trees
-- (one statement for all candidates), then the provenance of the few items kept (ADR 0022).
-- Used by memforest.store.evidence (ADR 0037).
--
-- A candidate's trees are read by a subplan per row, whose cost stays linear in the candidates
-- whatever plan the planner picks (a grouped join's generic plan, estimating a few rows, rescans
-- it per cell). With scoring trees (:rt, the recalled ones), one lookup of a candidate's
-- placements gives those of them that hold it and the smallest id of every tree holding it:
-- ranking looks at the scoring trees only, and an item's label names its best scoring tree, else
-- that first tree (ADR 0024).

-- name: candidates_every_tree --
-- The candidate facts and cells with their cosine to :q and every tree holding each, as (id, kind, label) records.
SELECT 'fact' AS kind, x.fact_id AS id, x.text, x.valid_from AS t_start, x.valid_to AS t_end, x.time_text, x.superseded_by, x.recorded_at, x.retracted_at, NULL::text AS session_ext, coalesce(1 - (x.embedding <=> :q), 0) AS sim, (
  SELECT array_agg(ROW(tr.tree_id, tr.kind, tr.label))
  FROM placements p
  JOIN trees tr ON tr.tenant_id = p.tenant_id
    AND tr.tree_id = p.tree_id
  WHERE p.tenant_id = :t
    AND p.forest_id = :f
    AND p.source_kind = 'fact'
    AND p.source_id = x.fact_id
) AS trees, NULL::bigint[] AS in_trees, NULL::bigint AS first_tree
FROM facts x
WHERE x.tenant_id = :t
  AND x.forest_id = :f
  AND x.fact_id = ANY(:fids)
UNION ALL SELECT 'cell', c.cell_id, c.text, c.t_start, c.t_end, NULL, NULL, NULL, NULL, s.external_id, (
  SELECT coalesce(1 - (n.embedding <=> :q), 0)
  FROM nodes n
  WHERE n.tenant_id = c.tenant_id
    AND n.leaf_cell_id = c.cell_id
    AND n.embedding IS NOT NULL
  LIMIT 1
), (
  SELECT array_agg(ROW(tr.tree_id, tr.kind, tr.label))
  FROM placements p
  JOIN trees tr ON tr.tenant_id = p.tenant_id
    AND tr.tree_id = p.tree_id
  WHERE p.tenant_id = :t
    AND p.forest_id = :f
    AND p.source_kind = 'cell'
    AND p.source_id = c.cell_id
), NULL::bigint[], NULL::bigint
FROM cells c
JOIN sessions s ON s.tenant_id = c.tenant_id
  AND s.session_id = c.session_id
WHERE c.tenant_id = :t
  AND c.forest_id = :f
  AND c.cell_id = ANY(:cids);

-- name: candidates_in_scoring_trees --
-- The candidate facts and cells with their cosine to :q, the scoring trees (:rt) holding each and the first tree of all.
SELECT 'fact' AS kind, x.fact_id AS id, x.text, x.valid_from AS t_start, x.valid_to AS t_end, x.time_text, x.superseded_by, x.recorded_at, x.retracted_at, NULL::text AS session_ext, coalesce(1 - (x.embedding <=> :q), 0) AS sim, NULL AS trees, pt.in_trees AS in_trees, pt.first_tree AS first_tree
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
  AND x.fact_id = ANY(:fids)
UNION ALL SELECT 'cell', c.cell_id, c.text, c.t_start, c.t_end, NULL, NULL, NULL, NULL, s.external_id, (
  SELECT coalesce(1 - (n.embedding <=> :q), 0)
  FROM nodes n
  WHERE n.tenant_id = c.tenant_id
    AND n.leaf_cell_id = c.cell_id
    AND n.embedding IS NOT NULL
  LIMIT 1
), NULL, pt.in_trees, pt.first_tree
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
  AND c.cell_id = ANY(:cids);

-- name: provenance --
-- The sources of the kept facts, the turns (and their roles) of the kept cells, kind:label of the given trees and the follow-on cell of (:nkind, :nid).
-- The follow-on cell is the one after the cell holding the latest turn the fact or cell (:nkind,
-- :nid) cites, in that turn's session (a fact's latest source turn is the one its evidence cites
-- when the question names no time); none when :nkind is NULL.
WITH cited AS (
  (SELECT tu.session_id, tu.seq
  FROM fact_sources fs
  JOIN turns tu ON tu.tenant_id = fs.tenant_id
    AND tu.turn_id = fs.turn_id
  JOIN sessions s ON s.tenant_id = tu.tenant_id
    AND s.session_id = tu.session_id
  WHERE :nkind = 'fact'
    AND fs.tenant_id = :t
    AND fs.forest_id = :f
    AND fs.fact_id = :nid
  ORDER BY s.time DESC, tu.seq DESC, tu.turn_id DESC
  LIMIT 1)
  UNION ALL SELECT c.session_id, c.turn_to
  FROM cells c
  WHERE :nkind = 'cell'
    AND c.tenant_id = :t
    AND c.forest_id = :f
    AND c.cell_id = :nid
)
SELECT 'fact' AS kind, fs.fact_id AS id, array_agg(ARRAY[s.external_id, coalesce(tu.external_id, s.external_id || '#' || tu.seq)] ORDER BY s.time, tu.seq, tu.turn_id) AS turns, array_agg(s.time ORDER BY s.time, tu.seq, tu.turn_id) AS times, NULL::text AS tree, NULL::text AS text, NULL::text[] AS roles
FROM fact_sources fs
JOIN turns tu ON tu.tenant_id = fs.tenant_id
  AND tu.turn_id = fs.turn_id
JOIN sessions s ON s.tenant_id = tu.tenant_id
  AND s.session_id = tu.session_id
WHERE fs.tenant_id = :t
  AND fs.forest_id = :f
  AND fs.fact_id = ANY(:fids)
GROUP BY fs.fact_id
UNION ALL SELECT 'cell', c.cell_id, array_agg(ARRAY[s.external_id, coalesce(tu.external_id, s.external_id || '#' || tu.seq)] ORDER BY tu.seq), NULL, NULL, NULL, array_agg(coalesce(tu.role, '') ORDER BY tu.seq)
FROM cells c
JOIN sessions s ON s.tenant_id = c.tenant_id
  AND s.session_id = c.session_id
JOIN turns tu ON tu.tenant_id = c.tenant_id
  AND tu.session_id = c.session_id
  AND tu.seq BETWEEN c.turn_from AND c.turn_to
WHERE c.tenant_id = :t
  AND c.forest_id = :f
  AND c.cell_id = ANY(:cids)
GROUP BY c.cell_id
UNION ALL SELECT 'tree', tr.tree_id, NULL, NULL, tr.kind || ':' || tr.label, NULL, NULL
FROM trees tr
WHERE tr.tenant_id = :t
  AND tr.forest_id = :f
  AND tr.tree_id = ANY(:tids)
UNION ALL SELECT 'next', n.cell_id, array_agg(ARRAY[s.external_id, coalesce(tu.external_id, s.external_id || '#' || tu.seq)] ORDER BY tu.seq), ARRAY[n.t_start, n.t_end], (
  SELECT tr.kind || ':' || tr.label
  FROM placements p
  JOIN trees tr ON tr.tenant_id = p.tenant_id
    AND tr.tree_id = p.tree_id
  WHERE p.tenant_id = n.tenant_id
    AND p.source_kind = 'cell'
    AND p.source_id = n.cell_id
  ORDER BY p.tree_id
  LIMIT 1
), n.text, NULL
FROM cited
JOIN cells h ON h.tenant_id = :t
  AND h.session_id = cited.session_id
  AND cited.seq BETWEEN h.turn_from AND h.turn_to
JOIN cells n ON n.tenant_id = h.tenant_id
  AND n.session_id = h.session_id
  AND n.seq = h.seq + 1
JOIN sessions s ON s.tenant_id = n.tenant_id
  AND s.session_id = n.session_id
JOIN turns tu ON tu.tenant_id = n.tenant_id
  AND tu.session_id = n.session_id
  AND tu.seq BETWEEN n.turn_from AND n.turn_to
GROUP BY n.tenant_id, n.cell_id;
