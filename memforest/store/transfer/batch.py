"""One statement over many parameter rows (executemany), in chunks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import text

from memforest.store.sql import Conn, writer

__all__ = ["execute_many"]

CHUNK = 5000


async def execute_many(conn: Conn, sql: str, rows: Sequence[Mapping[str, Any]]) -> None:
    """Run ``sql`` once per row, ``CHUNK`` rows per round trip; nothing when there are no rows."""
    for i in range(0, len(rows), CHUNK):
        chunk = [dict(r) for r in rows[i : i + CHUNK]]
        if chunk:
            await writer(conn).execute(text(sql), chunk)
