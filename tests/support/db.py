"""Database URLs for tests: tenant work logs in as the embedded server's tenant role (ADR 0018)."""

from __future__ import annotations

import atexit
import shutil
import tempfile
import uuid
from pathlib import Path
from typing import Any

from asyncpg import introspection
from sqlalchemy import event, text

from memforest.db.embedded import TENANT_LOGIN
from memforest.db.engine import Database

#: Facts whose ``superseded_by`` names a fact that no longer exists: no foreign key clears the link
#: since migration 0019 (ADR 0028), so fact removal must, and tests count what it left.
DANGLING_SUPERSEDED_BY = (
    "SELECT count(*) FROM facts f WHERE f.superseded_by IS NOT NULL AND NOT EXISTS "
    "(SELECT 1 FROM facts n WHERE n.tenant_id = f.tenant_id AND n.fact_id = f.superseded_by)"
)


def cluster_root(prefix: str) -> Path:
    """A new folder in TMPDIR for an embedded cluster (its ``pgdata`` inside), removed at exit.
    Call it before starting the cluster: the removal, registered first, runs after the cluster's own
    exit handler has stopped it and removed its ``pgdata``."""
    root = Path(tempfile.mkdtemp(prefix=prefix))
    atexit.register(shutil.rmtree, root, True)
    return root


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


# asyncpg's own statements: the type lookups it runs on a connection the first time a statement
# returns a type it has not seen (with JIT turned off around them)
_DRIVER_LOOKUPS = frozenset({introspection.INTRO_LOOKUP_TYPES, introspection.INTRO_LOOKUP_TYPES_13})


def _drivers_own(sql: str) -> bool:
    return sql in _DRIVER_LOOKUPS or "set_config('jit'" in sql


def log_statements(db: Database) -> list[tuple[int, str]]:
    """Every statement the tenant pool's connections run from now on (their pre-pings included, the
    driver's own type lookups not), as (connection, text), in order: asyncpg's query logger on each
    connection the pool checks out."""
    log: list[tuple[int, str]] = []
    seen: set[int] = set()

    def watch(dbapi_connection: Any, *_: Any) -> None:
        driver = dbapi_connection.driver_connection
        if id(driver) not in seen:
            seen.add(id(driver))
            driver.add_query_logger(
                lambda rec, key=id(driver): None if _drivers_own(rec.query) else log.append((key, rec.query))
            )

    event.listen(db.tenant_engine.sync_engine, "checkout", watch)
    return log
