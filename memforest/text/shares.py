"""Fair shares of a small shared resource (the text thread pool, a model server's connection slots).

A :class:`FairShares` hands out ``size`` places, at most ``per_key`` of them to one key (a tenant),
and gives each freed place to the waiting key that holds the fewest places (among equals, the one
served least recently: round robin). So one tenant flooding the resource holds at most its share, and any other
tenant's work waits at most for the next place to free up, never behind the flood's queue.

The key is the tenant bound to the log context of the running request or job
(:func:`memforest.logs.bind`, set by authentication and by the worker for each job); work outside
any tenant shares the key "".
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import itertools
from collections import deque
from collections.abc import AsyncIterator
from typing import Any

from memforest.logs import current_context

__all__ = ["FairShares", "current_tenant"]


def current_tenant() -> str:
    """The tenant of the running request or job (its log context), or "" outside any."""
    return current_context().get("tenant_id", "")


class FairShares:
    """``size`` places shared by keys: at most ``per_key`` held by one key, freed places go to the
    waiting key holding the fewest (round robin among equals). Use :meth:`hold`, or :meth:`acquire`
    and :meth:`release`."""

    def __init__(self, size: int, per_key: int) -> None:
        if size < 1 or per_key < 1:
            raise ValueError("size and per_key must be at least 1")
        self.size = size
        self.per_key = min(per_key, size)
        self._total = 0
        self._held: dict[str, int] = {}
        self._waiting: dict[str, deque[asyncio.Future[None]]] = {}
        self._served: dict[str, int] = {}  # when each key holding or waiting was last given a place
        self._order = itertools.count()

    def held(self, key: str) -> int:
        """Places ``key`` holds now."""
        return self._held.get(key, 0)

    async def acquire(self, key: str) -> None:
        """Wait for a place for ``key`` (release it with :meth:`release`)."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        queue = self._waiting.setdefault(key, deque())
        queue.append(future)
        self._dispatch()
        try:
            await future
        except BaseException:
            if future.done() and not future.cancelled():
                self.release(key)  # granted as it was cancelled: pass the place on
            else:
                self._drop(key, future)
            raise

    def release(self, key: str) -> None:
        """Give back a place of ``key`` and hand free places to waiting keys."""
        count = self._held.get(key, 0)
        if count <= 0:
            return
        if count == 1:
            del self._held[key]
            if key not in self._waiting:
                self._served.pop(key, None)
        else:
            self._held[key] = count - 1
        self._total -= 1
        self._dispatch()

    def release_when_done(self, key: str, work: concurrent.futures.Future[Any]) -> None:
        """Give back a place of ``key`` once ``work`` (run on a pool off this event loop) is done,
        not before: its pool is busy until then. Nothing is given back once the loop is closed (its
        shares went with it)."""
        loop = asyncio.get_running_loop()

        def release_in_loop(_: object) -> None:
            with contextlib.suppress(RuntimeError):  # (the loop is closed)
                loop.call_soon_threadsafe(self.release, key)

        work.add_done_callback(release_in_loop)

    @contextlib.asynccontextmanager
    async def hold(self, key: str) -> AsyncIterator[None]:
        """A place for ``key`` while the block runs."""
        await self.acquire(key)
        try:
            yield
        finally:
            self.release(key)

    def _drop(self, key: str, future: asyncio.Future[None]) -> None:
        queue = self._waiting.get(key)
        if queue is None:
            return
        with contextlib.suppress(ValueError):
            queue.remove(future)
        if not queue:
            del self._waiting[key]
            if key not in self._held:
                self._served.pop(key, None)

    def _dispatch(self) -> None:
        while self._total < self.size:
            best: tuple[int, int, str] | None = None
            for key in self._waiting:
                held = self._held.get(key, 0)
                if held < self.per_key and (best is None or (held, self._served.get(key, -1)) < best[:2]):
                    best = (held, self._served.get(key, -1), key)
            if best is None:
                return
            key = best[2]
            queue = self._waiting[key]
            future = queue.popleft()
            if not queue:
                del self._waiting[key]
            if future.done():  # (cancelled while queued: its acquire drops nothing more)
                continue
            future.set_result(None)
            self._served[key] = next(self._order)
            self._held[key] = self._held.get(key, 0) + 1
            self._total += 1
