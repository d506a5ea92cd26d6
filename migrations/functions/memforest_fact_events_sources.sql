-- memforest_fact_events_sources: the trigger function of trg_fact_sources_events_added and
-- trg_fact_sources_events_removed (AFTER INSERT / DELETE ON fact_sources, once per statement): one
-- 'sources_added' or 'sources_removed' event per fact, with its turn and session ids (ADR 0044).
-- Runs as the caller (row-level security applies). Installed by migration 0025 (fact_history).
-- tests/db/test_migration_functions.py checks that a database migrated to head holds exactly this.

CREATE OR REPLACE FUNCTION memforest_fact_events_sources() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
    IF current_setting('memforest.history', true) IS NOT DISTINCT FROM 'off' THEN
        RETURN NULL;
    END IF;
    IF TG_OP = 'INSERT' THEN
        INSERT INTO fact_events (tenant_id, forest_id, fact_id, event, turns, sessions, actor)
        SELECT s.tenant_id, min(s.forest_id), s.fact_id, 'sources_added',
               array_agg(coalesce(tu.external_id, ss.external_id || '#' || tu.seq) ORDER BY s.turn_id),
               array_agg(DISTINCT ss.external_id), NULLIF(current_setting('memforest.actor', true), '')
        FROM added s
        LEFT JOIN turns tu ON tu.tenant_id = s.tenant_id AND tu.turn_id = s.turn_id
        LEFT JOIN sessions ss ON ss.tenant_id = s.tenant_id AND ss.session_id = s.session_id
        GROUP BY s.tenant_id, s.fact_id ORDER BY s.fact_id;
    ELSE
        INSERT INTO fact_events (tenant_id, forest_id, fact_id, event, turns, sessions, actor)
        SELECT s.tenant_id, min(s.forest_id), s.fact_id, 'sources_removed',
               array_agg(coalesce(tu.external_id, ss.external_id || '#' || tu.seq) ORDER BY s.turn_id),
               array_agg(DISTINCT ss.external_id), NULLIF(current_setting('memforest.actor', true), '')
        FROM removed s
        LEFT JOIN turns tu ON tu.tenant_id = s.tenant_id AND tu.turn_id = s.turn_id
        LEFT JOIN sessions ss ON ss.tenant_id = s.tenant_id AND ss.session_id = s.session_id
        WHERE EXISTS (SELECT FROM forests f WHERE f.tenant_id = s.tenant_id AND f.forest_id = s.forest_id)
        GROUP BY s.tenant_id, s.fact_id ORDER BY s.fact_id;
    END IF;
    RETURN NULL;
END
$fn$;
