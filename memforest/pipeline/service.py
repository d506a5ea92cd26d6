"""The write path as one call: accept sessions into a forest and run them to completion in-process."""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from memforest.backends.base import UsageLedger
from memforest.backends.factory import Backends, build_backends
from memforest.db.engine import Database
from memforest.domain import Forest, Job, JobState, SessionInput
from memforest.logs import log_context
from memforest.pipeline.accept import AcceptResult, accept_session
from memforest.pipeline.ingest_job import IngestCounts
from memforest.pipeline.job_bell import QUEUED
from memforest.pipeline.job_handlers import run_ingest_job, run_refresh_job
from memforest.pipeline.worker import Handler, run_worker
from memforest.settings import Settings, worker_chat_budget
from memforest.store import jobs as store_jobs
from memforest.store import nodes as store_nodes
from memforest.store.tenants import ensure_forest

__all__ = ["IngestReport", "accept_sessions", "build_backends", "ingest_forests", "ingest_sessions"]

#: The kinds a one-shot ingest runs: the write path's (the process-wide table is ``app.jobs.HANDLERS``).
WRITE_PATH_HANDLERS: dict[str, Handler] = {"ingest": run_ingest_job, "refresh": run_refresh_job}


@dataclass(slots=True)
class IngestReport:
    """Summary of an ingest run."""

    forest: str
    forest_id: int | None = None
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
            "forest_id": self.forest_id,
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
    db: Database,
    settings: Settings,
    tenant_id: uuid.UUID,
    forest_name: str,
    sessions: Sequence[SessionInput],
    *,
    forest: Forest | None = None,
) -> tuple[Forest, list[AcceptResult]]:
    """Accept each session in its own short transaction (each returns at once; extraction is queued);
    ``forest``: the named forest when the caller has ensured it already."""
    if forest is None:
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
    report = _accepted_report(forest, accepted, time.perf_counter() - t0)
    jobs = _JobsDone(progress)
    for early in (False, True) if flush else (False,):  # (then the coalesced refresh jobs, scheduled for later)
        await _worker_pass(
            db, settings, backends, tenant_id, [forest.forest_id], jobs, concurrency=job_concurrency, early=early
        )
    await _complete_report(db, tenant_id, forest, report, jobs.ids(forest.forest_id), count_forest=count_forest)
    report.wall_s = time.perf_counter() - t0
    return report


async def ingest_forests(
    db: Database,
    settings: Settings,
    backends: Backends,
    tenant_id: uuid.UUID,
    forests: Sequence[tuple[str, Sequence[SessionInput]]],
    *,
    progress: Callable[[int, int], None] | None = None,
    job_concurrency: int | None = None,
    count_forest: bool = True,
) -> list[IngestReport]:
    """Several forests' sessions sent at once, one task a forest (as that many users would send
    them), and served as a service's worker serves them: ONE worker over these forests' jobs,
    running from the start, at the shipped ``worker.concurrency`` and chat budget unless
    ``job_concurrency`` is given, until every job the accepts queued has ended (told by the
    worker, or else seen in the jobs table at each poll: a job another worker ran); then the
    coalesced refresh jobs, so no node is left dirty. A forest's ``wall_s`` runs from the common
    start to its own last job's end; ``progress`` gets the sessions done over all forests."""
    names = [name for name, _ in forests]
    if len(set(names)) != len(names):
        raise ValueError(f"each forest is named once (got {names})")
    t0 = time.perf_counter()
    by_name = {name: await _forest(db, tenant_id, name) for name in names}
    scope = [f.forest_id for f in by_name.values()]
    served = asyncio.Event()
    jobs = _JobsDone(progress, all_done=served)

    async def accept(name: str, sessions: Sequence[SessionInput]) -> IngestReport:
        with log_context(forest=name):
            forest, accepted = await accept_sessions(db, settings, tenant_id, name, sessions, forest=by_name[name])
        jobs.queued.update(r.job_id for r in accepted if r.created and r.job_id is not None)
        return _accepted_report(forest, accepted, time.perf_counter() - t0)

    serving = asyncio.create_task(
        _worker_pass(db, settings, backends, tenant_id, scope, jobs, concurrency=job_concurrency, stop=served)
    )
    try:
        async with asyncio.TaskGroup() as group:
            accepting = [group.create_task(accept(name, sessions)) for name, sessions in forests]
    except BaseExceptionGroup as failed:
        served.set()  # the worker ends its jobs in hand; what is queued stays for any worker
        with contextlib.suppress(Exception):
            await serving
        raise failed.exceptions[0] from None
    reports = [t.result() for t in accepting]
    jobs.expect()
    watching = asyncio.create_task(_watch_queued(db, tenant_id, jobs, settings.worker.poll_interval_s))
    try:
        await serving
    finally:
        watching.cancel()
    await _worker_pass(db, settings, backends, tenant_id, scope, jobs, concurrency=job_concurrency, early=True)
    for report in reports:
        forest = by_name[report.forest]
        await _complete_report(db, tenant_id, forest, report, jobs.ids(forest.forest_id), count_forest=count_forest)
        report.wall_s = max(jobs.last_done.get(forest.forest_id, t0) - t0, report.accept_wall_s)
    return reports


