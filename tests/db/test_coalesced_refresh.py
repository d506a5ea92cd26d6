"""Coalesced refresh (ADR 0013) and commit order. Ingest jobs refresh the lowest levels they
dirtied; the levels above wait for one refresh job per forest, which later commits join and which
falls due after N commits or a delay. The end state is the same forest a refresh after every job
would give. Jobs of one forest extract in parallel but commit in acceptance order, so a parallel
ingest is reproducible."""

from __future__ import annotations

import asyncio
import dataclasses
import uuid
from datetime import UTC, datetime
from typing import Any

import pytest
from support import hobby_sessions
from support.queue import claim, sweep

from memforest.app.jobs import HANDLERS, process_job, run_worker
from memforest.backends.factory import build_backends
from memforest.db.engine import Database
from memforest.domain import JobState, SessionInput
from memforest.pipeline.service import IngestReport, accept_sessions, ingest_sessions
from memforest.settings import Settings
from memforest.store import jobs
from memforest.store.check import check_forest
from memforest.store.sql import fetch_all, scalar
from memforest.store.tenants import ensure_tenant


def _sessions(n: int, prefix: str = "s") -> list[SessionInput]:
    return hobby_sessions(n, datetime(2022, 3, 1, 9, 0, tzinfo=UTC), prefix)


def _small_trees(settings: Settings, **pipeline: Any) -> Settings:
    """Fan-out 3, so a few sessions already give trees with levels above 1."""
    knobs = {"fanout_session": 3, "fanout_entity": 3, "fanout_scene": 3, **pipeline}
    return settings.model_copy(update={"pipeline": settings.pipeline.model_copy(update=knobs)})


async def _ingest_one_by_one(
    db: Database, settings: Settings, tenant_id: uuid.UUID, forest: str, sessions: list[SessionInput]
) -> list[IngestReport]:
    backends = build_backends(settings)
    try:
        return [
            await ingest_sessions(db, settings, backends, tenant_id, forest, [s], job_concurrency=1, flush=False)
            for s in sessions
        ]
    finally:
        await backends.aclose()


async def _flush(db: Database, settings: Settings, tenant_id: uuid.UUID, forest: str) -> IngestReport:
    backends = build_backends(settings)
    try:
        return await ingest_sessions(db, settings, backends, tenant_id, forest, [])
    finally:
        await backends.aclose()


async def _forest_id(db: Database, tenant_id: uuid.UUID, forest: str) -> int:
    async with db.tenant(tenant_id) as conn:
        return int(
            await scalar(
                conn, "SELECT forest_id FROM forests WHERE tenant_id = :t AND name = :n", {"t": tenant_id, "n": forest}
            )
        )


async def _dirty_levels(db: Database, tenant_id: uuid.UUID, forest_id: int) -> dict[int, int]:
    async with db.tenant(tenant_id) as conn:
        rows = await fetch_all(
            conn,
            "SELECT level, count(*) AS n FROM nodes WHERE tenant_id = :t AND forest_id = :f AND dirty GROUP BY level",
            {"t": tenant_id, "f": forest_id},
        )
    return {int(r["level"]): int(r["n"]) for r in rows}


async def _refresh_jobs(db: Database, tenant_id: uuid.UUID) -> list[dict[str, Any]]:
    async with db.tenant(tenant_id) as conn:
        return await fetch_all(
            conn,
            "SELECT job_id, state, payload, run_after > now() AS waiting FROM jobs WHERE tenant_id = :t "
            "AND kind = 'refresh' ORDER BY created_at",
            {"t": tenant_id},
        )


async def _violations(db: Database, tenant_id: uuid.UUID, forest_id: int) -> list[str]:
    async with db.tenant(tenant_id) as conn:
        return (await check_forest(conn, tenant_id, forest_id)).violations


