-- memforest_job_webhook_outbox: the trigger function of trg_jobs_webhook_outbox (AFTER UPDATE OF
-- state ON jobs, when a job becomes succeeded or failed): in the same transaction, one delivery per
-- webhook of the job's tenant subscribed to the event. It runs as the owner, so it sees the
-- tenant's webhooks whatever role finished the job; the tenant filter is explicit (ADR 0020).
-- Installed, with its trigger, by migration 0008 (webhooks).
-- Stored search_path: the migration session's ("$user", public by default: SET search_path FROM
-- CURRENT) with pg_temp appended by migration 0021 (ADR 0030).
-- tests/db/test_migration_functions.py checks that a database migrated to head holds exactly this.

CREATE OR REPLACE FUNCTION memforest_job_webhook_outbox() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = "$user", public, pg_temp AS $fn$
        DECLARE
            ev uuid := gen_random_uuid();
            typ text := 'job.' || NEW.state;
        BEGIN
            INSERT INTO webhook_deliveries (tenant_id, delivery_id, webhook_id, event_id, type, job_id)
            SELECT NEW.tenant_id, gen_random_uuid(), w.webhook_id, ev, typ, NEW.job_id
            FROM webhooks w WHERE w.tenant_id = NEW.tenant_id AND typ = ANY (w.events);
            RETURN NULL;
        END
        $fn$;
