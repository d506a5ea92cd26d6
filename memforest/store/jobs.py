"""The job queue (ADR 0003): named statements over ``jobs``, claimed with ``FOR UPDATE SKIP LOCKED``.

Functions take the connection, then the tenant id (``None`` where a system worker looks across
tenants). They return :class:`memforest.domain.Job`, plain rows or :func:`job_view`'s dict. The
worker (:mod:`memforest.pipeline.worker`) runs them in short system transactions.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy.exc import IntegrityError

from memforest.domain import Job, JobState
from memforest.errors import ConflictError
from memforest.store.sql import Conn, Row, execute, fetch_all, fetch_one, forest_lock_key, scalar

REFRESH_KIND = "refresh"


def _job(row: Row) -> Job:
    return Job(
        tenant_id=row["tenant_id"],
        job_id=row["job_id"],
        forest_id=row["forest_id"],
        kind=str(row["kind"]),
        state=JobState(row["state"]),
        payload=dict(row["payload"] or {}),
        attempts=int(row["attempts"]),
    )


_INSERT = """
INSERT INTO jobs (tenant_id, job_id, forest_id, kind, payload, idempotency_key, request_hash)
VALUES (:t, :j, :f, :k, CAST(:p AS jsonb), :ik, :rh)
"""

_IDEMPOTENCY_CONFLICT = "this Idempotency-Key was already used for another request"


async def insert_job(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int | None,
    kind: str,
    payload: dict[str, Any],
    *,
    idempotency_key: str | None = None,
    request_hash: str | None = None,
) -> uuid.UUID:
    """Add a queued job inside the caller's transaction; a reused idempotency key is a ConflictError."""
    job_id = uuid.uuid4()
    params = {"t": tenant_id, "j": job_id, "f": forest_id, "k": kind, "p": json.dumps(payload),
              "ik": idempotency_key, "rh": request_hash}  # fmt: skip
    try:
        await execute(conn, _INSERT, params)
    except IntegrityError:
        raise ConflictError(_IDEMPOTENCY_CONFLICT) from None
    return job_id


_BY_IDEMPOTENCY_KEY = "SELECT job_id, forest_id, request_hash FROM jobs WHERE tenant_id = :t AND idempotency_key = :k"


async def find_by_idempotency_key(conn: Conn, tenant_id: uuid.UUID, key: str) -> Row | None:
    """The job an idempotency key created (job_id, forest_id, request_hash), or None."""
    return await fetch_one(conn, _BY_IDEMPOTENCY_KEY, {"t": tenant_id, "k": key})


_SESSION_INGEST_JOB = """
SELECT job_id FROM jobs WHERE tenant_id = :t AND forest_id = :f AND kind = 'ingest'
AND payload->>'session_id' = :s ORDER BY created_at LIMIT 1
"""


async def find_session_ingest_job(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, session_id: int
) -> uuid.UUID | None:
    """The first ingest job of a session, or None."""
    job_id = await scalar(conn, _SESSION_INGEST_JOB, {"t": tenant_id, "f": forest_id, "s": str(session_id)})
    return job_id if job_id is None else uuid.UUID(str(job_id))


_SCHEDULE_REFRESH = """
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
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, *, due_commits: int, delay_s: float
) -> uuid.UUID:
    """Count one more commit towards the forest's queued refresh job, creating it if there is none,
    inside the caller's transaction (so a commit never lands without the job that refreshes it).
    The job becomes claimable ``delay_s`` after it was created, or at once when ``due_commits``
    commits are pending. Returns the job id."""
    row = await fetch_one(
        conn,
        _SCHEDULE_REFRESH,
        {"t": tenant_id, "j": uuid.uuid4(), "f": forest_id, "due": due_commits, "delay": delay_s},
    )
    assert row is not None  # INSERT ... ON CONFLICT DO UPDATE always returns the row
    return uuid.UUID(str(row["job_id"]))


_SWEEP = """
INSERT INTO jobs (tenant_id, job_id, forest_id, kind, payload, run_after)
SELECT d.tenant_id, gen_random_uuid(), d.forest_id, 'refresh', jsonb_build_object('commits', 0, 'swept', true), now()
FROM (SELECT DISTINCT tenant_id, forest_id FROM dirty_nodes
      WHERE (CAST(:tenant AS uuid) IS NULL OR tenant_id = CAST(:tenant AS uuid))
      AND (CAST(:forest AS bigint) IS NULL OR forest_id = CAST(:forest AS bigint))) d
