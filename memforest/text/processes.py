"""Built-in text work in worker processes of its own, off this process's GIL.

The rule-based extractor is pure Python: run in this process's text threads
(:mod:`memforest.text.offload`), it holds the GIL, and every round trip of the event loop (a
commit's statements, a query's) waits behind it. :func:`run_in_process` runs such a function in a
small pool of worker processes instead, shared by the whole process:

- The pool starts on first use, from a fork server that has imported
  :data:`PRELOADED` once (each worker then starts in milliseconds); where the platform has no fork
  server, workers are spawned. Its first worker being ready is waited for outside any time budget.
- Two tasks per worker are handed to the pool at once (one runs, the next waits in its queue, so a
  worker never idles between two), shared fairly between tenants as the text threads are
  (:class:`~memforest.text.shares.FairShares`, per event loop): a freed place goes to the waiting
  tenant holding the fewest; with more than one worker, one tenant holds all places but one.
- The function gets a :class:`~memforest.text.offload.Deadline` made when the worker starts it, and
  checks it as it would in a thread. Past twice ``budget_s`` (its own and the task queued ahead of
  it) plus :data:`GRACE_S` from its hand-off, the pool's processes are ended (a process, unlike a thread, can be) and
  :class:`~memforest.text.offload.TextBudgetExceededError` is raised; the next call starts a new
  pool.
- A worker that dies (killed, out of memory) fails the work it held and any other in flight with
  :class:`TextProcessError`; the next call starts a new pool.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import threading
import weakref
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import suppress
from typing import Any, TypeVar

from memforest.errors import ModelBackendError
from memforest.text.offload import Deadline, TextBudgetExceededError
from memforest.text.shares import FairShares, current_tenant

__all__ = ["GRACE_S", "PRELOADED", "TextProcessError", "pids", "run_in_process", "start"]

T = TypeVar("T")

# modules a worker imports before its first task (compiling the extractor's patterns takes seconds)
PRELOADED = ("memforest.text.extractor",)
# how long past its budget a task may take before its pool is ended (hand-off and result transfer)
GRACE_S = 2.0


class TextProcessError(ModelBackendError):
    """A text worker process ended before it finished the work it was given."""


class _Pool:
    """One process pool of ``size`` workers, started on first use and replaced once broken."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._executor: ProcessPoolExecutor | None = None
        self._ready: Future[None] | None = None
        self._shares: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, FairShares] = weakref.WeakKeyDictionary()

    def shares(self, loop: asyncio.AbstractEventLoop) -> FairShares:
        shares = self._shares.get(loop)
        if shares is None:
            places = 2 * self.size  # (the next task waits in the pool's queue: a worker never idles between two)
            shares = self._shares[loop] = FairShares(places, places - 1 if self.size > 1 else places)
        return shares

    def started(self) -> tuple[ProcessPoolExecutor, Future[None]]:
        """The running executor and the future of its first worker being ready (started now if none)."""
        with self._lock:
            if self._executor is None or self._ready is None:
                self._executor = ProcessPoolExecutor(
                    max_workers=self.size, mp_context=_context(), initializer=_preload, initargs=(PRELOADED,)
                )
                self._ready = self._executor.submit(_preload, ())
            return self._executor, self._ready

    def end(self, executor: ProcessPoolExecutor) -> None:
        """End ``executor``'s processes (when it is still this pool's) so the next call starts anew."""
        with self._lock:
            if self._executor is executor:
                self._executor, self._ready = None, None
        for process in list((getattr(executor, "_processes", None) or {}).values()):  # (None once shut down)
            with suppress(OSError, ValueError):
                process.kill()
        executor.shutdown(wait=False, cancel_futures=True)

    def pids(self) -> list[int]:
        executor = self._executor
        processes = getattr(executor, "_processes", None) or {}
        return [p.pid for p in list(processes.values()) if p.pid is not None]


_POOLS: dict[int, _Pool] = {}
_POOLS_LOCK = threading.Lock()


def _pool(size: int) -> _Pool:
    with _POOLS_LOCK:
        pool = _POOLS.get(size)
        if pool is None:
            pool = _POOLS[size] = _Pool(size)
        return pool


