"""Resolve where the database is (external URL or embedded server) and open it, migrated."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

from memforest.db import embedding_model, migrate
from memforest.db.embedded import (
    TENANT_LOGIN,
    EmbeddedServer,
    ensure_tenant_login,
    start_embedded,
    stop_embedded,
    stop_on_signals,
)
from memforest.db.engine import Database, ServerVersions
from memforest.db.failures import database_unavailable
from memforest.db.model_identity import embedding_identity
from memforest.errors import ConfigurationError
from memforest.settings import Settings

EMBEDDED_DB = "memforest"
# Waiting for the database at start-up (``open_database(wait_s=...)``): pauses double up to this.
START_RETRY_FIRST_S = 0.5
START_RETRY_MAX_S = 5.0

log = logging.getLogger(__name__)


@dataclass(slots=True)
class DatabaseLocation:
    """The URL to use and, for the embedded default, the server handle keeping it alive."""

    url: str
    embedded: EmbeddedServer | None = None
    tenant_url: str | None = None  # the login role tenant work connects as (None: the same as url)


def resolve_database(settings: Settings) -> DatabaseLocation:
    """External ``MEMFOREST_DATABASE_URL`` if set, else the embedded server under MEMFOREST_HOME
    (started off the event loop, callers run this in a thread: :func:`locate_database`)."""
    url = settings.database_url
    if url:
        return DatabaseLocation(url=url, tenant_url=settings.database_tenant_url)
    server = start_embedded(settings.home / "pgdata", shared_buffers=settings.database.embedded_shared_buffers)
    dbs = server.handle.psql(f"SELECT 1 FROM pg_database WHERE datname = '{EMBEDDED_DB}';")
    if "(1 row)" not in dbs:
        server.handle.psql(f"CREATE DATABASE {EMBEDDED_DB};")
    tenant_url = server.url(EMBEDDED_DB, user=TENANT_LOGIN)
    return DatabaseLocation(url=server.url(EMBEDDED_DB), embedded=server, tenant_url=tenant_url)


async def locate_database(settings: Settings) -> DatabaseLocation:
    """:func:`resolve_database` in a thread, the process first set to let go of an embedded server
    it starts when told to stop (:func:`~memforest.db.embedded.stop_on_signals`, which only the
    main thread, the event loop's, can do)."""
    if not settings.database_url:
        stop_on_signals()
    return await asyncio.to_thread(resolve_database, settings)


def ensure_schema(url: str, settings: Settings, *, check_embedding_dim: bool = True) -> None:
    """Migrate to head; refuse to run when the stored embedding dimension or model differs from the
    settings' (unless ``check_embedding_dim`` is False: the re-embedding itself must open the database)."""
    stored = migrate.stored_embedding_dim(url)
    if check_embedding_dim and stored is not None and stored != settings.embedding.dim:
        raise ConfigurationError(
            f"the database stores {stored}-dimensional embeddings but MEMFOREST_EMBEDDING__DIM="
            f"{settings.embedding.dim}; run `memforest rematerialize --embeddings --all` to re-embed "
            f"everything at {settings.embedding.dim} dimensions, or set MEMFOREST_EMBEDDING__DIM={stored}"
        )
    migrate.upgrade(url, embedding_dim=settings.embedding.dim)
    if check_embedding_dim:
        check_embedding_model(url, settings)


def check_embedding_model(url: str, settings: Settings) -> None:
    """Refuse (one line) a start whose embedding model is not the stored vectors' (ADR 0042); a
    database without a recorded model adopts the configured one."""
    configured = embedding_identity(settings.embedding)
    record = embedding_model.read_model_record(url)
    refusal = embedding_model.mismatch_message(record, configured)
    if refusal is not None:
        raise ConfigurationError(refusal)
    if record.model is None:
        embedding_model.record_model(url, configured)


def _unreachable(exc: BaseException) -> bool:
    """Whether a failure to read the server's versions means it is not there (yet), rather than
    refusing us (a wrong password, an unknown database)."""
    return any(
        isinstance(e, OSError | TimeoutError) or database_unavailable(e) for e in (exc, exc.__cause__) if e is not None
    )


async def wait_for_server(db: Database, wait_s: float) -> ServerVersions:
    """The server's versions, checked; while it cannot be reached, tried again (jittered pauses
    doubling from 0.5 to 5 s, each failed attempt logged) for up to ``wait_s`` seconds, then the
    last error (ConfigurationError, one line)."""
    deadline = time.monotonic() + wait_s
    pause = START_RETRY_FIRST_S
    attempt = 1
    while True:
        try:
            return await db.check_versions()
        except Exception as exc:  # refused, "starting up" / "shutting down" (57P03), reset
            left = deadline - time.monotonic()
            if not _unreachable(exc) or left <= 0:
                raise
            delay = min(pause * random.uniform(0.75, 1.0), left)
            log.warning("database not reachable (attempt %d: %s); trying again in %.1f s", attempt, exc, delay)
            await asyncio.sleep(delay)
            pause, attempt = min(2 * pause, START_RETRY_MAX_S), attempt + 1


@asynccontextmanager
async def open_database(
    settings: Settings, *, migrate_schema: bool = True, check_embedding_dim: bool = True, wait_s: float = 0.0
) -> AsyncIterator[Database]:
    """Open the configured database (starting the embedded one if needed), checked and migrated;
    refuse (ConfigurationError) unless row-level security is in force for tenant work (ADR 0018).
    ``check_embedding_dim=False`` skips the dimension check (only for the dimension change).
    ``wait_s`` > 0 waits that long for a database that cannot be reached yet (:func:`wait_for_server`).
    The embedded server this started is let go on the way out (it stops if no one else uses it)."""
    location = await locate_database(settings)
    try:
        db = Database(
            location.url,
            tenant_url=location.tenant_url,
            pool_size=settings.database.pool_size,
            max_overflow=settings.database.max_overflow,
            side_pool_size=settings.database.side_pool_size,
            statement_timeout_ms=settings.database.statement_timeout_ms,
            idle_in_transaction_timeout_ms=settings.database.idle_in_transaction_timeout_ms,
        )
        try:
            await wait_for_server(db, wait_s)
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
