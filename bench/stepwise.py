"""A *step-wise* (eager / sequential) write path composed from the pipeline's own functions.

Nothing here changes MemForest: the step-wise path calls the same extract / embed / canonicalise /
route / insert / refresh functions the worker uses, only at a finer granularity (one cell or one
fact per commit, a full refresh after each), which is how an eager, profile-rewriting memory works.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from bench.env import BenchEnv
from memforest.backends.base import UsageLedger
from memforest.backends.factory import Backends
from memforest.domain import JobState, SessionInput
from memforest.errors import MemForestError
from memforest.memtree.model import InsertStats
from memforest.pipeline.ingest_job import (
    CellWork,
    IngestCounts,
    add_structure_counts,
    commit_candidates,
    commit_cells,
    embed_candidates,
    load_session_cells,
    mark_cells,
)
from memforest.pipeline.refresh import refresh_forest
from memforest.pipeline.route import Router
from memforest.pipeline.service import accept_sessions
from memforest.settings import Settings
from memforest.store import jobs
from memforest.store.sql import lock_forest


@dataclass(slots=True)
class StepwiseReport:
    """What :func:`ingest_stepwise` did."""

    sessions: int = 0
    turns: int = 0
    cells: int = 0
    refreshes: int = 0
    counts: IngestCounts = field(default_factory=IngestCounts)
    usage: UsageLedger = field(default_factory=UsageLedger)
    wall_s: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "sessions": self.sessions,
            "turns": self.turns,
            "cells": self.cells,
            "refreshes": self.refreshes,
            **self.counts.as_dict(),
            "model_usage": self.usage.as_dict(),
            "wall_s": round(self.wall_s, 4),
        }


async def _extract_one(cell: CellWork, backends: Backends, settings: Settings, ledger: UsageLedger) -> None:
    for attempt in range(settings.pipeline.extract_max_attempts):
        try:
            cell.candidates = sorted(
                await backends.extractor.extract(cell.view, ledger=ledger),
                key=lambda c: (c.valid_from, c.source_turn_seqs),
            )
            cell.error = None
            return
        except MemForestError as exc:
            cell.error = str(exc)
            if attempt + 1 < settings.pipeline.extract_max_attempts:
                continue


async def _commit_fact(
    env: BenchEnv,
    forest_id: int,
    session_id: int,
    cell: CellWork,
    index: int | None,
    embedding: np.ndarray[Any, Any] | None,
    speakers: set[str],
    counts: IngestCounts,
) -> None:
    """One short transaction: canonicalise, route and insert ONE fact of ``cell`` (``index``), and mark
    the cell extracted when ``index`` is its last candidate (or None: a cell without candidates).
    The same steps as the worker's commit (ingest_job), one fact at a time."""
    settings, t = env.settings, env.tenant_id
    insert_stats = InsertStats()
    async with env.db.tenant(t) as conn:
        await lock_forest(conn, t, forest_id)
        router = Router(conn, t, forest_id, settings.pipeline, insert_stats)
        await router.register_speakers(speakers)
        if index is None or index == len(cell.candidates) - 1:
            await mark_cells(conn, t, [cell], counts)
        if index is not None and embedding is not None:
            picks = [(cell, index)]
            embeddings = {(cell.cell_id, index): embedding}
            await commit_candidates(conn, t, forest_id, session_id, router, picks, embeddings, settings, counts)
    add_structure_counts(counts, insert_stats, router)


