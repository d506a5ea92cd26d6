"""Named queries of forgetting (``memforest.lifecycle.forget``): a forest's or a tenant's rows,
deleted table by table (leaves of the dependency graph first) so every count is exact."""

from __future__ import annotations

import uuid

from memforest.store.fact_history import pause_history
from memforest.store.sql import Conn, execute, fetch_all, fetch_one

__all__ = [
    "FOREST_TABLES",
    "TENANT_TABLES",
    "delete_forest_rows",
    "delete_tenant_rows",
    "find_forest_id",
    "list_forest_ids",
]

#: Deletion order of a forest's rows (every table is filtered by tenant and forest).
FOREST_TABLES = (
    "placements",
    "nodes",
    "trees",
    "entity_facts",
    "entities",
    "scene_clusters",
    "fact_sources",
    "facts",
    "cells",
    "turns",
    "sessions",
    "jobs",
    "forests",
)
#: What forgetting a tenant deletes after its forests' tables, in this order.
TENANT_ROW_TABLES = ("jobs", "api_keys", "tenants")
#: What ``forget_tenant`` counts on top of its forests' tables.
TENANT_TABLES = (*FOREST_TABLES, "api_keys", "tenants")

_FIND_FOREST = "SELECT forest_id FROM forests WHERE tenant_id = :t AND name = :n"
_LIST_FORESTS = "SELECT forest_id FROM forests WHERE tenant_id = :t ORDER BY forest_id"
# Links between facts first, so deleting the facts does not rewrite rows about to go anyway.
_UNLINK_FACTS = """
UPDATE facts SET supersedes = NULL, superseded_by = NULL WHERE tenant_id = :t AND forest_id = :f
AND (supersedes IS NOT NULL OR superseded_by IS NOT NULL)
"""
_DELETE_FOREST_ROWS = {table: f"DELETE FROM {table} WHERE tenant_id = :t AND forest_id = :f" for table in FOREST_TABLES}
_DELETE_TENANT_ROWS = {table: f"DELETE FROM {table} WHERE tenant_id = :t" for table in TENANT_ROW_TABLES}


async def find_forest_id(conn: Conn, tenant_id: uuid.UUID, name: str) -> int | None:
    """The id of the tenant's forest ``name``, or None."""
    row = await fetch_one(conn, _FIND_FOREST, {"t": tenant_id, "n": name})
    return None if row is None else int(row["forest_id"])


async def list_forest_ids(conn: Conn, tenant_id: uuid.UUID) -> list[int]:
    """The ids of every forest of the tenant, oldest first."""
    return [int(r["forest_id"]) for r in await fetch_all(conn, _LIST_FORESTS, {"t": tenant_id})]


async def delete_forest_rows(conn: Conn, tenant_id: uuid.UUID, forest_id: int) -> dict[str, int]:
    """Delete every row of the forest (its ``forests`` row last); rows deleted per table. The
    caller holds the forest lock."""
    p = {"t": tenant_id, "f": forest_id}
    await pause_history(conn)  # the forest's fact events go with it: none are written for its rows
    await execute(conn, _UNLINK_FACTS, p)
    return {table: await execute(conn, _DELETE_FOREST_ROWS[table], p) for table in FOREST_TABLES}


async def delete_tenant_rows(conn: Conn, tenant_id: uuid.UUID) -> dict[str, int]:
    """Delete the tenant's remaining jobs, its API keys and its row; rows deleted per table."""
    p = {"t": tenant_id}
    return {table: await execute(conn, _DELETE_TENANT_ROWS[table], p) for table in TENANT_ROW_TABLES}