async def _forest(db: Database, tenant_id: uuid.UUID, name: str) -> Forest:
    async with db.tenant(tenant_id) as conn:
        return await ensure_forest(conn, tenant_id, name)


async def _watch_queued(db: Database, tenant_id: uuid.UUID, jobs: _JobsDone, every_s: float) -> None:
    """Every ``every_s``, end the run's wait once none of its queued jobs is queued or running any
    more: one that ended without its worker telling (another process's worker ran it; its worker
    failed to record the end, and a later claim gave up on it)."""
    while jobs.all_done is not None and not jobs.all_done.is_set():
        await asyncio.sleep(every_s)
        async with db.tenant(tenant_id) as conn:
            left = await store_jobs.count_unfinished(conn, tenant_id, sorted(jobs.queued))
        if not left:
            jobs.all_done.set()


def _accepted_report(forest: Forest, accepted: Sequence[AcceptResult], accept_wall_s: float) -> IngestReport:
    """A forest's report as its sessions were accepted."""
    report = IngestReport(forest=forest.name, forest_id=forest.forest_id, accept_wall_s=accept_wall_s)
    for r in accepted:
        if r.created:
            report.sessions_accepted += 1
            report.turns += r.turns
            report.cells += r.cells
        else:
            report.sessions_unchanged += 1
    return report


@dataclass(slots=True)
class _JobsDone:
    """The jobs a one-shot run finished, by forest, with the moment each forest's last one ended
    (``time.perf_counter``); ``progress`` gets the sessions done against ``total`` (at least as
    many as are done); ``all_done`` is set once every job in ``queued`` has ended, after
    :meth:`expect` (called when no more are queued)."""

    progress: Callable[[int, int], None] | None
    total: int = 0
    all_done: asyncio.Event | None = None
    queued: set[uuid.UUID] = field(default_factory=set)
    by_forest: dict[int | None, list[uuid.UUID]] = field(default_factory=dict)
    last_done: dict[int | None, float] = field(default_factory=dict)
    ended: set[uuid.UUID] = field(default_factory=set)  # every job of by_forest, kept for _check
    sessions: int = 0
    expecting: bool = False

    def __call__(self, job: Job, state: JobState) -> None:
        if state not in (JobState.SUCCEEDED, JobState.FAILED):
            return
        self.by_forest.setdefault(job.forest_id, []).append(job.job_id)
        self.ended.add(job.job_id)
        self.last_done[job.forest_id] = time.perf_counter()
        if job.kind == store_jobs.REFRESH_KIND:
            return
        self.sessions += 1
        if self.progress is not None:
            self.progress(self.sessions, max(self.total, len(self.queued), self.sessions))
        self._check()

    def expect(self) -> None:
        """Every job of the run is in ``queued``: wait for those alone."""
        self.expecting = True
        self.total = len(self.queued)
        self._check()

    def _check(self) -> None:
        if self.all_done is None or not self.expecting:
            return
        if self.queued <= self.ended:
            self.all_done.set()

    def ids(self, forest_id: int) -> list[uuid.UUID]:
        return self.by_forest.get(forest_id, [])


async def _worker_pass(
    db: Database,
    settings: Settings,
    backends: Backends,
    tenant_id: uuid.UUID,
    forests: Sequence[int],
    jobs: _JobsDone,
    *,
    concurrency: int | None,
    early: bool = False,
    stop: asyncio.Event | None = None,
) -> None:
    """One worker over the jobs of ``forests`` until ``stop`` is set or, without it, until none is
    due (``early``: also those scheduled for later). ``concurrency`` None: as the shipped worker
    runs them (``worker.concurrency`` and its chat budget)."""
    await run_worker(
        db,
        settings,
        backends,
        concurrency=concurrency or settings.worker.concurrency,
        chat_budget=None if concurrency else worker_chat_budget(settings),
        stop_when_idle=stop is None,
        stop=stop,
        tenant_id=tenant_id,
        forests=forests,
        on_done=jobs,
        early=early,
        handlers=WRITE_PATH_HANDLERS,
    )


async def _complete_report(
    db: Database,
    tenant_id: uuid.UUID,
    forest: Forest,
    report: IngestReport,
    done: Sequence[uuid.UUID],
    *,
    count_forest: bool,
) -> None:
    """Add the outcomes of the forest's finished jobs ``done`` (and its tree and node counts, with
    ``count_forest``) to its report."""
    trees: dict[str, int] = {}
    nodes = 0
    async with db.tenant(tenant_id) as conn:
        rows = await store_jobs.job_outcomes(conn, tenant_id, list(done))
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
