"""A worker's upkeep of the planner statistics while its jobs write (ADR 0156).

A bulk ingest into a fresh database or a small forest outgrows the tables' statistics within
seconds, and autovacuum retakes them only when it next wakes (every minute by default): until then
the planner plans a session's writes for tables a fraction of their size (a tree's chain lookup
cost ten times its planned cost over LoCoMo's first minute). After a job ends, a worker looks at
most every ``worker.planner_stats_interval_s`` for tables whose rows changed by more than half
their live rows since their last analyze, and analyzes them in the background: one pass at a time
in the process, and in the database one at a time across workers (the advisory lock of
:mod:`memforest.store.planner_stats`). The pass runs outside any job and its context (a fresh
one: no job, forest or benchmark scope of the job that ended), on the owner's connection.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import time

from memforest.db.engine import Database
from memforest.store import planner_stats

log = logging.getLogger(__name__)

#: Seconds a cancelled worker waits for its cancelled pass to end (a statement's cancel request).
CANCEL_WAIT_S = 2.0


class PlannerUpkeep:
    """Starts a pass after a job ends when the last started one is done and ``interval_s`` old."""

    def __init__(self, db: Database, interval_s: float) -> None:
        self._db = db
        self._interval_s = interval_s
        self._started = -float("inf")
        self._pass: asyncio.Task[list[str]] | None = None

    def job_ended(self) -> None:
        """Start a pass in the background if one is due."""
        if self._pass is not None and not self._pass.done():
            return
        now = time.monotonic()
        if now - self._started < self._interval_s:
            return
        self._started = now
        self._pass = asyncio.create_task(self._analyze(), context=contextvars.Context())

    async def drain(self, *, cancel: bool = False) -> list[str]:
        """Wait for the pass in flight (before the worker returns); the tables it analyzed. With
        ``cancel`` (a worker cancelled: a server shutting down) the pass is cancelled first and
        waited for at most :data:`CANCEL_WAIT_S`."""
        task = self._pass
        if task is None:
            return []
        if cancel:
            task.cancel()
            await asyncio.wait({task}, timeout=CANCEL_WAIT_S)
            return task.result() if task.done() and not task.cancelled() else []
        return await task

    async def _analyze(self) -> list[str]:
        try:
            async with self._db.autocommit() as conn:
                names = await planner_stats.analyze_outgrown(conn)
        except Exception:  # statistics left to the next pass and to autovacuum; no job depends on them
            log.warning("planner statistics upkeep failed", exc_info=True)
            return []
        if names:
            log.info("analyzed tables that outgrew their planner statistics: %s", ", ".join(names))
        return names
