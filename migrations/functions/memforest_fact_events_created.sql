-- memforest_fact_events_created: the trigger function of trg_facts_events_created (AFTER INSERT ON facts, once
-- per statement, over its transition table): a 'created' event per new fact, and a 'superseded' or
-- 'corrected' one when the fact is born superseded (ADR 0044).
-- Runs as the caller (row-level security applies). Installed by migration 0025 (fact_history).
-- tests/db/test_migration_functions.py checks that a database migrated to head holds exactly this.

CREATE OR REPLACE FUNCTION memforest_fact_events_created() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
    IF current_setting('memforest.history', true) IS NOT DISTINCT FROM 'off' THEN
        RETURN NULL;
    END IF;
    INSERT INTO fact_events (tenant_id, forest_id, fact_id, event, related_fact_id, text, kind, valid_from,
                             valid_to, actor)
    SELECT n.tenant_id, n.forest_id, n.fact_id, e.event, e.related, e.text, n.kind, n.valid_from, n.valid_to,
           NULLIF(current_setting('memforest.actor', true), '')
    FROM added n
    CROSS JOIN LATERAL (
        VALUES (0, 'created', n.supersedes, n.text),
               (1, CASE WHEN n.superseded_by IS NULL THEN NULL
                        WHEN (SELECT s.kind FROM facts s WHERE s.tenant_id = n.tenant_id
                              AND s.fact_id = n.superseded_by) = 'correction' THEN 'corrected'
                        ELSE 'superseded' END, n.superseded_by, NULL)
    ) AS e(step, event, related, text)
    WHERE e.event IS NOT NULL
    ORDER BY n.fact_id, e.step;
    RETURN NULL;
END
$fn$;
