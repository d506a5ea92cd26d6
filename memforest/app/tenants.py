"""Tenants and their API keys (the admin's use cases), and the CLI's tenant/forest resolution."""

from __future__ import annotations

import uuid
from typing import Any

from memforest.app.auth import hash_key, new_tenant_key, validate_scopes
from memforest.app.retry import retry_if_cut
from memforest.db.engine import Database
from memforest.domain import Forest
from memforest.errors import NotFoundError
from memforest.lifecycle.forget import forget_tenant
from memforest.store import tenants as store
from memforest.store.tenants import create_tenant, ensure_forest, ensure_tenant, find_tenant
from memforest.timefmt import iso

__all__ = [
    "create_key",
    "create_tenant",
    "delete_tenant",
    "ensure_tenant",
    "existing_forest",
    "find_tenant",
    "list_keys",
    "list_tenants",
    "local_forest",
    "named_forest",
    "parse_uuid",
    "revoke_key",
]


def parse_uuid(value: str) -> uuid.UUID:
    """A path id; anything that is not a UUID is simply absent (404), never a 500."""
    try:
        return uuid.UUID(value)
    except ValueError:
        raise NotFoundError("not found") from None


@retry_if_cut
async def list_tenants(db: Database) -> list[dict[str, Any]]:
    """Every tenant by name: ``id``, ``name``, ``created_at``."""
    async with db.system() as conn:
        rows = await store.list_tenants(conn)
    return [{"id": str(r["tenant_id"]), "name": r["name"], "created_at": iso(r["created_at"])} for r in rows]


async def delete_tenant(db: Database, tenant_id: uuid.UUID) -> dict[str, int]:
    """Forget a tenant and everything it owns; NotFoundError when there was no such tenant."""
    counts = await forget_tenant(db, tenant_id)
    if not counts["tenants"]:
        raise NotFoundError("no such tenant")
    return counts


async def create_key(db: Database, tenant_id: uuid.UUID, scopes: list[str]) -> tuple[uuid.UUID, str, list[str]]:
    """Store a new key for the tenant; return (key id, the key itself, scopes)."""
    scopes = validate_scopes(scopes)
    key = new_tenant_key()
    key_id = uuid.uuid4()
    async with db.system() as conn:
        await store.insert_key(conn, tenant_id, key_id, hash_key(key), key[:10], scopes)
    return key_id, key, scopes


@retry_if_cut
async def list_keys(db: Database, tenant_id: uuid.UUID) -> list[dict[str, Any]]:
    """Keys of a tenant (never the key itself)."""
    async with db.system() as conn:
        keys = await store.list_keys(conn, tenant_id)
    return [
        {
            "id": str(k.key_id),
            "prefix": k.prefix,
            "scopes": k.scopes,
            "created_at": iso(k.created_at),
            "revoked_at": iso(k.revoked_at),
        }
        for k in keys
    ]


async def revoke_key(db: Database, tenant_id: uuid.UUID, key_id: uuid.UUID) -> None:
    """Revoke a key (idempotent); NotFoundError when the tenant has no such key."""
    async with db.system() as conn:
        await store.revoke_key(conn, tenant_id, key_id)


@retry_if_cut
async def existing_forest(db: Database, tenant_id: uuid.UUID, name: str) -> Forest:
    """An existing forest of the tenant (NotFoundError otherwise)."""
    async with db.tenant(tenant_id) as conn:
        return await store.get_forest(conn, tenant_id, name)


async def named_forest(db: Database, tenant: str, forest: str) -> Forest:
    """Forest ``forest`` of the tenant named ``tenant``; NotFoundError when either is absent."""
    return await existing_forest(db, await find_tenant(db, tenant), forest)


async def local_forest(db: Database, tenant: str, forest: str) -> Forest:
    """Forest ``forest`` of tenant ``tenant``, both created when missing (a local agent's memory)."""
    tenant_id = await ensure_tenant(db, tenant)
    async with db.tenant(tenant_id) as conn:
        return await ensure_forest(conn, tenant_id, forest)
