"""One bounded retry of a whole use case whose transaction a database restart cut.

Opening a transaction already waits for the database (``db.engine``); what that cannot cover is a
transaction the restart cuts mid-statement. A read-only use case, or one idempotent by
construction (accepting a session), then runs once more from the start: its new transaction waits
for the database again, so a restart of a few seconds costs a delay instead of a 503. A failure
after the engine gave up waiting (:class:`~memforest.db.engine.DatabaseWaitExpired`) is not
retried: the database has been away for the whole wait already."""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable
from typing import ParamSpec, TypeVar

from memforest.db.engine import DatabaseWaitExpired
from memforest.errors import DatabaseUnavailableError

log = logging.getLogger(__name__)

P = ParamSpec("P")
T = TypeVar("T")


def retry_if_cut(fn: Callable[P, Awaitable[T]]) -> Callable[P, Awaitable[T]]:
    """``fn`` run once more when the database went away under it (DatabaseUnavailableError that
    is not the engine's expired wait). Only for use cases that may run twice: reads, and writes
    that find their own earlier commit (a second run must change nothing the first one did)."""

    @functools.wraps(fn)
    async def run(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return await fn(*args, **kwargs)
        except DatabaseWaitExpired:
            raise
        except DatabaseUnavailableError:
            log.warning("the database went away during %s; running it once more", fn.__name__)
        return await fn(*args, **kwargs)

    return run
