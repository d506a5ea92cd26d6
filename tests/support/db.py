"""Database URLs for tests: tenant work logs in as the embedded server's tenant role (ADR 0018)."""

from __future__ import annotations

import uuid

from sqlalchemy import text

from memforest.db.embedded import TENANT_LOGIN
from memforest.db.engine import Database

#: Facts whose ``superseded_by`` names a fact that no longer exists: no foreign key clears the link
#: since migration 0019 (ADR 0028), so fact removal must, and tests count what it left.
DANGLING_SUPERSEDED_BY = (
    "SELECT count(*) FROM facts f WHERE f.superseded_by IS NOT NULL AND NOT EXISTS "
    "(SELECT 1 FROM facts n WHERE n.tenant_id = f.tenant_id AND n.fact_id = f.superseded_by)"
)


def tenant_url(db_url: str) -> str:
    """``db_url`` logging in as the tenant login role instead of the ``postgres`` superuser."""
    return db_url.replace("://postgres@", f"://{TENANT_LOGIN}@", 1)


async def seed_two_tenants(db: Database) -> tuple[uuid.UUID, uuid.UUID]:
    """Two tenants with one forest ``f`` each, written as the system (RLS does not hide them)."""
    a, b = uuid.uuid4(), uuid.uuid4()
    async with db.system() as conn:
        for tid in (a, b):
            await conn.execute(text("INSERT INTO tenants (tenant_id, name) VALUES (:t, :n)"), {"t": tid, "n": str(tid)})
            await conn.execute(text("INSERT INTO forests (tenant_id, name) VALUES (:t, 'f')"), {"t": tid})
    return a, b
