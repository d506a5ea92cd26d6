"""Forget: hard delete of a whole forest, or of a whole tenant, with counts of what went.

Rows are deleted table by table (leaves of the dependency graph first) so every count is exact,
inside one transaction per forest under the forest lock. Forgetting is idempotent: an absent
forest or tenant yields all-zero counts, never an error (the HTTP API turns that into a 404).
A tenant is forgotten forest by forest (one transaction each), then its remaining jobs, keys and
row; a crash half-way leaves a tenant with fewer forests, and running it again finishes the job.
"""

from __future__ import annotations

import uuid

from sqlalchemy.ext.asyncio import AsyncConnection

from memforest.db.engine import Database
from memforest.store.sql import execute, fetch_all, fetch_one, lock_forest

__all__ = ["FOREST_TABLES", "TENANT_TABLES", "forget_forest", "forget_tenant"]

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
#: What ``forget_tenant`` counts on top of its forests' tables.
TENANT_TABLES = (*FOREST_TABLES, "api_keys", "tenants")


def _zeros(tables: tuple[str, ...]) -> dict[str, int]:
    return dict.fromkeys(tables, 0)


async def _forget_forest_in(conn: AsyncConnection, tenant_id: uuid.UUID, forest_id: int) -> dict[str, int]:
    await lock_forest(conn, tenant_id, forest_id)
    p = {"t": tenant_id, "f": forest_id}
    counts = _zeros(FOREST_TABLES)
    # Links between facts first, so deleting the facts does not rewrite rows about to go anyway.
    await execute(
        conn,
        "UPDATE facts SET supersedes = NULL, superseded_by = NULL WHERE tenant_id = :t AND forest_id = :f "
        "AND (supersedes IS NOT NULL OR superseded_by IS NOT NULL)",
        p,
    )
    for table in FOREST_TABLES:
        counts[table] = await execute(conn, f"DELETE FROM {table} WHERE tenant_id = :t AND forest_id = :f", p)
    return counts


async def forget_forest(db: Database, tenant_id: uuid.UUID, name: str) -> dict[str, int]:
    """Delete forest ``name`` of the tenant and everything in it (sessions, turns, cells, facts and
    their sources, entities, scenes, trees, nodes, placements, jobs). Returns rows deleted per table;
    all zeros when there is no such forest."""
    async with db.tenant(tenant_id) as conn:
        row = await fetch_one(
            conn, "SELECT forest_id FROM forests WHERE tenant_id = :t AND name = :n", {"t": tenant_id, "n": name}
        )
        if row is None:
            return _zeros(FOREST_TABLES)
        return await _forget_forest_in(conn, tenant_id, int(row["forest_id"]))


async def forget_tenant(db: Database, tenant_id: uuid.UUID) -> dict[str, int]:
    """Delete every forest of the tenant, then its other jobs, its API keys and the tenant itself.
    Returns rows deleted per table (``tenants`` is 1, or 0 when there was no such tenant)."""
    counts = _zeros(TENANT_TABLES)
    async with db.tenant(tenant_id) as conn:
        forests = await fetch_all(
            conn, "SELECT forest_id FROM forests WHERE tenant_id = :t ORDER BY forest_id", {"t": tenant_id}
        )
    for f in forests:
        async with db.tenant(tenant_id) as conn:
            for table, n in (await _forget_forest_in(conn, tenant_id, int(f["forest_id"]))).items():
                counts[table] += n
    async with db.tenant(tenant_id) as conn:
        p = {"t": tenant_id}
        counts["jobs"] += await execute(conn, "DELETE FROM jobs WHERE tenant_id = :t", p)
        counts["api_keys"] += await execute(conn, "DELETE FROM api_keys WHERE tenant_id = :t", p)
        counts["tenants"] += await execute(conn, "DELETE FROM tenants WHERE tenant_id = :t", p)
    return counts
