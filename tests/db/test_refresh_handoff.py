"""A burst of sessions through the write path (ADR 0025): an ingest job whose forest has younger
sessions still to commit refreshes only its leaves and hands them to a refresh of the forest that
is running instead of waiting for it; the last session of the burst summarises the shared parents
once (opt-in: pipeline.burst_refresh_handoff). The end state is the forest a one-session-at-a-time
ingest builds."""

from __future__ import annotations

import asyncio
import dataclasses
import uuid
from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from support import hobby_sessions

from memforest.backends.base import SummaryInput, UsageLedger
from memforest.backends.factory import build_backends
from memforest.backends.hashed import HashedEmbedder
from memforest.backends.summarize import ExtractiveSummarizer
from memforest.db.engine import Database
from memforest.domain import SessionInput, TreeKind
from memforest.memtree.model import InsertStats, LeafSpec
from memforest.pipeline import refresh
from memforest.pipeline.refresh import refresh_forest
from memforest.pipeline.service import accept_sessions, ingest_sessions
from memforest.settings import Settings
from memforest.store.check import check_forest
from memforest.store.sql import fetch_all, lock_forest, scalar, try_lock_refresh, unlock_refresh
from memforest.store.tenants import ensure_tenant
from memforest.store.trees import get_or_create_tree, insert_leaf

BASE = datetime(2023, 4, 2, 9, 0, tzinfo=UTC)


def _sessions(n: int, prefix: str = "s") -> list[SessionInput]:
    return hobby_sessions(n, BASE, prefix)


def _small_trees(settings: Settings, **pipeline: Any) -> Settings:
    """Fan-out 3 (trees with levels above 1 after a few sessions); the refresh job waits for a flush."""
    knobs = {"fanout_session": 3, "fanout_entity": 3, "fanout_scene": 3, "refresh_coalesce_commits": 100,
             "refresh_coalesce_delay_s": 3600, **pipeline}  # fmt: skip
    return settings.model_copy(update={"pipeline": settings.pipeline.model_copy(update=knobs)})


class _Counting:
    """The extractive summariser, counting calls per level."""

    name = "counting"

    def __init__(self) -> None:
        self.inner = ExtractiveSummarizer(max_chars=20_000)
        self.levels: Counter[int] = Counter()

    async def summarize(self, item: SummaryInput, *, ledger: UsageLedger | None = None) -> str:
        self.levels[item.level] += 1
        return await self.inner.summarize(item, ledger=ledger)


async def _forest_id(db: Database, tenant_id: uuid.UUID, forest: str) -> int:
    async with db.tenant(tenant_id) as conn:
        return int(await scalar(conn, "SELECT forest_id FROM forests WHERE name = :n", {"n": forest}))


async def _dirty_levels(db: Database, tenant_id: uuid.UUID, forest_id: int) -> dict[int, int]:
    async with db.tenant(tenant_id) as conn:
        rows = await fetch_all(
            conn, "SELECT level, count(*) AS n FROM nodes WHERE forest_id = :f AND dirty GROUP BY level",
            {"f": forest_id},
        )  # fmt: skip
    return {int(r["level"]): int(r["n"]) for r in rows}


async def _contents(db: Database, tenant_id: uuid.UUID, forest_id: int) -> list[tuple[Any, ...]]:
    """Facts, and every tree's nodes (kind, label, level, interval, summary), in a stable order."""
    async with db.tenant(tenant_id) as conn:
        facts = await fetch_all(conn, "SELECT text FROM facts WHERE forest_id = :f ORDER BY text", {"f": forest_id})
        nodes = await fetch_all(
            conn,
            "SELECT t.kind, t.label, n.level, n.t_start, n.t_end, n.summary, n.dirty FROM nodes n JOIN trees t "
            "ON t.tree_id = n.tree_id WHERE n.forest_id = :f ORDER BY t.kind, t.label, n.level, n.t_start, n.seq",
            {"f": forest_id},
        )
    return [(str(r["text"]),) for r in facts] + [tuple(r.values()) for r in nodes]


