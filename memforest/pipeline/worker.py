"""Workers: claim jobs from the queue and run them; several may run side by side.

The queue's statements live in :mod:`memforest.store.jobs`; the worker runs each in a short system
transaction of its own. The loop dispatches by job kind through the handler table it is given:
``memforest.app.jobs.HANDLERS`` holds every kind (handlers reach into pipeline and lifecycle alike).
A handler gets the claimed job and the job's usage ledger and returns ``(result, errors)``; a
non-empty ``errors`` list marks the job failed."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import random
import socket
import time
import uuid
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Concatenate, ParamSpec, TypeVar

from memforest.backends.base import UsageLedger
from memforest.backends.factory import Backends
from memforest.db.engine import Database
from memforest.db.pool_use import open_connections
from memforest.domain import Job, JobState
from memforest.errors import DatabaseUnavailableError, public_reason
from memforest.logs import log_context
from memforest.pipeline.commit_order import COMMITS
from memforest.pipeline.job_bell import DELIVERIES, QUEUED
from memforest.pipeline.planner_upkeep import PlannerUpkeep
from memforest.pipeline.slots import CURRENT_OVERLAP, CURRENT_SLOT, Admission, jobs_the_server_holds
from memforest.settings import WORKER_CONCURRENCY_DEFAULT, Settings
from memforest.store import jobs, ops, webhooks
from memforest.store.sql import Conn

log = logging.getLogger(__name__)

JobResult = tuple[dict[str, Any], list[dict[str, Any]]]
Handler = Callable[[Database, Settings, Backends, Job, UsageLedger], Awaitable[JobResult]]

#: Finished jobs deleted per short transaction when the worker prunes.
PRUNE_BATCH = 1000

_P = ParamSpec("_P")
_T = TypeVar("_T")


#: Pauses of a worker loop after a failure (a database outage): full jitter, doubling from the
#: base up to the cap, so restarted databases are not hammered and workers come back within seconds.
BACKOFF_BASE_S = 0.25
BACKOFF_MAX_S = 5.0


@dataclass(slots=True)
class Backoff:
    """Bounded exponential backoff with full jitter, reset after a success."""

    base_s: float = BACKOFF_BASE_S
    max_s: float = BACKOFF_MAX_S
    failures: int = 0
    rng: random.Random = field(default_factory=random.Random)

    def next_delay(self) -> float:
        """Seconds to wait after one more failure: uniform in [base/2, min(max, base * 2**n)]."""
        cap = min(self.max_s, self.base_s * 2 ** min(self.failures, 30))
        self.failures += 1
        return self.rng.uniform(min(self.base_s / 2, cap), cap)

    def reset(self) -> None:
        """After a success: the next failure waits the base again."""
        self.failures = 0


async def _pause(seconds: float, stop: asyncio.Event | None) -> None:
    """Sleep ``seconds``, or less when ``stop`` is set meanwhile."""
    if stop is None:
        await asyncio.sleep(seconds)
        return
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), timeout=seconds)


def new_worker_id() -> str:
    """host:pid:random — unique per worker task."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


async def _system(
    db: Database, statement: Callable[Concatenate[Conn, _P], Awaitable[_T]], *args: _P.args, **kwargs: _P.kwargs
) -> _T:
    """Run one queue statement of :mod:`memforest.store.jobs` in a short system transaction."""
    async with db.system() as conn:
        return await statement(conn, *args, **kwargs)


async def update_progress(db: Database, job: Job, progress: dict[str, Any]) -> None:
    """Record a running job's progress (shown by the jobs endpoint)."""
    await _system(db, jobs.set_progress, job.tenant_id, job.job_id, progress)


async def _finish(
    db: Database,
    job: Job,
    state: JobState,
    *,
    result: dict[str, Any],
    usage: dict[str, Any],
    errors: list[dict[str, Any]],
) -> None:
    """Close a job as succeeded or failed with its result, usage and errors; its webhook deliveries
    (queued by the same transaction) go out now from this process's deliverer."""
    await _system(db, jobs.finish, job.tenant_id, job.job_id, state, result=result, usage=usage, errors=errors)
    DELIVERIES.ring()


