"""Refresh dirty paths lazily, level by level: all dirty nodes of a level (across every tree of the
forest) are independent and refreshed in parallel; no transaction is held across a model call, and
writes check the node version so a concurrent insert just leaves the node dirty for the next pass."""

from __future__ import annotations

import asyncio
import hashlib
import time
import uuid
from collections import defaultdict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from memforest.backends.base import Embedder, Summarizer, SummaryInput, UsageLedger
from memforest.db.engine import Database
from memforest.domain import TreeKind
from memforest.pipeline.commit_order import CommitBell
from memforest.store import nodes as store
from memforest.store.sql import Conn, lock_forest, try_lock_refresh, unlock_refresh


@dataclass(slots=True)
class RefreshStats:
    """What one refresh did."""

    levels: list[int] = field(default_factory=list)
    nodes_refreshed: int = 0
    summaries_changed: int = 0
    embedded: int = 0
    stale_writes: int = 0
    lock_wait_s: float = 0.0  # waiting for another refresh of the forest to end
    handed_off: bool = False  # another refresh of the forest was running and took this one's work

    def add(self, other: RefreshStats) -> None:
        self.levels = sorted(set(self.levels) | set(other.levels))
        self.nodes_refreshed += other.nodes_refreshed
        self.summaries_changed += other.summaries_changed
        self.embedded += other.embedded
        self.stale_writes += other.stale_writes
        self.lock_wait_s += other.lock_wait_s
        self.handed_off = self.handed_off or other.handed_off


def summary_hash(summary: str) -> str:
    """The md5 of a summary (the same function the database uses for leaves)."""
    return hashlib.md5(summary.encode()).hexdigest()


async def refresh_forest(
    db: Database,
    tenant_id: uuid.UUID,
    forest_id: int,
    *,
    summarizer: Summarizer,
    embedder: Embedder,
    concurrency: int,
    ledger: UsageLedger | None = None,
    max_passes: int = 8,
    max_level: int | None = None,
    hand_off: bool = False,
) -> RefreshStats:
    """Refresh every dirty node of the forest, lowest level first; with ``max_level``, only the dirty
    nodes up to that level (the ones above stay dirty for a later, coalesced refresh). Serialised per
    forest with a session-level advisory lock (held on a connection, not in a transaction).

    With ``hand_off``, a caller that finds another refresh of the forest running does not wait for
    it: that refresh takes the caller's dirty nodes over (``stats.handed_off``). Only a caller whose
    dirty nodes a queued refresh job would also reach may hand off (an ingest job's eager refresh,
    ADR 0025). Every refresh, after releasing the lock, looks for dirty nodes once more and, when
    there are some and the lock is free, goes on: a hand-off made between its last look inside the
    lock and the release is never left behind."""
    top = max_level if max_level is not None else 2**31 - 1
    stats = RefreshStats()
    t_lock = time.perf_counter()
    async with _refresh_lock(db, tenant_id, forest_id, wait=not hand_off) as lock_conn:
        stats.lock_wait_s = time.perf_counter() - t_lock
        if lock_conn is None:
            stats.handed_off = True
            return stats
        rounds = 0
        while True:
            try:
                clean = await _passes(
                    db, tenant_id, forest_id, top, summarizer, embedder, concurrency, ledger, max_passes, stats
                )
            finally:
                await unlock_refresh(lock_conn, tenant_id, forest_id)
                REFRESHES.ring((tenant_id, forest_id))
            rounds += 1
            # a refresh that could not finish leaves the rest to the forest's refresh job; one that
            # did, takes over what was handed off after its last look (bounded, as its passes are)
            if not clean or rounds >= max_passes:
                break
            async with db.tenant(tenant_id) as conn:
                if not await store.count_dirty(conn, tenant_id, forest_id, top):
                    break
            if not await try_lock_refresh(lock_conn, tenant_id, forest_id):
                break  # the refresh holding it now looks again after its own release
    return stats


# A refresh of this process that releases a forest's lock rings the forest's bell; one waiting for
# the lock looks again then, or after this many seconds (the holder may be another process).
REFRESH_LOCK_POLL_S = 0.1
REFRESHES = CommitBell()