def _context() -> Any:
    """A fork server that has imported :data:`PRELOADED` where the platform has one, else spawn."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(list(PRELOADED))
        return context
    return multiprocessing.get_context("spawn")


def _preload(modules: tuple[str, ...]) -> None:
    """Import ``modules`` (in a worker, before its first task)."""
    for name in modules:
        __import__(name)


def _call(fn: Callable[..., T], budget_s: float, what: str, args: tuple[Any, ...]) -> T:
    """In a worker: ``fn(*args, deadline)`` with a deadline that starts now."""
    return fn(*args, Deadline(budget_s, what))


def start(processes: int) -> Future[None]:
    """Start the pool of ``processes`` workers now if it is not running (a worker does, so its
    first job does not wait for it); the future of its first worker being ready."""
    return _pool(processes).started()[1]


def pids() -> list[int]:
    """The process ids of every text worker process running now (for CPU accounting)."""
    with _POOLS_LOCK:
        pools = list(_POOLS.values())
    return [pid for pool in pools for pid in pool.pids()]


async def run_in_process(fn: Callable[..., T], *args: Any, processes: int, budget_s: float, what: str) -> T:
    """``fn(*args, deadline)`` in a pool of ``processes`` worker processes (see the module doc);
    ``fn`` and ``args`` must pickle (a module-level function, plain data). Work that another
    task's overrun or death took from the pool is handed to the new pool once. Raises
    :class:`TextBudgetExceededError` past the budget and :class:`TextProcessError` when its worker
    ended first; any exception ``fn`` raises comes back as it was raised."""
    pool = _pool(processes)
    for attempt in (1, 2):
        try:
            return await _run_once(pool, fn, args, budget_s, what)
        except _PoolEnded as ended:
            if attempt == 2:
                raise TextProcessError(f"{what}: the text worker process ended before it finished") from ended.cause
    raise AssertionError("unreachable")


class _PoolEnded(Exception):
    """The pool ended under a task (a worker died, or another task's overrun ended it)."""

    def __init__(self, cause: BaseException) -> None:
        super().__init__(str(cause))
        self.cause = cause


async def _run_once(pool: _Pool, fn: Callable[..., T], args: tuple[Any, ...], budget_s: float, what: str) -> T:
    executor, ready = pool.started()
    try:  # (a new pool's start is no part of any task's budget; shielded: one waiter's cancellation is its own)
        await asyncio.shield(asyncio.wrap_future(ready))
    except BrokenProcessPool as exc:
        pool.end(executor)
        raise TextProcessError(f"{what}: the text worker process did not start") from exc
    loop = asyncio.get_running_loop()
    tenant, shares = current_tenant(), pool.shares(loop)
    await shares.acquire(tenant)
    try:
        done = executor.submit(_call, fn, budget_s, what, args)
    except RuntimeError as exc:  # (BrokenProcessPool included: ended meanwhile by another task)
        shares.release(tenant)
        pool.end(executor)
        raise _PoolEnded(exc) from exc

    def release_in_loop(_: object) -> None:  # (the place is free once the worker is, not before)
        with suppress(RuntimeError):  # the loop is closed: its shares went with it
            loop.call_soon_threadsafe(shares.release, tenant)

    done.add_done_callback(release_in_loop)
    try:
        # (it may wait in the pool's queue behind one task of each worker, itself bounded by its budget)
        return await asyncio.wait_for(asyncio.wrap_future(done), timeout=2 * budget_s + GRACE_S)
    except TimeoutError:
        pool.end(executor)
        raise TextBudgetExceededError(f"{what} took longer than its {budget_s:g} s time budget") from None
    except BrokenProcessPool as exc:
        pool.end(executor)
        raise _PoolEnded(exc) from exc
    except asyncio.CancelledError as exc:
        task = asyncio.current_task()
        if done.cancelled() and task is not None and not task.cancelling():
            raise _PoolEnded(exc) from exc  # (the pool was ended with this work still queued in it)
        raise
