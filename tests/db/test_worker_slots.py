"""Worker slots (memforest.pipeline.slots, ADR 0027): a job done with its model calls gives its
slot to the next queued job when ``worker.commit_overlap`` is on; the worker then runs at most
``concurrency`` more jobs past their model calls, and without overlap (or a job that never gives
its slot back) one job waits for the one before it to end."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from dataclasses import dataclass, field

import asyncpg
import pytest

from memforest.backends.base import UsageLedger
from memforest.backends.factory import Backends, build_backends
from memforest.db.engine import Database
from memforest.db.pool_use import open_connections
from memforest.domain import Job
from memforest.pipeline.slots import declare_calls, release_slot
from memforest.pipeline.worker import run_worker
from memforest.settings import WORKER_CONCURRENCY_DEFAULT, Settings
from memforest.store.jobs import insert_job
from memforest.store.sql import fetch_all
from memforest.store.tenants import ensure_forest, ensure_tenant

WAIT_S = 0.6  # how long a job waits for company before it gives up


@dataclass
class Probe:
    """Jobs that (optionally) give their slot back, then wait until ``company`` jobs are alive."""

    company: int
    release: bool = True
    alive: int = 0
    most_alive: int = 0
    events: list[str] = field(default_factory=list)
    crowd: asyncio.Event = field(default_factory=asyncio.Event)

    async def handler(
        self, _db: Database, _s: Settings, _b: Backends, job: Job, _l: UsageLedger
    ) -> tuple[dict[str, object], list[dict[str, object]]]:
        n = int(job.payload["n"])
        self.events.append(f"start {n}")
        self.alive += 1
        self.most_alive = max(self.most_alive, self.alive)
        if self.alive >= self.company:
            self.crowd.set()
        if self.release:
            release_slot()
        try:
            await asyncio.wait_for(self.crowd.wait(), WAIT_S)
            self.events.append(f"end {n}")
        except TimeoutError:
            self.events.append(f"alone {n}")
        finally:
            self.alive -= 1
        return {}, []


async def _run(db: Database, settings: Settings, probe: Probe, jobs: int, *, overlap: bool) -> None:
    tenant_id = await ensure_tenant(db, f"t-{uuid.uuid4().hex[:8]}")
    async with db.tenant(tenant_id) as conn:
        forest = await ensure_forest(conn, tenant_id, "f")
        for n in range(jobs):
            await insert_job(conn, tenant_id, forest.forest_id, "probe", {"n": n})
    s = settings.model_copy(update={"worker": settings.worker.model_copy(update={"commit_overlap": overlap})})
    backends = build_backends(s)
    try:
        await run_worker(
            db, s, backends, concurrency=1, stop_when_idle=True, tenant_id=tenant_id, handlers={"probe": probe.handler}
        )
    finally:
        await backends.aclose()


async def test_a_job_done_with_its_model_calls_lets_the_next_one_start(db: Database, settings: Settings) -> None:
    probe = Probe(company=2)
    await _run(db, settings, probe, 2, overlap=True)
    assert sorted(probe.events[:2]) == ["start 0", "start 1"] and sorted(probe.events[2:]) == ["end 0", "end 1"]


@pytest.mark.parametrize(("overlap", "release"), [(False, True), (True, False)])
async def test_without_overlap_or_release_one_job_runs_at_a_time(
    db: Database, settings: Settings, overlap: bool, release: bool
) -> None:
    probe = Probe(company=2, release=release)
    await _run(db, settings, probe, 2, overlap=overlap)
    first, second = (e.split()[1] for e in probe.events if e.startswith("start"))  # (claim order is free)
    assert probe.events == [f"start {first}", f"alone {first}", f"start {second}", f"alone {second}"]
    assert probe.most_alive == 1


async def test_at_most_concurrency_more_jobs_run_past_their_model_calls(db: Database, settings: Settings) -> None:
    probe = Probe(company=3)  # three would meet; concurrency 1 lets two be alive at once
    await _run(db, settings, probe, 3, overlap=True)
    assert probe.most_alive == 2
    assert sorted(e for e in probe.events if e.startswith("start")) == ["start 0", "start 1", "start 2"]
    assert all(e.split()[0] != "end" for e in probe.events)  # three never met


async def test_a_worker_told_to_stop_claims_no_job_for_a_freed_slot(db: Database, settings: Settings) -> None:
    """A loop waiting for a slot when the worker is told to stop takes no new job once one frees."""
    stop = asyncio.Event()
    ran: list[int] = []

    async def handler(
        _db: Database, _s: Settings, _b: Backends, job: Job, _l: UsageLedger
    ) -> tuple[dict[str, object], list[dict[str, object]]]:
        ran.append(int(job.payload["n"]))
        stop.set()  # told to stop while the second loop waits for this job's slot ...
        release_slot()  # ... which this job then gives back
        await asyncio.sleep(0.3)
        return {}, []

    tenant_id = await ensure_tenant(db, "stopping")
    async with db.tenant(tenant_id) as conn:
        forest = await ensure_forest(conn, tenant_id, "f")
        for n in range(2):
            await insert_job(conn, tenant_id, forest.forest_id, "probe", {"n": n})
    backends = build_backends(settings)
    try:
        await asyncio.wait_for(
            run_worker(
                db, settings, backends, concurrency=1, tenant_id=tenant_id, stop=stop, handlers={"probe": handler}
            ),
            timeout=10,
        )
    finally:
        await backends.aclose()
    assert len(ran) == 1  # the other job is still queued, for the next worker
    async with db.tenant(tenant_id) as conn:
        states = sorted(
            r["state"] for r in await fetch_all(conn, "SELECT state FROM jobs WHERE tenant_id = :t", {"t": tenant_id})
        )
    assert states == ["queued", "succeeded"]


async def _run_declaring(
    db: Database,
    settings: Settings,
    jobs: int,
    calls: int,
    *,
    chat_budget: int | None,
    concurrency: int,
    release: bool = False,
) -> int:
    """Run ``jobs`` jobs that each declare ``calls`` model calls and stay alive until all ``jobs`` are
    (or a wait runs out); the most that were alive at once."""
    alive, most = 0, 0
    crowd = asyncio.Event()

    async def handler(
        _db: Database, _s: Settings, _b: Backends, _job: Job, _l: UsageLedger
    ) -> tuple[dict[str, object], list[dict[str, object]]]:
        nonlocal alive, most
        declare_calls(calls)
        if release:
            release_slot()  # (done with its model calls: the job stays alive, past its slot)
        alive += 1
        most = max(most, alive)
        if alive >= jobs:
            crowd.set()
        try:
            await asyncio.wait_for(crowd.wait(), 1.5)
        except TimeoutError:
            pass
        finally:
            alive -= 1
        return {}, []

    tenant_id = await ensure_tenant(db, f"t-{uuid.uuid4().hex[:8]}")
    async with db.tenant(tenant_id) as conn:
        forest = await ensure_forest(conn, tenant_id, "f")
        for n in range(jobs):
            await insert_job(conn, tenant_id, forest.forest_id, "probe", {"n": n})
    backends = build_backends(settings)
    try:
        await run_worker(
            db, settings, backends, concurrency=concurrency, stop_when_idle=True, tenant_id=tenant_id,
            handlers={"probe": handler}, chat_budget=chat_budget,
        )  # fmt: skip
    finally:
        await backends.aclose()
    return most


@pytest.mark.parametrize(("calls", "jobs"), [(2, 12), (3, 8), (1, 16)])
async def test_jobs_past_the_default_start_while_their_calls_leave_room_in_the_chat_budget(
    db: Database, settings: Settings, calls: int, jobs: int
) -> None:
    """ADR 0099: with a chat budget of 24 and room for 16 jobs, jobs that ask for two calls each run
    twelve at once, jobs of three eight (the default, whatever they ask), jobs of one all sixteen."""
    assert WORKER_CONCURRENCY_DEFAULT == 8
    most = await _run_declaring(db, settings, 16, calls, chat_budget=24, concurrency=16)
    assert most == jobs


async def test_without_a_chat_budget_the_worker_runs_its_concurrency(db: Database, settings: Settings) -> None:
    assert await _run_declaring(db, settings, 12, 5, chat_budget=None, concurrency=12) == 12


async def test_an_idle_worker_told_to_stop_returns_without_waiting_out_its_poll(
    db: Database, settings: Settings
) -> None:
    """Every loop of an idle worker, the one polling included, returns once the worker is told to
    stop, not at its next poll (a one-shot run that stops its worker when its work is done)."""
    s = settings.model_copy(update={"worker": settings.worker.model_copy(update={"poll_interval_s": 30.0})})
    tenant_id = await ensure_tenant(db, f"t-{uuid.uuid4().hex[:8]}")
    stop = asyncio.Event()
    backends = build_backends(s)
    try:
        worker = asyncio.create_task(
            run_worker(db, s, backends, concurrency=4, tenant_id=tenant_id, stop=stop, handlers={})
        )
        await asyncio.sleep(0.3)  # (every loop has found nothing: one polls, the others wait for a ring)
        stop.set()
        await asyncio.wait_for(worker, 5)
    finally:
        await backends.aclose()


async def test_an_idle_worker_with_many_loops_asks_for_jobs_about_once_a_poll(
    db: Database, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ADR 0099: a worker of 20 jobs (40 loops) idle for 0.6 s at a poll of 0.05 s claims about 12
    times plus one try a loop, not 40 a poll; and jobs queued without a ring (by another process)
    are still all taken within a few polls, each claim that finds one waking the next loop."""
    from memforest.store import jobs as store_jobs

    claims = 0
    real_claim = store_jobs.claim

    async def counted(*args: object, **kwargs: object) -> Job | None:
        nonlocal claims
        claims += 1
        return await real_claim(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(store_jobs, "claim", counted)
    tenant_id = await ensure_tenant(db, f"t-{uuid.uuid4().hex[:8]}")
    started: list[float] = []
    all_started = asyncio.Event()

    async def handler(
        _db: Database, _s: Settings, _b: Backends, _job: Job, _l: UsageLedger
    ) -> tuple[dict[str, object], list[dict[str, object]]]:
        started.append(asyncio.get_running_loop().time())
        if len(started) == 6:
            all_started.set()
        await all_started.wait()
        return {}, []

    s = settings.model_copy(update={"worker": settings.worker.model_copy(update={"poll_interval_s": 0.05})})
    stop = asyncio.Event()
    backends = build_backends(s)
    worker = asyncio.create_task(
        run_worker(db, s, backends, concurrency=20, tenant_id=tenant_id, stop=stop, handlers={"probe": handler})
    )
    try:
        await asyncio.sleep(0.6)
        assert claims <= 40 + 0.6 / 0.05 + 4  # before: 40 loops each every 0.05 s, about 480
        async with db.tenant(tenant_id) as conn:
            forest = await ensure_forest(conn, tenant_id, "f")
            for n in range(6):  # (no ring: as if another process queued them)
                await insert_job(conn, tenant_id, forest.forest_id, "probe", {"n": n})
        await asyncio.wait_for(all_started.wait(), 5)
    finally:
        stop.set()
        await asyncio.wait_for(worker, 10)
        await backends.aclose()


async def test_connection_room_is_what_the_server_accepts_beside_the_connections_open_now(db: Database) -> None:
    """``max_connections`` less the reserved slots less every backend connected to a database; one
    fewer for a connection of the tenant role opened beside it (a role whose sessions' kind the
    owner may not see in ``pg_stat_activity``)."""
    from memforest.store.ops import connection_room

    async with db.system() as conn:
        room = await connection_room(conn)
        rows = await fetch_all(
            conn,
            "SELECT current_setting('max_connections')::int AS most, "
            "current_setting('superuser_reserved_connections')::int AS su, "
            "coalesce(nullif(current_setting('reserved_connections', true), '')::int, 0) AS reserved, "
            "(SELECT sum(numbackends) FROM pg_stat_database) AS open",
        )
        r = rows[0]
        assert room == r["most"] - r["su"] - r["reserved"] - r["open"] > 0
    # one more backend, of the tenant role, read from a new transaction (one keeps the view it first read)
    other = await asyncpg.connect(db.tenant_url.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        async with db.system() as conn:
            assert await connection_room(conn) <= room - 1
    finally:
        await other.close()


async def test_jobs_past_their_slot_stay_within_the_database_bound_too(db: Database, settings: Settings) -> None:
    """ADR 0099: with commit overlap a job that gave its slot back is still alive (committing,
    refreshing) and holds connections; a worker whose pool would allow 200 jobs keeps the jobs alive
    within twice the database's bound, not twice 200."""
    from memforest.pipeline.slots import jobs_the_server_holds
    from memforest.store.ops import connection_room

    async with db.system() as conn:
        room = await connection_room(conn) + open_connections(db)
    held = jobs_the_server_holds(room, side_pool=2 * settings.database.side_pool_size)
    jobs = 2 * held + 12
    most = await _run_declaring(db, settings, jobs, 1, chat_budget=256, concurrency=200, release=True)
    assert held < most <= 2 * (held + 1)


async def test_a_derived_worker_runs_no_more_jobs_than_the_database_has_connections_for(
    db: Database, settings: Settings
) -> None:
    """ADR 0099: a worker whose pool would allow 200 jobs (and a budget wanting them) runs at most the
    jobs the database's free connections serve at three a job, not 200 (which ran it out of them)."""
    from memforest.pipeline.slots import jobs_the_server_holds
    from memforest.store.ops import connection_room

    async with db.system() as conn:
        room = await connection_room(conn) + open_connections(db)
    held = jobs_the_server_holds(room, side_pool=2 * settings.database.side_pool_size)
    assert WORKER_CONCURRENCY_DEFAULT < held < 60
    most = await _run_declaring(db, settings, 60, 1, chat_budget=256, concurrency=200)
    assert WORKER_CONCURRENCY_DEFAULT < most <= held + 1  # (+1: the room read here counts one connection fewer)


def test_jobs_the_server_holds_counts_three_connections_a_job_beside_the_side_pool() -> None:
    from memforest.pipeline.slots import jobs_the_server_holds

    assert jobs_the_server_holds(97, side_pool=10) == 29
    assert jobs_the_server_holds(12, side_pool=10) == 1
    assert jobs_the_server_holds(0, side_pool=10) == 1


async def test_open_connections_counts_the_pools_idle_connections_too(db: Database) -> None:
    """A worker counts the connections its own pools hold open as its own to use (ADR 0099): three
    held at once and given back stay open, idle, in the pool."""
    before = open_connections(db)
    async with contextlib.AsyncExitStack() as stack:
        for _ in range(3):
            conn = await stack.enter_async_context(db.system())
            await conn.exec_driver_sql("SELECT 1")
        assert open_connections(db) >= 3
    assert open_connections(db) >= max(3, before)


async def test_an_idle_worker_keeps_polling_while_one_loop_prunes(
    db: Database, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ADR 0099: idle, only the polling loop cycles, and it is the one that prunes; a prune rings the
    bell, so another loop polls meanwhile and a job queued elsewhere (no ring) is taken within a few
    polls, not after the prune (two seconds here)."""
    from memforest.pipeline import worker as worker_module

    prunes = 0
    second_prune = asyncio.Event()

    async def slow_prune(_db: Database, _keep: float) -> int:
        nonlocal prunes
        prunes += 1
        if prunes > 1:  # (the first, at the start, while every loop is still claiming)
            second_prune.set()
            await asyncio.sleep(2.0)
        return 0

    monkeypatch.setattr(worker_module, "_prune_finished", slow_prune)
    tenant_id = await ensure_tenant(db, f"t-{uuid.uuid4().hex[:8]}")
    claimed = asyncio.Event()

    async def handler(
        _db: Database, _s: Settings, _b: Backends, _job: Job, _l: UsageLedger
    ) -> tuple[dict[str, object], list[dict[str, object]]]:
        claimed.set()
        return {}, []

    worker_settings = settings.worker.model_copy(update={"poll_interval_s": 0.05, "prune_interval_s": 0.4})
    s = settings.model_copy(update={"worker": worker_settings})
    stop = asyncio.Event()
    backends = build_backends(s)
    worker = asyncio.create_task(run_worker(db, s, backends, concurrency=4, stop=stop, handlers={"probe": handler}))
    try:
        await asyncio.wait_for(second_prune.wait(), 5)  # (its loop sleeps for two seconds now)
        async with db.tenant(tenant_id) as conn:
            forest = await ensure_forest(conn, tenant_id, "f")
            await insert_job(conn, tenant_id, forest.forest_id, "probe", {})  # (no ring: another process)
        loop = asyncio.get_running_loop()
        queued_at = loop.time()
        await asyncio.wait_for(claimed.wait(), 5)
        assert loop.time() - queued_at < 1.0
    finally:
        stop.set()
        await asyncio.wait_for(worker, 10)
        await backends.aclose()
