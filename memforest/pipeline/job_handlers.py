"""The write path's job kinds (``ingest``, ``refresh``) and the functions that run them.

A handler gets the claimed job and the job's usage ledger and returns ``(result, errors)``; a
non-empty ``errors`` list marks the job failed. The maintenance kinds (rematerialize, merge,
import) run code above the pipeline; ``memforest.app.jobs`` adds them to this table."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from memforest.backends.base import UsageLedger
from memforest.backends.factory import Backends
from memforest.db.engine import Database
from memforest.pipeline.forest_indexes import ensure_forest_indexes
from memforest.pipeline.ingest_job import run_coalesced_refresh, run_ingest
from memforest.pipeline.jobs import Job
from memforest.settings import Settings

JobResult = tuple[dict[str, Any], list[dict[str, Any]]]
Handler = Callable[[Database, Settings, Backends, Job, UsageLedger], Awaitable[JobResult]]


async def _ingest(db: Database, settings: Settings, backends: Backends, job: Job, ledger: UsageLedger) -> JobResult:
    counts, errors = await run_ingest(db, settings, backends, job.tenant_id, int(job.payload["session_id"]), ledger)
    return counts.as_dict(), errors


async def _refresh(db: Database, settings: Settings, backends: Backends, job: Job, ledger: UsageLedger) -> JobResult:
    if job.forest_id is None:
        return {}, [{"error": "a refresh job needs a forest"}]
    counts = await run_coalesced_refresh(db, settings, backends, job.tenant_id, int(job.forest_id), ledger)
    result: dict[str, Any] = {**counts.as_dict(), "commits": int(job.payload.get("commits", 0))}
    # a forest that outgrew scans gets its own HNSW and GIN indexes (ADR 0024)
    indexes = await ensure_forest_indexes(db, settings, job.tenant_id, int(job.forest_id))
    if indexes.built or indexes.rebuilt:
        result["forest_indexes_built"] = indexes.built + indexes.rebuilt
    return result, []


HANDLERS: dict[str, Handler] = {
    "ingest": _ingest,
    "refresh": _refresh,
}
