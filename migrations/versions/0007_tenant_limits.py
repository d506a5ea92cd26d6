"""Per-tenant fairness limits and a cheap, prunable job table.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-23

``tenants`` gets three nullable columns overriding the server's defaults (``MEMFOREST_LIMITS__*``)
for one tenant: the sustained request rate, the burst above it and the concurrent requests (NULL =
the default, 0 = no limit). ``jobs`` gets a partial index on finished jobs, which the worker's
retention prune and the ``/metrics`` gauges read instead of scanning the table. See ADR 0019.
"""

from __future__ import annotations

from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        "ALTER TABLE tenants ADD COLUMN rate_limit_per_s double precision, "
        "ADD COLUMN rate_limit_burst integer, ADD COLUMN max_in_flight integer, "
        "ADD CONSTRAINT ck_tenants_limits CHECK (coalesce(rate_limit_per_s, 0) >= 0 "
        "AND coalesce(rate_limit_burst, 0) >= 0 AND coalesce(max_in_flight, 0) >= 0)"
    )
    op.execute(
        "CREATE INDEX ix_jobs_finished ON jobs (state, finished_at) WHERE state IN ('succeeded', 'failed')"
    )


def downgrade() -> None:
    op.execute("DROP INDEX IF EXISTS ix_jobs_finished")
    op.execute(
        "ALTER TABLE tenants DROP CONSTRAINT IF EXISTS ck_tenants_limits, DROP COLUMN IF EXISTS max_in_flight, "
        "DROP COLUMN IF EXISTS rate_limit_burst, DROP COLUMN IF EXISTS rate_limit_per_s"
    )
