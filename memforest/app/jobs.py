"""Jobs: the kind -> handler table, the worker loop over it, one ``running_worker()`` for the
processes that run a worker inside themselves, and the job view the API and the MCP tools show."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import uuid
from collections.abc import AsyncIterator
from typing import Any

from memforest.app.retry import retry_if_cut
from memforest.app.webhooks import running_deliverer
from memforest.backends.base import UsageLedger
from memforest.backends.factory import Backends
from memforest.db.engine import Database
from memforest.domain import Job, JobState
from memforest.errors import InputError, NotFoundError
from memforest.lifecycle.importer import run_import_job
from memforest.lifecycle.merge import run_merge_job
from memforest.lifecycle.rematerialize import rematerialize_forest
from memforest.pipeline import worker
from memforest.pipeline.job_handlers import run_ingest_job, run_refresh_job
from memforest.pipeline.worker import Handler, JobResult
from memforest.settings import Settings, worker_chat_budget
from memforest.store import jobs

log = logging.getLogger(__name__)

STOP_TIMEOUT_S = 10.0


async def _rematerialize(
    db: Database, settings: Settings, backends: Backends, job: Job, ledger: UsageLedger
) -> JobResult:
    if job.forest_id is None:
        return {}, [{"error": "a rematerialize job needs a forest"}]
    p = job.payload
    try:
        report = await rematerialize_forest(
            db, settings, backends, job.tenant_id, int(job.forest_id), embeddings=bool(p.get("embeddings")),
            summaries=bool(p.get("summaries")), rebuild=bool(p.get("rebuild_trees")), fanout=p.get("k"),
            ledger=ledger,
        )  # fmt: skip
    except InputError as exc:  # a bad payload fails at once instead of being retried
        return {}, [{"error": str(exc)}]
    return report.as_dict(), []


async def _merge(db: Database, settings: Settings, backends: Backends, job: Job, ledger: UsageLedger) -> JobResult:
    return await run_merge_job(db, settings, backends, job, ledger)


async def _import(db: Database, settings: Settings, backends: Backends, job: Job, ledger: UsageLedger) -> JobResult:
    return await run_import_job(db, settings, backends, job, ledger)


#: Every job kind and the function that runs it: a new kind is registered here, and only here.
HANDLERS: dict[str, Handler] = {
    "ingest": run_ingest_job,
    "refresh": run_refresh_job,
    "rematerialize": _rematerialize,
    "merge": _merge,
    "import": _import,
}


def handler_for(kind: str) -> Handler | None:
    """The function that runs jobs of ``kind`` (None for an unknown kind)."""
    return HANDLERS.get(kind)


async def process_job(
    db: Database, settings: Settings, backends: Backends, job: Job, worker_id: str | None = None
) -> JobState:
    """Run one claimed job of any kind to a final state (see ``pipeline.worker.process_job``)."""
    return await worker.process_job(db, settings, backends, job, worker_id, handlers=HANDLERS)


#: Claim and run jobs of every kind until stopped (or idle): ``pipeline.worker.run_worker`` over ``HANDLERS``.
run_worker = functools.partial(worker.run_worker, handlers=HANDLERS)


@contextlib.asynccontextmanager
async def running_worker(
    db: Database,
    settings: Settings,
    backends: Backends,
    *,
    tenant_id: uuid.UUID | None = None,
    enabled: bool = True,
) -> AsyncIterator[None]:
    """A worker running in this process for the duration of the block (nothing when not ``enabled``).

    On exit it is asked to stop and given ``STOP_TIMEOUT_S`` to finish its job, then cancelled. A
    process-wide worker (no ``tenant_id``) also delivers the webhook outbox (``app.webhooks``)."""
    if not enabled:
        yield
        return
    stop = asyncio.Event()
    task = asyncio.create_task(
        run_worker(
            db,
            settings,
            backends,
            concurrency=settings.worker.concurrency,
            stop=stop,
            tenant_id=tenant_id,
            chat_budget=worker_chat_budget(settings),
        )
    )
    try:
        async with running_deliverer(db, settings, enabled=tenant_id is None):
            yield
    finally:
        stop.set()
        try:
            await asyncio.wait_for(task, timeout=STOP_TIMEOUT_S)
        except (TimeoutError, asyncio.CancelledError):
            task.cancel()
        except Exception:
            log.exception("in-process worker failed")


def parse_job_id(value: str) -> uuid.UUID:
    """A job id from a path or tool argument; anything that is not a UUID is simply absent (404)."""
    try:
        return uuid.UUID(value)
    except ValueError:
        raise NotFoundError("no such job") from None


@retry_if_cut
async def job_view(db: Database, tenant_id: uuid.UUID, job_id: str) -> dict[str, Any]:
    """A job of this tenant as the API and the MCP tools show it; NotFoundError when absent or another tenant's."""
    jid = parse_job_id(job_id)
    async with db.tenant(tenant_id) as conn:
        view = await jobs.job_view(conn, tenant_id, jid)
    if view is None:
        raise NotFoundError("no such job")
    return view


@retry_if_cut
async def admin_job_view(db: Database, tenant_id: str, job_id: str) -> dict[str, Any]:
    """A job of any tenant as the admin polls it (the merges it queued); NotFoundError when absent."""
    try:
        tid = uuid.UUID(tenant_id)
    except ValueError:
        raise NotFoundError("no such job") from None
    jid = parse_job_id(job_id)
    async with db.tenant(tid) as conn:
        row = await jobs.get_job(conn, tid, jid)
    if row is None:
        raise NotFoundError("no such job")
    keys = ("kind", "state", "attempts", "progress", "result", "usage", "errors")
    return {"job_id": str(row["job_id"]), **{k: row[k] for k in keys}}
