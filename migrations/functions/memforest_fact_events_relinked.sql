-- memforest_fact_events_relinked: the trigger function of trg_facts_events_relinked (AFTER UPDATE OF
-- superseded_by, supersedes ON facts, per row, WHEN a pointer changed): 'superseded', 'corrected' (the
-- successor is a client's correction), 'restored' (superseded_by cleared), 'supersedes' (ADR 0044).
-- Runs as the caller (row-level security applies). Installed by migration 0025 (fact_history).
-- tests/db/test_migration_functions.py checks that a database migrated to head holds exactly this.

CREATE OR REPLACE FUNCTION memforest_fact_events_relinked() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
    INSERT INTO fact_events (tenant_id, forest_id, fact_id, event, related_fact_id, kind, valid_from, valid_to,
                             actor)
    SELECT NEW.tenant_id, NEW.forest_id, NEW.fact_id, e.event, e.related, NEW.kind, NEW.valid_from,
           NEW.valid_to, NULLIF(current_setting('memforest.actor', true), '')
    FROM (
        VALUES (0, CASE WHEN NEW.superseded_by IS NOT DISTINCT FROM OLD.superseded_by THEN NULL
                        WHEN NEW.superseded_by IS NULL THEN 'restored'
                        WHEN (SELECT s.kind FROM facts s WHERE s.tenant_id = NEW.tenant_id
                              AND s.fact_id = NEW.superseded_by) = 'correction' THEN 'corrected'
                        ELSE 'superseded' END, coalesce(NEW.superseded_by, OLD.superseded_by)),
               (1, CASE WHEN NEW.supersedes IS NOT NULL AND NEW.supersedes IS DISTINCT FROM OLD.supersedes
                        THEN 'supersedes' END, NEW.supersedes)
    ) AS e(step, event, related)
    WHERE e.event IS NOT NULL
    ORDER BY e.step;
    RETURN NULL;
END
$fn$;
