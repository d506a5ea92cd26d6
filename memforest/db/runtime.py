"""Resolve where the database is (external URL or embedded server) and open it, migrated."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

from memforest.db import migrate
from memforest.db.embedded import TENANT_LOGIN, EmbeddedServer, ensure_tenant_login, start_embedded, stop_embedded
from memforest.db.engine import Database
from memforest.errors import ConfigurationError
from memforest.settings import Settings

EMBEDDED_DB = "memforest"


@dataclass(slots=True)
class DatabaseLocation:
    """The URL to use and, for the embedded default, the server handle keeping it alive."""

    url: str
    embedded: EmbeddedServer | None = None
    tenant_url: str | None = None  # the login role tenant work connects as (None: the same as url)


def resolve_database(settings: Settings) -> DatabaseLocation:
    """External ``MEMFOREST_DATABASE_URL`` if set, else the embedded server under MEMFOREST_HOME."""
    url = settings.database_url
    if url:
        return DatabaseLocation(url=url, tenant_url=settings.database_tenant_url)
    server = start_embedded(settings.home / "pgdata")
    dbs = server.handle.psql(f"SELECT 1 FROM pg_database WHERE datname = '{EMBEDDED_DB}';")
    if "(1 row)" not in dbs:
        server.handle.psql(f"CREATE DATABASE {EMBEDDED_DB};")
    tenant_url = server.url(EMBEDDED_DB, user=TENANT_LOGIN)
    return DatabaseLocation(url=server.url(EMBEDDED_DB), embedded=server, tenant_url=tenant_url)


def ensure_schema(url: str, settings: Settings, *, check_embedding_dim: bool = True) -> None:
    """Migrate to head; refuse to run when the stored embedding dimension differs from settings
    (unless ``check_embedding_dim`` is False: the dimension change itself must open the database)."""
    stored = migrate.stored_embedding_dim(url)
    if check_embedding_dim and stored is not None and stored != settings.embedding.dim:
        raise ConfigurationError(
            f"the database stores {stored}-dimensional embeddings but MEMFOREST_EMBEDDING__DIM="
            f"{settings.embedding.dim}; run `memforest rematerialize --embeddings --all` to re-embed "
            f"everything at {settings.embedding.dim} dimensions, or set MEMFOREST_EMBEDDING__DIM={stored}"
        )
    migrate.upgrade(url, embedding_dim=settings.embedding.dim)


@asynccontextmanager
async def open_database(
    settings: Settings, *, migrate_schema: bool = True, check_embedding_dim: bool = True
) -> AsyncIterator[Database]:
    """Open the configured database (starting the embedded one if needed), checked and migrated;
    refuse (ConfigurationError) unless row-level security is in force for tenant work (ADR 0018).
    ``check_embedding_dim=False`` skips the dimension check (only for the dimension change).
    The embedded server this started is let go on the way out (it stops if no one else uses it)."""
    location = await asyncio.to_thread(resolve_database, settings)
    try:
        db = Database(
            location.url,
            tenant_url=location.tenant_url,
            pool_size=settings.database.pool_size,
            max_overflow=settings.database.max_overflow,
            statement_timeout_ms=settings.database.statement_timeout_ms,
            idle_in_transaction_timeout_ms=settings.database.idle_in_transaction_timeout_ms,
        )
        try:
            await db.check_versions()
            if migrate_schema:
                await asyncio.to_thread(ensure_schema, location.url, settings, check_embedding_dim=check_embedding_dim)
                if location.embedded is not None:
                    await asyncio.to_thread(ensure_tenant_login, location.embedded)
                await db.dispose()  # pooled connections predate the vector type: reconnect
                await db.verify_rls()
            yield db
        finally:
            await db.dispose()
    finally:
        if location.embedded is not None:
            await asyncio.to_thread(stop_embedded, location.embedded)
