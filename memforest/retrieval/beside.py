"""Reads beside a query: work a query needs that depends on nothing its own transaction reads (the
full-text channels, a temporal question's subject probe), started with the query in a transaction
of the side pool (``store.reading.read_beside``), its value handed on as soon as it is read.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from typing import Any, TypeVar

from memforest.errors import is_driver_error, public_reason

log = logging.getLogger(__name__)

__all__ = ["beside", "hand_on", "settle"]

T = TypeVar("T")


@asynccontextmanager
async def beside(
    start: Callable[[asyncio.Future[T | None]], Coroutine[Any, Any, T | None]],
) -> AsyncIterator[asyncio.Future[T | None]]:
    """The value of the side read ``start(handed)`` as a future, set as soon as the read hands it
    on (``handed``, before its side transaction's COMMIT) or when the read ends. On leaving, a side
    read still running is cancelled and one that handed its value on is waited for (its COMMIT); an
    error of the query's comes first (the side's own error is read and dropped). A query cancelled
    again while it waits for that COMMIT leaves the side to end on its own: it still commits and
    returns its connection, and :func:`settle` reads and logs its error."""
    got: asyncio.Future[T | None] = asyncio.get_running_loop().create_future()
    task = asyncio.create_task(start(got))
    task.add_done_callback(functools.partial(settle, got))
    try:
        yield got
    finally:
        if not got.done() or got.cancelled():  # (cancelled: the query was, while it waited for it)
            task.cancel()
        await asyncio.wait({task})
        if not task.cancelled():
            task.exception()
        if got.done() and not got.cancelled():
            got.exception()


def hand_on(handed: asyncio.Future[T | None] | None, value: T) -> T:
    """``value``, handed on first to the query waiting for it (``handed``, when it waits still)."""
    if handed is not None and not handed.done():
        handed.set_result(value)
    return value


def settle(got: asyncio.Future[T | None], task: asyncio.Task[T | None]) -> None:
    """``got`` as the side read ended, unless it handed its value on before: its value, error or
    cancel. A side that handed its value on and then failed (its COMMIT) has its error read and
    logged here, also when no query waits for it any more (a query cancelled while it waited for
    the COMMIT)."""
    if got.done():
        if not task.cancelled() and (error := task.exception()) is not None:
            log.warning("side read failed after handing its rows on: %s", _term_free(error))
        return
    if task.cancelled():
        got.cancel()
    elif (error := task.exception()) is not None:
        got.set_exception(error)
    else:
        got.set_result(task.result())


def _term_free(error: BaseException) -> str:
    """What the log may say of a side read's error: its class, and a driver error's SQLSTATE
    (``errors.public_reason``), never its text, which can quote the question's search terms."""
    return public_reason(error) if is_driver_error(error) else type(error).__name__
