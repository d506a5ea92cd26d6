"""This process's job bell (memforest.pipeline.job_bell): a job queued and committed here wakes
the idle workers of this process at once instead of at their next poll, and a one-shot worker
told that jobs are still being queued (``busy_until``) waits for them instead of returning."""

from __future__ import annotations

import asyncio
import uuid

from memforest.app.sessions import add_session
from memforest.backends.base import UsageLedger
from memforest.backends.factory import Backends, build_backends
from memforest.db.engine import Database
from memforest.pipeline.job_bell import QUEUED, JobBell
from memforest.pipeline.jobs import Job
from memforest.pipeline.worker import run_worker
from memforest.settings import Settings
from memforest.store.jobs import insert_job
from memforest.store.tenants import ensure_forest, ensure_tenant
from tests.support.sessions import session_body

SLOW_POLL_S = 30.0  # a worker that relied on polling would miss every deadline below


class Seen:
    """A handler that records the jobs it ran (by payload ``n``, or kind) and signals each one."""

    def __init__(self) -> None:
        self.ran: list[str] = []
        self.event = asyncio.Event()

    async def handler(
        self, _db: Database, _s: Settings, _b: Backends, job: Job, _l: UsageLedger
    ) -> tuple[dict[str, object], list[dict[str, object]]]:
        self.ran.append(str(job.payload.get("n", job.kind)))
        self.event.set()
        return {}, []

    async def next(self) -> None:
        await asyncio.wait_for(self.event.wait(), timeout=5)
        self.event.clear()


def _slow_polling(settings: Settings) -> Settings:
    worker = settings.worker.model_copy(update={"poll_interval_s": SLOW_POLL_S})
    return settings.model_copy(update={"worker": worker})


async def test_the_bell_wakes_a_waiter_and_a_ring_before_the_wait_is_not_missed() -> None:
    bell = JobBell()
    seen = bell.rings
    waiter = asyncio.create_task(bell.wait(seen, timeout_s=SLOW_POLL_S))
    await asyncio.sleep(0.01)
    assert not waiter.done()
    bell.ring()
    await asyncio.wait_for(waiter, timeout=1)
    # rung between reading the count and waiting: the wait returns at once
    await asyncio.wait_for(bell.wait(seen, timeout_s=SLOW_POLL_S), timeout=1)


async def test_a_one_shot_worker_runs_jobs_queued_until_it_is_told_no_more_come(
    db: Database, settings: Settings
) -> None:
    tenant_id = await ensure_tenant(db, f"bell-{uuid.uuid4().hex[:8]}")
    async with db.tenant(tenant_id) as conn:
        forest = await ensure_forest(conn, tenant_id, "f")
    s = _slow_polling(settings)
    seen = Seen()
    busy: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    backends = build_backends(s)
    try:
        worker = asyncio.create_task(
            run_worker(
                db, s, backends, concurrency=2, stop_when_idle=True, tenant_id=tenant_id,
                busy_until=busy, handlers={"probe": seen.handler},
            )
        )  # fmt: skip
        await asyncio.sleep(0.3)
        assert not worker.done()  # idle, but jobs are still coming
        for n in range(2):
            async with db.tenant(tenant_id) as conn:
                await insert_job(conn, tenant_id, forest.forest_id, "probe", {"n": n})
            QUEUED.ring()
            await seen.next()
        busy.set_result(None)
        await asyncio.wait_for(worker, timeout=5)  # ... and now it is done, without a poll interval
    finally:
        await backends.aclose()
    assert seen.ran == ["0", "1"]


async def test_a_session_accepted_by_the_api_is_claimed_at_once_by_an_idle_worker(
    db: Database, settings: Settings
) -> None:
    tenant_id = await ensure_tenant(db, f"bell-{uuid.uuid4().hex[:8]}")
    s = _slow_polling(settings)
    seen = Seen()
    stop = asyncio.Event()
    backends = build_backends(s)
    try:
        worker = asyncio.create_task(
            run_worker(
                db, s, backends, concurrency=1, tenant_id=tenant_id, stop=stop, handlers={"ingest": seen.handler}
            )
        )
        await asyncio.sleep(0.3)  # its loops found nothing and wait
        body = session_body("s1", "2024-03-01T10:00:00Z", ["I moved to Porto.", "Nice!"])
        accepted = await add_session(db, s, tenant_id, "f", body)
        assert accepted["created"]
        await seen.next()  # within seconds, not at the next poll (30 s)
        stop.set()
        QUEUED.ring()  # (waiting loops see the stop at once)
        await asyncio.wait_for(worker, timeout=5)
    finally:
        await backends.aclose()
    assert seen.ran == ["ingest"]
