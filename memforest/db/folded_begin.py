"""A write transaction's BEGIN and its opening statement in one round trip, SQLAlchemy's transaction kept.

SQLAlchemy's asyncpg adapter begins a transaction at its first statement, with a ``BEGIN`` of its
own (asyncpg's ``Transaction.start``): one round trip, then the statement. :func:`begin` sends both
as one simple-protocol query (``BEGIN; SELECT set_config(...)``) on a connection SQLAlchemy has
begun but not yet started on the server, and then records the transaction as started where the
adapter and asyncpg keep it (the adapter's ``_transaction`` and ``_started``, asyncpg's
``Transaction._state`` and ``Connection._top_xact``: the state ``Transaction.start`` leaves), so
SQLAlchemy's COMMIT and ROLLBACK end it as they end their own. The opening statement takes no
parameters (the simple protocol has none): the caller writes its values as checked literals
(ADR 0082).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager, AsyncExitStack, suppress
from typing import Any

import asyncpg
from asyncpg.transaction import Transaction, TransactionState
from sqlalchemy.ext.asyncio import AsyncConnection

from memforest.db.failures import broken_connection, raw_connection
from memforest.errors import DatabaseUnavailableError

__all__ = ["begin", "begun"]

# asyncpg's BEGIN for each isolation level SQLAlchemy's adapter may pass (None: the server's default)
_ISOLATION = {
    None: "",
    "read_committed": " ISOLATION LEVEL READ COMMITTED",
    "read_uncommitted": " ISOLATION LEVEL READ UNCOMMITTED",
    "repeatable_read": " ISOLATION LEVEL REPEATABLE READ",
    "serializable": " ISOLATION LEVEL SERIALIZABLE",
}


# where the adapter and asyncpg keep a transaction's state: a release that moves any of them
# leaves every transaction to SQLAlchemy's own BEGIN (a round trip more, nothing else changes)
_ADAPTER_STATE = ("_started", "_transaction", "_execute_mutex", "isolation_level", "readonly", "deferrable")
_DRIVER_STATE = ("_top_xact",)


def _state_known(adapted: Any, driver: Any) -> bool:
    """Whether the adapter and the driver keep their transaction state where :func:`begin` sets it."""
    return (
        hasattr(Transaction, "_state")
        and all(hasattr(adapted, name) for name in _ADAPTER_STATE)
        and all(hasattr(driver, name) for name in _DRIVER_STATE)
    )


def _begin_sql(adapted: Any) -> str | None:
    """The ``BEGIN`` asyncpg would send for the adapter's settings, or None when it would send none
    (autocommit) or has already begun."""
    level = adapted.isolation_level
    if adapted._started or level not in _ISOLATION:
        return None
    return (
        "BEGIN"
        + _ISOLATION[level]
        + (" READ ONLY" if adapted.readonly else "")
        + (" DEFERRABLE" if adapted.deferrable else "")
    )


async def begin(conn: AsyncConnection, opening: str = "") -> bool:
    """Start ``conn``'s transaction on the server with ``opening`` (a statement without parameters,
    or nothing) in the same round trip. False, with nothing sent, when the connection is not one
    SQLAlchemy has begun and left unstarted on asyncpg: the caller goes on as usual. An error that
    broke the connection invalidates it and is DatabaseUnavailableError; after any other error the
    connection is invalidated too (its transaction may be open and failed) and the error raised."""
    pooled = await raw_connection(conn)
    adapted = pooled.dbapi_connection
    driver = pooled.driver_connection
    sync = conn.sync_connection
    if sync is None or not sync.in_transaction() or not isinstance(driver, asyncpg.Connection):
        return False
    if not _state_known(adapted, driver):
        return False
    begin_sql = _begin_sql(adapted)
    if begin_sql is None or driver.is_in_transaction():
        return False
    try:
        xact = driver.transaction(
            isolation=adapted.isolation_level, readonly=adapted.readonly, deferrable=adapted.deferrable
        )
        async with adapted._execute_mutex:
            await driver.execute(f"{begin_sql}; {opening}" if opening else begin_sql)
    except Exception as exc:
        with suppress(Exception):
            await conn.invalidate(exc)
        if broken_connection(exc):
            raise DatabaseUnavailableError() from exc
        raise
    xact._state = TransactionState.STARTED
    driver._top_xact = xact
    adapted._transaction = xact
    adapted._started = True
    return True


async def begun(
    outer: AsyncExitStack, checkout: Callable[[bool], AbstractAsyncContextManager[AsyncConnection]], opening: str
) -> AsyncConnection | None:
    """A connection of ``checkout(ping)`` (a pool checkout in SQLAlchemy's transaction, pre-pinged
    when ``ping``), closed with ``outer``, whose transaction :func:`begin` began with ``opening``.
    The pool does not ping it first: that round trip is as good a check. When the connection turns
    out to be one the database dropped while it sat in the pool, nothing has run on it: it is
    discarded and the transaction begins on another, which the pool pings as usual. None, with
    nothing left checked out, when the connection cannot begin that way (the caller begins as
    SQLAlchemy does)."""
    for ping in (False, True):
        stack = AsyncExitStack()
        try:
            conn = await stack.enter_async_context(checkout(ping))
        except BaseException:
            await stack.aclose()
            raise
        try:
            started = await begin(conn, opening)
        except DatabaseUnavailableError as exc:  # (the connection was invalidated)
            with suppress(Exception):
                await stack.__aexit__(type(exc), exc, exc.__traceback__)
            if ping:
                raise
            continue
        except BaseException as exc:  # an error or a cancel: the connection was invalidated
            if not await stack.__aexit__(type(exc), exc, exc.__traceback__):
                raise
            raise AssertionError("unreachable") from exc  # pragma: no cover  (nothing suppresses it)
        if not started:
            await stack.aclose()
            return None
        await outer.enter_async_context(stack)
        return conn
    raise AssertionError("unreachable")  # pragma: no cover
