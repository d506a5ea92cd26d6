"""Sessions of a forest commit in acceptance order: a later job waits for the older ones.

A job that finishes committing rings the forest's bell, so a waiter in the same process goes on
at once; a waiter that knows of no older session pending in its own process asks the jobs table,
inside its commit transaction (one transaction for the check and the commit), and commits made
by other worker processes are seen by asking again at a slower pace (``poll_s``).
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

log = logging.getLogger(__name__)

ForestKey = tuple[uuid.UUID, int]
T = TypeVar("T")


class CommitBell:
    """Wakes this process's tasks waiting on something of a forest (its older commits, or its
    refresh lock: ``memforest.pipeline.refresh``)."""

    def __init__(self) -> None:
        self._waiters: dict[ForestKey, set[asyncio.Future[None]]] = {}

    async def wait(self, key: ForestKey, timeout_s: float) -> None:
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

    def ring(self, key: ForestKey) -> None:
        """Wake every waiter of ``key`` (they re-check the jobs table)."""
        for future in self._waiters.get(key, set()):
            if not future.done() and not future.get_loop().is_closed():
                future.set_result(None)


COMMITS = CommitBell()


class OlderPending(Exception):
    """An attempt to commit found an older session of its forest still to commit (nothing written)."""


class LocalSessions:
    """Sessions whose ingest jobs run in this process and have not committed yet, per forest: a
    job that knows an older one of its forest is still to commit here waits for the bell without
    asking the database."""

    def __init__(self) -> None:
        self._pending: dict[ForestKey, set[int]] = {}

    @contextmanager
    def pending(self, key: ForestKey, session_id: int) -> Iterator[Callable[[], None]]:
        """Register ``session_id`` for the block; the callable it gives marks it committed early."""
        sessions = self._pending.setdefault(key, set())
        sessions.add(session_id)

        def done() -> None:
            sessions.discard(session_id)
            if not sessions and self._pending.get(key) is sessions:
                del self._pending[key]

        try:
            yield done
        finally:
            done()

    def older(self, key: ForestKey, session_id: int) -> bool:
        """Whether a session of ``key`` accepted before ``session_id`` is still to commit here."""
        return any(s < session_id for s in self._pending.get(key, ()))


LOCAL_SESSIONS = LocalSessions()


async def commit_in_order(
    tenant_id: uuid.UUID,
    forest_id: int,
    session_id: int,
    max_wait_s: float,
    attempt: Callable[[bool], Awaitable[T]],
    poll_s: float = 0.25,
) -> T:
    """Run ``attempt(check_order)`` once no session of the forest accepted before this one still has
    a pending job with uncommitted cells, so concurrent jobs commit in acceptance order and an ingest
    is reproducible (scene clustering and node ids depend on commit order). ``attempt`` checks the
    jobs table itself, in its commit transaction, when ``check_order`` is true, and raises
    :class:`OlderPending` (having written nothing) when an older session is still to commit. While
    an older session of this process is known to be pending, no attempt is made. Gives up waiting
    after ``max_wait_s`` (a stuck or retrying older job must not stall the forest): the last attempt
    does not check."""
    key = (tenant_id, forest_id)
    deadline = time.monotonic() + max_wait_s
    while True:
        left = deadline - time.monotonic()
        if left > 0 and LOCAL_SESSIONS.older(key, session_id):
            await COMMITS.wait(key, min(poll_s, left))
            continue
        try:
            return await attempt(left > 0)
        except OlderPending:
            left = deadline - time.monotonic()
            if left <= 0:
                log.warning("session %s commits before older sessions of forest %s (waited %.0f s)", session_id,
                            forest_id, max_wait_s)  # fmt: skip
                continue
            await COMMITS.wait(key, min(poll_s, left))
