-- memforest_fact_events_forest_gone: the trigger function of trg_forests_fact_events_gone (AFTER DELETE ON
-- forests, once per statement): a deleted forest's fact events go with it (ADR 0044).
-- Runs as the caller (row-level security applies). Installed by migration 0025 (fact_history).
-- tests/db/test_migration_functions.py checks that a database migrated to head holds exactly this.

CREATE OR REPLACE FUNCTION memforest_fact_events_forest_gone() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
    DELETE FROM fact_events e USING removed g WHERE e.tenant_id = g.tenant_id AND e.forest_id = g.forest_id;
    RETURN NULL;
END
$fn$;
