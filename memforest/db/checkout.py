"""A pooled connection for a transaction the driver runs (``Database.reading``), checked out and
returned without the task SQLAlchemy's ``async with`` closes a connection in (ADR 0062)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

__all__ = ["checked_out"]


@asynccontextmanager
async def checked_out(engine: AsyncEngine) -> AsyncIterator[AsyncConnection]:
    """``engine.connect()`` for a transaction the driver runs. A body that ends normally has ended
    that transaction (or invalidated the connection), so the pool's check-in does no IO (the
    driver adapter's rollback on return is a no-op for a transaction SQLAlchemy did not begin) and
    has no await a cancel could stop it at: the connection is closed in place, not in the task
    that SQLAlchemy's ``async with`` shields its close in (a task and its event-loop turns per
    transaction: ADR 0062). After an error or a cancel it is closed as ``async with`` closes it."""
    conn = await engine.connect().start()
    try:
        yield conn
    except BaseException as exc:
        await conn.__aexit__(type(exc), exc, exc.__traceback__)
        raise
    await conn.close()
