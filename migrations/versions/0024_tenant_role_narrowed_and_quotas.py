"""The tenant role cannot write tenants, keys or a merge's source tenant; per-tenant quotas.

Revision ID: 0024
Revises: 0023
Create Date: 2026-11-28

- ``memforest_app`` keeps SELECT on ``tenants`` and ``api_keys`` and loses INSERT, UPDATE and
  DELETE: tenant transactions never write them (tenants, keys and limits are written by the owning
  role), so SQL running as the tenant cannot raise a key's scopes or lift its tenant's limits.
- ``admin_merges`` holds the source tenant of a merge job queued by the admin endpoint. Nothing is
  granted on it to ``memforest_app``: the worker takes a merge's source tenant from here (else the
  job's own tenant) and refuses a job whose payload names any other.
- ``tenants`` gets four nullable quota columns overriding the server's defaults
  (``MEMFOREST_LIMITS__*``, NULL = the default, 0 = no cap): queued jobs, stored facts, forests,
  and forests large enough to get their own indexes.
- ``ix_jobs_tenant_queued`` counts a tenant's queued jobs without reading its finished ones;
  ``ix_webhook_deliveries_finished`` serves the retention prune of delivered and failed deliveries.
"""

from __future__ import annotations

from alembic import op

revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None

APP_ROLE = "memforest_app"
POLICY = (
    "USING (tenant_id = NULLIF(current_setting('memforest.tenant_id', true), '')::uuid) "
    "WITH CHECK (tenant_id = NULLIF(current_setting('memforest.tenant_id', true), '')::uuid)"
)


def _if_role(statement: str) -> None:
    op.execute(
        f"""
        DO $$
        BEGIN
            IF EXISTS (SELECT FROM pg_roles WHERE rolname = '{APP_ROLE}') THEN
                EXECUTE '{statement}';
            END IF;
        END
        $$
        """
    )


def upgrade() -> None:
    _if_role(f"REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON tenants, api_keys FROM {APP_ROLE}")
    op.execute(
        """
        CREATE TABLE admin_merges (
            tenant_id uuid NOT NULL,
            job_id uuid NOT NULL,
            src_tenant uuid NOT NULL,
            created_at timestamptz NOT NULL DEFAULT now(),
            CONSTRAINT pk_admin_merges PRIMARY KEY (tenant_id, job_id),
            CONSTRAINT fk_admin_merges_job FOREIGN KEY (tenant_id, job_id)
                REFERENCES jobs (tenant_id, job_id) ON DELETE CASCADE
        )
        """
    )
    op.execute("ALTER TABLE admin_merges ENABLE ROW LEVEL SECURITY")
    op.execute(f"CREATE POLICY tenant_isolation ON admin_merges {POLICY}")
    op.execute(
        "ALTER TABLE tenants ADD COLUMN max_queued_jobs integer, ADD COLUMN max_facts bigint, "
        "ADD COLUMN max_forests integer, ADD COLUMN max_large_forests integer, "
        "ADD CONSTRAINT ck_tenants_quotas "
        "CHECK (least(max_queued_jobs, max_facts, max_forests, max_large_forests) >= 0)"
    )
    op.execute("CREATE INDEX ix_jobs_tenant_queued ON jobs (tenant_id) WHERE state = 'queued'")
    op.execute(
        "CREATE INDEX ix_webhook_deliveries_finished ON webhook_deliveries (next_attempt_at) WHERE state <> 'pending'"
    )


def downgrade() -> None:
    op.execute("DROP INDEX IF EXISTS ix_webhook_deliveries_finished")
    op.execute("DROP INDEX IF EXISTS ix_jobs_tenant_queued")
    op.execute(
        "ALTER TABLE tenants DROP CONSTRAINT IF EXISTS ck_tenants_quotas, DROP COLUMN IF EXISTS max_large_forests, "
        "DROP COLUMN IF EXISTS max_forests, DROP COLUMN IF EXISTS max_facts, DROP COLUMN IF EXISTS max_queued_jobs"
    )
    op.execute("DROP TABLE IF EXISTS admin_merges")
    _if_role(f"GRANT INSERT, UPDATE, DELETE ON tenants, api_keys TO {APP_ROLE}")
