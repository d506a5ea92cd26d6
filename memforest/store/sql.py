"""Tiny helpers over SQLAlchemy ``text()`` statements: rows come back as plain dicts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import numpy as np
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection

Row = dict[str, Any]

# The transaction handle layers above the store hold and pass down. Only store/ and db/ run
# statements on it; everyone else just passes it to store functions.
Conn = AsyncConnection


async def fetch_all(conn: AsyncConnection, sql: str, params: Mapping[str, Any] | None = None) -> list[Row]:
    """All rows of ``sql`` as dicts."""
    result = await conn.execute(text(sql), dict(params or {}))
    return [dict(r) for r in result.mappings()]


async def fetch_one(conn: AsyncConnection, sql: str, params: Mapping[str, Any] | None = None) -> Row | None:
    """The first row of ``sql`` as a dict, or None."""
    result = await conn.execute(text(sql), dict(params or {}))
    row = result.mappings().first()
    return dict(row) if row is not None else None


async def scalar(conn: AsyncConnection, sql: str, params: Mapping[str, Any] | None = None) -> Any:
    """The first column of the first row (None when there is no row)."""
    result = await conn.execute(text(sql), dict(params or {}))
    return result.scalar()


async def execute(conn: AsyncConnection, sql: str, params: Mapping[str, Any] | None = None) -> int:
    """Run a statement; return the affected row count."""
    result = await conn.execute(text(sql), dict(params or {}))
    return int(result.rowcount or 0)


ForestLockPart = Literal["all", "sessions", "graph"]


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
            text("SELECT pg_advisory_xact_lock(hashtextextended(:k, 0))"),
            {"k": f"memforest:forest:{tenant_id}:{forest_id}:{name}"},
        )


def as_vector(value: Any) -> np.ndarray[Any, Any]:
    """A stored pgvector value (driver object, list or array) as a float32 numpy array."""
    to_numpy = getattr(value, "to_numpy", None)
    if to_numpy is not None:
        return np.asarray(to_numpy(), dtype=np.float32)
    return np.asarray(value, dtype=np.float32)
