"""Browse one forest: facts (filters, provenance, supersession), trees and nodes. Read-only; an
unknown forest or id is NotFoundError (404), like another tenant's."""

from __future__ import annotations

import uuid
from typing import Any

from memforest.app.retry import retry_if_cut
from memforest.db.engine import Database
from memforest.domain import Forest, TreeKind
from memforest.errors import InputError, NotFoundError
from memforest.store import browse
from memforest.store.browse import MAX_LIMIT, FactFilter, Page, parse_id
from memforest.store.sql import Conn
from memforest.store.tenants import get_forest

__all__ = ["MAX_LIMIT", "FactFilter", "fact_detail", "facts_page", "node_detail", "parse_tree_kind", "trees_page"]


async def _forest(conn: Conn, tenant_id: uuid.UUID, name: str) -> Forest:
    if "\x00" in name:
        raise NotFoundError(f"no forest named {name!r}")
    return await get_forest(conn, tenant_id, name)


def parse_tree_kind(kind: str | None) -> TreeKind | None:
    """A tree kind from a tool argument (None for None); InputError naming the known kinds."""
    if kind is None:
        return None
    try:
        return TreeKind(kind)
    except ValueError:
        raise InputError(f"kind must be one of {', '.join(k.value for k in TreeKind)}", location="kind") from None


@retry_if_cut
async def facts_page(
    db: Database, tenant_id: uuid.UUID, forest: str, flt: FactFilter, *, cursor: str | None, limit: int
) -> Page:
    """Canonical facts of the forest in time order, one page."""
    async with db.tenant(tenant_id) as conn:
        f = await _forest(conn, tenant_id, forest)
        return await browse.list_facts(conn, tenant_id, f.forest_id, flt, cursor=cursor, limit=limit)


@retry_if_cut
async def fact_detail(db: Database, tenant_id: uuid.UUID, forest: str, fact_id: str) -> dict[str, Any]:
    """One fact with its provenance, supersession chain and placements."""
    fid = parse_id(fact_id)
    async with db.tenant(tenant_id) as conn:
        f = await _forest(conn, tenant_id, forest)
        return await browse.get_fact(conn, tenant_id, f.forest_id, fid)


@retry_if_cut
async def trees_page(
    db: Database, tenant_id: uuid.UUID, forest: str, kind: TreeKind | None, *, cursor: str | None, limit: int
) -> Page:
    """The forest's trees in creation order (optionally of one kind), one page."""
    async with db.tenant(tenant_id) as conn:
        f = await _forest(conn, tenant_id, forest)
        return await browse.list_trees(conn, tenant_id, f.forest_id, kind, cursor=cursor, limit=limit)


@retry_if_cut
async def node_detail(
    db: Database, tenant_id: uuid.UUID, forest: str, node_id: str, *, cursor: str | None, limit: int = 50
) -> dict[str, Any]:
    """One tree node with a page of its children in time order."""
    nid = parse_id(node_id)
    async with db.tenant(tenant_id) as conn:
        f = await _forest(conn, tenant_id, forest)
        return await browse.get_node(conn, tenant_id, f.forest_id, nid, cursor=cursor, limit=limit)
