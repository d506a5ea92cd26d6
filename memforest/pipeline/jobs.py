"""The durable job queue as the write path uses it (see ADR 0003): the statements live in
:mod:`memforest.store.jobs`; these wrappers open the short system transactions a worker needs."""

from __future__ import annotations

import uuid
from typing import Any

from memforest.db.engine import Database
from memforest.domain import JobState
from memforest.settings import WorkerSettings
from memforest.store import jobs as store
from memforest.store.jobs import REFRESH_KIND, Job, get_job, schedule_refresh
from memforest.store.jobs import insert_job as enqueue
from memforest.store.sql import Conn

DEFAULT_MAX_ATTEMPTS: int = WorkerSettings().max_attempts
PRUNE_BATCH = 1000

__all__ = [
    "REFRESH_KIND",
    "Job",
    "claim",
    "enqueue",
    "extend_lease",
    "finish",
    "get_job",
    "job_view",
    "prune_finished",
    "requeue",
    "schedule_refresh",
    "sweep_orphaned_refreshes",
    "update_progress",
]


async def sweep_orphaned_refreshes(
    db: Database, *, tenant_id: uuid.UUID | None = None, forest_id: int | None = None
) -> int:
    """Queue a refresh job, due now, for every forest that has dirty nodes but no queued or running
    job (any kind) that would refresh them: its last refresh job failed for good, or a lifecycle
    operation died between its edit and its refresh. Returns how many were queued."""
    async with db.system() as conn:
        return await store.sweep_orphaned_refreshes(conn, tenant_id, forest_id)


async def claim(
    db: Database,
    worker_id: str,
    *,
    lease_s: float,
    tenant_id: uuid.UUID | None = None,
    forest_id: int | None = None,
    early: bool = False,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
) -> Job | None:
    """Take the oldest due queued job (or one whose lease expired: its worker died) of the tenant
    with the fewest running jobs, or None. A job whose lease expired after ``max_attempts``
    attempts fails instead. ``early`` also takes jobs whose ``run_after`` is still ahead (a caller
    flushing a forest)."""
    async with db.system() as conn:
        return await store.claim(
            conn, tenant_id, forest_id, worker_id, lease_s=lease_s, early=early, max_attempts=max_attempts
        )


async def prune_finished(db: Database, *, retention_s: float, batch: int = PRUNE_BATCH) -> int:
    """Delete the jobs (all tenants) that finished more than ``retention_s`` ago, ``batch`` rows per
    short transaction. Returns how many went."""
    total = 0
    while True:
        async with db.system() as conn:
            n = await store.prune_finished(conn, retention_s=retention_s, batch=batch)
        total += n
        if n < batch:
            return total


async def extend_lease(db: Database, job: Job, worker_id: str, lease_s: float) -> None:
    """Keep a long job ours."""
    async with db.system() as conn:
        await store.extend_lease(conn, job.tenant_id, job.job_id, worker_id, lease_s)


async def update_progress(db: Database, job: Job, progress: dict[str, Any]) -> None:
    """Record progress (shown by the jobs endpoint)."""
    async with db.system() as conn:
        await store.set_progress(conn, job.tenant_id, job.job_id, progress)


async def finish(
    db: Database,
    job: Job,
    state: JobState,
    *,
    result: dict[str, Any],
    usage: dict[str, Any],
    errors: list[dict[str, Any]],
) -> None:
    """Close a job as succeeded or failed with its result, usage and errors."""
    async with db.system() as conn:
        await store.finish(conn, job.tenant_id, job.job_id, state, result=result, usage=usage, errors=errors)


async def requeue(db: Database, job: Job, error: str) -> bool:
    """Hand a job that failed unexpectedly back to the queue (see :func:`memforest.store.jobs.requeue`)."""
    async with db.system() as conn:
        return await store.requeue(conn, job.tenant_id, job.job_id, error)


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


async def job_view(conn: Conn, tenant_id: uuid.UUID, job_id: uuid.UUID) -> dict[str, Any] | None:
    """A job of this tenant as the API and the MCP tools show it (None when absent or another tenant's)."""
    row = await get_job(conn, tenant_id, job_id)
    if row is None:
        return None
    forest = None
    if row["forest_id"] is not None:
        forest = await store.forest_name(conn, tenant_id, int(row["forest_id"]))
    return {
        "job_id": str(row["job_id"]),
        "forest": forest,
        "kind": row["kind"],
        "state": row["state"],
        "attempts": row["attempts"],
        "progress": row["progress"],
        "result": row["result"],
        "usage": row["usage"],
        "errors": row["errors"],
        "created_at": _iso(row["created_at"]),
        "started_at": _iso(row["started_at"]),
        "finished_at": _iso(row["finished_at"]),
    }
