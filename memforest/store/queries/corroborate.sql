-- Corroboration of evidence candidates: the turns each candidate cites (a fact's source turns, a
-- cell's own turns), for all candidates in one statement, so assembly can count how many of
-- them cite the same turn. Used by memforest.store.corroborate.

-- name: candidate_turns --
-- The source turn ids of the facts :fids and the turn ids of the cells :cids.
SELECT 'fact' AS kind, fs.fact_id AS id, array_agg(fs.turn_id) AS turns
FROM fact_sources fs
WHERE fs.tenant_id = :t
  AND fs.forest_id = :f
  AND fs.fact_id = ANY(:fids)
GROUP BY fs.fact_id
UNION ALL SELECT 'cell', c.cell_id, array_agg(tu.turn_id)
FROM cells c
JOIN turns tu ON tu.tenant_id = c.tenant_id
  AND tu.session_id = c.session_id
  AND tu.seq BETWEEN c.turn_from AND c.turn_to
WHERE c.tenant_id = :t
  AND c.forest_id = :f
  AND c.cell_id = ANY(:cids)
GROUP BY c.cell_id;