@asynccontextmanager
async def _refresh_lock(
    db: Database, tenant_id: uuid.UUID, forest_id: int, *, wait: bool
) -> AsyncIterator[Conn | None]:
    """An autocommit connection holding the forest's refresh lock (autocommit: the lock statements
    need no BEGIN and COMMIT around them), or None without ``wait`` when another refresh holds it.
    A waiter holds no connection of the pool while it waits: with commit overlap (ADR 0027) as many
    as twice a worker's concurrency of jobs may wait, and the holder needs connections of its own."""
    while True:
        async with db.engine.connect() as raw:
            conn = await raw.execution_options(isolation_level="AUTOCOMMIT")
            if await try_lock_refresh(conn, tenant_id, forest_id):
                yield conn
                return
        if not wait:
            yield None
            return
        await REFRESHES.wait((tenant_id, forest_id), REFRESH_LOCK_POLL_S)


async def _passes(
    db: Database,
    tenant_id: uuid.UUID,
    forest_id: int,
    top: int,
    summarizer: Summarizer,
    embedder: Embedder,
    concurrency: int,
    ledger: UsageLedger | None,
    max_passes: int,
    stats: RefreshStats,
) -> bool:
    """Passes over the dirty levels up to ``top`` (under the refresh lock) until none is left dirty
    (returns True) or a pass made no progress or ``max_passes`` ran out (False)."""
    for _ in range(max_passes):
        level, progressed, remaining = 0, False, 0
        while True:
            # one transaction finds the next dirty level and reads it (or, past the last
            # one, counts what is left dirty): each transaction is four round trips more
            async with db.tenant(tenant_id) as conn:
                next_level = await store.min_dirty_level(conn, tenant_id, forest_id, level, top)
                if next_level is None:
                    remaining = await store.count_dirty(conn, tenant_id, forest_id, top)
                    break
                read = await _read_level(conn, tenant_id, forest_id, next_level)
            level = next_level
            done = await _refresh_level(
                db, tenant_id, forest_id, level, read, summarizer, embedder, concurrency, ledger
            )
            progressed = progressed or done.nodes_refreshed > 0
            stats.add(done)
            level += 1
        if not remaining:
            return True
        if not progressed:
            return False
    return False


async def _read_level(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, level: int
) -> tuple[list[dict[str, Any]], dict[int, list[str]]]:
    """The dirty nodes of a level that can be refreshed now, and their children's summaries."""
    nodes = await store.dirty_nodes_at_level(conn, tenant_id, forest_id, level)
    children: dict[int, list[str]] = defaultdict(list)
    if level > 0 and nodes:
        for r in await store.child_summaries(conn, tenant_id, [int(n["node_id"]) for n in nodes]):
            children[int(r["parent_id"])].append(str(r["summary"] or ""))
    return nodes, children


async def _refresh_level(
    db: Database,
    tenant_id: uuid.UUID,
    forest_id: int,
    level: int,
    read: tuple[list[dict[str, Any]], dict[int, list[str]]],
    summarizer: Summarizer,
    embedder: Embedder,
    concurrency: int,
    ledger: UsageLedger | None,
) -> RefreshStats:
    nodes, children = read
    # Model work, outside any transaction.
    gate = asyncio.Semaphore(concurrency)

    async def summarise(node: dict[str, Any]) -> str:
        if level == 0:
            return str(node["summary"] or "")
        item = SummaryInput(
            tree_kind=TreeKind(node["kind"]),
            tree_label=str(node["label"]),
            t_start=node["t_start"],
            t_end=node["t_end"],
            child_texts=tuple(children.get(int(node["node_id"]), [])),
            level=level,
        )
        async with gate:
            return await summarizer.summarize(item, ledger=ledger)

    summaries = await asyncio.gather(*(summarise(n) for n in nodes))
    hashes = [summary_hash(s) for s in summaries]
    to_embed = [i for i, n in enumerate(nodes) if n["no_embedding"] or n["embedded_hash"] != hashes[i]]
    vectors: dict[int, Any] = {}
    if to_embed:
        embedded = await embedder.embed([summaries[i] for i in to_embed], stage="embed", ledger=ledger)
        vectors = dict(zip(to_embed, embedded, strict=True))
    stats = RefreshStats(levels=[level], embedded=len(vectors))
    stats.summaries_changed = sum(1 for i, n in enumerate(nodes) if n["summary_hash"] != hashes[i])
    if not nodes:
        return stats
    async with db.tenant(tenant_id) as conn:
        await lock_forest(conn, tenant_id, forest_id, "graph")  # short write, ordered with structural edits
        written = await store.write_summaries(
            conn, tenant_id, [int(n["node_id"]) for n in nodes], [int(n["version"]) for n in nodes], summaries,
            hashes, [vectors.get(i) for i in range(len(nodes))],
        )  # fmt: skip
    stats.nodes_refreshed = len(written)
    stats.stale_writes = len(nodes) - len(written)
    return stats
