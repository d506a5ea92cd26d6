"""CPU-bound text work off the event loop: a small bounded thread pool and a time budget per call.

The built-in extractor and summariser are pure Python; run on the server's event loop, a long turn
would stall every request (``/healthz`` included). ``run_off_loop`` runs a function in a pool of
:data:`POOL_THREADS` threads and gives up on it once it has run for its budget (time spent waiting
for a free thread does not count). A thread cannot be killed, so functions that may run long also
take a :class:`Deadline` and stop themselves when it passes (``extract_cell`` does).

The threads are shared fairly between tenants (:mod:`memforest.text.shares`): a tenant holds at most
:data:`PER_TENANT_THREADS` of them, and a freed thread goes to the waiting tenant holding the
fewest, so one tenant's flood of work never queues another tenant's behind it. A thread stays
counted until its function returns, past a budget too. Pure-Python text work holds the GIL, so a
tenant alone gains little from a second thread; what the spare thread buys is that another
tenant's work starts at once.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from memforest.errors import ModelBackendError
from memforest.text.shares import FairShares, current_tenant

__all__ = [
    "DEFAULT_BUDGET_S",
    "PER_TENANT_THREADS",
    "POOL_THREADS",
    "Deadline",
    "TextBudgetExceededError",
    "run_off_loop",
]

T = TypeVar("T")

POOL_THREADS = 2
DEFAULT_BUDGET_S = 20.0
PER_TENANT_THREADS = max(1, POOL_THREADS - 1)
_POOL = ThreadPoolExecutor(max_workers=POOL_THREADS, thread_name_prefix="memforest-text")
# who may hand work to the pool, per event loop: never more than its threads, so the executor's own
# FIFO queue stays empty
_SHARES: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, FairShares] = weakref.WeakKeyDictionary()


def _shares(loop: asyncio.AbstractEventLoop) -> FairShares:
    shares = _SHARES.get(loop)
    if shares is None:
        shares = _SHARES[loop] = FairShares(POOL_THREADS, PER_TENANT_THREADS)
    return shares


class TextBudgetExceededError(ModelBackendError):
    """Built-in text work (extracting a cell, summarising a node) ran past its time budget."""


class Deadline:
    """A point in time (monotonic clock) after which ``check`` raises :class:`TextBudgetExceededError`."""

    __slots__ = ("at", "budget_s", "what")

    def __init__(self, budget_s: float, what: str) -> None:
        self.budget_s = budget_s
        self.what = what
        self.at = time.monotonic() + budget_s

    def check(self) -> None:
        """Raise :class:`TextBudgetExceededError` if the deadline has passed."""
        if time.monotonic() > self.at:
            raise TextBudgetExceededError(f"{self.what} took longer than its {self.budget_s:g} s time budget")


async def run_off_loop(fn: Callable[[Deadline], T], *, budget_s: float = DEFAULT_BUDGET_S, what: str) -> T:
    """Run ``fn(deadline)`` in the text thread pool; raise :class:`TextBudgetExceededError` when it
    has run ``budget_s`` seconds (``what`` names the work in the message, e.g. "extracting cell 7").
    The deadline passed to ``fn`` starts when a thread picks the work up; until then the work waits
    for its tenant's share of the pool (:data:`PER_TENANT_THREADS`)."""
    loop = asyncio.get_running_loop()
    started: asyncio.Future[Deadline] = loop.create_future()

    def mark_started(deadline: Deadline) -> None:
        if not started.done():
            started.set_result(deadline)

    def work() -> T:
        deadline = Deadline(budget_s, what)
        loop.call_soon_threadsafe(mark_started, deadline)
        return fn(deadline)

    tenant, shares = current_tenant(), _shares(loop)
    await shares.acquire(tenant)

    try:
        done = _POOL.submit(work)
    except BaseException:
        shares.release(tenant)
        raise
    shares.release_when_done(tenant, done)
    future = asyncio.wrap_future(done, loop=loop)
    waiting: set[asyncio.Future[Any]] = {future, started}
    await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
    if not future.done():
        deadline = await started
        try:
            return await asyncio.wait_for(asyncio.shield(future), timeout=max(0.0, deadline.at - time.monotonic()))
        except TimeoutError:
            future.add_done_callback(lambda f: f.cancelled() or f.exception())  # retrieve, never log
            raise TextBudgetExceededError(f"{what} took longer than its {budget_s:g} s time budget") from None
    return await future
