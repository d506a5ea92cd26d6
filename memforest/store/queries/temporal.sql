-- Reads of the temporal read path: which names of a question are subjects of the forest, a
-- subject's facts, and the node reads of an interval-guided descent of its entity tree. Used by
-- memforest.store.temporal (ADR 0037).
--
-- Subjects and their facts are read by the SECURITY DEFINER functions of migration 0020 through
-- ix_facts_speaker / ix_facts_subject: under the tenant's policy lower(...) (not leakproof)
-- cannot be an index condition (ADR 0029). A few facts by key go through the primary key.

-- name: known_subjects --
-- Those of :names that are a speaker, a fact subject or an entity tree of the forest.
SELECT k.name
FROM memforest_known_subjects(:f, CAST(:names AS text[])) AS k(name);

-- name: subject_probe --
-- A question's first statement of the temporal plan: those of :names (lower case, in the question's
-- order) that are subjects of the forest (as known_subjects), the first of them other than :anchor
-- (the plan's first subject), its texts (as texts_naming with :n) and its entity tree's root (as
-- entity_root, :keys holding each name's entity key). Without such a name, texts and root are read
-- from no row.
WITH k AS MATERIALIZED (
  SELECT k.name FROM memforest_known_subjects(:f, CAST(:names AS text[])) AS k(name)
), first AS MATERIALIZED (
  SELECT u.name, u.key
  FROM unnest(CAST(:names AS text[]), CAST(:keys AS text[])) WITH ORDINALITY AS u(name, key, i)
  WHERE u.name IN (SELECT k.name FROM k) AND u.name <> :anchor
  ORDER BY u.i LIMIT 1
)
SELECT ARRAY(SELECT k.name FROM k) AS known,
  (SELECT first.name FROM first) AS first,
  ARRAY(
    SELECT x.text
    FROM facts x
    WHERE (SELECT first.name FROM first) IS NOT NULL
      AND x.tenant_id = :t
      AND x.forest_id = :f
      AND x.retracted_at IS NULL
      AND strpos(lower(x.text), (SELECT first.name FROM first)) > 0
    ORDER BY x.fact_id DESC
    LIMIT :n
  ) AS texts,
  (SELECT tr.root_node_id
   FROM trees tr
   WHERE (SELECT first.key FROM first) IS NOT NULL
     AND tr.tenant_id = :t
     AND tr.forest_id = :f
     AND tr.kind = 'entity'
     AND tr.key = (SELECT first.key FROM first)
     AND tr.root_node_id IS NOT NULL
   ORDER BY tr.tree_id LIMIT 1) AS root;

-- name: subject_facts --
-- The subject's facts, and the speakers' slotless facts linked to the subject's entity when the
-- subject is no speaker and has a state of their own (the newest :n links), oldest first, as of :as_of when given, else the
-- unretracted ones. Of each (subject, attribute) slot only the newest :per_slot facts (ADR 0091).
SELECT x.fact_id, x.text, x.speaker, x.subject, x.attribute, x.value, x.entities, x.valid_from, x.valid_to, x.superseded_by, x.recorded_at, x.retracted_at
FROM (
  SELECT x.*, CASE WHEN x.attribute IS NULL THEN 0 ELSE row_number() OVER (
    PARTITION BY lower(x.subject), lower(x.attribute) ORDER BY x.valid_from DESC, x.fact_id DESC) END AS slot_rank
  FROM (
    SELECT y.* FROM memforest_subject_facts(:f, :s) y
    UNION ALL
    SELECT y.* FROM memforest_named_facts(:f, :k, :n) y
  ) x
  WHERE (CAST(:as_of AS timestamptz) IS NULL OR (x.valid_from <= :as_of AND x.recorded_at <= :as_of AND (x.retracted_at IS NULL OR x.retracted_at > :as_of)))
    AND (CAST(:as_of AS timestamptz) IS NOT NULL OR x.retracted_at IS NULL)
) x
WHERE x.slot_rank <= :per_slot
ORDER BY x.valid_from, x.fact_id;

-- name: facts_naming --
-- The subject's facts (as subject_facts) whose text contains :a.
SELECT x.fact_id, x.text, x.speaker, x.subject, x.attribute, x.value, x.entities, x.valid_from, x.valid_to, x.superseded_by, x.recorded_at, x.retracted_at
FROM memforest_subject_facts(:f, :s) x
WHERE (CAST(:as_of AS timestamptz) IS NULL OR (x.valid_from <= :as_of AND x.recorded_at <= :as_of AND (x.retracted_at IS NULL OR x.retracted_at > :as_of)))
  AND (CAST(:as_of AS timestamptz) IS NOT NULL OR x.retracted_at IS NULL)
  AND strpos(lower(x.text), :a) > 0
ORDER BY x.valid_from, x.fact_id;

-- name: facts_by_id --
-- Those of the facts :ids that subject_facts would return: the subject's, and the named ones.
SELECT x.fact_id, x.text, x.speaker, x.subject, x.attribute, x.value, x.entities, x.valid_from, x.valid_to, x.superseded_by, x.recorded_at, x.retracted_at
FROM facts x
WHERE x.tenant_id = :t
  AND x.forest_id = :f
  AND x.fact_id = ANY(:ids)
  AND (lower(x.subject) = :s OR (x.subject IS NULL AND lower(x.speaker) = :s)
    OR x.fact_id IN (SELECT y.fact_id FROM memforest_named_facts(:f, :k, :n) y))
  AND (CAST(:as_of AS timestamptz) IS NULL OR (x.valid_from <= :as_of AND x.recorded_at <= :as_of AND (x.retracted_at IS NULL OR x.retracted_at > :as_of)))
  AND (CAST(:as_of AS timestamptz) IS NOT NULL OR x.retracted_at IS NULL)
ORDER BY x.valid_from, x.fact_id;

-- name: unfiled_by_id --
-- Those of the facts :ids that no state files (no subject, no attribute) and whose text contains one
-- of :a (lower case): the recall pool's statements naming a person whatever their speaker (ADR 0100).
SELECT x.fact_id, x.text, x.speaker, x.subject, x.attribute, x.value, x.entities, x.valid_from, x.valid_to, x.superseded_by, x.recorded_at, x.retracted_at
FROM facts x
WHERE x.tenant_id = :t
  AND x.forest_id = :f
  AND x.fact_id = ANY(:ids)
  AND x.subject IS NULL
  AND x.attribute IS NULL
  AND EXISTS (SELECT 1 FROM unnest(CAST(:a AS text[])) n WHERE strpos(lower(x.text), n) > 0)
  AND (CAST(:as_of AS timestamptz) IS NULL OR (x.valid_from <= :as_of AND x.recorded_at <= :as_of AND (x.retracted_at IS NULL OR x.retracted_at > :as_of)))
  AND (CAST(:as_of AS timestamptz) IS NOT NULL OR x.retracted_at IS NULL)
ORDER BY x.valid_from, x.fact_id;

-- name: entity_root --
-- The root node of the subject's entity tree.
SELECT tr.root_node_id
FROM trees tr
WHERE tr.tenant_id = :t
  AND tr.forest_id = :f
  AND tr.kind = 'entity'
  AND tr.key = :s
  AND tr.root_node_id IS NOT NULL
ORDER BY tr.tree_id LIMIT 1;

-- name: children --
-- The children of one node in time order.
SELECT node_id, level, leaf_fact_id, leaf_cell_id, t_start, t_end
FROM nodes
WHERE tenant_id = :t
  AND forest_id = :f
  AND parent_id = :p
ORDER BY t_start, seq;

-- name: children_of --
-- The children of each of the nodes :ps (one level of a walk read at once), each node's in time order.
SELECT parent_id, node_id, level, leaf_fact_id, leaf_cell_id, t_start, t_end
FROM nodes
WHERE tenant_id = :t
  AND forest_id = :f
  AND parent_id = ANY(:ps)
ORDER BY parent_id, t_start, seq;

-- name: texts_by_id --
-- The texts of the live facts :ids, in the order of :ids: the words a question typed in lower case
-- is read against for its names (retrieval/temporal/casing.py).
SELECT x.text
FROM facts x
JOIN unnest(CAST(:ids AS bigint[])) WITH ORDINALITY AS i(fact_id, ord) ON i.fact_id = x.fact_id
WHERE x.tenant_id = :t
  AND x.forest_id = :f
  AND x.retracted_at IS NULL
ORDER BY i.ord;

-- name: texts_naming --
-- The texts of the forest's live facts that contain :a (lower case), newest first, at most :n.
SELECT x.text
FROM facts x
WHERE x.tenant_id = :t
  AND x.forest_id = :f
  AND x.retracted_at IS NULL
  AND strpos(lower(x.text), :a) > 0
ORDER BY x.fact_id DESC
LIMIT :n;

-- name: user_speaker --
-- The speaker of the forest's latest user-role turn.
SELECT t.speaker
FROM turns t
WHERE t.tenant_id = :t
  AND t.forest_id = :f
  AND t.role = 'user'
ORDER BY t.turn_id DESC
LIMIT 1;

-- name: states_naming --
-- The forest's live slot facts (a subject and an attribute) whose text contains one of :a (lower
-- case), oldest first, at most :n: where a value a person's statements name was held or left by
-- someone else (retrieval/temporal/partners.py).
SELECT x.fact_id, x.text, x.subject, x.attribute, x.value, x.valid_from
FROM facts x
WHERE x.tenant_id = :t
  AND x.forest_id = :f
  AND x.retracted_at IS NULL
  AND x.subject IS NOT NULL
  AND x.attribute IS NOT NULL
  AND EXISTS (SELECT 1 FROM unnest(CAST(:a AS text[])) n WHERE strpos(lower(x.text), n) > 0)
ORDER BY x.valid_from, x.fact_id
LIMIT :n;
