"""Refresh dirty paths lazily, level by level: all dirty nodes of a level (across every tree of the
forest) are independent and refreshed in parallel; no transaction is held across a model call, and
writes check the node version so a concurrent insert just leaves the node dirty for the next pass."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from memforest.backends.base import Embedder, Summarizer, UsageLedger
from memforest.db.engine import Database
from memforest.pipeline.commit_order import CommitBell
from memforest.pipeline.commit_order import ForestKey as _ForestKey
from memforest.pipeline.refresh_levels import RefreshStats as RefreshStats
from memforest.pipeline.refresh_levels import cell_vectors_from_facts, passes
from memforest.pipeline.refresh_levels import summary_hash as summary_hash
from memforest.store import nodes as store
from memforest.store.sql import Conn, try_lock_refresh, unlock_refresh


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
    relook: bool = True,
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
                clean = await passes(
                    db, tenant_id, forest_id, top, (summarizer, embedder, concurrency, ledger), max_passes, stats
                )
            finally:
                await unlock_refresh(lock_conn, tenant_id, forest_id)
                REFRESHES.ring((tenant_id, forest_id))
            rounds += 1
            # a refresh that could not finish leaves the rest to the forest's refresh job; one that
            # did, takes over what was handed off after its last look (bounded, as its passes are)
            if not clean or rounds >= max_passes or not relook:
                break
            async with db.tenant(tenant_id) as conn:
                waiting = cell_vectors_from_facts(embedder)  # cell leaves waiting for their job: not ours
                if not await store.count_dirty(conn, tenant_id, forest_id, top, skip_waiting_cells=waiting):
                    break
            if not await try_lock_refresh(lock_conn, tenant_id, forest_id):
                break  # the refresh holding it now looks again after its own release
    return stats


# A refresh of this process that releases a forest's lock rings the forest's bell; one waiting for
# the lock looks again then, or after this many seconds (the holder may be another process).
REFRESH_LOCK_POLL_S = 0.1
REFRESHES = CommitBell()


class LocalQueue:
    """One lock per forest for the refreshes of this process (per event loop: a lock belongs to
    the loop that first waits on it), dropped when nobody holds or waits for it."""

    def __init__(self) -> None:
        self._locks: dict[tuple[asyncio.AbstractEventLoop, _ForestKey], tuple[asyncio.Lock, list[int]]] = {}

    def busy(self, key: _ForestKey) -> bool:
        """Whether a refresh of this process holds or waits for ``key``."""
        return (asyncio.get_running_loop(), key) in self._locks

    @asynccontextmanager
    async def hold(self, key: _ForestKey) -> AsyncIterator[None]:
        slot = (asyncio.get_running_loop(), key)
        lock, users = self._locks.setdefault(slot, (asyncio.Lock(), [0]))
        users[0] += 1
        try:
            async with lock:
                yield
        finally:
            users[0] -= 1
            if not users[0]:
                self._locks.pop(slot, None)


LOCAL = LocalQueue()


@asynccontextmanager
async def _refresh_lock(
    db: Database, tenant_id: uuid.UUID, forest_id: int, *, wait: bool
) -> AsyncIterator[Conn | None]:
    """An autocommit connection holding the forest's refresh lock (autocommit: the lock statements
    need no BEGIN and COMMIT around them), or None without ``wait`` when another refresh holds it.
    A waiter holds no connection of the pool while it waits: with commit overlap (ADR 0027) as many
    as twice a worker's concurrency of jobs may wait, and the holder needs connections of its own.
    Refreshes of one process queue for a forest on a lock of the process first (:class:`LocalQueue`),
    so only the first in line asks the database: a release does not send every waiter of the process
    to try the lock at once."""
    key = (tenant_id, forest_id)
    if not wait and LOCAL.busy(key):
        yield None  # a refresh of this process runs (or is next): it takes these nodes over
        return
    async with LOCAL.hold(key):
        while True:
            async with db.engine.connect() as raw:
                conn = await raw.execution_options(isolation_level="AUTOCOMMIT")
                if await try_lock_refresh(conn, tenant_id, forest_id):
                    yield conn
                    return
            if not wait:
                yield None
                return
            await REFRESHES.wait(key, REFRESH_LOCK_POLL_S)
