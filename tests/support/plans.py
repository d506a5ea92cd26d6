"""Plans of prepared statements: what a statement runs on once its transaction plans generically."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from memforest.store.read_conn import positional
from memforest.store.sql import Conn, execute, fetch_all, scalar


async def planning(conn: Conn) -> tuple[str, str]:
    """The transaction's ``plan_cache_mode`` and ``enable_seqscan``, as they are now."""
    rows = await fetch_all(
        conn, "SELECT current_setting('plan_cache_mode') AS m, current_setting('enable_seqscan') AS s"
    )
    return str(rows[0]["m"]), str(rows[0]["s"])


def sql_literal(value: Any) -> str:
    """``value`` as an SQL literal of the type its parameter takes."""
    if value is None:
        return "NULL"
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    if isinstance(value, uuid.UUID):
        return f"'{value}'::uuid"
    if isinstance(value, bool | int):
        return str(int(value))
    if isinstance(value, np.ndarray):
        return "'[" + ",".join(repr(float(x)) for x in value) + "]'::vector"
    if isinstance(value, list) and all(isinstance(x, str) for x in value) and value:
        return "'{" + ",".join(value) + "}'::text[]"
    if isinstance(value, list):
        return "'{" + ",".join(str(int(x)) for x in value) + "}'::bigint[]"
    raise TypeError(type(value))


def plan_nodes(plan: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    """``plan`` (EXPLAIN's JSON) and every node under it."""
    yield plan
    for child in plan.get("Plans", ()):
        yield from plan_nodes(child)


async def generic_plan(conn: Conn, sql: str, params: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The nodes of the plan that a prepared ``sql`` runs on with ``params`` (the generic one while
    the transaction plans generically), read with EXPLAIN EXECUTE of an SQL-level prepared statement.
    A list of strings becomes ``text[]`` (an empty list ``bigint[]``: pass a typed one where it matters)."""
    statement, names = positional(sql)
    await execute(conn, f"PREPARE plan_probe AS {statement}")
    try:
        args = ", ".join(sql_literal(params[n]) for n in names)
        raw = await scalar(conn, f"EXPLAIN (FORMAT JSON) EXECUTE plan_probe({args})")
    finally:
        await execute(conn, "DEALLOCATE plan_probe")
    top = (json.loads(raw) if isinstance(raw, str) else raw)[0]["Plan"]
    return list(plan_nodes(top))