WHERE NOT EXISTS (SELECT 1 FROM jobs j WHERE j.tenant_id = d.tenant_id AND j.forest_id = d.forest_id
                  AND j.state IN ('queued', 'running'))
ON CONFLICT DO NOTHING
"""


async def sweep_orphaned_refreshes(conn: Conn, tenant_id: uuid.UUID | None, forest_id: int | None) -> int:
    """Queue a due refresh job for every forest (of ``tenant_id``/``forest_id`` when given) with dirty
    nodes and no queued or running job. Returns how many were queued."""
    return await execute(conn, _SWEEP, {"tenant": tenant_id, "forest": forest_id})


# A job whose lease ran out was left by a worker that died or hung. It is taken back while it has
# attempts left; once they are spent it fails here (the handler never got to say why).
_ABANDON = """
UPDATE jobs j SET state = 'failed', finished_at = now(), leased_until = NULL,
    errors = j.errors || jsonb_build_array(jsonb_build_object('error', format(
        'gave up after %s attempts: each attempt''s worker stopped (crashed, was killed or hung past its '
        'lease) before finishing the job', j.attempts)))
FROM (
    SELECT tenant_id, job_id FROM jobs
    WHERE state = 'running' AND leased_until < now() AND attempts >= :max
      AND (CAST(:tenant AS uuid) IS NULL OR tenant_id = CAST(:tenant AS uuid))
      AND (CAST(:forests AS bigint[]) IS NULL OR forest_id = ANY(CAST(:forests AS bigint[])))
    FOR UPDATE SKIP LOCKED
) spent
WHERE j.tenant_id = spent.tenant_id AND j.job_id = spent.job_id
"""

# Fair across tenants (ADR 0019) and, within a tenant, across its forests (ADR 0148): the tenant
# with the fewest running jobs goes first, within it the forest with the fewest, and within that
# the oldest due job. A tenant with a large backlog takes turns with the others, and so does a
# forest (one user's import) with its tenant's other forests, whose commits do not wait for it.
_CLAIM = """
UPDATE jobs j SET state = 'running', attempts = j.attempts + 1, worker_id = :w,
    leased_until = now() + make_interval(secs => :lease), started_at = coalesce(j.started_at, now())