async def _prune_finished(db: Database, retention_s: float) -> int:
    """Delete the jobs (all tenants) that finished more than ``retention_s`` ago, ``PRUNE_BATCH``
    rows per short transaction. Returns how many went."""
    total = 0
    while True:
        n = await _system(db, jobs.prune_finished, retention_s=retention_s, batch=PRUNE_BATCH)
        total += n
        if n < PRUNE_BATCH:
            return total


async def _prune_deliveries(db: Database, retention_s: float) -> int:
    """Delete the delivered and failed webhook deliveries (all tenants) whose last attempt is more
    than ``retention_s`` old, ``PRUNE_BATCH`` rows per short transaction. Returns how many went."""
    total = 0
    while True:
        n = await _system(db, webhooks.prune_finished, retention_s=retention_s, batch=PRUNE_BATCH)
        total += n
        if n < PRUNE_BATCH:
            return total


async def _heartbeat(db: Database, job: Job, worker_id: str, lease_s: float) -> None:
    """Extend the job's lease every third of it, so a long job is not taken over while alive."""
    while True:
        await asyncio.sleep(lease_s / 3)
        try:
            await _system(db, jobs.extend_lease, job.tenant_id, job.job_id, worker_id, lease_s)
        except Exception:  # a missed beat only risks duplicated (idempotent) work
            log.warning("could not extend the lease of job %s", job.job_id)


async def process_job(
    db: Database,
    settings: Settings,
    backends: Backends,
    job: Job,
    worker_id: str | None = None,
    *,
    handlers: Mapping[str, Handler],
) -> JobState:
    """Run one claimed job to a final state (or hand it back to the queue after an unexpected error)."""
    beat = (
        asyncio.create_task(_heartbeat(db, job, worker_id, settings.worker.lease_s)) if worker_id is not None else None
    )
    try:
        with log_context(job_id=job.job_id, tenant_id=job.tenant_id, forest_id=job.forest_id, job_kind=job.kind):
            return await _process(db, settings, backends, job, handlers)
    finally:
        if beat is not None:
            beat.cancel()
        if job.forest_id is not None:
            COMMITS.ring((job.tenant_id, job.forest_id))  # a job that ended wakes the forest's waiting sessions


async def _process(
    db: Database, settings: Settings, backends: Backends, job: Job, handlers: Mapping[str, Handler]
) -> JobState:
    ledger = UsageLedger()
    try:
        handler = handlers.get(job.kind)
        if handler is None:
            await _finish(
                db, job, JobState.FAILED, result={}, usage={}, errors=[{"error": f"unknown job kind {job.kind!r}"}]
            )
            return JobState.FAILED
        result, errors = await handler(db, settings, backends, job, ledger)
        state = JobState.FAILED if errors else JobState.SUCCEEDED
        await _finish(db, job, state, result=result, usage=ledger.as_dict(), errors=errors)
        return state
    except Exception as exc:
        log.exception("job %s failed", job.job_id)
        reason = public_reason(exc)[:500]  # tenants read it: a driver error's SQL and values stay out
        if job.attempts >= settings.worker.max_attempts:
            await _finish(db, job, JobState.FAILED, result={}, usage=ledger.as_dict(), errors=[{"error": reason}])
            return JobState.FAILED
        requeued = await _system(db, jobs.requeue, job.tenant_id, job.job_id, reason)
        if not requeued:
            errors = [{"error": reason}, {"error": "a newer queued refresh job of this forest redoes it"}]
            await _finish(db, job, JobState.FAILED, result={}, usage=ledger.as_dict(), errors=errors)
            return JobState.FAILED
        return JobState.QUEUED


