"""Bounded waiting for a job to finish (``?wait=SECONDS`` on the write endpoints).

The wait polls the job's state with a short transaction per poll (no connection is held between
polls), starting at ``FIRST_POLL_S`` and backing off to ``MAX_POLL_S``, so a request that waits
costs at most a few dozen tiny reads."""

from __future__ import annotations

import asyncio
import time
import uuid
from typing import Any

from memforest.app.jobs import job_view
from memforest.db.engine import Database
from memforest.schemas.resources import JOB_DONE_STATES

__all__ = ["FIRST_POLL_S", "MAX_POLL_S", "wait_for_job"]

FIRST_POLL_S = 0.05
MAX_POLL_S = 0.5


async def wait_for_job(db: Database, tenant_id: uuid.UUID, job_id: str, timeout_s: float) -> dict[str, Any] | None:
    """The job's view once it succeeded or failed within ``timeout_s`` seconds, else None."""
    deadline = time.monotonic() + max(0.0, timeout_s)
    delay = FIRST_POLL_S
    while True:
        view = await job_view(db, tenant_id, job_id)
        if view.get("state") in JOB_DONE_STATES:
            return view
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        await asyncio.sleep(min(delay, left))
        delay = min(delay * 2, MAX_POLL_S)
