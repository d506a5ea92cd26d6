-- memforest_subject_facts: the forest's facts whose subject is p_subject, or that have none and
-- whose speaker is, with the columns the temporal read path reads (visibility is the caller's).
-- It runs as the owner so that the lower(subject) / lower(speaker) indexes serve it (under
-- row-level security the planner keeps the non-leakproof lower() off an index); the policy's
-- tenant filter is written out (ADR 0029). Called by memforest/store/temporal.py.
-- Installed by migration 0020 (subject_lookups_by_index).
-- Stored search_path: the migration session's ("$user", public by default: SET search_path FROM
-- CURRENT) with pg_temp appended by migration 0021 (ADR 0030).
-- tests/db/test_migration_functions.py checks that a database migrated to head holds exactly this.

CREATE OR REPLACE FUNCTION memforest_subject_facts(p_forest bigint, p_subject text)
RETURNS TABLE (fact_id bigint, text text, speaker text, subject text, attribute text, value text,
               entities text[], valid_from timestamptz, valid_to timestamptz, superseded_by bigint,
               recorded_at timestamptz, retracted_at timestamptz)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = "$user", public, pg_temp AS $fn$
SELECT x.fact_id, x.text, x.speaker, x.subject, x.attribute, x.value, x.entities, x.valid_from, x.valid_to, x.superseded_by, x.recorded_at, x.retracted_at FROM facts x WHERE x.tenant_id = NULLIF(current_setting('memforest.tenant_id', true), '')::uuid AND x.forest_id = p_forest
AND x.subject IS NOT NULL AND lower(x.subject) = p_subject
UNION ALL
SELECT x.fact_id, x.text, x.speaker, x.subject, x.attribute, x.value, x.entities, x.valid_from, x.valid_to, x.superseded_by, x.recorded_at, x.retracted_at FROM facts x WHERE x.tenant_id = NULLIF(current_setting('memforest.tenant_id', true), '')::uuid AND x.forest_id = p_forest
AND x.subject IS NULL AND x.speaker IS NOT NULL AND lower(x.speaker) = p_subject
$fn$;

REVOKE ALL ON FUNCTION memforest_subject_facts(bigint, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memforest_subject_facts(bigint, text) TO memforest_app;
