"""Worker slots: how many jobs of a worker are in their model phase at once.

A worker runs ``concurrency`` jobs at once. An ingest job's extraction and embedding calls come
first; then it waits for the forest's older sessions to commit, commits, and refreshes its lowest
levels (a few summary calls): work that waits on locks and on other jobs more than on the model
server. With ``worker.commit_overlap`` (ADR 0027) such a job gives its slot to the next queued job
once its extraction and embedding are done (:func:`release_slot`), so the next session's
extraction overlaps this one's waiting; the worker then runs at most ``concurrency`` more jobs
past that point.
"""

from __future__ import annotations

import asyncio
from contextvars import ContextVar


class JobSlot:
    """One claimed job's hold on its worker's semaphore, released once."""

    def __init__(self, semaphore: asyncio.Semaphore) -> None:
        self._semaphore = semaphore
        self._held = True

    def release(self) -> None:
        """Give the slot back (later calls do nothing)."""
        if self._held:
            self._held = False
            self._semaphore.release()


CURRENT_SLOT: ContextVar[JobSlot | None] = ContextVar("memforest_job_slot", default=None)


def release_slot() -> None:
    """Called by a job whose extraction and embedding are done: its worker may start the next job
    (no-op outside a worker, or where the worker does not overlap jobs)."""
    slot = CURRENT_SLOT.get()
    if slot is not None:
        slot.release()
