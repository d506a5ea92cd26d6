"""The job queue's statements (``memforest.store.jobs``) each in a system transaction of its own, as
a worker runs them, for tests that drive the queue by hand."""

from __future__ import annotations

import uuid

from memforest.db.engine import Database
from memforest.domain import Job
from memforest.settings import WorkerSettings
from memforest.store import jobs


async def claim(
    db: Database,
    worker_id: str,
    *,
    lease_s: float,
    tenant_id: uuid.UUID | None = None,
    forest_id: int | None = None,
    early: bool = False,
    max_attempts: int = WorkerSettings().max_attempts,
) -> Job | None:
    """The next job a worker would take, or None."""
    async with db.system() as conn:
        return await jobs.claim(
            conn, tenant_id, forest_id, worker_id, lease_s=lease_s, early=early, max_attempts=max_attempts
        )


async def sweep(db: Database, *, tenant_id: uuid.UUID | None = None) -> int:
    """Queue a refresh job for every forest left with dirty nodes; returns how many."""
    async with db.system() as conn:
        return await jobs.sweep_orphaned_refreshes(conn, tenant_id, None)
