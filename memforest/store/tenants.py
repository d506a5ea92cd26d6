"""Tenants and forests."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncConnection

from memforest.db.engine import Database
from memforest.errors import ConflictError, InputError, NotFoundError
from memforest.store.sql import execute, fetch_all, fetch_one, scalar


@dataclass(frozen=True, slots=True)
class Forest:
    """A forest row."""

    tenant_id: uuid.UUID
    forest_id: int
    name: str


def _check_name(kind: str, name: str) -> str:
    name = name.strip()
    if not name or len(name) > 200:
        raise InputError(f"{kind} name must be 1-200 characters", location="name")
    return name


async def create_tenant(db: Database, name: str) -> uuid.UUID:
    """Create a tenant (admin); names are unique."""
    name = _check_name("tenant", name)
    tenant_id = uuid.uuid4()
    async with db.system() as conn:
        created = await scalar(
            conn,
            "INSERT INTO tenants (tenant_id, name) VALUES (:t, :n) ON CONFLICT (name) DO NOTHING RETURNING tenant_id",
            {"t": tenant_id, "n": name},
        )
    if created is None:
        raise ConflictError(f"tenant {name!r} already exists")
    return tenant_id


async def ensure_tenant(db: Database, name: str) -> uuid.UUID:
    """The id of tenant ``name``, creating it when missing (the CLI's local tenant)."""
    name = _check_name("tenant", name)
    async with db.system() as conn:
        await execute(
            conn,
            "INSERT INTO tenants (tenant_id, name) VALUES (:t, :n) ON CONFLICT (name) DO NOTHING",
            {"t": uuid.uuid4(), "n": name},
        )
        tid = await scalar(conn, "SELECT tenant_id FROM tenants WHERE name = :n", {"n": name})
    assert isinstance(tid, uuid.UUID)
    return tid


async def find_tenant(db: Database, name: str) -> uuid.UUID:
    """The id of tenant ``name``; NotFoundError when there is none."""
    async with db.system() as conn:
        tid = await scalar(conn, "SELECT tenant_id FROM tenants WHERE name = :n", {"n": name})
    if tid is None:
        raise NotFoundError(f"no tenant named {name!r}")
    assert isinstance(tid, uuid.UUID)
    return tid


async def ensure_forest(conn: AsyncConnection, tenant_id: uuid.UUID, name: str) -> Forest:
    """The forest ``name`` of the tenant, created when missing."""
    name = _check_name("forest", name)
    row = await fetch_one(
        conn,
        "INSERT INTO forests (tenant_id, name) VALUES (:t, :n) ON CONFLICT (tenant_id, name) DO NOTHING "
        "RETURNING forest_id",
        {"t": tenant_id, "n": name},
    )
    if row is None:
        row = await fetch_one(
            conn,
            "SELECT forest_id FROM forests WHERE tenant_id = :t AND name = :n",
            {"t": tenant_id, "n": name},
        )
    assert row is not None
    return Forest(tenant_id=tenant_id, forest_id=int(row["forest_id"]), name=name)


async def get_forest(conn: AsyncConnection, tenant_id: uuid.UUID, name: str) -> Forest:
    """The forest ``name`` of the tenant; NotFoundError otherwise (also for other tenants' forests)."""
    row = await fetch_one(
        conn, "SELECT forest_id FROM forests WHERE tenant_id = :t AND name = :n", {"t": tenant_id, "n": name}
    )
    if row is None:
        raise NotFoundError(f"no forest named {name!r}")
    return Forest(tenant_id=tenant_id, forest_id=int(row["forest_id"]), name=name)


async def list_forests(conn: AsyncConnection, tenant_id: uuid.UUID) -> list[Forest]:
    """All forests of the tenant, by name (an import's hidden ``~staging:`` forests left out)."""
    rows = await fetch_all(
        conn,
        "SELECT forest_id, name FROM forests WHERE tenant_id = :t AND name NOT LIKE '~staging:%' ORDER BY name",
        {"t": tenant_id},
    )
    return [Forest(tenant_id=tenant_id, forest_id=int(r["forest_id"]), name=str(r["name"])) for r in rows]
