"""Worker slots: how many jobs of a worker are in their model phase at once.

A worker runs up to ``concurrency`` jobs at once. An ingest job's extraction and embedding calls
come first; then it waits for the forest's older sessions to commit, commits, and refreshes its
lowest levels (a few summary calls): work that waits on locks and on other jobs more than on the
model server. With ``worker.commit_overlap`` (ADR 0027) such a job gives its slot to the next
queued job once its extraction and embedding are done (:func:`release_slot`), so the next
session's extraction overlaps this one's waiting; the worker then runs at most ``concurrency`` more
jobs past that point.

Admission against the chat budget (ADR 0099). Where ``worker.concurrency`` was derived rather than
given, ``concurrency`` is only the most jobs the database pool serves, and a job is admitted while
the extraction calls the admitted jobs ask for at once fall short of the chat budget
(``llm.concurrency``, the model server's batch). An ingest job declares its calls
(:func:`declare_calls`: its cells, at most ``pipeline.extract_concurrency``) before it asks for
them; a job admitted before it declares is charged the running mean of recent declarations
(``pipeline.extract_concurrency`` before the first). So a server of any size is kept as full as its
sessions' cells allow, whether a session has two cells or twenty, and never fewer than ``least``
jobs run (the shipped default, so a small budget keeps the jobs it had).
"""

from __future__ import annotations

import asyncio
from contextvars import ContextVar

# how fast the charge of a job not yet declared follows the declarations (a running mean of about
# the last eight jobs)
_GUESS_WEIGHT = 1 / 8


# connections one admitted job may hold at once: its own tenant transaction, one of the job
# committing behind it (commit overlap), and a short queue statement of the owner pool
CONNECTIONS_A_JOB = 3


def jobs_the_server_holds(room: int, *, side_pool: int) -> int:
    """How many jobs the database's ``room`` (connections it accepts now) serves beside a side pool
    of ``side_pool`` connections, at :data:`CONNECTIONS_A_JOB` each (at least one)."""
    return max(1, (room - side_pool) // CONNECTIONS_A_JOB)


class Admission:
    """Which jobs of a worker may start: at most ``most`` at once, and past ``least`` only while the
    declared (or guessed) calls of the admitted jobs are under ``budget`` (no budget: ``most``)."""

    def __init__(self, most: int, *, budget: int | None = None, least: int | None = None, guess: float = 1.0) -> None:
        self.most = max(1, most)
        self.least = self.most if budget is None else max(1, min(least or 1, self.most))
        self.budget = budget
        self.guess = float(guess)  # calls a job that has not declared yet is charged
        self.demand = 0.0  # calls charged to the admitted jobs
        self.admitted = 0
        self.most_admitted = 0  # the largest number of jobs admitted at once so far
        self._waiters: list[asyncio.Future[None]] = []

    def _open(self) -> bool:
        if self.admitted >= self.most:
            return False
        if self.admitted < self.least or self.budget is None:
            return True
        return self.demand < self.budget

    def _wake(self) -> None:
        # wake one waiter while a job may start; it wakes the next once it has taken its slot
        if not self._open():
            return
        while self._waiters:
            waiter = self._waiters.pop(0)
            if not waiter.done():
                waiter.set_result(None)
                return

    async def acquire(self) -> JobSlot:
        """Wait until a job may start; its slot (charged the current guess)."""
        while not self._open():
            waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
            try:
                await waiter
            except asyncio.CancelledError:
                if waiter.done() and not waiter.cancelled():
                    self._wake()  # (woken, then cancelled: the next waiter gets the turn)
                raise
        slot = JobSlot(self, self.guess)
        self.admitted += 1
        self.most_admitted = max(self.most_admitted, self.admitted)
        self.demand += slot.charge
        self._wake()
        return slot

    def _declare(self, slot: JobSlot, calls: int) -> None:
        self.demand += calls - slot.charge
        slot.charge = float(calls)
        self.guess += (calls - self.guess) * _GUESS_WEIGHT
        self._wake()

    def _release(self, slot: JobSlot) -> None:
        self.admitted -= 1
        self.demand = max(0.0, self.demand - slot.charge) if self.admitted else 0.0
        self._wake()


class JobSlot:
    """One claimed job's hold on its worker's admission, released once."""

    def __init__(self, admission: Admission, charge: float) -> None:
        self._admission = admission
        self.charge = charge
        self._held = True

    def declare(self, calls: int) -> None:
        """The model calls this job asks for at once (replaces its charge)."""
        if self._held:
            self._admission._declare(self, max(0, calls))

    def release(self) -> None:
        """Give the slot back (later calls do nothing)."""
        if self._held:
            self._held = False
            self._admission._release(self)


# the running job's slot; ``CURRENT_OVERLAP`` says whether it gives it back after its model calls
CURRENT_SLOT: ContextVar[JobSlot | None] = ContextVar("memforest_job_slot", default=None)
CURRENT_OVERLAP: ContextVar[bool] = ContextVar("memforest_job_overlap", default=False)


def declare_calls(calls: int) -> None:
    """Called by a job before it asks for its model calls: how many it asks for at once (no-op
    outside a worker)."""
    slot = CURRENT_SLOT.get()
    if slot is not None:
        slot.declare(calls)


def release_slot() -> None:
    """Called by a job whose extraction and embedding are done: its worker may start the next job
    (no-op outside a worker, or where the worker does not overlap jobs)."""
    slot = CURRENT_SLOT.get()
    if slot is not None and CURRENT_OVERLAP.get():
        slot.release()
