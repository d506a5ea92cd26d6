"""Async engine (SQLAlchemy 2 on asyncpg) and transactions scoped to one tenant for RLS."""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import AbstractAsyncContextManager, AsyncExitStack, asynccontextmanager, contextmanager, suppress
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, cast

import asyncpg
from pgvector.asyncpg import register_vector
from sqlalchemy import event, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from memforest.db import folded_begin, migrate, rls
from memforest.db.failures import broken_connection, database_unavailable, raw_connection, unencodable
from memforest.db.lock_wait import lock_timeout_param
from memforest.db.rls import APP_ROLE
from memforest.db.tenant_entry import enter_reading, enter_tenant, refuse_identity_knobs, tenant_settings_sql
from memforest.errors import (
    ConfigurationError,
    DatabaseUnavailableError,
    DatabaseVersionError,
    InputError,
    MemForestError,
    public_reason,
)

MIN_POSTGRES = 150000
MIN_PGVECTOR = (0, 8)
# SQLSTATEs of text PostgreSQL cannot store (NUL characters, unencodable code points): bad input.
BAD_TEXT_SQLSTATES = frozenset({"22021", "22P05"})


# Opening a transaction while the database is unavailable is retried this long by default (a
# fast restart takes about 2 s), with pauses doubling from the first to the most.
CONNECT_WAIT_S = 5.0
CONNECT_RETRY_FIRST_S = 0.05
CONNECT_RETRY_MAX_S = 1.0

# A column holding this expression (an uncorrelated subquery: run once, with the statement's first
# row) switches the rest of its tenant transaction to the prepared statements' cached generic plans,
# without sequential scans (ADR 0024). For statements that read rows by key only
# (``= ANY`` of ids through primary keys and b-trees; none of a forest's partial indexes): their
# generic plan is the same index lookups whatever the ids, and without sequential scans a plan made
# while the tables were small cannot stay a scan of the whole table when they grow. It lasts until
# the transaction ends; a statement that returns no row changes nothing.
# The two planning regimes of a tenant transaction: generic plans without sequential scans (key
# lookups; an indexed forest's vector channels, ``memforest.store.recall_channels``), and the
# custom plans with sequential scans allowed that every tenant transaction starts with.
GENERIC_PLANS = {"plan_cache_mode": "force_generic_plan", "enable_seqscan": "off"}
CUSTOM_PLANS = {"plan_cache_mode": "force_custom_plan", "enable_seqscan": "on"}


def _set_configs(settings: Mapping[str, str]) -> str:
    """``set_config(name, value, true) || ...``: ``settings`` for the rest of the transaction, as text."""
    return " || ".join(f"set_config('{name}', '{value}', true)" for name, value in settings.items())


KEY_LOOKUP_PLANS = f"(SELECT {_set_configs(GENERIC_PLANS)})"
# A column expression (the empty string) that hands the rest of the transaction back to
# ``CUSTOM_PLANS``, as a statement run on ``GENERIC_PLANS`` may have to (ADR 0022).
CUSTOM_PLANS_AGAIN = f"left({_set_configs(CUSTOM_PLANS)}, 0)"
# The same empty string switching the rest of the transaction to ``GENERIC_PLANS`` (ADR 0022).
GENERIC_PLANS_NEXT = f"left({_set_configs(GENERIC_PLANS)}, 0)"


# set while a transaction that checks its connection with its first round trip (Database.reading,
# ADR 0022; a write transaction begun with its settings, ADR 0082) checks one out: no pre-ping
_UNPINGED: ContextVar[bool] = ContextVar("memforest_unpinged", default=False)


async def _run_simple(conn: AsyncConnection, sql: str) -> None:
    """``sql`` on ``conn``'s driver (simple protocol); an error that broke the connection invalidates
    it and is DatabaseUnavailableError (as ``handle_error`` does for SQLAlchemy's statements)."""
    try:
        await cast(asyncpg.Connection, (await raw_connection(conn)).driver_connection).execute(sql)
    except Exception as exc:
        if not broken_connection(exc):
            raise
        with suppress(Exception):
            await conn.invalidate(exc)
        raise DatabaseUnavailableError() from exc


class DatabaseWaitExpired(DatabaseUnavailableError):
    """Opening a transaction gave up: the database stayed unavailable for the whole wait."""