FROM (
    WITH running AS (
        SELECT tenant_id, forest_id, count(*) AS n FROM jobs WHERE state = 'running' AND leased_until >= now()
        GROUP BY tenant_id, forest_id
    )
    SELECT c.tenant_id, c.job_id FROM jobs c
    LEFT JOIN (SELECT tenant_id, sum(n) AS n FROM running GROUP BY tenant_id) busy ON busy.tenant_id = c.tenant_id
    LEFT JOIN running forest_busy ON forest_busy.tenant_id = c.tenant_id
        AND forest_busy.forest_id IS NOT DISTINCT FROM c.forest_id
    WHERE ((c.state = 'queued' AND (c.run_after IS NULL OR c.run_after <= now() OR CAST(:early AS boolean)))
           OR (c.state = 'running' AND c.leased_until < now() AND c.attempts < :max))
      AND (CAST(:tenant AS uuid) IS NULL OR c.tenant_id = CAST(:tenant AS uuid))
      AND (CAST(:forests AS bigint[]) IS NULL OR c.forest_id = ANY(CAST(:forests AS bigint[])))
    ORDER BY coalesce(busy.n, 0), coalesce(forest_busy.n, 0), coalesce(c.run_after, c.created_at), c.job_id
    FOR UPDATE OF c SKIP LOCKED
    LIMIT 1
) picked
WHERE j.tenant_id = picked.tenant_id AND j.job_id = picked.job_id
RETURNING j.tenant_id, j.job_id, j.forest_id, j.kind, j.state, j.payload, j.attempts
"""


async def claim(
    conn: Conn,
    tenant_id: uuid.UUID | None,
    forest_id: int | None,
    worker_id: str,
    *,
    lease_s: float,
    early: bool,
    max_attempts: int,
    forests: Sequence[int] | None = None,
) -> Job | None:
    """Fail the jobs whose lease expired with their ``max_attempts`` spent, then take the oldest due
    queued job (or one whose lease expired, with attempts left) of the tenant with the fewest
    running jobs (and within it of the forest with the fewest), or None. Only jobs of ``tenant_id``
    and of ``forest_id`` or ``forests`` when given."""
    scope = {"tenant": tenant_id, "forests": _forest_scope(forest_id, forests), "max": max_attempts}
    await execute(conn, _ABANDON, scope)
    row = await fetch_one(conn, _CLAIM, {**scope, "w": worker_id, "lease": lease_s, "early": early})
    return _job(row) if row is not None else None


def _forest_scope(forest_id: int | None, forests: Sequence[int] | None) -> list[int] | None:
    """The forests a claim may take jobs of (None: any)."""
    if forest_id is not None:
        return [forest_id] if forests is None or forest_id in forests else []
    return None if forests is None else [int(f) for f in forests]


_PRUNE = """
DELETE FROM jobs j USING (
    SELECT tenant_id, job_id FROM jobs
    WHERE state IN ('succeeded', 'failed') AND finished_at < now() - make_interval(secs => :keep)
    LIMIT :batch FOR UPDATE SKIP LOCKED
) old
WHERE j.tenant_id = old.tenant_id AND j.job_id = old.job_id
"""


async def prune_finished(conn: Conn, *, retention_s: float, batch: int) -> int:
    """Delete up to ``batch`` jobs (all tenants) that finished more than ``retention_s`` ago (served
    by the partial index on finished jobs). Returns how many went."""
    return await execute(conn, _PRUNE, {"keep": retention_s, "batch": batch})


_EXTEND_LEASE = """
UPDATE jobs SET leased_until = now() + make_interval(secs => :lease)
WHERE tenant_id = :t AND job_id = :j AND worker_id = :w AND state = 'running'
"""


async def extend_lease(conn: Conn, tenant_id: uuid.UUID, job_id: uuid.UUID, worker_id: str, lease_s: float) -> None:
    """Keep a running job leased to ``worker_id``."""
    await execute(conn, _EXTEND_LEASE, {"lease": lease_s, "t": tenant_id, "j": job_id, "w": worker_id})


_SET_PROGRESS = "UPDATE jobs SET progress = CAST(:p AS jsonb) WHERE tenant_id = :t AND job_id = :j"


async def set_progress(conn: Conn, tenant_id: uuid.UUID, job_id: uuid.UUID, progress: dict[str, Any]) -> None:
    """Record a job's progress."""
    await execute(conn, _SET_PROGRESS, {"p": json.dumps(progress), "t": tenant_id, "j": job_id})


_FINISH = """
UPDATE jobs SET state = :s, result = CAST(:r AS jsonb), usage = CAST(:u AS jsonb),
errors = CAST(:e AS jsonb), finished_at = now(), leased_until = NULL
WHERE tenant_id = :t AND job_id = :j
"""


async def finish(
    conn: Conn,
    tenant_id: uuid.UUID,
    job_id: uuid.UUID,
    state: JobState,
    *,
    result: dict[str, Any],
    usage: dict[str, Any],
    errors: list[dict[str, Any]],
) -> None:
    """Close a job with its final state, result, usage and errors."""
    await execute(
        conn,
        _FINISH,
        {"s": state.value, "r": json.dumps(result), "u": json.dumps(usage), "e": json.dumps(errors),
         "t": tenant_id, "j": job_id},
    )  # fmt: skip


# A refresh job is not put back while a newer one of its forest is queued (one queued refresh job
# per forest): that one refreshes every dirty node.
_REQUEUE = """
UPDATE jobs SET state = 'queued', leased_until = NULL, errors = errors || CAST(:e AS jsonb)
WHERE tenant_id = :t AND job_id = :j AND NOT (kind = 'refresh' AND EXISTS (SELECT 1 FROM jobs q
WHERE q.tenant_id = jobs.tenant_id AND q.forest_id = jobs.forest_id AND q.kind = 'refresh'
AND q.state = 'queued'))
"""


async def requeue(conn: Conn, tenant_id: uuid.UUID, job_id: uuid.UUID, error: str) -> bool:
    """Put a job that failed unexpectedly back in the queue, recording ``error``; False when it was
    not (a refresh job with a newer queued refresh job of its forest)."""
    params = {"e": json.dumps([{"attempt_error": error}]), "t": tenant_id, "j": job_id}
    return await execute(conn, _REQUEUE, params) > 0


_GET = """
SELECT job_id, forest_id, kind, state, payload, progress, result, usage, errors, attempts, created_at,
started_at, finished_at FROM jobs WHERE tenant_id = :t AND job_id = :j
"""