async def _violations(db: Database, tenant_id: uuid.UUID, forest_id: int) -> list[str]:
    async with db.tenant(tenant_id) as conn:
        return (await check_forest(conn, tenant_id, forest_id)).violations


async def test_a_burst_summarises_shared_parents_once_and_builds_the_same_forest(
    db: Database, settings: Settings
) -> None:
    s = _small_trees(settings, burst_refresh_handoff=True)
    tenant_id = await ensure_tenant(db, "t")
    backends = build_backends(s)
    one_by_one, burst = _Counting(), _Counting()
    try:
        for session in _sessions(6):
            await ingest_sessions(
                db, s, dataclasses.replace(backends, summarizer=one_by_one), tenant_id, "one", [session],
                job_concurrency=1, flush=False,
            )  # fmt: skip
        await ingest_sessions(db, s, backends, tenant_id, "one", [])  # the forest's refresh job
        report = await ingest_sessions(
            db, s, dataclasses.replace(backends, summarizer=burst), tenant_id, "burst", _sessions(6),
            job_concurrency=3, flush=False,
        )  # fmt: skip
        burst_fid = await _forest_id(db, tenant_id, "burst")
        # the last session of the burst summarised level 1 for all; the levels above wait as before
        dirty = await _dirty_levels(db, tenant_id, burst_fid)
        assert dirty and min(dirty) == 2, dirty
        assert report.jobs_succeeded == 6 and report.jobs_failed == 0
        await ingest_sessions(db, s, backends, tenant_id, "burst", [])
    finally:
        await backends.aclose()
    one_fid = await _forest_id(db, tenant_id, "one")
    assert await _dirty_levels(db, tenant_id, burst_fid) == {}
    assert await _violations(db, tenant_id, burst_fid) == []
    assert await _contents(db, tenant_id, burst_fid) == await _contents(db, tenant_id, one_fid)
    assert burst.levels[1] < one_by_one.levels[1], (burst.levels, one_by_one.levels)


async def _forest_with_a_session(db: Database, settings: Settings) -> tuple[uuid.UUID, int]:
    s = _small_trees(settings, cell_turns=1)
    tenant_id = await ensure_tenant(db, "t")
    forest, _ = await accept_sessions(db, s, tenant_id, "f", _sessions(1, prefix="h"))
    return tenant_id, forest.forest_id


async def _add_leaf(db: Database, tenant_id: uuid.UUID, forest_id: int, text: str, when: datetime) -> None:
    """A new cell hung in the session tree, committed in its own transaction (a concurrent commit)."""
    async with db.tenant(tenant_id) as conn:
        await lock_forest(conn, tenant_id, forest_id)
        sid = await scalar(conn, "SELECT session_id FROM sessions WHERE external_id = 'h0'")
        cid = await scalar(
            conn,
            "INSERT INTO cells (tenant_id, forest_id, session_id, seq, turn_from, turn_to, text, t_start, t_end) "
            "SELECT :t, :f, :s, max(seq) + 1, 0, 0, :x, :ts, :ts FROM cells WHERE session_id = :s RETURNING cell_id",
            {"t": tenant_id, "f": forest_id, "s": sid, "x": text, "ts": when},
        )
        tree = await get_or_create_tree(conn, tenant_id, forest_id, TreeKind.SESSION, "h0", "h0", 3)
        assert await insert_leaf(conn, tenant_id, tree, LeafSpec("cell", int(cid), when, when, int(cid), text),
                                 InsertStats()) is not None  # fmt: skip


