"""The tenant login role of an external database, set up by ``memforest db upgrade`` (ADR 0018).

``MEMFOREST_DATABASE_TENANT_URL`` names the login role tenant work connects as: a member of
``memforest_app`` that is no superuser and has no BYPASSRLS. When the role is missing, cannot log in
with the URL's password, or is not yet a member, the migrating role creates or fixes it in one
transaction, provided it may (superuser or CREATEROLE). The plan is made before migrating, so a
migrator that may not do it is refused with one line and nothing changed. Role names reach the
server as bind parameters and are quoted there (``format('%I')``, ``%L``). The password itself is
never sent: the role gets a SCRAM-SHA-256 verifier computed here (RFC 5802 / 7677, as libpq's
``PQencryptPasswordConn`` makes it), which the server stores as it is, so a server that logs DDL
logs only the verifier. Errors are re-raised without the statement that carried it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import stringprep
import unicodedata
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
#: PBKDF2 rounds of a verifier (PostgreSQL's scram_iterations default)
SCRAM_ITERATIONS = 4096
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


def _saslprep(password: str) -> str:
    """SASLprep (RFC 4013) of the password as the server applies it: non-ASCII spaces become spaces,
    "commonly mapped to nothing" characters go, then NFKC. A password SASLprep refuses (prohibited
    or mixed-direction characters) is used as it is, as the server does."""
    if password.isascii():
        return password
    mapped = "".join(" " if stringprep.in_table_c12(c) else c for c in password if not stringprep.in_table_b1(c))
    out = unicodedata.normalize("NFKC", mapped)
    prohibited = (
        stringprep.in_table_c12, stringprep.in_table_c21_c22, stringprep.in_table_c3, stringprep.in_table_c4,
        stringprep.in_table_c5, stringprep.in_table_c6, stringprep.in_table_c7, stringprep.in_table_c8,
        stringprep.in_table_c9, stringprep.in_table_a1,
    )  # fmt: skip
    if any(check(c) for c in out for check in prohibited):
        return password
    # right-to-left characters: no left-to-right ones beside them, and one first and last
    rtl = any(stringprep.in_table_d1(c) for c in out)
    ltr = any(stringprep.in_table_d2(c) for c in out)
    if rtl and (ltr or not (stringprep.in_table_d1(out[0]) and stringprep.in_table_d1(out[-1]))):
        return password
    return out


def scram_verifier(password: str, *, salt: bytes | None = None, iterations: int = SCRAM_ITERATIONS) -> str:
    """The ``SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>`` verifier of ``password``
    (a random 16-byte salt unless given), the form PostgreSQL stores in ``pg_authid``."""
    salt = os.urandom(16) if salt is None else salt
    salted = hashlib.pbkdf2_hmac("sha256", _saslprep(password).encode(), salt, iterations)
    client_key = hmac.new(salted, b"Client Key", hashlib.sha256).digest()
    stored_key = hashlib.sha256(client_key).digest()
    server_key = hmac.new(salted, b"Server Key", hashlib.sha256).digest()

    def b64(raw: bytes) -> str:
        return base64.b64encode(raw).decode("ascii")

    return f"SCRAM-SHA-256${iterations}:{b64(salt)}${b64(stored_key)}:{b64(server_key)}"


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
                await _run_formatted(conn, _PASSWORD, {**p, "pw": scram_verifier(login.password)})
            await _run_formatted(conn, _GRANT, p)
            await _run_formatted(conn, _CONNECT, p)
    except DBAPIError as exc:  # the statement may carry the verifier: keep only the server's message
        said = str(getattr(exc.orig, "args", [""])[0] or type(exc.orig).__name__).splitlines()[0]
        reason = said.split(">: ", 1)[-1]  # the adapter prefixes "<class 'asyncpg...'>: "
        raise ConfigurationError(
            f"could not set up the tenant login role {login.name!r} ({reason}); nothing was changed; {HOW}"
        ) from None
    return f"tenant login role {login.name!r} {'updated' if login.exists else 'created'}, member of {APP_ROLE}"
