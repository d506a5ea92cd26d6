"""Which driver errors mean the database is not there, or a connection is no longer usable."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import asyncpg
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncConnection

from memforest.errors import DatabaseUnavailableError, is_driver_error

# SQLSTATE classes meaning "the server is not there for us": 08 connection exception, 57P01-05
# admin/crash shutdown, cannot connect now (starting up or shutting down), database dropped.
UNAVAILABLE_SQLSTATE_PREFIXES = ("08", "57P")
# What asyncpg says when the connection died under it (no SQLSTATE: the socket is gone).
_CLOSED_PHRASES = ("connection is closed", "connection was closed", "underlying connection is closed")


def _error_chain(exc: BaseException) -> Iterator[BaseException]:
    """``exc``, the driver error SQLAlchemy wraps (``orig``) and their causes and contexts."""
    seen: set[int] = set()
    todo: list[BaseException | None] = [exc]
    while todo and len(seen) < 16:
        e = todo.pop()
        if e is None or id(e) in seen:
            continue
        seen.add(id(e))
        yield e
        orig = getattr(e, "orig", None)
        todo += [e.__context__, e.__cause__, orig if isinstance(orig, BaseException) else None]


def database_unavailable(exc: BaseException) -> bool:
    """Whether ``exc`` means the database cannot be reached now (restart, shutdown, lost
    connection) rather than that a statement is wrong: the caller may retry later."""
    for e in _error_chain(exc):
        if isinstance(e, DBAPIError) and e.connection_invalidated:
            return True
        if isinstance(e, asyncpg.exceptions.ConnectionDoesNotExistError | asyncpg.exceptions.ConnectionFailureError):
            return True
        if isinstance(e, ConnectionError):  # refused or reset
            return True
        state = getattr(e, "sqlstate", None) or getattr(e, "pgcode", None)
        if isinstance(state, str) and state.startswith(UNAVAILABLE_SQLSTATE_PREFIXES):
            return True
        if is_driver_error(e) and any(p in str(e) for p in _CLOSED_PHRASES):
            return True
    return False


def broken_connection(exc: BaseException) -> bool:
    """Whether ``exc`` leaves its connection unusable: the database went away, or asyncpg's
    protocol is stuck mid-operation (after an unsolicited FATAL or an interrupted statement)."""
    for e in _error_chain(exc):
        if isinstance(e, asyncpg.exceptions.InternalClientError) and "cannot switch to state" in str(e):
            return True
    return database_unavailable(exc)


def unencodable(exc: BaseException) -> bool:
    """Whether the driver could not even send a parameter: text that is not UTF-8 (a lone
    surrogate, which JSON's escapes can carry), refused before it reaches the server."""
    return any(isinstance(e, UnicodeEncodeError) for e in _error_chain(exc))


async def raw_connection(conn: AsyncConnection) -> Any:
    """The pool's connection under ``conn`` (its ``driver_connection`` is asyncpg's), for a statement
    of a transaction the driver runs; DatabaseUnavailableError once ``conn`` was invalidated:
    SQLAlchemy would silently check out another connection, outside the transaction and without
    the tenant's role (ADR 0022). Read without a greenlet (``get_raw_connection`` runs the same
    attribute in one): on a connection that is not invalidated it does no IO, it is the pool's
    connection, or ResourceClosedError once ``conn`` was closed."""
    if conn.invalidated:  # (a connection never started raises here too)
        raise DatabaseUnavailableError()
    sync = conn.sync_connection
    if sync is None:  # pragma: no cover  (``invalidated`` raised for it)
        raise DatabaseUnavailableError()
    return sync.connection
