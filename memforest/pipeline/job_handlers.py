"""Job kinds and the functions that run them. A handler gets the claimed job and the job's usage
ledger and returns ``(result, errors)``; a non-empty ``errors`` list marks the job failed.

New job kinds add one entry to ``HANDLERS`` (the import stays inside the handler so the worker does
not pull in every subsystem at start-up)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from memforest.backends.base import UsageLedger
from memforest.backends.factory import Backends
from memforest.db.engine import Database
from memforest.pipeline.jobs import Job
from memforest.settings import Settings

JobResult = tuple[dict[str, Any], list[dict[str, Any]]]
Handler = Callable[[Database, Settings, Backends, Job, UsageLedger], Awaitable[JobResult]]


async def _ingest(db: Database, settings: Settings, backends: Backends, job: Job, ledger: UsageLedger) -> JobResult:
    from memforest.pipeline.ingest_job import run_ingest

    counts, errors = await run_ingest(db, settings, backends, job.tenant_id, int(job.payload["session_id"]), ledger)
    return counts.as_dict(), errors


async def _refresh(db: Database, settings: Settings, backends: Backends, job: Job, ledger: UsageLedger) -> JobResult:
    from memforest.pipeline.ingest_job import run_coalesced_refresh

    if job.forest_id is None:
        return {}, [{"error": "a refresh job needs a forest"}]
    counts = await run_coalesced_refresh(db, settings, backends, job.tenant_id, int(job.forest_id), ledger)
    return {**counts.as_dict(), "commits": int(job.payload.get("commits", 0))}, []


async def _rematerialize(
    db: Database, settings: Settings, backends: Backends, job: Job, ledger: UsageLedger
) -> JobResult:
    from memforest.errors import InputError
    from memforest.lifecycle.rematerialize import rematerialize_forest

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
    from memforest.lifecycle.importer import run_import_job
    from memforest.lifecycle.merge import run_merge_job

    run = run_import_job if job.kind == "import" else run_merge_job
    return await run(db, settings, backends, job, ledger)


HANDLERS: dict[str, Handler] = {
    "ingest": _ingest,
    "refresh": _refresh,
    "rematerialize": _rematerialize,
    "merge": _merge,
    "import": _merge,
}


def handler_for(kind: str) -> Handler | None:
    """The function that runs jobs of ``kind`` (None for an unknown kind)."""
    return HANDLERS.get(kind)
