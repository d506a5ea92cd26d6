"""Built-in text work in worker processes of its own, off this process's GIL.

The rule-based extractor is pure Python: run in this process's text threads
(:mod:`memforest.text.offload`), it holds the GIL, and every round trip of the event loop (a
commit's statements, a query's) waits behind it. :func:`run_in_process` runs such a function in a
small pool of worker processes instead, shared by the whole process:

- The pool starts on first use (or ahead of it, :func:`start`: a bench, before its clock), on a
  thread (never on the event loop), from a fork server that has imported :data:`PRELOADED` once (each worker then
  starts in milliseconds); where the platform has no fork server, workers are spawned. Its workers
  being ready is waited for outside any time budget.
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
  :class:`TextProcessError` (the dead one's work may be what killed it: none is tried again); the
  next call starts a new pool. Work an overrun's end of the pool took (queued, or running beside
  it) is handed to the new pool once.
- Workers end with the process that owns the pool, however it ends (a signal runs no exit hook to
  stop them).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import multiprocessing.connection
import multiprocessing.forkserver as forkserver
import os
import threading
import weakref
from collections.abc import Callable
from concurrent.futures import Future, InvalidStateError, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import suppress
from typing import Any, TypeVar

from memforest.errors import ModelBackendError
from memforest.text.offload import Deadline, TextBudgetExceededError
from memforest.text.shares import FairShares, current_tenant

__all__ = ["GRACE_S", "PRELOADED", "TextProcessError", "accounting_pids", "pids", "run_in_process", "start"]

T = TypeVar("T")

# modules a worker imports before its first task (compiling the extractor's patterns takes seconds; ``warm``
# reads their literal gates)
PRELOADED = ("memforest.text.extractor", "memforest.text.summarize", "memforest.text.warm")
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
        """The running executor and the future of its workers being ready, started now if none
        runs: every worker at once, each importing :data:`PRELOADED` first. Blocks while the
        workers are forked (the fork server's first start imports :data:`PRELOADED` itself): call
        it off the event loop."""
        with self._lock:
            if self._executor is None or self._ready is None:
                executor = ProcessPoolExecutor(
                    max_workers=self.size,
                    mp_context=_context(),
                    initializer=_start_worker,
                    initargs=(PRELOADED,),
                )
                try:  # (one task per worker: the executor forks a worker for each while none is idle)
                    ready = _all_done([executor.submit(_preload, ()) for _ in range(self.size)])
                except BaseException:
                    executor.shutdown(wait=False, cancel_futures=True)
                    raise
                self._executor, self._ready = executor, ready
            return self._executor, self._ready

    def current(self) -> tuple[ProcessPoolExecutor, Future[None]] | None:
        """The running executor and its readiness, or None when none runs (no waiting, no start)."""
        executor, ready = self._executor, self._ready
        return (executor, ready) if executor is not None and ready is not None else None

    def end(self, executor: ProcessPoolExecutor, *, overrun: bool = False) -> None:
        """End ``executor``'s processes (when it is still this pool's) so the next call starts anew;
        ``overrun``: ended on purpose, for a task past its budget (work it took from others is
        handed to the next pool)."""
        if overrun:
            _OVERRUN_ENDED.add(executor)
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


# pools ended because one of their tasks overran: the other work they held never failed by itself
_OVERRUN_ENDED: weakref.WeakSet[ProcessPoolExecutor] = weakref.WeakSet()
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


def _all_done(futures: list[Future[None]]) -> Future[None]:
    """A future done when all of ``futures`` are: with the first exception among them, if any."""
    joined: Future[None] = Future()
    left = [len(futures)]
    lock = threading.Lock()

    def one_done(done: Future[None]) -> None:
        with lock:
            left[0] -= 1
            last = left[0] == 0
        error = None if done.cancelled() else done.exception()
        if error is not None and not joined.done():
            with suppress(InvalidStateError):
                joined.set_exception(error)
        elif last and not joined.done():
            with suppress(InvalidStateError):
                joined.set_result(None)

    for future in futures:
        future.add_done_callback(one_done)
    return joined


def _preload(modules: tuple[str, ...]) -> None:
    """Import ``modules`` (in a worker, before its first task)."""
    for name in modules:
        __import__(name)


def _start_worker(modules: tuple[str, ...]) -> None:
    """In a new worker: end it with the process that owns its pool, then import ``modules``."""
    threading.Thread(target=_exit_with_owner, name="memforest-text-owner", daemon=True).start()
    _preload(modules)


def _exit_with_owner() -> None:
    """Wait for the process that owns this worker's pool to end, then end this one. An owner ended
    by a signal (uvicorn re-raises SIGTERM once it has stopped serving) runs no exit hook to stop
    its pool, and a worker, a child of the fork server, would otherwise wait for work forever,
    keeping the fork server alive and holding the output it inherited (a pipe its reader then never
    sees the end of). The owner holds the write end of the worker's parent sentinel until it ends
    (or lets go of the worker), even unreaped."""
    owner = multiprocessing.parent_process()
    if owner is None:  # (not started by multiprocessing: nothing to follow)
        return
    multiprocessing.connection.wait([owner.sentinel])
    os._exit(0)


def _call(fn: Callable[..., T], budget_s: float, what: str, args: tuple[Any, ...]) -> T:
    """In a worker: ``fn(*args, deadline)`` with a deadline that starts now."""
    return fn(*args, Deadline(budget_s, what))


def start(processes: int) -> Future[None]:
    """Start the pool of ``processes`` workers if it is not running, on a thread of its own (the
    caller never blocks); the future of its workers being ready."""
    ready: Future[None] = Future()

    def run() -> None:
        try:
            _, started = _pool(processes).started()
        except BaseException as exc:  # (the thread's only report is the future)
            ready.set_exception(exc)
            return
        started.add_done_callback(lambda done: _copy(done, ready))

    threading.Thread(target=run, name="memforest-text-start", daemon=True).start()
    return ready


def _copy(source: Future[None], target: Future[None]) -> None:
    error = None if source.cancelled() else source.exception()
    with suppress(InvalidStateError):
        if error is not None:
            target.set_exception(error)
        else:
            target.set_result(None)


def pids() -> list[int]:
    """The process ids of every text worker process running now."""
    with _POOLS_LOCK:
        pools = list(_POOLS.values())
    return [pid for pool in pools for pid in pool.pids()]


def accounting_pids() -> list[int]:
    """The processes whose CPU, with that of every child they have had, is all the text workers'
    so far: the fork server (its preload, and every worker it forked, live or ended), else the
    workers running now (spawned ones are this process's own children)."""
    server = getattr(getattr(forkserver, "_forkserver", None), "_forkserver_pid", None)
    return [server] if isinstance(server, int) else pids()


async def run_in_process(fn: Callable[..., T], *args: Any, processes: int, budget_s: float, what: str) -> T:
    """``fn(*args, deadline)`` in a pool of ``processes`` worker processes (see the module doc);
    ``fn`` and ``args`` must pickle (a module-level function, plain data). Work that another
    task's overrun took from the pool (queued, or running beside it) is handed to a new pool once. Raises
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
    running = pool.current()
    try:  # (a start runs off the loop: it forks the workers, and they import the extractor)
        executor, ready = running if running is not None else await asyncio.to_thread(pool.started)
    except (OSError, RuntimeError) as exc:
        raise TextProcessError(f"{what}: the text worker processes did not start ({exc})") from exc
    try:  # (a new pool's start is no part of any task's budget; shielded: one waiter's cancellation is its own)
        await asyncio.shield(asyncio.wrap_future(ready))
    except BrokenProcessPool as exc:
        pool.end(executor)
        raise TextProcessError(f"{what}: the text worker process did not start") from exc
    tenant, shares = current_tenant(), pool.shares(asyncio.get_running_loop())
    await shares.acquire(tenant)
    try:
        done = executor.submit(_call, fn, budget_s, what, args)
    except RuntimeError as exc:  # (BrokenProcessPool included: ended meanwhile by another task)
        shares.release(tenant)
        pool.end(executor)
        raise _PoolEnded(exc) from exc
    except BaseException:
        shares.release(tenant)
        raise
    shares.release_when_done(tenant, done)
    try:
        # (it may wait in the pool's queue behind one task of each worker, itself bounded by its budget)
        return await asyncio.wait_for(asyncio.wrap_future(done), timeout=2 * budget_s + GRACE_S)
    except TimeoutError:
        if done.done() and not done.cancelled():
            raise  # (``fn``'s own TimeoutError, as it raised it)
        pool.end(executor, overrun=True)
        raise TextBudgetExceededError(f"{what} took longer than its {budget_s:g} s time budget") from None
    except BrokenProcessPool as exc:
        pool.end(executor)
        if executor in _OVERRUN_ENDED:
            raise _PoolEnded(exc) from exc  # (another task's overrun took it: this work never failed)
        raise TextProcessError(f"{what}: the text worker process ended before it finished") from exc
    except asyncio.CancelledError as exc:
        task = asyncio.current_task()
        if done.cancelled() and task is not None and not task.cancelling():
            raise _PoolEnded(exc) from exc  # (the pool was ended with this work still queued in it)
        raise