async def test_upper_levels_wait_for_the_forest_refresh_job(db: Database, settings: Settings) -> None:
    s = _small_trees(settings, refresh_coalesce_commits=100, refresh_coalesce_delay_s=3600)
    tenant_id = await ensure_tenant(db, "t")
    reports = await _ingest_one_by_one(db, s, tenant_id, "f", _sessions(6))
    assert [r.jobs_succeeded for r in reports] == [1] * 6 and sum(r.refresh_jobs for r in reports) == 0
    fid = await _forest_id(db, tenant_id, "f")

    dirty = await _dirty_levels(db, tenant_id, fid)
    assert dirty and min(dirty) == 2  # every job refreshed levels 0 and 1 itself; the rest waits
    pending = await _refresh_jobs(db, tenant_id)
    assert [(j["state"], j["payload"]["commits"], j["waiting"]) for j in pending] == [("queued", 6, True)]
    assert await claim(db, "w", lease_s=30, tenant_id=tenant_id) is None  # not due yet
    assert any("dirty" in v for v in await _violations(db, tenant_id, fid))

    flushed = await _flush(db, s, tenant_id, "f")
    assert flushed.refresh_jobs == 1 and flushed.counts.nodes_refreshed == sum(dirty.values())
    assert await _dirty_levels(db, tenant_id, fid) == {}
    assert await _violations(db, tenant_id, fid) == []
    assert [j["state"] for j in await _refresh_jobs(db, tenant_id)] == ["succeeded"]


async def test_the_refresh_job_falls_due_after_n_commits(db: Database, settings: Settings) -> None:
    s = _small_trees(settings, refresh_coalesce_commits=3, refresh_coalesce_delay_s=3600)
    tenant_id = await ensure_tenant(db, "t")
    reports = await _ingest_one_by_one(db, s, tenant_id, "f", _sessions(4))
    fid = await _forest_id(db, tenant_id, "f")
    # the third commit made the job due, so the third call ran it right after that session's job
    assert [r.refresh_jobs for r in reports] == [0, 0, 1, 0]
    assert reports[2].counts.nodes_refreshed > 0
    # the fourth commit started a new pending job
    assert [(j["state"], j["payload"]["commits"]) for j in await _refresh_jobs(db, tenant_id)] == [
        ("succeeded", 3),
        ("queued", 1),
    ]
    await _flush(db, s, tenant_id, "f")
    assert await _violations(db, tenant_id, fid) == []


async def test_a_zero_delay_refreshes_after_every_job(db: Database, settings: Settings) -> None:
    s = _small_trees(settings, refresh_coalesce_commits=50, refresh_coalesce_delay_s=0)
    tenant_id = await ensure_tenant(db, "t")
    reports = await _ingest_one_by_one(db, s, tenant_id, "f", _sessions(2))
    assert [r.refresh_jobs for r in reports] == [1, 1]
    assert await _dirty_levels(db, tenant_id, await _forest_id(db, tenant_id, "f")) == {}


async def test_a_running_refresh_job_takes_no_more_commits(db: Database) -> None:
    tenant_id = await ensure_tenant(db, "t")
    async with db.tenant(tenant_id) as conn:
        fid = int(
            await scalar(
                conn, "INSERT INTO forests (tenant_id, name) VALUES (:t, 'f') RETURNING forest_id", {"t": tenant_id}
            )
        )
        first = await jobs.schedule_refresh(conn, tenant_id, fid, due_commits=10, delay_s=3600)
        again = await jobs.schedule_refresh(conn, tenant_id, fid, due_commits=10, delay_s=3600)
    assert again == first
    assert await claim(db, "w", lease_s=30, tenant_id=tenant_id) is None
    claimed = await claim(db, "w", lease_s=30, tenant_id=tenant_id, early=True)
    assert claimed is not None and claimed.job_id == first and claimed.payload == {"commits": 2}
    async with db.tenant(tenant_id) as conn:
        later = await jobs.schedule_refresh(conn, tenant_id, fid, due_commits=10, delay_s=3600)
    assert later != first  # the running job may already have read the nodes: a new one follows it
    rows = await _refresh_jobs(db, tenant_id)
    assert [(str(j["job_id"]), j["state"], j["payload"]["commits"]) for j in rows] == [
        (str(first), "running", 2),
        (str(later), "queued", 1),
    ]


async def _tree_contents(db: Database, tenant_id: uuid.UUID, forest_id: int) -> list[tuple[Any, ...]]:
    """Every node by tree and position, with its summary (ids differ between forests, so left out)."""
    async with db.tenant(tenant_id) as conn:
        rows = await fetch_all(
            conn,
            "SELECT tr.kind, tr.label, n.level, n.t_start, n.t_end, n.n_children, n.summary FROM nodes n "
            "JOIN trees tr ON tr.tenant_id = n.tenant_id AND tr.tree_id = n.tree_id "
            "WHERE n.tenant_id = :t AND n.forest_id = :f",
            {"t": tenant_id, "f": forest_id},
        )
    return sorted(tuple(r.values()) for r in rows)


