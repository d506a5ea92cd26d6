-- memforest_known_subjects: those of p_names (lower case) that are a speaker or a fact subject of
-- the forest, or the key of one of its entity trees: the known-subject test of temporal questions.
-- It runs as the owner so that the lower(speaker) / lower(subject) indexes serve it (under
-- row-level security the planner keeps the non-leakproof lower() off an index); the policy's
-- tenant filter is written out (ADR 0029). Called by memforest/store/temporal.py.
-- Installed by migration 0020 (subject_lookups_by_index).
-- Stored search_path: the migration session's ("$user", public by default: SET search_path FROM
-- CURRENT) with pg_temp appended by migration 0021 (ADR 0030).
-- tests/db/test_migration_functions.py checks that a database migrated to head holds exactly this.

CREATE OR REPLACE FUNCTION memforest_known_subjects(p_forest bigint, p_names text[]) RETURNS SETOF text
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = "$user", public, pg_temp AS $fn$
SELECT n.name FROM unnest(p_names) AS n(name)
WHERE EXISTS (SELECT 1 FROM facts x WHERE x.tenant_id = NULLIF(current_setting('memforest.tenant_id', true), '')::uuid AND x.forest_id = p_forest
              AND x.speaker IS NOT NULL AND lower(x.speaker) = n.name)
   OR EXISTS (SELECT 1 FROM facts x WHERE x.tenant_id = NULLIF(current_setting('memforest.tenant_id', true), '')::uuid AND x.forest_id = p_forest
              AND x.subject IS NOT NULL AND lower(x.subject) = n.name)
   OR EXISTS (SELECT 1 FROM trees tr WHERE tr.tenant_id = NULLIF(current_setting('memforest.tenant_id', true), '')::uuid AND tr.forest_id = p_forest
              AND tr.kind = 'entity' AND tr.key = n.name)
$fn$;

REVOKE ALL ON FUNCTION memforest_known_subjects(bigint, text[]) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memforest_known_subjects(bigint, text[]) TO memforest_app;
