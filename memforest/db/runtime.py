"""Resolve where the database is (external URL or embedded server) and open it, migrated."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

from memforest.db import migrate
from memforest.db.embedded import EmbeddedServer, start_embedded
from memforest.db.engine import Database
from memforest.errors import ConfigurationError
from memforest.settings import Settings

EMBEDDED_DB = "memforest"


@dataclass(slots=True)
class DatabaseLocation:
    """The URL to use and, for the embedded default, the server handle keeping it alive."""

    url: str
    embedded: EmbeddedServer | None = None


def resolve_database(settings: Settings) -> DatabaseLocation:
    """External ``MEMFOREST_DATABASE_URL`` if set, else the embedded server under MEMFOREST_HOME."""
    url = settings.database_url
    if url:
        return DatabaseLocation(url=url)
    server = start_embedded(settings.home / "pgdata")
    dbs = server.handle.psql(f"SELECT 1 FROM pg_database WHERE datname = '{EMBEDDED_DB}';")
    if "(1 row)" not in dbs:
        server.handle.psql(f"CREATE DATABASE {EMBEDDED_DB};")
    return DatabaseLocation(url=server.url(EMBEDDED_DB), embedded=server)


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
    """Open the configured database (starting the embedded one if needed), checked and migrated.
    ``check_embedding_dim=False`` skips the dimension check (only for the dimension change)."""
    location = await asyncio.to_thread(resolve_database, settings)
    db = Database(
        location.url,
        pool_size=settings.database.pool_size,
        max_overflow=settings.database.max_overflow,
        statement_timeout_ms=settings.database.statement_timeout_ms,
    )
    try:
        await db.check_versions()
        if migrate_schema:
            await asyncio.to_thread(ensure_schema, location.url, settings, check_embedding_dim=check_embedding_dim)
            await db.engine.dispose()  # pooled connections predate the vector type: reconnect
        yield db
    finally:
        await db.dispose()
