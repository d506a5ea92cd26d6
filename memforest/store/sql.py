"""Tiny helpers over SQLAlchemy ``text()`` statements: rows come back as plain dicts.

Every helper that reads takes either kind of transaction (:data:`Conn`): a write transaction
(``Database.tenant``, ``Database.system``: SQLAlchemy's transaction, whose statements go to the
driver once it is open, :mod:`~memforest.store.write_driver`, ADR 0053) or the read path's
(:class:`~memforest.store.read_conn.ReadConn`: the driver runs them, ADR 0022). The kind is the
handle's type; nothing is asked of the connection."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any, Literal, Protocol, cast

import numpy as np
from pgvector import Vector
from sqlalchemy import TextClause
from sqlalchemy import text as sa_text
from sqlalchemy.ext.asyncio import AsyncConnection

from memforest import tracing
from memforest.store import write_driver
from memforest.store.read_conn import ReadConn

Row = dict[str, Any]


class RowView(Protocol):
    """A row read by column name and not changed: a dict (:data:`Row`) or an asyncpg record."""

    def __getitem__(self, key: str, /) -> Any: ...

    def keys(self) -> Iterable[str]: ...  # (so ``dict(row)`` copies one)


# The transaction handle layers above the store hold and pass down: a transaction SQLAlchemy runs
# (``WriteConn``: ``Database.tenant``, ``Database.system``) or the read path's read-only one
# (ReadConn). Only store/ and db/ run statements on it; everyone else just passes it to store
# functions.
WriteConn = AsyncConnection
Conn = AsyncConnection | ReadConn


def writer(conn: Conn) -> WriteConn:
    """``conn`` as a transaction that may write; TypeError for a read-only one."""
    if isinstance(conn, ReadConn):
        raise TypeError("a read-only transaction cannot run this statement")
    return conn


@lru_cache(maxsize=2048)
def text(sql: str) -> TextClause:
    """``sqlalchemy.text(sql)``, made once per statement: building it parses the bind parameters
    with a regular expression, and the read path runs several statements per query."""
    return sa_text(sql)


async def fetch_all(conn: Conn, sql: str, params: Mapping[str, Any] | None = None) -> list[Row]:
    """All rows of ``sql`` as dicts."""
    if not isinstance(conn, ReadConn):
        return await _sqlalchemy_fetch(conn, sql, params)
    records = await conn.fetch(sql, params)
    if not records:
        return []
    # zip with the keys read once (every record has the same), not strict: the lengths are equal
    # by construction (ADR 0022)
    keys = tuple(records[0].keys())
    return [dict(zip(keys, r, strict=False)) for r in records]


async def fetch_rows(conn: Conn, sql: str, params: Mapping[str, Any] | None = None) -> list[RowView]:
    """All rows of ``sql`` as read-only views (columns by name), for the read path's statements of
    a few hundred rows that are read once and dropped: in a read transaction the driver's own
    records, not copied into dicts (ADR 0022); in a write transaction, dicts (as :func:`fetch_all`
    gives). A view cannot be changed or merged (``|``)."""
    if isinstance(conn, ReadConn):
        return cast("list[RowView]", await conn.fetch(sql, params))
    return cast("list[RowView]", await _sqlalchemy_fetch(conn, sql, params))


async def _sqlalchemy_fetch(conn: AsyncConnection, sql: str, params: Mapping[str, Any] | None) -> list[Row]:
    """The rows of ``sql`` in a write transaction as dicts: sent by the driver once the transaction
    is open (:mod:`~memforest.store.write_driver`), else through SQLAlchemy."""
    records = await write_driver.fetch(conn, sql, params)
    if records is not None:
        if not records:
            return []
        keys_ = tuple(records[0].keys())
        return [dict(zip(keys_, r, strict=True)) for r in records]
    with tracing.statement(sql):
        result = await conn.execute(text(sql), dict(params or {}))
    # zip with the keys read once: ``dict(row_mapping)`` rebuilt the key view for every row
    keys = tuple(result.keys())
    return [dict(zip(keys, r, strict=True)) for r in result]


async def fetch_one(conn: Conn, sql: str, params: Mapping[str, Any] | None = None) -> Row | None:
    """The first row of ``sql`` as a dict, or None (by :func:`fetch_all`: the driver reads every row
    of a statement either way)."""
    rows = await fetch_all(conn, sql, params)
    return rows[0] if rows else None


async def scalar(conn: Conn, sql: str, params: Mapping[str, Any] | None = None) -> Any:
    """The first column of the first row (None when there is no row)."""
    if isinstance(conn, ReadConn):
        records = await conn.fetch(sql, params)
        return records[0][0] if records else None
    direct = await write_driver.fetch(conn, sql, params)
    if direct is not None:
        return direct[0][0] if direct else None
    with tracing.statement(sql):
        result = await conn.execute(text(sql), dict(params or {}))
    return result.scalar()


async def execute(conn: Conn, sql: str, params: Mapping[str, Any] | None = None) -> int:
    """Run a statement; return the affected row count (in a read transaction, which cannot write:
    the rows it returned)."""
    if isinstance(conn, ReadConn):
        return len(await conn.fetch(sql, params))  # (read-only: a SELECT's rows)
    count = await write_driver.status(conn, sql, params)
    if count is not None:
        return count
    with tracing.statement(sql):
        result = await conn.execute(text(sql), dict(params or {}))
    return int(result.rowcount or 0)


async def execute_many(conn: Conn, sql: str, rows: Sequence[Mapping[str, Any]]) -> None:
    """Run a statement once per parameter row (the driver's executemany)."""
    with tracing.statement(sql):
        await writer(conn).execute(text(sql), [dict(r) for r in rows])


ForestLockPart = Literal["all", "sessions", "graph"]
_FOREST_LOCK = "SELECT pg_advisory_xact_lock(hashtextextended(:k, 0))"


async def lock_forest(conn: Conn, tenant_id: object, forest_id: int, part: ForestLockPart = "all") -> None:
    """Serialise structural edits of one forest for the rest of this transaction.

    A forest has two transaction-scoped advisory locks: ``sessions`` (accepting a session builds
    only that session's own new tree) and ``graph`` (an ingest commit or a refresh edits the shared
    entity and scene trees and node summaries). Accepts therefore never wait for a running commit.
    Lifecycle operations (retract, merge, forget, rebuild, export) take ``all``: both, always in
    the order sessions then graph, so no two lockers can wait on each other in a cycle.
    """
    parts: tuple[Literal["sessions", "graph"], ...] = ("sessions", "graph") if part == "all" else (part,)
    for name in parts:
        await writer(conn).execute(text(_FOREST_LOCK), {"k": forest_lock_key(tenant_id, forest_id, name)})


def forest_lock_key(tenant_id: object, forest_id: int, part: Literal["sessions", "graph"]) -> str:
    """The key of one of a forest's advisory locks (:func:`lock_forest`), hashed by the database."""
    return f"memforest:forest:{tenant_id}:{forest_id}:{part}"


_REFRESH_TRY_LOCK = "SELECT pg_try_advisory_lock(hashtextextended(:k, 0))"
_REFRESH_UNLOCK = "SELECT pg_advisory_unlock(hashtextextended(:k, 0))"


def _refresh_key(tenant_id: object, forest_id: int) -> str:
    return f"memforest:refresh:{tenant_id}:{forest_id}"


async def try_lock_refresh(conn: Conn, tenant_id: object, forest_id: int) -> bool:
    """Take the session-level advisory lock that serialises refreshes of one forest (held by the
    connection until :func:`unlock_refresh`, across the transactions the refresh opens) if no other
    connection holds it now; False (and no lock) otherwise. A refresh that must wait tries again
    (``memforest.pipeline.refresh``): waiting in the server would hold a pooled connection."""
    result = await writer(conn).execute(text(_REFRESH_TRY_LOCK), {"k": _refresh_key(tenant_id, forest_id)})
    return bool(result.scalar())


async def unlock_refresh(conn: Conn, tenant_id: object, forest_id: int) -> None:
    """Release the lock :func:`try_lock_refresh` took."""
    await writer(conn).execute(text(_REFRESH_UNLOCK), {"k": _refresh_key(tenant_id, forest_id)})


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