async def get_job(conn: Conn, tenant_id: uuid.UUID, job_id: uuid.UUID) -> Row | None:
    """A job row of this tenant (None when absent or another tenant's)."""
    return await fetch_one(conn, _GET, {"t": tenant_id, "j": job_id})


_FOREST_NAME = "SELECT name FROM forests WHERE tenant_id = :t AND forest_id = :f"


async def forest_name(conn: Conn, tenant_id: uuid.UUID, forest_id: int) -> str | None:
    """The name of a forest a job belongs to (None when it is gone)."""
    name = await scalar(conn, _FOREST_NAME, {"t": tenant_id, "f": forest_id})
    return None if name is None else str(name)


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


async def job_view(conn: Conn, tenant_id: uuid.UUID, job_id: uuid.UUID) -> dict[str, Any] | None:
    """A job of this tenant as the API, the MCP tools and the webhooks show it (None when absent or
    another tenant's)."""
    row = await get_job(conn, tenant_id, job_id)
    if row is None:
        return None
    forest = None
    if row["forest_id"] is not None:
        forest = await forest_name(conn, tenant_id, int(row["forest_id"]))
    return job_view_of(row, forest)


def job_view_of(row: Mapping[str, Any], forest: str | None) -> dict[str, Any]:
    """:func:`job_view` of a job row as :func:`get_job` reads it and the name of its forest."""
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


_OUTCOMES = """
SELECT kind, state, payload, result, usage, errors, created_at, started_at, finished_at FROM jobs
WHERE tenant_id = :t AND job_id = ANY(:ids) ORDER BY created_at, job_id
"""


async def job_outcomes(conn: Conn, tenant_id: uuid.UUID, job_ids: list[uuid.UUID]) -> list[Row]:
    """kind, state, payload, result, usage, errors and times of the given jobs, oldest first."""
    return await fetch_all(conn, _OUTCOMES, {"t": tenant_id, "ids": job_ids})


_UNFINISHED = "SELECT count(*) FROM jobs WHERE tenant_id = :t AND job_id = ANY(:ids) AND state IN ('queued', 'running')"


async def count_unfinished(conn: Conn, tenant_id: uuid.UUID, job_ids: list[uuid.UUID]) -> int:
    """How many of the given jobs are still queued or running."""
    return int(await scalar(conn, _UNFINISHED, {"t": tenant_id, "ids": job_ids}) or 0)


_OLDER_UNCOMMITTED = """
SELECT EXISTS (
    SELECT 1 FROM jobs j JOIN cells c ON c.tenant_id = j.tenant_id
        AND c.session_id = (j.payload->>'session_id')::bigint AND c.extracted_at IS NULL
    WHERE j.tenant_id = :t AND j.forest_id = :f AND j.kind = 'ingest' AND j.state IN ('queued', 'running')
      AND (j.payload->>'session_id')::bigint < :s
)
"""


# The order check, then (only when no older session is pending) the forest's graph lock: one round
# trip. The EXISTS reads the statement's snapshot, taken before the lock is waited for, as the
# check run on its own before the lock did; the ELSE branch's subquery runs only when reached.
_OLDER_OR_LOCK = f"""
SELECT CASE WHEN {_OLDER_UNCOMMITTED.strip()[len("SELECT ") :]} THEN true
ELSE (SELECT false FROM pg_advisory_xact_lock(hashtextextended(:k, 0))) END
"""


async def older_uncommitted_or_lock(conn: Conn, tenant_id: uuid.UUID, forest_id: int, session_id: int) -> bool:
    """Whether a session of the forest accepted before ``session_id`` has a pending ingest job with
    cells not yet committed; when none has, the forest's ``graph`` lock is taken in the same
    statement, for the rest of the transaction (as ``lock_forest(..., "graph")``). Returns True
    (the lock not taken) when an older session is pending."""
    params = {"t": tenant_id, "f": forest_id, "s": session_id, "k": forest_lock_key(tenant_id, forest_id, "graph")}
    return bool(await scalar(conn, _OLDER_OR_LOCK, params))


_YOUNGER_UNCOMMITTED = _OLDER_UNCOMMITTED.replace("::bigint < :s", "::bigint > :s")


async def younger_uncommitted(conn: Conn, tenant_id: uuid.UUID, forest_id: int, session_id: int) -> bool:
    """Whether a session of the forest accepted after ``session_id`` has a pending ingest job with
    cells not yet committed (its commit is still to come)."""
    return bool(await scalar(conn, _YOUNGER_UNCOMMITTED, {"t": tenant_id, "f": forest_id, "s": session_id}))
