"""CPU-bound text work off the event loop: a small bounded thread pool and a time budget per call.

The built-in extractor and summariser are pure Python; run on the server's event loop, a long turn
would stall every request (``/healthz`` included). ``run_off_loop`` runs a function in a pool of
:data:`POOL_THREADS` threads and gives up on it once it has run for its budget (time spent waiting
for a free thread does not count). A thread cannot be killed, so functions that may run long also
take a :class:`Deadline` and stop themselves when it passes (``extract_cell`` does).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from memforest.errors import ModelBackendError

__all__ = ["DEFAULT_BUDGET_S", "POOL_THREADS", "Deadline", "TextBudgetExceededError", "run_off_loop"]

T = TypeVar("T")

POOL_THREADS = 2
DEFAULT_BUDGET_S = 20.0
_POOL = ThreadPoolExecutor(max_workers=POOL_THREADS, thread_name_prefix="memforest-text")


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
    The deadline passed to ``fn`` starts when a thread picks the work up."""
    loop = asyncio.get_running_loop()
    started: asyncio.Future[Deadline] = loop.create_future()

    def mark_started(deadline: Deadline) -> None:
        if not started.done():
            started.set_result(deadline)

    def work() -> T:
        deadline = Deadline(budget_s, what)
        loop.call_soon_threadsafe(mark_started, deadline)
        return fn(deadline)

    future = loop.run_in_executor(_POOL, work)
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
