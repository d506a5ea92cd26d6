-- memforest_named_facts: the slotless facts with no subject that are linked to the forest's entity
-- p_key (the speakers' words naming that person), the newest p_limit links only, and none when the
-- entity is a speaker; the columns the temporal read path reads (visibility is the caller's). It
-- runs as the owner so that its three reads are by key (uq_entities_key; pk_entity_facts read
-- backwards inside a lateral join, so that it stops at p_limit; pk_facts) whatever the caller's
-- row-level security; the policy's tenant filter is written out (ADR 0029). Called by memforest/store/temporal.py.
-- Installed by migration 0028 (named_facts_by_entity_link).
-- Stored search_path: the migration session's ("$user", public by default) with pg_temp appended
-- (ADR 0030).
-- tests/db/test_migration_functions.py checks that a database migrated to head holds exactly this.

CREATE OR REPLACE FUNCTION memforest_named_facts(p_forest bigint, p_key text, p_limit integer)
RETURNS TABLE (fact_id bigint, text text, speaker text, subject text, attribute text, value text,
               entities text[], valid_from timestamptz, valid_to timestamptz, superseded_by bigint,
               recorded_at timestamptz, retracted_at timestamptz)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = "$user", public, pg_temp AS $fn$
SELECT x.fact_id, x.text, x.speaker, x.subject, x.attribute, x.value, x.entities, x.valid_from, x.valid_to, x.superseded_by, x.recorded_at, x.retracted_at FROM entities e
CROSS JOIN LATERAL (
  SELECT ef.fact_id FROM entity_facts ef WHERE ef.tenant_id = e.tenant_id AND ef.entity_id = e.entity_id
  ORDER BY ef.fact_id DESC LIMIT p_limit
) l JOIN facts x ON x.tenant_id = NULLIF(current_setting('memforest.tenant_id', true), '')::uuid AND x.fact_id = l.fact_id
WHERE e.tenant_id = NULLIF(current_setting('memforest.tenant_id', true), '')::uuid AND e.forest_id = p_forest AND e.key = p_key AND NOT e.is_speaker
AND x.forest_id = p_forest AND x.subject IS NULL AND x.attribute IS NULL
AND EXISTS (SELECT 1 FROM facts s WHERE s.tenant_id = NULLIF(current_setting('memforest.tenant_id', true), '')::uuid AND s.forest_id = p_forest
            AND s.subject IS NOT NULL AND lower(s.subject) = p_key)
$fn$;

REVOKE ALL ON FUNCTION memforest_named_facts(bigint, text, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memforest_named_facts(bigint, text, integer) TO memforest_app;
