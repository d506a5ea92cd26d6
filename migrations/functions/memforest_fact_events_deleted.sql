-- memforest_fact_events_deleted: the trigger function of trg_facts_events_deleted (AFTER DELETE ON facts, once
-- per statement): a 'deleted' event, with the text, per deleted fact (ADR 0044).
-- Runs as the caller (row-level security applies). Installed by migration 0025 (fact_history).
-- tests/db/test_migration_functions.py checks that a database migrated to head holds exactly this.

CREATE OR REPLACE FUNCTION memforest_fact_events_deleted() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
    IF current_setting('memforest.history', true) IS NOT DISTINCT FROM 'off' THEN
        RETURN NULL;
    END IF;
    INSERT INTO fact_events (tenant_id, forest_id, fact_id, event, text, kind, valid_from, valid_to, actor)
    SELECT o.tenant_id, o.forest_id, o.fact_id, 'deleted', o.text, o.kind, o.valid_from, o.valid_to,
           NULLIF(current_setting('memforest.actor', true), '')
    FROM removed o
    WHERE EXISTS (SELECT FROM forests f WHERE f.tenant_id = o.tenant_id AND f.forest_id = o.forest_id)
    ORDER BY o.fact_id;
    RETURN NULL;
END
$fn$;
