"""A durable job queue in PostgreSQL, claimed with ``FOR UPDATE SKIP LOCKED`` (see ADR 0003)."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from memforest.db.engine import Database
from memforest.domain import JobState
from memforest.store.sql import execute, fetch_one


@dataclass(frozen=True, slots=True)
class Job:
    """A claimed (or looked-up) job."""

    tenant_id: uuid.UUID
    job_id: uuid.UUID
    forest_id: int | None
    kind: str
    state: JobState
    payload: dict[str, Any]
    attempts: int


def _job(row: dict[str, Any]) -> Job:
    return Job(
        tenant_id=row["tenant_id"],
        job_id=row["job_id"],
        forest_id=row["forest_id"],
        kind=str(row["kind"]),
        state=JobState(row["state"]),
        payload=dict(row["payload"] or {}),
        attempts=int(row["attempts"]),
    )


async def enqueue(
    conn: AsyncConnection,
    tenant_id: uuid.UUID,
    forest_id: int | None,
    kind: str,
    payload: dict[str, Any],
    *,
    idempotency_key: str | None = None,
    request_hash: str | None = None,
) -> uuid.UUID:
    """Add a queued job inside the caller's transaction."""
    job_id = uuid.uuid4()
    await execute(
        conn,
        "INSERT INTO jobs (tenant_id, job_id, forest_id, kind, payload, idempotency_key, request_hash) "
        "VALUES (:t, :j, :f, :k, CAST(:p AS jsonb), :ik, :rh)",
        {
            "t": tenant_id,
            "j": job_id,
            "f": forest_id,
            "k": kind,
            "p": json.dumps(payload),
            "ik": idempotency_key,
            "rh": request_hash,
        },
    )
    return job_id


REFRESH_KIND = "refresh"

SCHEDULE_REFRESH_SQL = """
INSERT INTO jobs (tenant_id, job_id, forest_id, kind, payload, run_after)
VALUES (:t, :j, :f, 'refresh', jsonb_build_object('commits', 1),
        now() + make_interval(secs => CASE WHEN :due <= 1 THEN 0 ELSE :delay END))
ON CONFLICT (tenant_id, forest_id) WHERE kind = 'refresh' AND state = 'queued' DO UPDATE
SET payload = jsonb_set(jobs.payload, '{commits}', to_jsonb(coalesce((jobs.payload->>'commits')::int, 0) + 1)),
    run_after = CASE WHEN coalesce((jobs.payload->>'commits')::int, 0) + 1 >= :due
                     THEN least(jobs.run_after, now()) ELSE jobs.run_after END
RETURNING job_id
"""


async def schedule_refresh(
    conn: AsyncConnection, tenant_id: uuid.UUID, forest_id: int, *, due_commits: int, delay_s: float
) -> uuid.UUID:
    """Count one more commit towards the forest's queued refresh job, creating it if there is none,
    inside the caller's transaction (so a commit never lands without the job that refreshes it).
    The job becomes claimable ``delay_s`` after it was created, or at once when ``due_commits``
    commits are pending. Returns the job id."""
    row = await fetch_one(
        conn,
        SCHEDULE_REFRESH_SQL,
        {"t": tenant_id, "j": uuid.uuid4(), "f": forest_id, "due": due_commits, "delay": delay_s},
    )
    assert row is not None  # INSERT ... ON CONFLICT DO UPDATE always returns the row
    return uuid.UUID(str(row["job_id"]))


SWEEP_SQL = """
INSERT INTO jobs (tenant_id, job_id, forest_id, kind, payload, run_after)
SELECT d.tenant_id, gen_random_uuid(), d.forest_id, 'refresh', jsonb_build_object('commits', 0, 'swept', true), now()
FROM (SELECT DISTINCT tenant_id, forest_id FROM nodes WHERE dirty
      AND (CAST(:tenant AS uuid) IS NULL OR tenant_id = CAST(:tenant AS uuid))
      AND (CAST(:forest AS bigint) IS NULL OR forest_id = CAST(:forest AS bigint))) d
WHERE NOT EXISTS (SELECT 1 FROM jobs j WHERE j.tenant_id = d.tenant_id AND j.forest_id = d.forest_id
                  AND j.state IN ('queued', 'running'))
ON CONFLICT DO NOTHING
"""


