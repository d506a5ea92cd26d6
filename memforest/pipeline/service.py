"""The write path as one call: accept sessions into a forest and run them to completion in-process."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from memforest.backends.base import UsageLedger
from memforest.backends.factory import Backends, build_backends
from memforest.db.engine import Database
from memforest.domain import Forest, Job, JobState, SessionInput
from memforest.pipeline.accept import AcceptResult, accept_session
from memforest.pipeline.ingest_job import IngestCounts
from memforest.pipeline.job_bell import QUEUED
from memforest.pipeline.job_handlers import run_ingest_job, run_refresh_job
from memforest.pipeline.worker import Handler, run_worker
from memforest.settings import Settings
from memforest.store import jobs as store_jobs
from memforest.store import nodes as store_nodes
from memforest.store.tenants import ensure_forest

__all__ = ["IngestReport", "accept_sessions", "build_backends", "ingest_sessions"]

#: The kinds a one-shot ingest runs: the write path's (the process-wide table is ``app.jobs.HANDLERS``).
WRITE_PATH_HANDLERS: dict[str, Handler] = {"ingest": run_ingest_job, "refresh": run_refresh_job}


@dataclass(slots=True)
class IngestReport:
    """Summary of an ingest run."""

    forest: str
    sessions_accepted: int = 0
    sessions_unchanged: int = 0
    turns: int = 0
    cells: int = 0
    jobs_succeeded: int = 0
    jobs_failed: int = 0
    refresh_jobs: int = 0
    counts: IngestCounts = field(default_factory=IngestCounts)
    usage: UsageLedger = field(default_factory=UsageLedger)
    trees_by_kind: dict[str, int] = field(default_factory=dict)
    nodes: int = 0
    accept_wall_s: float = 0.0
    wall_s: float = 0.0
    errors: list[dict[str, Any]] = field(default_factory=list)
    # per job: kind, session, claimed and finished (s after the first job was queued, database
    # clock) and its stages' seconds: where a forest's wall went (its critical path)
    timeline: list[dict[str, Any]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON."""
        return {
            "forest": self.forest,
            "sessions_accepted": self.sessions_accepted,
            "sessions_unchanged": self.sessions_unchanged,
            "turns": self.turns,
            "cells": self.cells,
            "jobs_succeeded": self.jobs_succeeded,
            "jobs_failed": self.jobs_failed,
            "refresh_jobs": self.refresh_jobs,
            **self.counts.as_dict(),
            "trees_by_kind": dict(sorted(self.trees_by_kind.items())),
            "nodes": self.nodes,
            "model_usage": self.usage.as_dict(),
            "accept_wall_s": round(self.accept_wall_s, 4),
            "wall_s": round(self.wall_s, 4),
            "errors": self.errors,
            "timeline": self.timeline,
        }


def _timeline_entry(row: Any, origin: Any, stages: dict[str, float]) -> dict[str, Any]:
    def since(t: Any) -> float | None:
        return None if t is None or origin is None else round((t - origin).total_seconds(), 4)

    return {
        "kind": row["kind"], "session_id": (row["payload"] or {}).get("session_id"), "state": row["state"],
        "queued_s": since(row["created_at"]), "started_s": since(row["started_at"]),
        "finished_s": since(row["finished_at"]), "stages": {k: round(v, 4) for k, v in stages.items()},
    }  # fmt: skip


async def accept_sessions(
    db: Database, settings: Settings, tenant_id: uuid.UUID, forest_name: str, sessions: Sequence[SessionInput]
) -> tuple[Forest, list[AcceptResult]]:
    """Accept each session in its own short transaction (each returns at once; extraction is queued)."""
    async with db.tenant(tenant_id) as conn:
        forest = await ensure_forest(conn, tenant_id, forest_name)
    results = []
    for session in sessions:
        async with db.tenant(tenant_id) as conn:
            result = await accept_session(
                conn,
                forest,
                session,
                cell_turns=settings.pipeline.cell_turns,
                fanout=settings.pipeline.fanout_session,
            )
        results.append(result)
        if result.created:
            QUEUED.ring()  # an idle long-running worker of this process claims its job now
    return forest, results


async def ingest_sessions(
    db: Database,
    settings: Settings,
    backends: Backends,
    tenant_id: uuid.UUID,
    forest_name: str,
    sessions: Sequence[SessionInput],
    *,
    progress: Callable[[int, int], None] | None = None,
    job_concurrency: int = 4,
    flush: bool = True,
    count_forest: bool = True,
) -> IngestReport:
    """Accept ``sessions`` and run every due job of the forest to completion in this process. With
    ``flush`` (the default), then also the forest's coalesced refresh job, so no node is left dirty;
    without it, that job runs only if it is already due (enough commits pending). ``count_forest``
    adds the forest's tree and node counts to the report (a scan of its nodes)."""
    t0 = time.perf_counter()
    forest, accepted = await accept_sessions(db, settings, tenant_id, forest_name, sessions)
    report = IngestReport(forest=forest.name)
    report.accept_wall_s = time.perf_counter() - t0
    for r in accepted:
        if r.created:
            report.sessions_accepted += 1
            report.turns += r.turns
            report.cells += r.cells
        else:
            report.sessions_unchanged += 1
    total = report.sessions_accepted
    done: list[uuid.UUID] = []

    sessions_done = 0

    def on_done(job: Job, state: JobState) -> None:
        nonlocal sessions_done
        if state in (JobState.SUCCEEDED, JobState.FAILED):
            done.append(job.job_id)
            if job.kind == store_jobs.REFRESH_KIND:
                return
            sessions_done += 1
            if progress is not None:
                progress(sessions_done, max(total, sessions_done))

    for early in (False, True) if flush else (False,):
        await run_worker(
            db,
            settings,
            backends,
            concurrency=job_concurrency,
            stop_when_idle=True,
            tenant_id=tenant_id,
            forest_id=forest.forest_id,
            on_done=on_done,
            early=early,
            handlers=WRITE_PATH_HANDLERS,
        )
    trees: dict[str, int] = {}
    nodes = 0
    async with db.tenant(tenant_id) as conn:
        rows = await store_jobs.job_outcomes(conn, tenant_id, done)
        if count_forest:
            trees = await store_nodes.count_trees_by_kind(conn, tenant_id, forest.forest_id)
            nodes = await store_nodes.count_nodes(conn, tenant_id, forest.forest_id)
    for row in rows:
        if row["kind"] == store_jobs.REFRESH_KIND:
            report.refresh_jobs += 1
        elif row["state"] == JobState.SUCCEEDED.value:
            report.jobs_succeeded += 1
        else:
            report.jobs_failed += 1
        result = dict(row["result"] or {})
        part = IngestCounts(stage_wall_s=dict(result.pop("stage_wall_s", {}) or {}))
        for k, v in result.items():
            if k in IngestCounts.__dataclass_fields__:
                setattr(part, k, v)
        report.counts.add(part)
        for stage, u in dict(row["usage"] or {}).items():
            report.usage.record(stage, **{k: v for k, v in u.items()})
        report.errors.extend(list(row["errors"] or []))
        report.timeline.append(_timeline_entry(row, rows[0]["created_at"], part.stage_wall_s))
    report.trees_by_kind = trees
    report.nodes = nodes
    report.wall_s = time.perf_counter() - t0
    return report
