"""A write transaction's statements sent to the driver directly, SQLAlchemy's transaction kept.

``Database.tenant`` and ``Database.system`` are SQLAlchemy transactions: SQLAlchemy begins them (at
their first statement), commits or rolls them back, and its error hooks see what it runs. What it
adds per statement besides (its cursor and result objects, a greenlet switch, the row processing
of its result) is a large part of the write path's own CPU, for statements whose rows are read
once into dicts. Once the transaction is open on the server, :func:`fetch` and :func:`status`
send a statement as :mod:`memforest.store.read_conn` does for the read path: the ``$n`` text and
parameters SQLAlchemy would send, on the same connection and so in the same transaction, one at a
time (SQLAlchemy's own lock on the connection is held), errors raised as SQLAlchemy raises them
and a broken connection invalidated. Before the first statement, outside any transaction
(``Database.autocommit``) and on a driver that is not asyncpg, they answer None and the caller
sends the statement through SQLAlchemy (ADR 0053).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import asyncpg
from sqlalchemy.ext.asyncio import AsyncConnection

from memforest import tracing
from memforest.db.failures import broken_connection
from memforest.store.read_conn import as_sqlalchemy_error, positional

__all__ = ["fetch", "status"]

# SQLAlchemy's reading of a command tag as a row count (its asyncpg cursor's ``rowcount``)
_ROWCOUNT = re.compile(r"(?:SELECT|UPDATE|DELETE|INSERT \d+) (\d+)")


def _open(conn: AsyncConnection) -> Any | None:
    """The pool's connection under ``conn`` when its transaction is open on the server, else None."""
    if conn.invalidated:
        return None
    sync = conn.sync_connection
    if sync is None or not sync.in_transaction():
        return None
    pooled = sync.connection
    driver = pooled.driver_connection
    if not isinstance(driver, asyncpg.Connection) or not driver.is_in_transaction():
        return None
    if getattr(pooled.dbapi_connection, "_execute_mutex", None) is None:
        return None
    return pooled


async def _run(conn: AsyncConnection, pooled: Any, sql: str, params: Mapping[str, Any] | None, rows: bool) -> Any:
    statement, names = positional(sql)
    values = params or {}
    args = [values[n] for n in names]
    adapted = pooled.dbapi_connection
    driver: asyncpg.Connection = pooled.driver_connection
    try:
        async with adapted._execute_mutex:
            with tracing.statement(sql):
                if rows:
                    return await driver.fetch(statement, *args)
                return await driver.execute(statement, *args)
    except Exception as exc:
        broken = broken_connection(exc)
        if broken:
            await conn.invalidate(exc)
        raise as_sqlalchemy_error(adapted, statement, exc, broken) from exc


async def fetch(conn: AsyncConnection, sql: str, params: Mapping[str, Any] | None) -> list[asyncpg.Record] | None:
    """The driver's records of ``sql`` (named ``:param`` placeholders), or None when the statement
    must go through SQLAlchemy (see the module doc)."""
    pooled = _open(conn)
    if pooled is None:
        return None
    records: list[asyncpg.Record] = await _run(conn, pooled, sql, params, rows=True)
    return records


async def status(conn: AsyncConnection, sql: str, params: Mapping[str, Any] | None) -> int | None:
    """Run ``sql``; its row count as SQLAlchemy's ``rowcount`` gives it (-1 for a command without
    one), or None when the statement must go through SQLAlchemy (see the module doc)."""
    pooled = _open(conn)
    if pooled is None:
        return None
    tag: str = await _run(conn, pooled, sql, params, rows=False)
    m = _ROWCOUNT.match(tag or "")
    return int(m.group(1)) if m else -1
