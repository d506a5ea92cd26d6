"""The read path's transaction handle: its statements go to asyncpg directly.

A read-only tenant transaction (``Database.reading``) is begun and ended by the driver, not by
SQLAlchemy, which therefore does not know of it: its statements must go to the driver too. They do
so here only, in the form SQLAlchemy would send them (same ``$n`` placeholders, same parameters),
without SQLAlchemy's result machinery, whose cost per row counts on the read path's
few-hundred-row statements (ADR 0022). A write transaction (``Database.tenant``) is a plain
SQLAlchemy connection and never reaches this path (its statements go to the driver by
:mod:`memforest.store.write_driver`, in the same form, inside SQLAlchemy's transaction).
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import asyncpg
from sqlalchemy import text as sa_text
from sqlalchemy.dialects.postgresql.asyncpg import dialect as asyncpg_dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncConnection

from memforest import tracing
from memforest.db.failures import broken_connection, raw_connection
from memforest.errors import DatabaseUnavailableError

if TYPE_CHECKING:
    from memforest.db.engine import Database

__all__ = ["ReadConn", "positional", "reading"]

_DIALECT = asyncpg_dialect()  # type: ignore[no-untyped-call]  # (SQLAlchemy leaves its __init__ untyped)


@lru_cache(maxsize=2048)
def positional(sql: str) -> tuple[str, tuple[str, ...]]:
    """``sql`` as the driver receives it (``$n`` placeholders) and the parameter name of each ``$n``."""
    compiled = sa_text(sql).compile(dialect=_DIALECT)
    return compiled.string, tuple(compiled.positiontup or ())


class ReadConn:
    """A read-only tenant transaction the driver runs: statements in, the driver's records out.

    Made by :func:`reading` only. Errors come out as SQLAlchemy's would (:func:`as_sqlalchemy_error`:
    callers catch the same classes whichever transaction they read in), and one that leaves the
    connection unusable invalidates it, as the engine's error hook does for SQLAlchemy's statements;
    once invalidated, every statement is DatabaseUnavailableError (never a statement on another
    connection, outside the transaction and without the tenant's role)."""

    __slots__ = ("_adapted", "_conn", "_driver")

    def __init__(self, conn: AsyncConnection, pool_connection: Any) -> None:
        self._conn = conn
        self._driver: asyncpg.Connection = pool_connection.driver_connection
        self._adapted = pool_connection.dbapi_connection  # (kept for the translation of errors)

    async def fetch(self, sql: str, params: Mapping[str, Any] | None = None) -> list[asyncpg.Record]:
        """The records of ``sql`` (named ``:param`` placeholders, as for SQLAlchemy's ``text()``)."""
        if self._conn.invalidated:
            raise DatabaseUnavailableError()
        statement, names = positional(sql)
        values = params or {}
        try:
            with tracing.statement(sql):
                records: list[asyncpg.Record] = await self._driver.fetch(statement, *[values[n] for n in names])
                return records
        except Exception as exc:
            broken = broken_connection(exc)
            if broken:
                await self._conn.invalidate(exc)
            raise as_sqlalchemy_error(self._adapted, statement, exc, broken) from exc


def as_sqlalchemy_error(adapted: Any, statement: str, exc: Exception, invalidated: bool) -> BaseException:
    """A driver error as SQLAlchemy raises it for its own statements: the asyncpg adapter's DBAPI
    translation (IntegrityError, InterfaceError, ...) wrapped in ``sqlalchemy.exc.DBAPIError``,
    parameters hidden, ``connection_invalidated`` set when the connection broke. The engine turns
    an invalidated connection into 503 whichever transaction the statement ran in."""
    try:
        adapted._handle_exception(exc)  # raises the adapter's translation (or exc itself)
    except Exception as translated:
        return DBAPIError.instance(
            statement, None, translated, adapted.dbapi.Error, hide_parameters=True, connection_invalidated=invalidated
        )
    return exc  # (the adapter always raises)


@asynccontextmanager
async def reading(
    db: Database, tenant_id: uuid.UUID, *, side: bool = False, knobs: Mapping[str, str] | None = None
) -> AsyncIterator[ReadConn]:
    """A read-only transaction of ``tenant_id`` (``Database.reading``: ``side`` pool, settings
    ``knobs``) and its handle."""
    async with db.reading(tenant_id, side=side, knobs=knobs) as conn:
        yield ReadConn(conn, await raw_connection(conn))
