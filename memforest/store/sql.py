"""Tiny helpers over SQLAlchemy ``text()`` statements: rows come back as plain dicts."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any, Literal, Protocol, cast

import asyncpg
import numpy as np
from pgvector import Vector
from sqlalchemy import TextClause
from sqlalchemy import text as sa_text
from sqlalchemy.dialects.postgresql.asyncpg import dialect as asyncpg_dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncConnection

from memforest import tracing
from memforest.db.failures import broken_connection, raw_connection

Row = dict[str, Any]


class RowView(Protocol):
    """A row read by column name and not changed: a dict (:data:`Row`) or an asyncpg record."""

    def __getitem__(self, key: str, /) -> Any: ...

    def keys(self) -> Iterable[str]: ...  # (so ``dict(row)`` copies one)


# The transaction handle layers above the store hold and pass down. Only store/ and db/ run
# statements on it; everyone else just passes it to store functions.
Conn = AsyncConnection


@lru_cache(maxsize=2048)
def text(sql: str) -> TextClause:
    """``sqlalchemy.text(sql)``, made once per statement: building it parses the bind parameters
    with a regular expression, and the read path runs several statements per query."""
    return sa_text(sql)


_DIALECT = asyncpg_dialect()  # type: ignore[no-untyped-call]  # (SQLAlchemy leaves its __init__ untyped)


@lru_cache(maxsize=2048)
def _positional(sql: str) -> tuple[str, tuple[str, ...]]:
    """``sql`` as the driver receives it (``$n`` placeholders) and the parameter name of each ``$n``."""
    compiled = text(sql).compile(dialect=_DIALECT)
    return compiled.string, tuple(compiled.positiontup or ())


async def fetch_all(conn: AsyncConnection, sql: str, params: Mapping[str, Any] | None = None) -> list[Row]:
    """All rows of ``sql`` as dicts.

    Inside a transaction the statement goes to asyncpg directly, in the form SQLAlchemy would send
    it (same placeholders, same parameters: ``text()`` binds nothing itself), without SQLAlchemy's
    result machinery, whose cost per row counts on the read path's few-hundred-row statements
    (ADR 0022).
    Outside one (SQLAlchemy opens its transactions lazily, at the first statement) it goes through
    SQLAlchemy, so a fetch never runs outside the transaction its caller opened (on a connection
    invalidated in it: DatabaseUnavailableError, not another connection). Errors come out as
    SQLAlchemy's would (:func:`_as_sqlalchemy_error`), and one that leaves the connection unusable
    invalidates it, as the engine's error hook does for SQLAlchemy's statements."""
    records = await _driver_fetch(conn, sql, params)
    if records is None:
        return await _sqlalchemy_fetch(conn, sql, params)
    if not records:
        return []
    # zip with the keys read once (every record has the same), not strict: the lengths are equal
    # by construction (ADR 0022)
    keys = tuple(records[0].keys())
    return [dict(zip(keys, r, strict=False)) for r in records]


async def fetch_rows(conn: AsyncConnection, sql: str, params: Mapping[str, Any] | None = None) -> list[RowView]:
    """All rows of ``sql`` as read-only views (columns by name), for the read path's statements of
    a few hundred rows that are read once and dropped: inside a transaction the driver's own
    records, not copied into dicts (ADR 0022);
    outside one, dicts (as :func:`fetch_all` gives). A view cannot be changed or merged (``|``)."""
    records = await _driver_fetch(conn, sql, params)
    rows = records if records is not None else await _sqlalchemy_fetch(conn, sql, params)
    return cast("list[RowView]", rows)


async def _sqlalchemy_fetch(conn: AsyncConnection, sql: str, params: Mapping[str, Any] | None) -> list[Row]:
    """The rows of ``sql`` through SQLAlchemy (no transaction open yet: it opens one) as dicts."""
    with tracing.statement(sql):
        result = await conn.execute(text(sql), dict(params or {}))
    # zip with the keys read once: ``dict(row_mapping)`` rebuilt the key view for every row
    keys = tuple(result.keys())
    return [dict(zip(keys, r, strict=True)) for r in result]


async def _driver_fetch(conn: AsyncConnection, sql: str, params: Mapping[str, Any] | None) -> list[Any] | None:
    """The records of ``sql`` run by asyncpg directly inside the caller's transaction (see
    :func:`fetch_all`); None outside a transaction (the caller goes through SQLAlchemy)."""
    fairy = await raw_connection(conn)
    driver = fairy.driver_connection
    if not isinstance(driver, asyncpg.Connection) or not driver.is_in_transaction():
        return None
    statement, names = _positional(sql)
    values = params or {}
    adapted = fairy.dbapi_connection  # (None once invalidated: kept for the error's translation)
    try:
        with tracing.statement(sql):
            return await driver.fetch(statement, *[values[n] for n in names])  # type: ignore[no-any-return]
    except Exception as exc:
        broken = broken_connection(exc)
        if broken:
            await conn.invalidate(exc)
        raise _as_sqlalchemy_error(adapted, statement, exc, broken) from exc


def _as_sqlalchemy_error(adapted: Any, statement: str, exc: Exception, invalidated: bool) -> BaseException:
    """A driver error as SQLAlchemy raises it for its own statements: the asyncpg adapter's DBAPI
    translation (IntegrityError, InterfaceError, ...) wrapped in ``sqlalchemy.exc.DBAPIError``,
    parameters hidden, ``connection_invalidated`` set when the connection broke. Callers catch
    ``IntegrityError`` and the engine turns an invalidated connection into 503, whichever path
    the statement took."""
    try:
        adapted._handle_exception(exc)  # raises the adapter's translation (or exc itself)
    except Exception as translated:
        return DBAPIError.instance(
            statement, None, translated, adapted.dbapi.Error, hide_parameters=True, connection_invalidated=invalidated
        )
    return exc  # (the adapter always raises)


async def fetch_one(conn: AsyncConnection, sql: str, params: Mapping[str, Any] | None = None) -> Row | None:
    """The first row of ``sql`` as a dict, or None (by :func:`fetch_all`: the driver reads every row
    of a statement either way)."""
    rows = await fetch_all(conn, sql, params)
    return rows[0] if rows else None


async def scalar(conn: AsyncConnection, sql: str, params: Mapping[str, Any] | None = None) -> Any:
    """The first column of the first row (None when there is no row)."""
    if await _in_reading(conn):
        records = await _driver_fetch(conn, sql, params) or []
        return records[0][0] if records else None
    with tracing.statement(sql):
        result = await conn.execute(text(sql), dict(params or {}))
    return result.scalar()


async def execute(conn: AsyncConnection, sql: str, params: Mapping[str, Any] | None = None) -> int:
    """Run a statement; return the affected row count (in a reading transaction, which cannot write:
    the rows it returned)."""
    if await _in_reading(conn):
        return len(await _driver_fetch(conn, sql, params) or [])  # (read-only: a SELECT's rows)
    with tracing.statement(sql):
        result = await conn.execute(text(sql), dict(params or {}))
    return int(result.rowcount or 0)


async def _in_reading(conn: AsyncConnection) -> bool:
    """Whether ``conn`` is in a transaction of the driver's own (``Database.reading``), which
    SQLAlchemy does not know of: its statements must go to the driver (SQLAlchemy would try to
    open a transaction of its own)."""
    if conn.in_transaction():
        return False
    driver = (await raw_connection(conn)).driver_connection
    return isinstance(driver, asyncpg.Connection) and driver.is_in_transaction()


async def execute_many(conn: AsyncConnection, sql: str, rows: Sequence[Mapping[str, Any]]) -> None:
    """Run a statement once per parameter row (the driver's executemany)."""
    with tracing.statement(sql):
        await conn.execute(text(sql), [dict(r) for r in rows])


ForestLockPart = Literal["all", "sessions", "graph"]
_FOREST_LOCK = "SELECT pg_advisory_xact_lock(hashtextextended(:k, 0))"


async def lock_forest(conn: AsyncConnection, tenant_id: object, forest_id: int, part: ForestLockPart = "all") -> None:
    """Serialise structural edits of one forest for the rest of this transaction.

    A forest has two transaction-scoped advisory locks: ``sessions`` (accepting a session builds
    only that session's own new tree) and ``graph`` (an ingest commit or a refresh edits the shared
    entity and scene trees and node summaries). Accepts therefore never wait for a running commit.
    Lifecycle operations (retract, merge, forget, rebuild, export) take ``all``: both, always in
    the order sessions then graph, so no two lockers can wait on each other in a cycle.
    """
    parts = ("sessions", "graph") if part == "all" else (part,)
    for name in parts:
        await conn.execute(
            text(_FOREST_LOCK),
            {"k": f"memforest:forest:{tenant_id}:{forest_id}:{name}"},
        )


_REFRESH_TRY_LOCK = "SELECT pg_try_advisory_lock(hashtextextended(:k, 0))"
_REFRESH_UNLOCK = "SELECT pg_advisory_unlock(hashtextextended(:k, 0))"


def _refresh_key(tenant_id: object, forest_id: int) -> str:
    return f"memforest:refresh:{tenant_id}:{forest_id}"


async def try_lock_refresh(conn: AsyncConnection, tenant_id: object, forest_id: int) -> bool:
    """Take the session-level advisory lock that serialises refreshes of one forest (held by the
    connection until :func:`unlock_refresh`, across the transactions the refresh opens) if no other
    connection holds it now; False (and no lock) otherwise. A refresh that must wait tries again
    (``memforest.pipeline.refresh``): waiting in the server would hold a pooled connection."""
    result = await conn.execute(text(_REFRESH_TRY_LOCK), {"k": _refresh_key(tenant_id, forest_id)})
    return bool(result.scalar())


async def unlock_refresh(conn: AsyncConnection, tenant_id: object, forest_id: int) -> None:
    """Release the lock :func:`try_lock_refresh` took."""
    await conn.execute(text(_REFRESH_UNLOCK), {"k": _refresh_key(tenant_id, forest_id)})


def vector_array(vectors: Sequence[Any]) -> list[Vector]:
    """Vectors as a ``vector[]`` parameter (``CAST(:v AS vector[])``, indexed from 1): pgvector's
    binary codec per element, far cheaper than a flat ``real[]`` encoded number by number."""
    return [Vector(np.asarray(v, dtype=np.float32)) for v in vectors]


def as_vector(value: Any) -> np.ndarray[Any, Any]:
    """A stored pgvector value (driver object, list or array) as a float32 numpy array."""
    to_numpy = getattr(value, "to_numpy", None)
    if to_numpy is not None:
        return np.asarray(to_numpy(), dtype=np.float32)
    return np.asarray(value, dtype=np.float32)