async def test_coalescing_ends_in_the_same_forest_with_fewer_summary_calls(db: Database, settings: Settings) -> None:
    tenant_id = await ensure_tenant(db, "t")
    sessions = _sessions(9)
    every_job = _small_trees(settings, refresh_coalesce_commits=1)
    coalesced = _small_trees(settings, refresh_coalesce_commits=4, refresh_coalesce_delay_s=3600)
    a = await _ingest_one_by_one(db, every_job, tenant_id, "a", sessions)
    b = [
        *await _ingest_one_by_one(db, coalesced, tenant_id, "b", sessions),
        await _flush(db, coalesced, tenant_id, "b"),
    ]
    fa, fb = await _forest_id(db, tenant_id, "a"), await _forest_id(db, tenant_id, "b")
    assert sum(r.refresh_jobs for r in a) == 0 and sum(r.refresh_jobs for r in b) == 3  # after 4, 8, and the flush

    def calls(reports: list[IngestReport]) -> int:
        return sum(int(r.usage.as_dict().get("summarize", {}).get("calls", 0)) for r in reports)

    assert calls(b) < calls(a)
    assert await _tree_contents(db, tenant_id, fa) == await _tree_contents(db, tenant_id, fb)
    assert await _violations(db, tenant_id, fa) == [] and await _violations(db, tenant_id, fb) == []