# How long a side transaction waits for a free connection of the side pool: its work can always be
# done in the caller's own transaction instead, so it does not queue behind other requests' work
SIDE_POOL_WAIT_S = 0.05


class SidePoolBusy(MemForestError):
    """No connection of the side pool was free in time (``Database.tenant(side=True)``): the caller
    does the work in its own transaction. Never shown to clients."""


@contextmanager
def _driver_errors() -> Iterator[None]:
    """Translate driver errors into ``memforest.errors``: "cannot store this text" and any other
    data exception (SQLSTATE class 22) into InputError, "the database is not there" into
    DatabaseUnavailableError (503, retry later)."""
    try:
        yield
    except (DBAPIError, asyncpg.exceptions.PostgresError) as exc:  # raw: SQLAlchemy does not wrap connecting
        sqlstate = str(getattr(getattr(exc, "orig", exc), "sqlstate", None))
        if sqlstate in BAD_TEXT_SQLSTATES or unencodable(exc):
            raise InputError("text contains characters that cannot be stored (such as NUL)") from None
        if sqlstate.startswith("22"):  # a value out of its type's range, NaN in a vector (not its text: values)
            raise InputError(f"a value is out of range or malformed: {public_reason(exc)}") from None
        if database_unavailable(exc):
            raise DatabaseUnavailableError() from exc
        raise


def _unavailable_on_open(exc: BaseException) -> bool:
    """Whether an error of opening a transaction means the database is not there (yet)."""
    # connecting: refused, timed out, the socket file gone (a restarting server removes it)
    return isinstance(exc, OSError | TimeoutError) or database_unavailable(exc)


@asynccontextmanager
async def _transaction(engine: AsyncEngine, wait_s: float, *, begin: bool = True) -> AsyncIterator[AsyncConnection]:
    """``engine.begin()`` with driver errors translated (:func:`_driver_errors`), opening included.
    While the database is unavailable, opening is retried (jittered, doubling pauses) for up to
    ``wait_s`` seconds, so a quick restart only delays a request; nothing has run yet, so a retry
    cannot do anything twice. After that, DatabaseUnavailableError. ``begin=False``: a pooled
    connection (``engine.connect()``) whose transaction the caller runs itself."""
    deadline = time.monotonic() + wait_s
    pause = CONNECT_RETRY_FIRST_S
    with _driver_errors():
        async with AsyncExitStack() as stack:
            while True:
                try:
                    conn = await stack.enter_async_context(engine.begin() if begin else engine.connect())
                    break
                except (OSError, TimeoutError, DBAPIError, asyncpg.exceptions.PostgresError) as exc:
                    if not _unavailable_on_open(exc):
                        raise
                    if time.monotonic() + pause > deadline:
                        raise DatabaseWaitExpired() from exc
                    await asyncio.sleep(pause * random.uniform(0.5, 1.0))
                    pause = min(2 * pause, CONNECT_RETRY_MAX_S)
            yield conn


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


def _create_engine(
    url: str, server_settings: dict[str, str], *, pool_size: int, max_overflow: int, pool_timeout: float = 30.0
) -> AsyncEngine:
    """An asyncpg engine that never prints statement parameters and registers pgvector per connection."""
    engine = create_async_engine(
        async_url(url),
        pool_size=pool_size,
        max_overflow=max_overflow,
        pool_timeout=pool_timeout,
        pool_pre_ping=True,
        hide_parameters=True,  # parameters are tenants' text: keep them out of errors and logs
        connect_args={"server_settings": dict(server_settings)},
    )

    @event.listens_for(engine.sync_engine, "handle_error")
    def _on_error(context: Any) -> None:
        # asyncpg's dialect calls a connection broken only once its socket is closed; a server
        # that shuts down sends FATAL first, and a connection that got it (idle in the pool or
        # mid-statement) is left in a protocol state where every later use fails with "cannot
        # switch to state 12; another operation is in progress". Mark such errors as disconnects
        # so SQLAlchemy discards the connection (and pre-ping replaces it) instead of reusing it.
        if not context.is_disconnect and broken_connection(context.original_exception):
            context.is_disconnect = True

    @event.listens_for(engine.sync_engine.pool, "checkin")
    def _on_checkin(dbapi_connection: Any, record: Any) -> None:
        # a transaction the driver still has open (a reading transaction, Database.reading, that
        # could not end it) must not reach the next user: SQLAlchemy's reset ends only its own;
        # nor a connection already closed (a reading checkout is not pinged)
        driver = getattr(dbapi_connection, "_connection", None)
        if driver is not None and (driver.is_closed() or driver.is_in_transaction()):
            record.invalidate()

    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        with suppress(Exception):
            dbapi_connection.run_async(register_vector)

    engine.sync_engine.dialect.do_ping = _ping_once  # type: ignore[method-assign]
    return engine


