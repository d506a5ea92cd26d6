"""Async engine (SQLAlchemy 2 on asyncpg) and transactions scoped to one tenant for RLS."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager, suppress
from dataclasses import dataclass
from typing import Any

from pgvector.asyncpg import register_vector
from sqlalchemy import event, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from memforest.errors import ConfigurationError, DatabaseVersionError, InputError

MIN_POSTGRES = 150000
MIN_PGVECTOR = (0, 8)
APP_ROLE = "memforest_app"
# SQLSTATEs of text PostgreSQL cannot store (NUL characters, unencodable code points): bad input.
BAD_TEXT_SQLSTATES = frozenset({"22021", "22P05"})


@contextmanager
def _text_input_errors() -> Iterator[None]:
    """Translate the driver's "cannot store this text" errors into InputError (after rollback)."""
    try:
        yield
    except DBAPIError as exc:
        if getattr(exc.orig, "sqlstate", None) in BAD_TEXT_SQLSTATES:
            raise InputError("text contains characters that cannot be stored (such as NUL)") from None
        raise


def async_url(url: str) -> str:
    """The asyncpg form of a PostgreSQL URL, whatever driver it names."""
    for prefix in ("postgresql+asyncpg://", "postgresql+psycopg://", "postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+asyncpg://" + url[len(prefix) :]
    raise ConfigurationError(f"not a PostgreSQL URL: {url.split('://', 1)[0]}://...")


@dataclass(frozen=True, slots=True)
class ServerVersions:
    """What the server reported: PostgreSQL ``server_version`` and pgvector's version."""

    postgres: str
    postgres_num: int
    pgvector: str | None


def _version_tuple(v: str) -> tuple[int, ...]:
    return tuple(int(p) for p in v.split(".") if p.isdigit())


class Database:
    """One engine per process. ``tenant()`` opens a transaction in which RLS sees one tenant."""

    def __init__(self, url: str, *, pool_size: int = 10, max_overflow: int = 10, statement_timeout_ms: int = 0):
        self.url = url
        connect_args: dict[str, Any] = {"server_settings": {"application_name": "memforest"}}
        if statement_timeout_ms:
            connect_args["server_settings"]["statement_timeout"] = str(statement_timeout_ms)
        self.engine: AsyncEngine = create_async_engine(
            async_url(url),
            pool_size=pool_size,
            max_overflow=max_overflow,
            pool_pre_ping=True,
            connect_args=connect_args,
        )
        self._rls_role: bool | None = None

        @event.listens_for(self.engine.sync_engine, "connect")
        def _on_connect(dbapi_connection: Any, _record: Any) -> None:
            with suppress(Exception):
                dbapi_connection.run_async(register_vector)

    async def dispose(self) -> None:
        """Close every pooled connection."""
        await self.engine.dispose()

    async def _use_rls_role(self, conn: AsyncConnection) -> bool:
        if self._rls_role is None:
            row = await conn.execute(
                text("SELECT pg_has_role(current_user, :r, 'MEMBER') FROM pg_roles WHERE rolname = :r"),
                {"r": APP_ROLE},
            )
            self._rls_role = bool(row.scalar())
        return self._rls_role

    @asynccontextmanager
    async def tenant(self, tenant_id: uuid.UUID) -> AsyncIterator[AsyncConnection]:
        """A transaction confined to ``tenant_id`` by row-level security (and by our own filters)."""
        with _text_input_errors():
            async with self.engine.begin() as conn:
                if await self._use_rls_role(conn):
                    await conn.execute(text(f"SET LOCAL ROLE {APP_ROLE}"))
                await conn.execute(text("SELECT set_config('memforest.tenant_id', :t, true)"), {"t": str(tenant_id)})
                yield conn

    @asynccontextmanager
    async def system(self) -> AsyncIterator[AsyncConnection]:
        """A transaction as the owning role (admin work, auth lookups, job claims across tenants)."""
        with _text_input_errors():
            async with self.engine.begin() as conn:
                yield conn

    async def server_versions(self) -> ServerVersions:
        """Ask the server for its PostgreSQL and pgvector versions."""
        try:
            async with self.engine.connect() as conn:
                ver = (await conn.execute(text("SHOW server_version"))).scalar_one()
                num = int((await conn.execute(text("SHOW server_version_num"))).scalar_one())
                vec = (
                    await conn.execute(
                        text(
                            "SELECT coalesce((SELECT extversion FROM pg_extension WHERE extname = 'vector'),"
                            " (SELECT default_version FROM pg_available_extensions WHERE name = 'vector'))"
                        )
                    )
                ).scalar()
        except (OSError, DBAPIError) as exc:
            raise ConfigurationError(f"cannot reach the database: {exc}") from exc
        return ServerVersions(postgres=str(ver), postgres_num=num, pgvector=vec)

    async def check_versions(self) -> ServerVersions:
        """Refuse PostgreSQL < 15 or pgvector < 0.8 with a one-line message."""
        v = await self.server_versions()
        if v.postgres_num < MIN_POSTGRES:
            raise DatabaseVersionError(f"PostgreSQL >= 15 required, found {v.postgres}")
        if v.pgvector is None:
            raise DatabaseVersionError("pgvector >= 0.8 required, found no 'vector' extension on the server")
        if _version_tuple(v.pgvector)[:2] < MIN_PGVECTOR:
            raise DatabaseVersionError(f"pgvector >= 0.8 required, found {v.pgvector}")
        return v
