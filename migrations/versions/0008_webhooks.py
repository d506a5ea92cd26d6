"""Webhooks: registrations and a durable delivery outbox filled by a trigger when a job finishes.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-23

A job's move to ``succeeded`` or ``failed`` inserts, in the same transaction, one delivery per
webhook of the job's tenant subscribed to that event (so a finished job is never lost between the
worker and the outbox, and another tenant's webhooks never see it). Deliverers claim due rows with
``FOR UPDATE SKIP LOCKED``. See ADR 0020.
"""

from __future__ import annotations

from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

APP_ROLE = "memforest_app"
TABLES = ("webhooks", "webhook_deliveries")


def upgrade() -> None:
    op.execute(
        """
        CREATE TABLE webhooks (
            tenant_id uuid NOT NULL,
            webhook_id uuid NOT NULL,
            url text NOT NULL,
            events text[] NOT NULL,
            secret text NOT NULL,
            created_at timestamptz NOT NULL DEFAULT now(),
            CONSTRAINT pk_webhooks PRIMARY KEY (tenant_id, webhook_id),
            CONSTRAINT fk_webhooks_tenant FOREIGN KEY (tenant_id) REFERENCES tenants (tenant_id) ON DELETE CASCADE
        )
        """
    )
    op.execute(
        """
        CREATE TABLE webhook_deliveries (
            tenant_id uuid NOT NULL,
            delivery_id uuid NOT NULL,
            webhook_id uuid NOT NULL,
            event_id uuid NOT NULL,
            type text NOT NULL,
            job_id uuid NOT NULL,
            body text,
            state text NOT NULL DEFAULT 'pending',
            attempts integer NOT NULL DEFAULT 0,
            next_attempt_at timestamptz NOT NULL DEFAULT now(),
            last_status integer,
            last_error text,
            created_at timestamptz NOT NULL DEFAULT now(),
            delivered_at timestamptz,
            CONSTRAINT pk_webhook_deliveries PRIMARY KEY (tenant_id, delivery_id),
            CONSTRAINT fk_webhook_deliveries_webhook FOREIGN KEY (tenant_id, webhook_id)
                REFERENCES webhooks (tenant_id, webhook_id) ON DELETE CASCADE,
            CONSTRAINT ck_webhook_deliveries_state CHECK (state IN ('pending', 'delivered', 'failed'))
        )
        """
    )
    op.execute(
        "CREATE INDEX ix_webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending'"
    )
    op.execute("CREATE INDEX ix_webhook_deliveries_webhook ON webhook_deliveries (tenant_id, webhook_id, created_at)")
    # The owner runs the trigger (SECURITY DEFINER), so it sees the job's tenant's webhooks whatever
    # role finished the job; the tenant filter is explicit.
    op.execute(
        """
        CREATE FUNCTION memforest_job_webhook_outbox() RETURNS trigger
        LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
        DECLARE
            ev uuid := gen_random_uuid();
            typ text := 'job.' || NEW.state;
        BEGIN
            INSERT INTO webhook_deliveries (tenant_id, delivery_id, webhook_id, event_id, type, job_id)
            SELECT NEW.tenant_id, gen_random_uuid(), w.webhook_id, ev, typ, NEW.job_id
            FROM webhooks w WHERE w.tenant_id = NEW.tenant_id AND typ = ANY (w.events);
            RETURN NULL;
        END
        $$
        """
    )
    op.execute(
        "CREATE TRIGGER trg_jobs_webhook_outbox AFTER UPDATE OF state ON jobs FOR EACH ROW "
        "WHEN (NEW.state IN ('succeeded', 'failed') AND OLD.state IS DISTINCT FROM NEW.state) "
        "EXECUTE FUNCTION memforest_job_webhook_outbox()"
    )
    for table in TABLES:
        op.execute(f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY")
        op.execute(
            f"CREATE POLICY tenant_isolation ON {table} "
            "USING (tenant_id = NULLIF(current_setting('memforest.tenant_id', true), '')::uuid) "
            "WITH CHECK (tenant_id = NULLIF(current_setting('memforest.tenant_id', true), '')::uuid)"
        )
    op.execute(
        f"""
        DO $$
        BEGIN
            IF EXISTS (SELECT FROM pg_roles WHERE rolname = '{APP_ROLE}') THEN
                EXECUTE 'GRANT SELECT, INSERT, UPDATE, DELETE ON {", ".join(TABLES)} TO {APP_ROLE}';
            END IF;
        END
        $$
        """
    )


def downgrade() -> None:
    op.execute("DROP TRIGGER IF EXISTS trg_jobs_webhook_outbox ON jobs")
    op.execute("DROP FUNCTION IF EXISTS memforest_job_webhook_outbox()")
    op.execute("DROP TABLE IF EXISTS webhook_deliveries")
    op.execute("DROP TABLE IF EXISTS webhooks")
