"""Overview of a tenant's memory for browsing: forests with counts and last write, a forest's
entities, and one entity's timeline. Read-only; an unknown forest or entity is NotFoundError (404),
like another tenant's."""

from __future__ import annotations

import uuid
from typing import Any

from memforest.app.retry import retry_if_cut
from memforest.db.engine import Database
from memforest.errors import NotFoundError
from memforest.store import overview
from memforest.store.browse import Page
from memforest.store.tenants import get_forest


@retry_if_cut
async def forests(db: Database, tenant_id: uuid.UUID) -> list[dict[str, Any]]:
    """The tenant's forests by name, each with its counts and last write."""
    async with db.tenant(tenant_id) as conn:
        return await overview.forest_overview(conn, tenant_id)


@retry_if_cut
async def entities_page(
    db: Database, tenant_id: uuid.UUID, forest: str, *, q: str | None, cursor: str | None, limit: int
) -> Page:
    """One page of the forest's entities, most facts first."""
    async with db.tenant(tenant_id) as conn:
        f = await get_forest(conn, tenant_id, _name(forest))
        return await overview.list_entities(conn, tenant_id, f.forest_id, q=q, cursor=cursor, limit=limit)


@retry_if_cut
async def entity_timeline(db: Database, tenant_id: uuid.UUID, forest: str, entity: str) -> dict[str, Any]:
    """The entity's state chains and the other facts naming it."""
    async with db.tenant(tenant_id) as conn:
        f = await get_forest(conn, tenant_id, _name(forest))
        return await overview.entity_timeline(conn, tenant_id, f.forest_id, entity)


def _name(forest: str) -> str:
    if "\x00" in forest:
        raise NotFoundError(f"no forest named {forest!r}")
    return forest
