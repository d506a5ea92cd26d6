"""The job queue's limits (issue 14): a job whose worker keeps dying is failed at claim time once
its attempts are spent; claiming is fair across tenants and a tenant's forests; finished jobs are
pruned after retention."""

from __future__ import annotations

import asyncio
import uuid

from support.queue import claim

from memforest.app.jobs import run_worker
from memforest.backends.factory import build_backends
from memforest.db.engine import Database
from memforest.domain import JobState
from memforest.settings import Settings
from memforest.store import jobs
from memforest.store.sql import execute, scalar
from memforest.store.tenants import ensure_forest, ensure_tenant

LEASE_S = 0.05


async def _tenant_forest(db: Database, name: str) -> tuple[uuid.UUID, int]:
    tenant_id = await ensure_tenant(db, name)
    async with db.tenant(tenant_id) as conn:
        forest = await ensure_forest(conn, tenant_id, "f")
    return tenant_id, forest.forest_id


async def _queue(db: Database, tenant_id: uuid.UUID, forest_id: int, n: int, kind: str = "noop") -> list[uuid.UUID]:
    async with db.tenant(tenant_id) as conn:
        return [await jobs.insert_job(conn, tenant_id, forest_id, kind, {"i": i}) for i in range(n)]


async def test_a_job_whose_worker_keeps_dying_fails_once_its_attempts_are_spent(db: Database) -> None:
    tenant_id, forest_id = await _tenant_forest(db, "t")
    (job_id,) = await _queue(db, tenant_id, forest_id, 1)
    for attempt in range(1, 4):
        job = await claim(db, f"w{attempt}", lease_s=LEASE_S, max_attempts=3)
        assert job is not None and job.job_id == job_id and job.attempts == attempt
        await asyncio.sleep(LEASE_S * 3)  # the worker dies: no finish, no heartbeat, the lease runs out
    assert await claim(db, "w4", lease_s=LEASE_S, max_attempts=3) is None
    async with db.tenant(tenant_id) as conn:
        row = await jobs.get_job(conn, tenant_id, job_id)
    assert row is not None
    assert row["state"] == JobState.FAILED.value and row["attempts"] == 3 and row["finished_at"] is not None
    assert "3 attempts" in row["errors"][-1]["error"] and "lease" in row["errors"][-1]["error"]


async def test_a_live_lease_is_not_taken_and_a_spent_job_with_attempts_left_is_retried(db: Database) -> None:
    tenant_id, forest_id = await _tenant_forest(db, "t")
    (job_id,) = await _queue(db, tenant_id, forest_id, 1)
    first = await claim(db, "w1", lease_s=30, max_attempts=2)
    assert first is not None and first.job_id == job_id
    assert await claim(db, "w2", lease_s=30, max_attempts=2) is None  # leased and alive
    async with db.system() as conn:
        await execute(conn, "UPDATE jobs SET leased_until = now() - interval '1 second'")
    again = await claim(db, "w2", lease_s=30, max_attempts=2)
    assert again is not None and again.attempts == 2


async def test_claiming_is_fair_across_tenants(db: Database) -> None:
    """A tenant with a large backlog queued first does not starve one that queued later."""
    big, big_forest = await _tenant_forest(db, "big")
    small, small_forest = await _tenant_forest(db, "small")
    await _queue(db, big, big_forest, 30)
    await _queue(db, small, small_forest, 3)
    claimed = []
    for i in range(6):
        job = await claim(db, f"w{i}", lease_s=30)
        assert job is not None
        claimed.append(job.tenant_id)
    # the tenant with fewer running jobs goes first: both tenants alternate
    assert claimed.count(small) == 3 and claimed.count(big) == 3
    assert claimed[:2].count(small) == 1


async def test_claiming_is_fair_across_a_tenants_forests(db: Database) -> None:
    """One user's import queued first does not hold every slot: within a tenant, the forest with
    fewer running jobs goes first (and at a tie, the older job's)."""
    tenant_id, imported = await _tenant_forest(db, "t")
    async with db.tenant(tenant_id) as conn:
        other = (await ensure_forest(conn, tenant_id, "other")).forest_id
    backlog = await _queue(db, tenant_id, imported, 6)
    later = await _queue(db, tenant_id, other, 2)
    claimed = []
    for i in range(5):
        job = await claim(db, f"w{i}", lease_s=30)
        assert job is not None and job.tenant_id == tenant_id
        claimed.append(job.job_id)
    forest_of = dict.fromkeys(backlog, imported) | dict.fromkeys(later, other)
    assert [forest_of[j] for j in claimed] == [imported, other, imported, other, imported]


async def test_finished_jobs_are_pruned_after_the_retention_period(db: Database) -> None:
    tenant_id, forest_id = await _tenant_forest(db, "t")
    ids = await _queue(db, tenant_id, forest_id, 4)
    async with db.system() as conn:
        await execute(
            conn,
            "UPDATE jobs SET state = 'succeeded', finished_at = now() - interval '8 days' WHERE job_id = ANY(:ids)",
            {"ids": ids[:2]},
        )
        await execute(
            conn, "UPDATE jobs SET state = 'failed', finished_at = now() - interval '1 day' WHERE job_id = :j",
            {"j": ids[2]},
        )  # fmt: skip
    async with db.system() as conn:
        pruned = await jobs.prune_finished(conn, retention_s=7 * 86_400, batch=1000)
    assert pruned == 2
    async with db.system() as conn:
        left = await scalar(conn, "SELECT count(*) FROM jobs")
    assert left == 2  # the recent failure and the queued job stay


async def test_a_long_running_worker_prunes_periodically(db: Database, settings: Settings) -> None:
    tenant_id, forest_id = await _tenant_forest(db, "t")
    ids = await _queue(db, tenant_id, forest_id, 2)
    async with db.system() as conn:
        await execute(
            conn, "UPDATE jobs SET state = 'succeeded', finished_at = now() - interval '2 hours' WHERE job_id = :j",
            {"j": ids[0]},
        )  # fmt: skip
        await execute(conn, "UPDATE jobs SET run_after = now() + interval '1 hour' WHERE job_id = :j", {"j": ids[1]})
    worker = settings.worker.model_copy(update={"job_retention_s": 3600.0, "prune_interval_s": 0.2})
    s = settings.model_copy(update={"worker": worker})
    stop = asyncio.Event()
    backends = build_backends(s)
    task = asyncio.create_task(run_worker(db, s, backends, stop=stop))
    try:
        for _ in range(100):
            async with db.system() as conn:
                if await scalar(conn, "SELECT count(*) FROM jobs") == 1:
                    break
            await asyncio.sleep(0.05)
    finally:
        stop.set()
        await asyncio.wait_for(task, timeout=10)
        await backends.aclose()
    async with db.system() as conn:
        assert await scalar(conn, "SELECT array_agg(job_id) FROM jobs") == [ids[1]]
