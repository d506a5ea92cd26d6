"""The tenant login role of an external database, set up by ``memforest db upgrade`` (ADR 0018).

``MEMFOREST_DATABASE_TENANT_URL`` names the login role tenant work connects as: a member of
``memforest_app`` that is no superuser and has no BYPASSRLS. When the role is missing, cannot log in
with the URL's password, or is not yet a member, the migrating role creates or fixes it in one
transaction, provided it may (superuser or CREATEROLE). The plan is made before migrating, so a
migrator that may not do it is refused with one line and nothing changed. Role names and the
password reach the server as bind parameters and are quoted there (``format('%I')``, ``%L``); the
password is never logged, and errors are re-raised without the statement that carried it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncConnection, create_async_engine
from sqlalchemy.pool import NullPool

from memforest.db.engine import Database, async_url
from memforest.db.rls import APP_ROLE, HOW
from memforest.errors import ConfigurationError

_MAY_CREATE = "SELECT current_user::text, rolsuper OR rolcreaterole FROM pg_roles WHERE rolname = current_user"
_ROLE = (
    "SELECT r.rolsuper AS super, r.rolbypassrls AS bypass, "
    "EXISTS (SELECT 1 FROM pg_roles a WHERE a.rolname = :app) "
    "AND pg_has_role(r.oid, (SELECT a.oid FROM pg_roles a WHERE a.rolname = :app), 'MEMBER') AS member "
    "FROM pg_roles r WHERE r.rolname = :login"
)
_CREATE = "SELECT format('CREATE ROLE %I LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE', CAST(:login AS text))"
_ALTER = "SELECT format('ALTER ROLE %I WITH LOGIN', CAST(:login AS text))"
_PASSWORD = "SELECT format('ALTER ROLE %I WITH PASSWORD %L', CAST(:login AS text), CAST(:pw AS text))"
_GRANT = "SELECT format('GRANT %I TO %I', CAST(:app AS text), CAST(:login AS text))"
_CONNECT = "SELECT format('GRANT CONNECT ON DATABASE %I TO %I', current_database(), CAST(:login AS text))"


@dataclass(frozen=True, slots=True)
class TenantLogin:
    """What ``provision`` will do for the login role ``name``."""

    name: str
    password: str | None = field(repr=False)
    exists: bool


def _login_of(url: str) -> tuple[str | None, str | None]:
    parsed = make_url(async_url(url))
    return parsed.username, parsed.password if isinstance(parsed.password, str) else None


async def _can_log_in(tenant_url: str) -> bool:
    """Whether the tenant URL's login (user and password) is accepted by the server."""
    engine = create_async_engine(async_url(tenant_url), poolclass=NullPool)
    try:
        async with engine.connect():
            return True
    except (OSError, DBAPIError):
        return False
    finally:
        await engine.dispose()


async def plan(db: Database, tenant_url: str | None) -> TenantLogin | None:
    """The work the tenant login role of ``tenant_url`` needs (None: none, or no tenant URL).
    ConfigurationError (one line) when it needs work the migrating role may not do."""
    if not tenant_url:
        return None
    name, password = _login_of(tenant_url)
    owner, _ = _login_of(db.url)
    if not name:
        raise ConfigurationError("MEMFOREST_DATABASE_TENANT_URL names no user; " + HOW)
    async with db.system() as conn:
        me, may_create = (await conn.execute(text(_MAY_CREATE))).one()
        if name in (owner, me):
            raise ConfigurationError(
                f"MEMFOREST_DATABASE_TENANT_URL logs in as {name!r}, the role that owns the tables; tenant work "
                f"needs a login role of its own that is only a member of {APP_ROLE}; {HOW}"
            )
        row = (await conn.execute(text(_ROLE), {"login": name, "app": APP_ROLE})).mappings().first()
    if row is not None and (row["super"] or row["bypass"]):
        what = "is a superuser" if row["super"] else "has BYPASSRLS"
        raise ConfigurationError(f"the tenant login role {name!r} {what}, so row-level security would not apply; {HOW}")
    if row is not None and row["member"] and await _can_log_in(tenant_url):
        return None
    if not may_create:
        why = "does not exist" if row is None else f"is not a member of {APP_ROLE} or cannot log in with its URL"
        raise ConfigurationError(
            f"the tenant login role {name!r} {why}, and {me!r} may not create roles (neither superuser nor "
            f"CREATEROLE): create it, or run `memforest db upgrade` as a role that may; {HOW}"
        )
    return TenantLogin(name=name, password=password, exists=row is not None)


async def _run_formatted(conn: AsyncConnection, builder: str, params: dict[str, str]) -> None:
    """Have the server quote the names and the literal (``format``), then run the statement."""
    statement = (await conn.execute(text(builder), params)).scalar_one()
    await conn.exec_driver_sql(statement)


async def provision(db: Database, login: TenantLogin) -> str:
    """Create (or fix) the login role and grant it ``memforest_app``, all in one transaction; run after
    the migration created ``memforest_app``. Returns what was done, for people (no password)."""
    p = {"login": login.name, "app": APP_ROLE}
    try:
        async with db.system() as conn:
            await _run_formatted(conn, _ALTER if login.exists else _CREATE, p)
            if login.password is not None:
                await _run_formatted(conn, _PASSWORD, {**p, "pw": login.password})
            await _run_formatted(conn, _GRANT, p)
            await _run_formatted(conn, _CONNECT, p)
    except DBAPIError as exc:  # the statement may carry the password: keep only the server's message
        said = str(getattr(exc.orig, "args", [""])[0] or type(exc.orig).__name__).splitlines()[0]
        reason = said.split(">: ", 1)[-1]  # the adapter prefixes "<class 'asyncpg...'>: "
        raise ConfigurationError(
            f"could not set up the tenant login role {login.name!r} ({reason}); nothing was changed; {HOW}"
        ) from None
    return f"tenant login role {login.name!r} {'updated' if login.exists else 'created'}, member of {APP_ROLE}"
