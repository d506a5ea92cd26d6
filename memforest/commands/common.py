"""Helpers shared by subcommands: tenant/forest resolution and output."""

from __future__ import annotations

import argparse
import uuid

from memforest.db.engine import Database
from memforest.settings import Settings
from memforest.store.tenants import Forest, ensure_tenant, get_forest


def add_tenant_arg(p: argparse.ArgumentParser) -> None:
    """``--tenant NAME`` (default: the local tenant from settings)."""
    p.add_argument("--tenant", default=None, help="tenant name (default: the local tenant)")


async def resolve_tenant(db: Database, args: argparse.Namespace, settings: Settings) -> uuid.UUID:
    """The tenant named on the command line, or the local default tenant (created when missing)."""
    return await ensure_tenant(db, args.tenant or settings.default_tenant)


async def resolve_forest(db: Database, tenant_id: uuid.UUID, name: str) -> Forest:
    """An existing forest of the tenant (NotFoundError otherwise)."""
    async with db.tenant(tenant_id) as conn:
        return await get_forest(conn, tenant_id, name)
