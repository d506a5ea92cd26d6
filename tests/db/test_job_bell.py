"""This process's job bell (memforest.pipeline.job_bell): a session accepted here (through the
API's use case or ``accept_sessions``) wakes the idle loops of this process's long-running worker
at once instead of at their next poll."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime

import pytest
from support import session_body, session_input

from memforest.app.sessions import add_session
from memforest.backends.base import UsageLedger
from memforest.backends.factory import Backends, build_backends
from memforest.db.engine import Database
from memforest.domain import Job
from memforest.pipeline.job_bell import QUEUED, JobBell
from memforest.pipeline.service import accept_sessions
from memforest.pipeline.worker import run_worker
from memforest.settings import Settings
from memforest.store.tenants import ensure_tenant

SLOW_POLL_S = 30.0  # a worker that relied on polling would miss every deadline below


class Seen:
    """A handler that records the kinds of the jobs it ran and signals each one."""

    def __init__(self) -> None:
        self.ran: list[str] = []
        self.event = asyncio.Event()

    async def handler(
        self, _db: Database, _s: Settings, _b: Backends, job: Job, _l: UsageLedger
    ) -> tuple[dict[str, object], list[dict[str, object]]]:
        self.ran.append(job.kind)
        self.event.set()
        return {}, []

    async def next(self) -> None:
        await asyncio.wait_for(self.event.wait(), timeout=5)
        self.event.clear()


def _slow_polling(settings: Settings) -> Settings:
    worker = settings.worker.model_copy(update={"poll_interval_s": SLOW_POLL_S})
    return settings.model_copy(update={"worker": worker})


async def test_a_ring_wakes_one_waiter_and_a_ring_before_the_wait_is_not_missed() -> None:
    bell = JobBell()
    seen = bell.rings
    first, second = (asyncio.create_task(bell.wait(seen, timeout_s=SLOW_POLL_S)) for _ in range(2))
    await asyncio.sleep(0.01)
    assert not first.done() and not second.done()
    bell.ring()
    await asyncio.wait_for(first, timeout=1)  # the longest waiting
    await asyncio.sleep(0.01)
    assert not second.done()  # one job, one claim
    bell.ring()
    await asyncio.wait_for(second, timeout=1)
    # rung between reading the count and waiting: the wait returns at once
    await asyncio.wait_for(bell.wait(seen, timeout_s=SLOW_POLL_S), timeout=1)


async def test_a_wait_also_ends_when_its_event_is_set_and_leaves_no_waiter_behind() -> None:
    bell, changed = JobBell(), asyncio.Event()
    waiting = asyncio.create_task(bell.wait(bell.rings, timeout_s=SLOW_POLL_S, or_set=changed))
    await asyncio.sleep(0.01)
    assert not waiting.done()
    changed.set()
    await asyncio.wait_for(waiting, timeout=1)
    await asyncio.wait_for(bell.wait(bell.rings, timeout_s=SLOW_POLL_S, or_set=changed), timeout=1)  # set already
    changed.clear()
    other = asyncio.create_task(bell.wait(bell.rings, timeout_s=SLOW_POLL_S))
    await asyncio.sleep(0.01)
    bell.ring()  # the ended wait is no longer a waiter: the ring reaches the one still waiting
    await asyncio.wait_for(other, timeout=1)


async def test_a_wake_all_bell_wakes_every_waiter() -> None:
    bell = JobBell(wake_all=True)
    waits = [asyncio.create_task(bell.wait(bell.rings, timeout_s=SLOW_POLL_S)) for _ in range(3)]
    await asyncio.sleep(0.01)
    bell.ring()
    await asyncio.wait_for(asyncio.gather(*waits), timeout=1)


@pytest.mark.parametrize("path", ["api", "accept_sessions"])
async def test_a_session_accepted_here_is_claimed_at_once_by_an_idle_worker(
    db: Database, settings: Settings, path: str
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
        if path == "api":
            body = session_body("s1", "2024-03-01T10:00:00Z", ["I moved to Porto.", "Nice!"])
            assert (await add_session(db, s, tenant_id, "f", body))["created"]
        else:
            session = session_input("s1", datetime(2024, 3, 1, 10, tzinfo=UTC), ["I moved to Porto.", "Nice!"])
            _, (accepted,) = await accept_sessions(db, s, tenant_id, "f", [session])
            assert accepted.created
        await seen.next()  # within seconds, not at the next poll (30 s)
        stop.set()
        for _ in range(2):  # (the worker's two loops: each ring wakes one, which sees the stop)
            QUEUED.ring()
        await asyncio.wait_for(worker, timeout=5)
    finally:
        worker.cancel()  # (a failed assertion must not leave it polling)
        await backends.aclose()
    assert seen.ran == ["ingest"]