async def test_a_refresh_that_finds_one_running_hands_its_nodes_over(db: Database, settings: Settings) -> None:
    tenant_id, forest_id = await _forest_with_a_session(db, settings)
    dirty = await _dirty_levels(db, tenant_id, forest_id)
    assert dirty
    summarizer, embedder = _Counting(), HashedEmbedder(64)
    async with db.engine.connect() as raw:
        holder = await raw.execution_options(isolation_level="AUTOCOMMIT")
        assert await try_lock_refresh(holder, tenant_id, forest_id)  # another refresh of the forest is running
        try:
            stats = await asyncio.wait_for(
                refresh_forest(db, tenant_id, forest_id, summarizer=summarizer, embedder=embedder, concurrency=2,
                               hand_off=True),
                timeout=5,
            )  # fmt: skip
        finally:
            await unlock_refresh(holder, tenant_id, forest_id)
    assert stats.handed_off and stats.nodes_refreshed == 0 and not summarizer.levels
    assert await _dirty_levels(db, tenant_id, forest_id) == dirty  # left to the running refresh
    stats = await refresh_forest(db, tenant_id, forest_id, summarizer=summarizer, embedder=embedder,
                                 concurrency=2, hand_off=True)  # fmt: skip
    assert not stats.handed_off and stats.nodes_refreshed > 0
    assert await _dirty_levels(db, tenant_id, forest_id) == {}


async def test_a_refresh_waiting_for_the_lock_holds_no_connection(db: Database, settings: Settings) -> None:
    """With commit overlap (ADR 0027) up to twice a worker's concurrency of jobs may wait for their
    forest's refresh lock: a waiter gives its connection back, and goes on once the lock is free
    (here held outside any refresh of this process, so no bell rings: it looks again by itself)."""
    tenant_id, forest_id = await _forest_with_a_session(db, settings)
    assert await _dirty_levels(db, tenant_id, forest_id)
    summarizer, embedder = _Counting(), HashedEmbedder(64)
    async with db.engine.connect() as raw:
        holder = await raw.execution_options(isolation_level="AUTOCOMMIT")
        assert await try_lock_refresh(holder, tenant_id, forest_id)
        waiters = [
            asyncio.create_task(
                refresh_forest(db, tenant_id, forest_id, summarizer=summarizer, embedder=embedder, concurrency=2)
            )
            for _ in range(3)
        ]
        try:
            await asyncio.sleep(0.5)
            assert not any(w.done() for w in waiters)
            assert db.engine.pool.checkedout() == 1  # the holder's alone: the three waiters hold none
        finally:
            await unlock_refresh(holder, tenant_id, forest_id)
    done = await asyncio.wait_for(asyncio.gather(*waiters), timeout=10)
    assert all(d.lock_wait_s >= 0.5 for d in done) and sum(d.nodes_refreshed for d in done) > 0
    assert await _dirty_levels(db, tenant_id, forest_id) == {}


async def test_a_hand_off_after_the_last_look_is_refreshed_by_the_holder(
    db: Database, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nodes dirtied (and handed off) after the running refresh last looked, while it still holds the
    lock, are refreshed by it once it has released the lock: it looks again."""
    tenant_id, forest_id = await _forest_with_a_session(db, settings)
    real_unlock = refresh.unlock_refresh
    late: list[bool] = []

    async def unlock_after_a_late_commit(conn: Any, tenant: Any, forest: int) -> None:
        if not late:
            late.append(True)
            await _add_leaf(db, tenant_id, forest_id, "Ilse: Zelda adopted a tortoise named Sheldon.",
                            BASE + timedelta(hours=5))  # fmt: skip
        await real_unlock(conn, tenant, forest)

    monkeypatch.setattr(refresh, "unlock_refresh", unlock_after_a_late_commit)
    stats = await refresh_forest(
        db, tenant_id, forest_id, summarizer=_Counting(), embedder=HashedEmbedder(64), concurrency=2
    )
    assert late and stats.nodes_refreshed > 0
    assert await _dirty_levels(db, tenant_id, forest_id) == {}
    assert await _violations(db, tenant_id, forest_id) == []
    async with db.tenant(tenant_id) as conn:
        root = await scalar(conn, "SELECT summary FROM nodes WHERE node_id = (SELECT root_node_id FROM trees)")
    assert "Sheldon" in root
