"""Jobs queued in this process wake this process's idle workers at once.

A long-running worker that finds no job waits ``worker.poll_interval_s`` before it asks again, so
a session accepted by the server's API waited up to that long (0.5 s by default) for its
extraction to start. The use cases that queue a job (a session accepted, a rematerialization, a
merge, an import) ring :data:`QUEUED` after their transaction commits, and an idle loop of this
process claims at once. Jobs queued by other processes (``memforest worker`` queues none of its
own) are still found by polling. The bell lives on the event loop: ring it from the loop's thread.
It counts its rings, so a loop that read the count before its claim misses no ring that came
between the claim and its wait.

One-shot workers (``memforest ingest``) still start after the whole batch is accepted: starting
them on the first accepted session made trees depend on timing (ADR 0025, decision 3, reverted
three times).

:data:`DELIVERIES` does the same for the webhook outbox (ADR 0106): a transaction of this process
that may have queued deliveries (a job finished, an ingest job committed, a client corrected,
deleted or retracted) rings it after its commit, and this process's deliverer claims them at once
instead of at its next poll (``webhooks.poll_interval_s``, 1 s by default). Deliveries queued by
other processes are found by their own deliverer's bell, or by polling.
"""

from __future__ import annotations

import asyncio
from typing import Any


class JobBell:
    """Counts the rings; each ring wakes one waiting loop (the longest waiting), or all of them with
    ``wake_all``, and a loop whose count is already behind does not wait at all."""

    def __init__(self, *, wake_all: bool = False) -> None:
        self._wake_all = wake_all
        self._rings = 0
        self._waiters: dict[asyncio.Future[None], None] = {}  # (insertion-ordered: oldest first)

    @property
    def rings(self) -> int:
        """How many times the bell has rung (read it before looking for work)."""
        return self._rings

    def ring(self) -> None:
        """Work was queued and committed: wake one waiting loop (a server's worker has two loops per
        slot, and each woken loop runs a claim), or every one with ``wake_all``."""
        self._rings += 1
        for future in self._waiters:
            if not future.done() and not future.get_loop().is_closed():
                future.set_result(None)
                if not self._wake_all:
                    return

    async def wait(self, since: int, timeout_s: float, *, or_set: asyncio.Event | None = None) -> None:
        """Return at once if the bell rang since it counted ``since`` rings (or ``or_set`` is set);
        else when a ring wakes this loop, ``or_set`` is set, or after ``timeout_s``."""
        if self._rings != since or (or_set is not None and or_set.is_set()):
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters[future] = None
        waits: set[asyncio.Future[Any]] = {future}
        if or_set is not None:
            waits.add(asyncio.ensure_future(or_set.wait()))
        try:
            await asyncio.wait(waits, timeout=timeout_s, return_when=asyncio.FIRST_COMPLETED)
        finally:
            self._waiters.pop(future, None)
            for w in waits:
                w.cancel()


QUEUED = JobBell()  # a job was queued
DELIVERIES = JobBell(wake_all=True)  # webhook deliveries may have been queued (each process's deliverer: one)
