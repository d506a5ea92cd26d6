"""``memforest db upgrade`` sets up the tenant login role of MEMFOREST_DATABASE_TENANT_URL (ADR 0018):
an external-style database migrated by a superuser gets the role, with the URL's password, and the
service then starts with row-level security in force; a migrator that may not create roles is
refused with one line before anything changes; a failure half-way leaves nothing behind.

Runs on the session's embedded server (roles are cluster-wide: each test uses its own role names).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import uuid
from urllib.parse import quote

import pytest
from sqlalchemy import text
from support import ADMIN_KEY, seed_two_tenants

from memforest.cli import main
from memforest.db import tenant_login
from memforest.db.embedded import EmbeddedServer
from memforest.db.engine import Database
from memforest.db.rls import APP_ROLE
from memforest.db.runtime import open_database
from memforest.errors import ConfigurationError
from memforest.settings import Settings

DIM = 64
# Everything a careless quoting would trip on: quotes, bind-parameter and format markers, a dollar.
PASSWORD = "p'w\"d:x %s $1 \\ é"


def _role_url(server: EmbeddedServer, database: str, user: str, password: str | None = None) -> str:
    auth = quote(user, safe="") + (f":{quote(password, safe='')}" if password is not None else "")
    return f"postgresql+asyncpg://{auth}@/{database}?host={quote(server.socket_dir)}"


def _psql(server: EmbeddedServer, sql: str) -> str:
    out: str = server.handle.psql(f"\\pset tuples_only on\n\\pset format unaligned\n{sql}")
    return out.strip().splitlines()[-1] if out.strip() else ""


def _password_matches(server: EmbeddedServer, role: str, password: str) -> bool:
    """Whether the SCRAM verifier PostgreSQL stores for ``role`` is one of ``password``."""
    stored = _psql(server, f"SELECT rolpassword FROM pg_authid WHERE rolname = '{role}';")
    method, rest = stored.split("$", 1)
    assert method == "SCRAM-SHA-256", stored
    iter_salt, keys = rest.split("$", 1)
    iterations, salt = iter_salt.split(":")
    stored_key = base64.b64decode(keys.split(":")[0])
    salted = hashlib.pbkdf2_hmac("sha256", password.encode(), base64.b64decode(salt), int(iterations))
    client_key = hmac.new(salted, b"Client Key", hashlib.sha256).digest()
    return hashlib.sha256(client_key).digest() == stored_key


def _env(monkeypatch: pytest.MonkeyPatch, tmp_path: object, url: str, tenant: str | None) -> None:
    monkeypatch.setenv("MEMFOREST_HOME", str(tmp_path))
    monkeypatch.setenv("MEMFOREST_DATABASE_URL", url)
    monkeypatch.setenv("MEMFOREST_EMBEDDING__DIM", str(DIM))
    if tenant is None:
        monkeypatch.delenv("MEMFOREST_DATABASE_TENANT_URL", raising=False)
    else:
        monkeypatch.setenv("MEMFOREST_DATABASE_TENANT_URL", tenant)


def _db_name(db_url: str) -> str:
    return db_url.split("@/", 1)[1].split("?", 1)[0]


async def _tenant_sees(db: Database, tenant: uuid.UUID, escape: str | None = None) -> int:
    async with db.tenant(tenant) as conn:
        if escape:
            await conn.execute(text(escape))
        return int((await conn.execute(text("SELECT count(*) FROM forests"))).scalar_one())


def test_db_upgrade_creates_the_tenant_login_and_the_service_starts(
    pg_server: EmbeddedServer,
    db_url: str,
    tmp_path: object,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    role = f"mf_t_{uuid.uuid4().hex[:8]}"
    tenant = _role_url(pg_server, _db_name(db_url), role, PASSWORD)
    _env(monkeypatch, tmp_path, db_url, tenant)
    assert _psql(pg_server, f"SELECT count(*) FROM pg_roles WHERE rolname = '{role}';") == "0"

    assert main(["db", "upgrade"]) == 0
    out, err = capsys.readouterr()
    assert f"tenant login role '{role}' created" in out
    assert PASSWORD not in out + err
    row = _psql(
        pg_server,
        f"SELECT rolcanlogin, rolsuper, rolbypassrls, rolcreaterole, pg_has_role('{role}', '{APP_ROLE}', 'SET') "
        f"FROM pg_roles WHERE rolname = '{role}';",
    )
    assert row == "t|f|f|f|t"
    assert _password_matches(pg_server, role, PASSWORD)
    assert not _password_matches(pg_server, role, PASSWORD + "x")

    assert main(["db", "upgrade"]) == 0  # again: nothing to do, nothing printed about the role
    assert "tenant login role" not in capsys.readouterr().out

    async def start() -> None:
        settings = Settings(admin_key=ADMIN_KEY)
        async with open_database(settings) as db:  # start-up: refuses unless RLS is in force
            a, b = await seed_two_tenants(db)
            assert await _tenant_sees(db, a) == 1
            assert await _tenant_sees(db, b, escape="RESET ROLE") == 1  # the new login cannot escape

    asyncio.run(start())


def test_a_wrong_password_is_reset_to_the_urls(
    pg_server: EmbeddedServer, db_url: str, tmp_path: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    role = f"mf_t_{uuid.uuid4().hex[:8]}"
    _psql(pg_server, f"CREATE ROLE {role} NOLOGIN PASSWORD 'old';")
    _env(monkeypatch, tmp_path, db_url, _role_url(pg_server, _db_name(db_url), role, PASSWORD))
    assert main(["db", "upgrade"]) == 0
    assert _psql(pg_server, f"SELECT rolcanlogin FROM pg_roles WHERE rolname = '{role}';") == "t"
    assert _password_matches(pg_server, role, PASSWORD)


def test_a_migrator_that_may_not_create_roles_is_refused_before_migrating(
    pg_server: EmbeddedServer, tmp_path: object, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    suffix = uuid.uuid4().hex[:8]
    owner, role, name = f"mf_o_{suffix}", f"mf_t_{suffix}", f"mf_plain_{suffix}"
    _psql(pg_server, f"CREATE ROLE {owner} LOGIN; CREATE DATABASE {name} OWNER {owner};")
    pg_server.handle.psql(f"\\c {name}\nCREATE EXTENSION IF NOT EXISTS vector;")
    _env(
        monkeypatch,
        tmp_path,
        _role_url(pg_server, name, owner),
        _role_url(pg_server, name, role, PASSWORD),
    )
    assert main(["db", "upgrade"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "may not create roles" in err and role in err and PASSWORD not in err
    assert _psql(pg_server, f"SELECT count(*) FROM pg_roles WHERE rolname = '{role}';") == "0"
    tables = pg_server.handle.psql(f"\\c {name}\n\\t on\nSELECT to_regclass('alembic_version') IS NULL;")
    assert tables.strip().endswith("t")  # not migrated either: nothing half-done


def test_the_owners_own_login_is_refused_as_the_tenant_login(
    db_url: str, tmp_path: object, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _env(monkeypatch, tmp_path, db_url, db_url)
    assert main(["db", "upgrade"]) == 2
    assert "the role that owns the tables" in capsys.readouterr().err


async def test_a_failure_half_way_changes_nothing(pg_server: EmbeddedServer, db_url: str) -> None:
    # A CREATEROLE migrator without ADMIN on memforest_app (created by the superuser) may create the
    # login role but not grant it the app role: the CREATE ROLE is rolled back with the GRANT.
    suffix = uuid.uuid4().hex[:8]
    creator, role = f"mf_cr_{suffix}", f"mf_t_{suffix}"
    _psql(pg_server, f"CREATE ROLE {creator} LOGIN CREATEROLE;")
    db = Database(_role_url(pg_server, _db_name(db_url), creator))
    try:
        login = await tenant_login.plan(db, _role_url(pg_server, _db_name(db_url), role, PASSWORD))
        assert login is not None and not login.exists and PASSWORD not in repr(login)
        with pytest.raises(ConfigurationError) as err:
            await tenant_login.provision(db, login)
    finally:
        await db.dispose()
    message = str(err.value)
    assert 'permission denied to grant role "memforest_app"' in message and "asyncpg" not in message
    assert "nothing was changed" in message and PASSWORD not in message and "\n" not in message
    assert err.value.__cause__ is None and PASSWORD not in repr(err.value.__context__)
    assert _psql(pg_server, f"SELECT count(*) FROM pg_roles WHERE rolname = '{role}';") == "0"
