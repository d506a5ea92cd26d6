-- memforest_memory_changed_outbox: the trigger function of trg_fact_events_memory_changed (AFTER INSERT ON
-- fact_events, once per statement): one memory.changed delivery per subscribed webhook and
-- transaction, its body's changes appended to by later statements of the transaction (ADR 0045).
-- Runs as the caller (row-level security applies). Installed by migration 0025 (fact_history).
-- tests/db/test_migration_functions.py checks that a database migrated to head holds exactly this.

CREATE OR REPLACE FUNCTION memforest_memory_changed_outbox() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
    INSERT INTO webhook_deliveries AS d (tenant_id, delivery_id, webhook_id, event_id, type, job_id, xact, body)
    SELECT c.tenant_id, gen_random_uuid(), w.webhook_id, c.event_id, 'memory.changed', NULL, c.xact,
           jsonb_build_object('id', c.event_id, 'type', 'memory.changed', 'created_at', now(),
                              'data', jsonb_build_object('changes', c.changes))::text
    FROM (
        SELECT n.tenant_id, n.xact, md5(n.tenant_id::text || ':' || n.xact::text)::uuid AS event_id,
               jsonb_agg(jsonb_build_object('forest', f.name, 'fact_id', n.fact_id::text, 'event', n.event,
                                            'related_fact_id', n.related_fact_id::text, 'at', n.at)
                         ORDER BY n.event_id) AS changes
        FROM added n JOIN forests f ON f.tenant_id = n.tenant_id AND f.forest_id = n.forest_id
        WHERE n.event IN ('created', 'superseded', 'corrected', 'restored', 'deleted')
          AND f.name NOT LIKE '~staging:%'
        GROUP BY n.tenant_id, n.xact
    ) c
    JOIN webhooks w ON w.tenant_id = c.tenant_id AND 'memory.changed' = ANY (w.events)
    ON CONFLICT (tenant_id, webhook_id, xact) WHERE xact IS NOT NULL DO UPDATE
    SET body = jsonb_set(d.body::jsonb, '{data,changes}',
                         (d.body::jsonb #> '{data,changes}') || (EXCLUDED.body::jsonb #> '{data,changes}'))::text
    WHERE d.state = 'pending' AND d.attempts = 0;
    RETURN NULL;
END
$fn$;
