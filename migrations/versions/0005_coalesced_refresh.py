"""Coalesced refresh: jobs may wait until ``run_after``; one queued refresh job per forest.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-22

Ingest jobs refresh the lowest levels of the paths they dirtied themselves and leave the upper
levels to a per-forest refresh job that later commits join instead of queueing their own; the job
becomes claimable when enough commits are pending or after a delay. See ADR 0013.
"""

from __future__ import annotations

from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("ALTER TABLE jobs ADD COLUMN run_after timestamptz")
    op.execute(
        "CREATE UNIQUE INDEX uq_jobs_queued_refresh ON jobs (tenant_id, forest_id) "
        "WHERE kind = 'refresh' AND state = 'queued'"
    )


def downgrade() -> None:
    op.execute("DROP INDEX IF EXISTS uq_jobs_queued_refresh")
    op.execute("ALTER TABLE jobs DROP COLUMN IF EXISTS run_after")