def _ping_once(dbapi_connection: Any) -> bool:
    """The pool's pre-ping in one round trip. SQLAlchemy's asyncpg ping wraps its ``;`` in BEGIN and
    ROLLBACK (for pgbouncer's transaction mode, which MemForest does not use): three round trips,
    and three wake-ups of the server, on every checkout, i.e. every transaction (ADR 0023). Errors
    are translated as the adapter's own ping translates them, so a dead connection is replaced."""
    if _UNPINGED.get():  # (a checkout whose first round trip is the check)
        return True
    try:
        dbapi_connection.await_(dbapi_connection._connection.fetchrow(";"))
    except Exception as error:  # translated (and re-raised) by the adapter
        dbapi_connection._handle_exception(error)
    return True


def _version_tuple(v: str) -> tuple[int, ...]:
    return tuple(int(p) for p in v.split(".") if p.isdigit())


class Database:
    """One process's pools. ``tenant()`` opens a transaction in which RLS sees one tenant,
    ``system()`` one for work across tenants. Tenant transactions use their own pool when
    ``tenant_url`` names another login role (ADR 0018); either way they run only once the start-up
    check found RLS in force (:mod:`memforest.db.rls`), and never silently without it."""

    def __init__(
        self,
        url: str,
        *,
        tenant_url: str | None = None,
        pool_size: int = 10,
        max_overflow: int = 10,
        side_pool_size: int = 0,
        statement_timeout_ms: int = 0,
        idle_in_transaction_timeout_ms: int = 60_000,
        connect_wait_s: float = CONNECT_WAIT_S,
    ):
        self.url = url
        self.connect_wait_s = connect_wait_s  # how long opening a transaction waits for the database
        self.tenant_url = tenant_url or url
        server_settings = {"application_name": "memforest"}
        if statement_timeout_ms:
            server_settings["statement_timeout"] = str(statement_timeout_ms)
        server_settings["idle_in_transaction_session_timeout"] = str(idle_in_transaction_timeout_ms)
        sizes = {"pool_size": pool_size, "max_overflow": max_overflow}
        self.engine: AsyncEngine = _create_engine(url, server_settings, **sizes)
        self.tenant_engine: AsyncEngine = (
            _create_engine(self.tenant_url, server_settings, **sizes) if self.tenant_url != url else self.engine
        )
        # tenant transactions that run beside another of the same request (the read path's full-text
        # channels beside its vector channels, ADR 0024), from a pool of their own: a
        # request holding a connection of the main pool never waits on that pool for a second one,
        # so requests cannot deadlock holding one connection each
        self.side_engine: AsyncEngine | None = (
            _create_engine(
                self.tenant_url,
                server_settings,
                pool_size=side_pool_size,
                max_overflow=side_pool_size,
                pool_timeout=SIDE_POOL_WAIT_S,
            )
            if side_pool_size > 0
            else None
        )
        self._verified: set[str] = set()  # checks that passed once (they are not re-run)
        self._server_version_num: int | None = None

    async def dispose(self) -> None:
        """Close every pooled connection (the engines stay usable)."""
        await self.engine.dispose()
        if self.tenant_engine is not self.engine:
            await self.tenant_engine.dispose()
        if self.side_engine is not None:
            await self.side_engine.dispose()

    async def rls_problem(self, engine: AsyncEngine | None = None) -> str | None:
        """None when row-level security is in force for tenant work, else why not (one line); asked
        through a connection of ``engine`` (default: the tenant pool), once."""
        if "rls" in self._verified:
            return None
        async with (engine or self.tenant_engine).connect() as conn:
            if self._server_version_num is None:
                self._server_version_num = int((await conn.execute(text("SHOW server_version_num"))).scalar_one())
            problem = await rls.rls_problem(conn, self._server_version_num)
        if problem is None:
            self._verified.add("rls")
        return problem

    async def verify_rls(self, engine: AsyncEngine | None = None) -> None:
        """Raise ConfigurationError (one line) unless row-level security is in force."""
        problem = await self.rls_problem(engine)
        if problem is not None:
            raise ConfigurationError(problem)

    async def migrations_problem(self) -> str | None:
        """None when the schema is at the code's head revision (read through the pool), else where it is."""
        if "migrations" in self._verified:
            return None
        async with self.engine.connect() as conn:
            exists = (await conn.execute(text("SELECT to_regclass('alembic_version') IS NOT NULL"))).scalar()
            current = (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalar() if exists else None
        head = migrate.head_revision()
        if current == head:
            self._verified.add("migrations")
            return None
        return f"at {current}, head is {head}"

    @asynccontextmanager
    async def tenant(
        self, tenant_id: uuid.UUID, *, side: bool = False, knobs: Mapping[str, str] | None = None
    ) -> AsyncIterator[AsyncConnection]:
        """A transaction confined to ``tenant_id`` by row-level security (and by our own filters).
        ``side``: from the side pool (``side_engine``, which must exist), for work that runs beside
        a transaction the caller holds; SidePoolBusy when none of its connections is free within
        ``SIDE_POOL_WAIT_S`` (the caller then does the work in its own transaction). ``knobs``:
        server settings (name -> value) for this transaction only, set with the tenant (the read
        path's HNSW knobs: no round trip of their own); ValueError for the role or the tenant."""
        refuse_identity_knobs(knobs or {})
        lock_timeout = lock_timeout_param()
        try:  # (a knob that is not plain: the settings go as parameters, after SQLAlchemy's BEGIN)
            opening: str | None = tenant_settings_sql(tenant_id, knobs or {}, lock_timeout)
        except ValueError:
            opening = None
        async with AsyncExitStack() as stack:
            begun = await self._begun(stack, side, opening) if opening is not None else None
            if begun is not None:
                yield begun
                return
        async with self._tenant_connection(side, begin=True) as conn:
            # one round trip: set_config('role', ..., true) is SET LOCAL ROLE (ADR 0022)
            params = {"role": APP_ROLE, "t": str(tenant_id), "lt": lock_timeout}
            for i, (name, value) in enumerate((knobs or {}).items()):
                params |= {f"k{i}": name, f"v{i}": value}
            await conn.execute(enter_tenant(len(knobs or {})), params)
            yield conn

    async def _begun(self, outer: AsyncExitStack, side: bool | None, opening: str) -> AsyncConnection | None:
        """:func:`folded_begin.begun` on a connection of the tenant pool (``side``: the side pool) or,
        ``side`` None, of the system pool."""

        def checkout(ping: bool) -> AbstractAsyncContextManager[AsyncConnection]:
            tenant = side is not None and self._tenant_connection(side, begin=True, ping=ping)
            return tenant or self._system_connection(ping=ping)

        return await folded_begin.begun(outer, checkout, opening)

    @asynccontextmanager
    async def reading(
        self, tenant_id: uuid.UUID, *, side: bool = False, knobs: Mapping[str, str] | None = None
    ) -> AsyncIterator[AsyncConnection]:
        """A read-only :meth:`tenant` transaction run by the driver (BEGIN READ ONLY and the settings
        in one round trip, ADR 0022), for ``store.read_conn.reading`` to wrap: SQLAlchemy does not
        know of it. Writes fail. COMMIT on leaving, ROLLBACK after an error; a connection whose
        transaction could not end is closed."""
        enter = enter_reading(tenant_id, knobs or {})
        async with AsyncExitStack() as stack:
            conn = await self._entered(stack, side, enter)
            driver = cast(asyncpg.Connection, (await raw_connection(conn)).driver_connection)
            try:
                yield conn
            except Exception:
                with suppress(Exception):  # (the body's error is the one raised)
                    if driver.is_in_transaction() and not driver.is_closed() and not conn.invalidated:
                        await _run_simple(conn, "ROLLBACK")
                with suppress(Exception):  # (a statement interrupted mid-way: the connection goes)
                    if driver.is_in_transaction() and not conn.invalidated:
                        await conn.invalidate()
                raise
            except BaseException:  # cancelled: a statement may still be running on the connection
                with suppress(Exception):
                    await conn.invalidate()
                raise
            with _driver_errors():
                await _run_simple(conn, "COMMIT")

    async def _entered(self, outer: AsyncExitStack, side: bool, enter: str) -> AsyncConnection:
        """A connection (closed with ``outer``) on which ``enter`` ran. The pool does not ping it first:
        ``enter`` is its first statement and as good a check. When the connection turns out to be
        one the database dropped while it sat in the pool, nothing has run on it: it is discarded
        and ``enter`` runs on another, which the pool pings as usual."""
        for ping in (False, True):
            stack = AsyncExitStack()
            try:
                conn = await stack.enter_async_context(self._tenant_connection(side, begin=False, ping=ping))
            except BaseException:
                await stack.aclose()
                raise
            try:
                await _run_simple(conn, enter)
            except DatabaseUnavailableError:  # (the connection was invalidated)
                await stack.aclose()
                if ping:
                    raise
                continue
            except BaseException:  # an error or a cancel: ``enter`` may have run, or still be running
                with suppress(Exception):
                    await conn.invalidate()
                await stack.aclose()
                raise
            await outer.enter_async_context(stack)
            return conn
        raise AssertionError("unreachable")  # pragma: no cover

    @asynccontextmanager
    async def _tenant_connection(self, side: bool, *, begin: bool, ping: bool = True) -> AsyncIterator[AsyncConnection]:
        """A tenant (``side``: side) pool connection once RLS is known to be in force, in SQLAlchemy's
        transaction (``begin``) or none, pre-pinged unless ``ping`` is false; SidePoolBusy when the
        side pool had none free in time."""
        engine = self.tenant_engine
        if side:
            if self.side_engine is None:
                raise ValueError("this Database has no side pool (side_pool_size=0)")
            engine = self.side_engine
        async with AsyncExitStack() as stack:
            try:
                with _driver_errors():  # (a side transaction asks through its own pool: it waits on no other)
                    await self.verify_rls(engine)
                unpinged = _UNPINGED.set(not ping)
                try:
                    conn = await stack.enter_async_context(_transaction(engine, self.connect_wait_s, begin=begin))
                finally:
                    _UNPINGED.reset(unpinged)
            except PoolTimeout as exc:
                if side:
                    raise SidePoolBusy() from exc
                raise
            yield conn

    @asynccontextmanager
    async def system(self) -> AsyncIterator[AsyncConnection]:
        """A transaction as the owning role (admin work, auth lookups, job claims across tenants)."""
        async with AsyncExitStack() as stack:
            conn = await self._begun(stack, None, "")
            if conn is not None:
                yield conn
                return
        async with _transaction(self.engine, self.connect_wait_s) as conn:
            yield conn

    @asynccontextmanager
    async def _system_connection(self, *, ping: bool) -> AsyncIterator[AsyncConnection]:
        """A system pool connection in SQLAlchemy's transaction, pre-pinged unless ``ping`` is false."""
        async with AsyncExitStack() as stack:
            unpinged = _UNPINGED.set(not ping)
            try:
                conn = await stack.enter_async_context(_transaction(self.engine, self.connect_wait_s))
            finally:
                _UNPINGED.reset(unpinged)
            yield conn

    @asynccontextmanager
    async def autocommit(self) -> AsyncIterator[AsyncConnection]:
        """A connection of the owning role outside any transaction (each statement commits on its
        own): for ``CREATE INDEX CONCURRENTLY`` and session-level advisory locks."""
        with _driver_errors():
            async with self.engine.connect() as conn:
                yield await conn.execution_options(isolation_level="AUTOCOMMIT")

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
        except (OSError, TimeoutError, DBAPIError, asyncpg.exceptions.PostgresError, asyncpg.InterfaceError) as exc:
            # asyncpg's errors of connecting come unwrapped: 57P03 "shutting down", closed mid-startup
            raise ConfigurationError(f"cannot reach the database: {public_reason(exc)}") from exc
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
