"""The functions that run the write path's job kinds (``ingest``, ``refresh``); the table from kind
to handler is ``memforest.app.jobs.HANDLERS``."""

from __future__ import annotations

import logging
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from memforest import tracing
from memforest.backends.base import UsageLedger
from memforest.backends.factory import Backends
from memforest.db.engine import Database
from memforest.domain import Job
from memforest.pipeline.forest_indexes import ensure_forest_indexes
from memforest.pipeline.ingest_job import run_coalesced_refresh, run_ingest
from memforest.pipeline.worker import JobResult
from memforest.settings import Settings
from memforest.store import planner_stats

log = logging.getLogger(__name__)


async def run_ingest_job(
    db: Database, settings: Settings, backends: Backends, job: Job, ledger: UsageLedger
) -> JobResult:
    """Extract, embed and commit the job's session, in a span that continues the trace of the
    request that queued the job."""
    with tracing.continued(
        "job ingest",
        job.payload.get(tracing.TRACEPARENT),
        tenant_id=job.tenant_id,
        job_id=job.job_id,
        job_kind=job.kind,
    ):
        counts, errors = await run_ingest(db, settings, backends, job.tenant_id, int(job.payload["session_id"]), ledger)
        tracing.annotate(facts_new=counts.facts_new, cells_failed=counts.cells_failed)
    return counts.as_dict(), errors


async def run_refresh_job(
    db: Database, settings: Settings, backends: Backends, job: Job, ledger: UsageLedger
) -> JobResult:
    """Refresh the forest's dirty nodes, then give a forest that outgrew scans its own indexes and
    the tables that outgrew their planner statistics new ones."""
    if job.forest_id is None:
        return {}, [{"error": "a refresh job needs a forest"}]
    with tracing.continued("job refresh", None, tenant_id=job.tenant_id, job_id=job.job_id, job_kind=job.kind):
        counts = await run_coalesced_refresh(db, settings, backends, job.tenant_id, int(job.forest_id), ledger)
    result: dict[str, Any] = {**counts.as_dict(), "commits": int(job.payload.get("commits", 0))}
    # a forest that outgrew scans gets its own HNSW and GIN indexes (ADR 0024)
    indexes = await ensure_forest_indexes(db, settings, job.tenant_id, int(job.forest_id))
    if indexes.built or indexes.rebuilt:
        result["forest_indexes_built"] = indexes.built + indexes.rebuilt
    analyzed = await _analyze_stale(db)
    if analyzed:
        result["tables_analyzed"] = analyzed
    return result, []


async def _analyze_stale(db: Database) -> list[str]:
    """The tables autovacuum would analyze next, analyzed now (ADR 0118): the reads of a forest
    that just grew are planned for its size, not for the empty tables of a minute ago. A failure
    leaves them to autovacuum; the refresh stands."""
    try:
        async with db.autocommit() as conn:
            return await planner_stats.analyze_stale(conn)
    except SQLAlchemyError as exc:
        log.warning("planner statistics left to autovacuum: %s", exc)
        return []