async def test_a_failed_refresh_job_yields_to_a_newer_queued_one(
    db: Database, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    tenant_id = await ensure_tenant(db, "t")
    async with db.tenant(tenant_id) as conn:
        fid = int(
            await scalar(
                conn, "INSERT INTO forests (tenant_id, name) VALUES (:t, 'f') RETURNING forest_id", {"t": tenant_id}
            )
        )
        first = await jobs.schedule_refresh(conn, tenant_id, fid, due_commits=10, delay_s=3600)

    async def broken(*_: Any) -> Any:
        raise RuntimeError("summary server went away")

    monkeypatch.setitem(HANDLERS, "refresh", broken)
    backends = build_backends(settings)
    try:
        claimed = await claim(db, "w", lease_s=30, tenant_id=tenant_id, early=True)
        assert claimed is not None and claimed.job_id == first
        # alone, it goes back to the queue for another attempt
        assert await process_job(db, settings, backends, claimed) == JobState.QUEUED
        claimed = await claim(db, "w", lease_s=30, tenant_id=tenant_id, early=True)
        assert claimed is not None and claimed.job_id == first
        async with db.tenant(tenant_id) as conn:  # a commit meanwhile queues the next refresh job
            later = await jobs.schedule_refresh(conn, tenant_id, fid, due_commits=10, delay_s=3600)
        # now it cannot go back (one queued refresh job per forest): it fails, the newer one stays
        assert await process_job(db, settings, backends, claimed) == JobState.FAILED
    finally:
        await backends.aclose()
    rows = await _refresh_jobs(db, tenant_id)
    assert [(str(j["job_id"]), j["state"]) for j in rows] == [(str(first), "failed"), (str(later), "queued")]


class _SlowFor:
    """The rule-based extractor, but slow for one session's cells (so its job would commit last)."""

    def __init__(self, inner: Any, session: str, delay_s: float) -> None:
        self.inner, self.session, self.delay_s = inner, session, delay_s
        self.name = inner.name

    async def extract(self, cell: Any, *, ledger: Any = None) -> Any:
        if cell.session_external_id == self.session:
            await asyncio.sleep(self.delay_s)
        return await self.inner.extract(cell, ledger=ledger)


async def _fact_texts(db: Database, tenant_id: uuid.UUID, forest_id: int) -> list[str]:
    async with db.tenant(tenant_id) as conn:
        rows = await fetch_all(
            conn, "SELECT text FROM facts WHERE tenant_id = :t AND forest_id = :f ORDER BY fact_id",
            {"t": tenant_id, "f": forest_id},
        )  # fmt: skip
    return [str(r["text"]) for r in rows]


async def test_parallel_jobs_commit_in_acceptance_order(db: Database, settings: Settings) -> None:
    """Extraction runs in parallel, but a forest's sessions commit in the order they were accepted,
    so a concurrent ingest builds exactly the forest a one-job-at-a-time ingest builds."""
    tenant_id = await ensure_tenant(db, "t")
    s = _small_trees(settings)
    sessions = _sessions(6)
    backends = build_backends(s)
    try:
        await ingest_sessions(db, s, backends, tenant_id, "one-by-one", sessions, job_concurrency=1)
        slow = dataclasses.replace(backends, extractor=_SlowFor(backends.extractor, "s0", 0.4))
        await ingest_sessions(db, s, slow, tenant_id, "parallel", sessions, job_concurrency=4)
        unordered = s.model_copy(update={"pipeline": s.pipeline.model_copy(update={"commit_order_wait_s": 0})})
        await ingest_sessions(db, unordered, slow, tenant_id, "unordered", sessions, job_concurrency=4)
    finally:
        await backends.aclose()
    one, par, unord = [await _forest_id(db, tenant_id, f) for f in ("one-by-one", "parallel", "unordered")]
    assert await _fact_texts(db, tenant_id, par) == await _fact_texts(db, tenant_id, one)
    assert await _tree_contents(db, tenant_id, par) == await _tree_contents(db, tenant_id, one)
    # without the wait, the slow first session commits last: the facts come in another order
    assert await _fact_texts(db, tenant_id, unord) != await _fact_texts(db, tenant_id, one)


async def test_the_order_check_takes_the_forest_lock_only_when_no_older_session_is_pending(
    db: Database, settings: Settings
) -> None:
    """One statement asks the jobs table and, when no older session is still to commit, takes the
    forest's graph lock for the transaction; when one is, it takes nothing."""
    tenant_id = await ensure_tenant(db, "t")
    forest, accepted = await accept_sessions(db, settings, tenant_id, "f", _sessions(2))
    first, second = sorted(a.session_id for a in accepted)
    held = "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()"
    async with db.tenant(tenant_id) as conn:
        assert await jobs.older_uncommitted_or_lock(conn, tenant_id, forest.forest_id, second)
        assert await scalar(conn, held) == 0
    async with db.tenant(tenant_id) as conn:
        assert not await jobs.older_uncommitted_or_lock(conn, tenant_id, forest.forest_id, first)
        assert await scalar(conn, held) == 1
    async with db.tenant(tenant_id) as conn:  # the lock ended with its transaction
        assert await scalar(conn, held) == 0


async def test_a_sweep_queues_a_refresh_for_dirty_nodes_nobody_will_refresh(db: Database, settings: Settings) -> None:
    s = _small_trees(settings, refresh_coalesce_commits=100, refresh_coalesce_delay_s=3600)
    tenant_id = await ensure_tenant(db, "t")
    await _ingest_one_by_one(db, s, tenant_id, "f", _sessions(4))
    fid = await _forest_id(db, tenant_id, "f")
    assert await _dirty_levels(db, tenant_id, fid)
    # a queued refresh job exists: nothing to sweep
    assert await sweep(db) == 0
    async with db.tenant(tenant_id) as conn:  # its last attempt failed for good
        await scalar(conn, "UPDATE jobs SET state = 'failed' WHERE kind = 'refresh' RETURNING 1")
    assert await sweep(db, tenant_id=uuid.uuid4()) == 0  # another tenant's sweep
    assert await sweep(db) == 1
    assert await sweep(db) == 0  # queued now
    backends = build_backends(s)
    try:
        stop = asyncio.Event()
        worker = asyncio.create_task(run_worker(db, s, backends, stop=stop))  # the swept job is due now
        for _ in range(200):
            if not await _dirty_levels(db, tenant_id, fid):
                break
            await asyncio.sleep(0.05)
        stop.set()
        await asyncio.wait_for(worker, 10)
    finally:
        await backends.aclose()
    assert await _dirty_levels(db, tenant_id, fid) == {}
    assert await _violations(db, tenant_id, fid) == []
    assert [j["state"] for j in await _refresh_jobs(db, tenant_id)] == ["failed", "succeeded"]
    assert await sweep(db) == 0  # nothing dirty left
