"""Tenants, their API keys and their forests."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

from memforest.db.engine import Database
from memforest.domain import DOT_SEGMENT_NAMES, Forest
from memforest.errors import ConflictError, InputError, NotFoundError
from memforest.store.sql import Conn, Row, execute, fetch_all, fetch_one, scalar


@dataclass(frozen=True, slots=True)
class ApiKey:
    """A stored API key (never the key itself: its hash and a short prefix)."""

    tenant_id: uuid.UUID
    key_id: uuid.UUID
    prefix: str
    scopes: list[str]
    created_at: datetime | None = None
    revoked_at: datetime | None = None


_CREATE_TENANT = (
    "INSERT INTO tenants (tenant_id, name) VALUES (:t, :n) ON CONFLICT (name) DO NOTHING RETURNING tenant_id"
)
_INSERT_TENANT_IF_MISSING = "INSERT INTO tenants (tenant_id, name) VALUES (:t, :n) ON CONFLICT (name) DO NOTHING"
_TENANT_BY_NAME = "SELECT tenant_id FROM tenants WHERE name = :n"
_TENANT_EXISTS = "SELECT 1 FROM tenants WHERE tenant_id = :t"
_LIST_TENANTS = "SELECT tenant_id, name, created_at FROM tenants ORDER BY name"

_INSERT_KEY = "INSERT INTO api_keys (tenant_id, key_id, key_hash, key_prefix, scopes) VALUES (:t, :k, :h, :p, :s)"
_LIST_KEYS = (
    "SELECT key_id, key_prefix, scopes, created_at, revoked_at FROM api_keys WHERE tenant_id = :t "
    "ORDER BY created_at, key_id"
)
_KEY_REVOKED_AT = "SELECT revoked_at FROM api_keys WHERE tenant_id = :t AND key_id = :k"
_REVOKE_KEY = "UPDATE api_keys SET revoked_at = now() WHERE tenant_id = :t AND key_id = :k AND revoked_at IS NULL"
_KEY_BY_HASH = "SELECT tenant_id, key_id, key_prefix, scopes, revoked_at FROM api_keys WHERE key_hash = :h"

_INSERT_FOREST = (
    "INSERT INTO forests (tenant_id, name) VALUES (:t, :n) ON CONFLICT (tenant_id, name) DO NOTHING RETURNING forest_id"
)
_FOREST_BY_NAME = "SELECT forest_id FROM forests WHERE tenant_id = :t AND name = :n"
_LIST_FORESTS = "SELECT forest_id, name FROM forests WHERE tenant_id = :t AND name NOT LIKE '~staging:%' ORDER BY name"


#: The name prefix of an import's hidden staging forests (``lifecycle.importer``), reserved for them.
STAGING_PREFIX = "~staging:"


def _check_name(kind: str, name: str) -> str:
    name = name.strip()
    if not name or len(name) > 200:
        raise InputError(f"{kind} name must be 1-200 characters", location="name")
    if kind == "forest" and name.startswith(STAGING_PREFIX):
        raise InputError(f"forest names starting with {STAGING_PREFIX!r} are reserved for imports", location="name")
    if kind == "forest" and name in DOT_SEGMENT_NAMES:
        raise InputError("a forest cannot be named '.' or '..': no URL path can carry it", location="name")
    return name


# ---------------------------------------------------------------- tenants


async def create_tenant(db: Database, name: str) -> uuid.UUID:
    """Create a tenant (admin); names are unique."""
    name = _check_name("tenant", name)
    tenant_id = uuid.uuid4()
    async with db.system() as conn:
        created = await scalar(conn, _CREATE_TENANT, {"t": tenant_id, "n": name})
    if created is None:
        raise ConflictError(f"tenant {name!r} already exists")
    return tenant_id


async def ensure_tenant(db: Database, name: str) -> uuid.UUID:
    """The id of tenant ``name``, creating it when missing (the CLI's local tenant)."""
    name = _check_name("tenant", name)
    async with db.system() as conn:
        await execute(conn, _INSERT_TENANT_IF_MISSING, {"t": uuid.uuid4(), "n": name})
        tid = await scalar(conn, _TENANT_BY_NAME, {"n": name})
    assert isinstance(tid, uuid.UUID)
    return tid


async def find_tenant(db: Database, name: str) -> uuid.UUID:
    """The id of tenant ``name``; NotFoundError when there is none."""
    async with db.system() as conn:
        tid = await scalar(conn, _TENANT_BY_NAME, {"n": name})
    if tid is None:
        raise NotFoundError(f"no tenant named {name!r}")
    assert isinstance(tid, uuid.UUID)
    return tid


async def tenant_exists(conn: Conn, tenant_id: uuid.UUID) -> bool:
    """Whether the tenant exists (a system connection)."""
    return await scalar(conn, _TENANT_EXISTS, {"t": tenant_id}) is not None


async def list_tenants(conn: Conn) -> list[Row]:
    """Every tenant by name: ``tenant_id``, ``name``, ``created_at`` (a system connection)."""
    return await fetch_all(conn, _LIST_TENANTS)


# ---------------------------------------------------------------- API keys


async def insert_key(
    conn: Conn, tenant_id: uuid.UUID, key_id: uuid.UUID, key_hash: str, prefix: str, scopes: list[str]
) -> None:
    """Store a key's hash; NotFoundError when the tenant does not exist (a system connection)."""
    if not await tenant_exists(conn, tenant_id):
        raise NotFoundError("no such tenant")
    await execute(conn, _INSERT_KEY, {"t": tenant_id, "k": key_id, "h": key_hash, "p": prefix, "s": scopes})


async def list_keys(conn: Conn, tenant_id: uuid.UUID) -> list[ApiKey]:
    """The tenant's keys, oldest first; NotFoundError when the tenant does not exist."""
    if not await tenant_exists(conn, tenant_id):
        raise NotFoundError("no such tenant")
    rows = await fetch_all(conn, _LIST_KEYS, {"t": tenant_id})
    return [
        ApiKey(tenant_id, r["key_id"], r["key_prefix"], list(r["scopes"]), r["created_at"], r["revoked_at"])
        for r in rows
    ]


async def revoke_key(conn: Conn, tenant_id: uuid.UUID, key_id: uuid.UUID) -> None:
    """Revoke a key (idempotent); NotFoundError when the tenant has no such key."""
    if await fetch_one(conn, _KEY_REVOKED_AT, {"t": tenant_id, "k": key_id}) is None:
        raise NotFoundError("no such key")
    await execute(conn, _REVOKE_KEY, {"t": tenant_id, "k": key_id})


async def key_by_hash(conn: Conn, key_hash: str) -> ApiKey | None:
    """The key stored under ``key_hash`` (revoked ones too), or None (a system connection)."""
    row = await fetch_one(conn, _KEY_BY_HASH, {"h": key_hash})
    if row is None:
        return None
    return ApiKey(row["tenant_id"], row["key_id"], row["key_prefix"], list(row["scopes"]), revoked_at=row["revoked_at"])


# ---------------------------------------------------------------- forests


async def ensure_forest(conn: Conn, tenant_id: uuid.UUID, name: str) -> Forest:
    """The forest ``name`` of the tenant, created when missing."""
    name = _check_name("forest", name)
    row = await fetch_one(conn, _INSERT_FOREST, {"t": tenant_id, "n": name})
    if row is None:
        row = await fetch_one(conn, _FOREST_BY_NAME, {"t": tenant_id, "n": name})
    assert row is not None
    return Forest(tenant_id=tenant_id, forest_id=int(row["forest_id"]), name=name)


async def get_forest(conn: Conn, tenant_id: uuid.UUID, name: str) -> Forest:
    """The forest ``name`` of the tenant; NotFoundError otherwise (also for other tenants' forests)."""
    row = await fetch_one(conn, _FOREST_BY_NAME, {"t": tenant_id, "n": name})
    if row is None:
        raise NotFoundError(f"no forest named {name!r}")
    return Forest(tenant_id=tenant_id, forest_id=int(row["forest_id"]), name=name)


async def list_forests(conn: Conn, tenant_id: uuid.UUID) -> list[Forest]:
    """All forests of the tenant, by name (an import's hidden ``~staging:`` forests left out)."""
    rows = await fetch_all(conn, _LIST_FORESTS, {"t": tenant_id})
    return [Forest(tenant_id=tenant_id, forest_id=int(r["forest_id"]), name=str(r["name"])) for r in rows]
