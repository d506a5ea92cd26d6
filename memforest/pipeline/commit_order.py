"""Sessions of a forest commit in acceptance order: a later job waits for the older ones.

A job that finishes committing rings the forest's bell, so a waiter in the same process goes on
at once; commits made by other worker processes are seen by polling the jobs table, at a slower
pace (``poll_s``) so that waiting jobs do not keep a connection busy fifty times a second.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid

from memforest.db.engine import Database
from memforest.store import jobs

log = logging.getLogger(__name__)

_ForestKey = tuple[uuid.UUID, int]


class CommitBell:
    """Wakes this process's tasks waiting on something of a forest (its older commits, or its
    refresh lock: ``memforest.pipeline.refresh``)."""

    def __init__(self) -> None:
        self._waiters: dict[_ForestKey, set[asyncio.Future[None]]] = {}

    async def wait(self, key: _ForestKey, timeout_s: float) -> None:
        """Return when ``key`` is rung or after ``timeout_s``, whichever comes first."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        waiters = self._waiters.setdefault(key, set())
        waiters.add(future)
        try:
            await asyncio.wait({future}, timeout=timeout_s)
        finally:
            waiters.discard(future)
            if not waiters:
                self._waiters.pop(key, None)

    def ring(self, key: _ForestKey) -> None:
        """Wake every waiter of ``key`` (they re-check the jobs table)."""
        for future in self._waiters.get(key, set()):
            if not future.done() and not future.get_loop().is_closed():
                future.set_result(None)


COMMITS = CommitBell()


async def wait_for_older_commits(
    db: Database, tenant_id: uuid.UUID, forest_id: int, session_id: int, max_wait_s: float, poll_s: float = 0.25
) -> bool:
    """Wait until no session of the forest accepted before this one still has a pending job with
    uncommitted cells, so concurrent jobs commit in acceptance order and an ingest is reproducible
    (scene clustering and node ids depend on commit order). Gives up after ``max_wait_s`` (a stuck
    or retrying older job must not stall the forest). Returns whether the order was kept."""
    deadline = time.monotonic() + max_wait_s
    while True:
        async with db.tenant(tenant_id) as conn:
            pending = await jobs.older_uncommitted(conn, tenant_id, forest_id, session_id)
        if not pending:
            return True
        left = deadline - time.monotonic()
        if left <= 0:
            log.warning("session %s commits before older sessions of forest %s (waited %.0f s)", session_id,
                        forest_id, max_wait_s)  # fmt: skip
            return False
        await COMMITS.wait((tenant_id, forest_id), min(poll_s, left))