async def _jobs_the_server_holds(db: Database, settings: Settings, most: int) -> int:
    """``most`` jobs at once, or fewer where the database has no connections for them: each job may
    hold :data:`CONNECTIONS_A_JOB` and the side pool its own, out of the connections the server
    accepts when the worker starts and those this process's pools hold open already (its own to
    reuse); never fewer than the shipped default, which ran before (ADR 0099)."""
    try:
        room = await _system(db, ops.connection_room) + open_connections(db)
    except Exception:  # (a server that will not say, or is full or down now: the shipped number)
        bound = min(most, WORKER_CONCURRENCY_DEFAULT)
        log.warning("reading the database's free connections failed: the worker runs %d jobs at once", bound)
        return bound
    held = jobs_the_server_holds(room, side_pool=2 * settings.database.side_pool_size)
    bound = min(most, max(WORKER_CONCURRENCY_DEFAULT, held))
    if bound < most:
        log.info("worker runs at most %d jobs at once: the database has %d connections for it", bound, room)
    return bound


async def run_worker(
    db: Database,
    settings: Settings,
    backends: Backends,
    *,
    concurrency: int = 1,
    stop_when_idle: bool = False,
    tenant_id: uuid.UUID | None = None,
    forest_id: int | None = None,
    on_done: Callable[[Job, JobState], None] | None = None,
    stop: asyncio.Event | None = None,
    early: bool = False,
    handlers: Mapping[str, Handler],
    chat_budget: int | None = None,
    forests: Sequence[int] | None = None,
) -> None:
    """Claim and run jobs, up to ``concurrency`` at once, until stopped (or idle, if asked); with
    ``worker.commit_overlap``, an ingest job done with extraction and embedding gives its slot to
    the next job (:mod:`memforest.pipeline.slots`). With a ``chat_budget`` (:func:`worker_chat_budget`:
    ``worker.concurrency`` was derived), ``concurrency`` is the most jobs at once, and past the
    shipped default a job starts only while the admitted jobs' extraction calls leave room in that
    budget (ADR 0099). ``early`` also runs jobs scheduled for later (a
    coalesced refresh), to flush a forest now. ``handlers`` maps job kinds to the functions that run
    them (a kind it lacks fails its job). ``forests``: only those forests' jobs (a one-shot run's
    own; such a worker never sweeps for others' dirty nodes). Idle, one loop waits for this process's next queued job
    (:data:`memforest.pipeline.job_bell.QUEUED`) or a poll interval, and the others for the bell
    (which a claim that finds a job and a prune also ring), a stop, or at most
    ``worker.sweep_interval_s``; with ``stop_when_idle`` a loop returns instead."""

    last_sweep = -math.inf
    last_prune = -math.inf
    # up to ``concurrency`` jobs hold a slot at once; with commit overlap as many again may be past their
    # extraction and embedding, waiting for older commits, committing, refreshing (slots module)
    most = concurrency if chat_budget is None else await _jobs_the_server_holds(db, settings, concurrency)
    slots = Admission(
        most, budget=chat_budget, least=WORKER_CONCURRENCY_DEFAULT, guess=settings.pipeline.extract_concurrency
    )
    overlap = settings.worker.commit_overlap
    # idle, one loop asks for a job every poll interval and the others wait for a ring (a job queued
    # in this process, or a claim that found one), so the claims an idle worker makes do not grow
    # with its loops (two a job: a large pool's worker has many)
    poller = asyncio.Lock()
    upkeep = PlannerUpkeep(db, settings.worker.planner_stats_interval_s)

    async def prune() -> None:
        nonlocal last_prune
        if time.monotonic() - last_prune < settings.worker.prune_interval_s:
            return
        last_prune = time.monotonic()
        QUEUED.ring()  # (an idle loop takes over the polling while this one prunes)
        try:
            pruned = await _prune_finished(db, settings.worker.job_retention_s)
        except Exception:  # the next round tries again
            log.warning("pruning finished jobs failed", exc_info=True)
            return
        if pruned:
            log.info("pruned %s job(s) finished more than %ss ago", pruned, settings.worker.job_retention_s)
        keep = settings.limits.webhook_delivery_retention_s
        try:
            pruned = await _prune_deliveries(db, keep)
        except Exception:  # the next round tries again
            log.warning("pruning webhook deliveries failed", exc_info=True)
            return
        if pruned:
            log.info("pruned %s webhook deliveries last attempted more than %ss ago", pruned, keep)

    async def sweep() -> None:
        nonlocal last_sweep
        if time.monotonic() - last_sweep < settings.worker.sweep_interval_s:
            return
        last_sweep = time.monotonic()
        try:
            queued = await _system(db, jobs.sweep_orphaned_refreshes, tenant_id, forest_id)
        except Exception:  # the next sweep tries again
            log.warning("the sweep for orphaned dirty nodes failed", exc_info=True)
            return
        if queued:
            log.warning("queued %s refresh job(s) for forests left with dirty nodes", queued)

    async def step(worker_id: str) -> bool:
        """Claim and run one job (or wait a poll interval); False when an idle one-shot run is done."""
        if not stop_when_idle and tenant_id is None and forest_id is None:
            await prune()  # a long-running worker of all tenants, busy or idle
        slot = await slots.acquire()
        try:
            if stop is not None and stop.is_set():  # (stopped while this loop waited for a slot)
                return True
            rings = QUEUED.rings  # (read before the claim: a job queued after it rings again)
            job = await _system(
                db, jobs.claim, tenant_id, forest_id, worker_id, lease_s=settings.worker.lease_s,
                early=early, max_attempts=settings.worker.max_attempts, forests=forests,
            )  # fmt: skip
            if job is None:
                slot.release()
                if stop_when_idle:
                    return False
                if forests is None:  # long-running workers only: a one-shot run must not queue others' work
                    await sweep()
                if poller.locked():  # another idle loop polls: wait for a ring, or until told to stop (ADR 0099)
                    await QUEUED.wait(rings, settings.worker.sweep_interval_s, or_set=stop)
                else:
                    async with poller:  # (a stop ends the poll too: a stopped worker returns at once)
                        await QUEUED.wait(rings, settings.worker.poll_interval_s, or_set=stop)
                return True
            QUEUED.ring()  # (found one: an idle loop looks for the next, so jobs queued elsewhere are taken apace)
            token, overlap_token = CURRENT_SLOT.set(slot), CURRENT_OVERLAP.set(overlap)
            try:
                state = await process_job(db, settings, backends, job, worker_id, handlers=handlers)
            finally:
                CURRENT_OVERLAP.reset(overlap_token)
                CURRENT_SLOT.reset(token)
        finally:
            slot.release()
        upkeep.job_ended()
        if on_done is not None:
            on_done(job, state)
        return True

    async def loop() -> None:
        worker_id = new_worker_id()
        backoff = Backoff()
        while stop is None or not stop.is_set():
            try:
                if not await step(worker_id):
                    return
            except Exception as exc:  # a database outage (or, long-running, any surprise) must not end it
                if stop_when_idle and not isinstance(exc, DatabaseUnavailableError):
                    raise
                delay = backoff.next_delay()
                if isinstance(exc, DatabaseUnavailableError):
                    log.warning("worker: the database is unavailable; retrying in %.1fs", delay)
                else:
                    log.exception("worker loop failed; retrying in %.1fs", delay)
                await _pause(delay, stop)
            else:
                backoff.reset()

    # a loop a job holding a slot, and with commit overlap one a job past it: ``most`` bounds both,
    # so the jobs alive stay within the connections the database bound counted (ADR 0099)
    try:
        await asyncio.gather(*(loop() for _ in range(2 * most if overlap else most)))
    except BaseException:
        await upkeep.drain(cancel=True)  # (a shutdown or a failed run is not held up by statistics)
        raise
    await upkeep.drain()
