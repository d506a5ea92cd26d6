"""Forget: hard delete of a whole forest, or of a whole tenant, with counts of what went.

Rows are deleted table by table (leaves of the dependency graph first) so every count is exact,
inside one transaction per forest under the forest lock. Forgetting is idempotent: an absent
forest or tenant yields all-zero counts, never an error (the HTTP API turns that into a 404).
A tenant is forgotten forest by forest (one transaction each), then its remaining jobs, keys and
row; a crash half-way leaves a tenant with fewer forests, and running it again finishes the job.
The statements are in :mod:`memforest.store.forget`.
"""

from __future__ import annotations

import uuid

from memforest.db.engine import Database
from memforest.pipeline.forest_indexes import drop_forest_indexes
from memforest.store.forget import (
    FOREST_TABLES,
    TENANT_TABLES,
    delete_forest_rows,
    delete_tenant_rows,
    find_forest_id,
    list_forest_ids,
)
from memforest.store.sql import Conn, lock_forest

__all__ = ["FOREST_TABLES", "TENANT_TABLES", "forget_forest", "forget_tenant"]


def _zeros(tables: tuple[str, ...]) -> dict[str, int]:
    return dict.fromkeys(tables, 0)


async def _forget_forest_in(conn: Conn, tenant_id: uuid.UUID, forest_id: int) -> dict[str, int]:
    await lock_forest(conn, tenant_id, forest_id)
    return await delete_forest_rows(conn, tenant_id, forest_id)


async def forget_forest(db: Database, tenant_id: uuid.UUID, name: str) -> dict[str, int]:
    """Delete forest ``name`` of the tenant and everything in it (sessions, turns, cells, facts and
    their sources, entities, scenes, trees, nodes, placements, jobs). Returns rows deleted per table;
    all zeros when there is no such forest."""
    async with db.tenant(tenant_id) as conn:
        forest_id = await find_forest_id(conn, tenant_id, name)
        if forest_id is None:
            return _zeros(FOREST_TABLES)
        counts = await _forget_forest_in(conn, tenant_id, forest_id)
    await drop_forest_indexes(db, forest_id)  # its own indexes (ADR 0024), once the rows are gone
    return counts


async def forget_tenant(db: Database, tenant_id: uuid.UUID) -> dict[str, int]:
    """Delete every forest of the tenant, then its other jobs, its API keys and the tenant itself.
    Returns rows deleted per table (``tenants`` is 1, or 0 when there was no such tenant)."""
    counts = _zeros(TENANT_TABLES)
    async with db.tenant(tenant_id) as conn:
        forests = await list_forest_ids(conn, tenant_id)
    for forest_id in forests:
        async with db.tenant(tenant_id) as conn:
            for table, n in (await _forget_forest_in(conn, tenant_id, forest_id)).items():
                counts[table] += n
        await drop_forest_indexes(db, forest_id)
    async with db.system() as conn:  # the tenant role may not write tenants or api_keys (migration 0024)
        for table, n in (await delete_tenant_rows(conn, tenant_id)).items():
            counts[table] += n
    return counts