async def ingest_stepwise(
    env: BenchEnv,
    forest_name: str,
    sessions: Sequence[SessionInput],
    *,
    granularity: str = "cell",
    refresh_concurrency: int = 1,
    progress: Callable[[int], None] | None = None,
) -> StepwiseReport:
    """The sequential / eager write path over ``sessions`` (one at a time, in order).

    ``granularity="cell"``: extract one cell, commit its facts, refresh the forest, next cell.
    ``granularity="fact"``: extract one cell, then commit ONE fact and refresh the forest, next fact
    (refresh after every single insert). Extraction is never parallel here; each session's queued job
    is claimed and finished like a worker would, so the forest ends in the same state kinds as the
    normal path (no dirty node, no queued job)."""
    if granularity not in {"cell", "fact"}:
        raise ValueError("granularity must be 'cell' or 'fact'")
    report = StepwiseReport()
    ledger = report.usage
    t0 = time.perf_counter()
    worker_id = f"bench-stepwise-{uuid.uuid4().hex[:8]}"

    async def refresh(forest_id: int, counts: IngestCounts) -> None:
        t_r = time.perf_counter()
        stats = await refresh_forest(
            env.db,
            env.tenant_id,
            forest_id,
            summarizer=env.backends.summarizer,
            embedder=env.backends.embedder,
            concurrency=refresh_concurrency,
            ledger=ledger,
        )
        counts.nodes_refreshed += stats.nodes_refreshed
        counts.summaries_changed += stats.summaries_changed
        counts.embedded += stats.embedded
        counts.stage_wall_s["refresh"] = counts.stage_wall_s.get("refresh", 0.0) + time.perf_counter() - t_r
        report.refreshes += 1

    def add_stage(counts: IngestCounts, stage: str, since: float) -> None:
        counts.stage_wall_s[stage] = counts.stage_wall_s.get(stage, 0.0) + time.perf_counter() - since

    for session in sessions:
        ta = time.perf_counter()
        forest, accepted = await accept_sessions(env.db, env.settings, env.tenant_id, forest_name, [session])
        report.counts.stage_wall_s["accept"] = report.counts.stage_wall_s.get("accept", 0.0) + time.perf_counter() - ta
        result = accepted[0]
        if not result.created:
            continue
        report.sessions += 1
        report.turns += result.turns
        report.cells += result.cells
        async with env.db.system() as conn:
            job = await jobs.claim(
                conn, env.tenant_id, forest.forest_id, worker_id, lease_s=3600, early=False,
                max_attempts=env.settings.worker.max_attempts,
            )  # fmt: skip
        counts = IngestCounts(sessions=1)
        forest_id, work, speakers = await load_session_cells(env.db, env.tenant_id, result.session_id)
        for cell in work:
            ts = time.perf_counter()
            await _extract_one(cell, env.backends, env.settings, ledger)
            add_stage(counts, "extract", ts)
            ts = time.perf_counter()
            embeddings = await embed_candidates([cell], env.backends, ledger)
            add_stage(counts, "embed", ts)
            if cell.error is not None or granularity == "cell":
                ts = time.perf_counter()
                await commit_cells(
                    env.db,
                    env.tenant_id,
                    forest_id,
                    result.session_id,
                    [cell],
                    speakers,
                    embeddings,
                    env.settings,
                    counts,
                )
                add_stage(counts, "commit", ts)
                await refresh(forest_id, counts)
                continue
            indexes: list[int | None] = list(range(len(cell.candidates))) or [None]
            for i in indexes:
                ts = time.perf_counter()
                emb = embeddings.get((cell.cell_id, i)) if i is not None else None
                await _commit_fact(env, forest_id, result.session_id, cell, i, emb, speakers, counts)
                add_stage(counts, "commit", ts)
                await refresh(forest_id, counts)
        errors = [{"cell_id": c.cell_id, "error": c.error} for c in work if c.error is not None]
        if job is not None:
            async with env.db.system() as conn:
                await jobs.finish(
                    conn,
                    job.tenant_id,
                    job.job_id,
                    JobState.FAILED if errors else JobState.SUCCEEDED,
                    result=counts.as_dict(),
                    usage={},
                    errors=errors,
                )
        report.counts.add(counts)
        if progress is not None:
            progress(1)
    report.wall_s = time.perf_counter() - t0
    return report