async def sweep_orphaned_refreshes(
    db: Database, *, tenant_id: uuid.UUID | None = None, forest_id: int | None = None
) -> int:
    """Queue a refresh job, due now, for every forest that has dirty nodes but no queued or running
    job (any kind) that would refresh them: its last refresh job failed for good, or a lifecycle
    operation died between its edit and its refresh. Returns how many were queued."""
    async with db.system() as conn:
        return await execute(conn, SWEEP_SQL, {"tenant": tenant_id, "forest": forest_id})


CLAIM_SQL = """
UPDATE jobs j SET state = 'running', attempts = j.attempts + 1, worker_id = :w,
    leased_until = now() + make_interval(secs => :lease), started_at = coalesce(j.started_at, now())
FROM (
    SELECT tenant_id, job_id FROM jobs
    WHERE ((state = 'queued' AND (run_after IS NULL OR run_after <= now() OR CAST(:early AS boolean)))
           OR (state = 'running' AND leased_until < now()))
      AND (CAST(:tenant AS uuid) IS NULL OR tenant_id = CAST(:tenant AS uuid))
      AND (CAST(:forest AS bigint) IS NULL OR forest_id = CAST(:forest AS bigint))
    ORDER BY coalesce(run_after, created_at), job_id
    FOR UPDATE SKIP LOCKED
    LIMIT 1
) picked
WHERE j.tenant_id = picked.tenant_id AND j.job_id = picked.job_id
RETURNING j.tenant_id, j.job_id, j.forest_id, j.kind, j.state, j.payload, j.attempts
"""


async def claim(
    db: Database,
    worker_id: str,
    *,
    lease_s: float,
    tenant_id: uuid.UUID | None = None,
    forest_id: int | None = None,
    early: bool = False,
) -> Job | None:
    """Take the oldest due queued job (or one whose lease expired: its worker died), or None.
    ``early`` also takes jobs whose ``run_after`` is still ahead (a caller flushing a forest)."""
    async with db.system() as conn:
        row = await fetch_one(
            conn,
            CLAIM_SQL,
            {"w": worker_id, "lease": lease_s, "tenant": tenant_id, "forest": forest_id, "early": early},
        )
    return _job(row) if row is not None else None


async def extend_lease(db: Database, job: Job, worker_id: str, lease_s: float) -> None:
    """Keep a long job ours."""
    async with db.system() as conn:
        await execute(
            conn,
            "UPDATE jobs SET leased_until = now() + make_interval(secs => :lease) "
            "WHERE tenant_id = :t AND job_id = :j AND worker_id = :w AND state = 'running'",
            {"lease": lease_s, "t": job.tenant_id, "j": job.job_id, "w": worker_id},
        )


async def update_progress(db: Database, job: Job, progress: dict[str, Any]) -> None:
    """Record progress (shown by the jobs endpoint)."""
    async with db.system() as conn:
        await execute(
            conn,
            "UPDATE jobs SET progress = CAST(:p AS jsonb) WHERE tenant_id = :t AND job_id = :j",
            {"p": json.dumps(progress), "t": job.tenant_id, "j": job.job_id},
        )


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
        await execute(
            conn,
            "UPDATE jobs SET state = :s, result = CAST(:r AS jsonb), usage = CAST(:u AS jsonb), "
            "errors = CAST(:e AS jsonb), finished_at = now(), leased_until = NULL "
            "WHERE tenant_id = :t AND job_id = :j",
            {
                "s": state.value,
                "r": json.dumps(result),
                "u": json.dumps(usage),
                "e": json.dumps(errors),
                "t": job.tenant_id,
                "j": job.job_id,
            },
        )


async def get_job(conn: AsyncConnection, tenant_id: uuid.UUID, job_id: uuid.UUID) -> dict[str, Any] | None:
    """A job row of this tenant as a dict (None when absent or another tenant's)."""
    return await fetch_one(
        conn,
        "SELECT job_id, forest_id, kind, state, payload, progress, result, usage, errors, attempts, created_at, "
        "started_at, finished_at FROM jobs WHERE tenant_id = :t AND job_id = :j",
        {"t": tenant_id, "j": job_id},
    )


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


async def job_view(conn: AsyncConnection, tenant_id: uuid.UUID, job_id: uuid.UUID) -> dict[str, Any] | None:
    """A job of this tenant as the API and the MCP tools show it (None when absent or another tenant's)."""
    row = await get_job(conn, tenant_id, job_id)
    if row is None:
        return None
    forest = None
    if row["forest_id"] is not None:
        f = await fetch_one(
            conn,
            "SELECT name FROM forests WHERE tenant_id = :t AND forest_id = :f",
            {"t": tenant_id, "f": row["forest_id"]},
        )
        forest = f["name"] if f else None
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
