"""Row-level security in the production role setups (issue 14, holes 3 and 4).

A fresh embedded PostgreSQL 18 cluster per module (roles are cluster-wide, and these tests create
and drop them): a CREATEROLE (non-superuser) migrator, a tenant login role, and a missing role.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from sqlalchemy import text
from support import ADMIN_KEY, cluster_root, seed_two_tenants

from memforest.db import migrate
from memforest.db.embedded import EmbeddedServer, ensure_tenant_login, start_embedded
from memforest.db.engine import Database
from memforest.db.rls import APP_ROLE
from memforest.db.runtime import open_database
from memforest.errors import ConfigurationError
from memforest.servers import create_app
from memforest.settings import Settings

DIM = 64


@pytest.fixture(scope="module")
def cluster() -> Iterator[EmbeddedServer]:
    """A PostgreSQL cluster of this module's own (the session's one keeps its roles)."""
    root = cluster_root("memforest-rls-")
    yield start_embedded(root / "pgdata", delete_on_exit=True)


def _psql(server: EmbeddedServer, sql: str, database: str = "postgres") -> str:
    out: str = server.handle.psql(f"\\c {database}\n{sql}")
    return out


def _new_db(server: EmbeddedServer, owner: str = "postgres") -> str:
    name = f"rls_{uuid.uuid4().hex[:10]}"
    _psql(server, f"CREATE DATABASE {name} OWNER {owner};")
    _psql(server, "CREATE EXTENSION IF NOT EXISTS vector;", name)  # not a trusted extension: the operator's step
    return name


async def _visible_forests(db: Database, tenant: uuid.UUID, escape: str | None = None) -> int:
    async with db.tenant(tenant) as conn:
        if escape:
            await conn.execute(text(escape))
        return int((await conn.execute(text("SELECT count(*) FROM forests"))).scalar_one())


def _drop_app_role(server: EmbeddedServer) -> None:
    dbs = _psql(server, "\\t on\n\\a\nSELECT datname FROM pg_database WHERE datallowconn AND NOT datistemplate;")
    for name in [line.strip() for line in dbs.splitlines() if line.strip() and " " not in line.strip()]:
        _psql(server, f"DROP OWNED BY {APP_ROLE};", name)
    _psql(server, f"DROP ROLE IF EXISTS {APP_ROLE};")


async def test_a_missing_role_stops_the_service_and_fails_readyz(cluster: EmbeddedServer, tmp_path: Path) -> None:
    name = _new_db(cluster)
    migrate.upgrade(cluster.url(name), embedding_dim=DIM)
    ensure_tenant_login(cluster)
    _drop_app_role(cluster)  # an operator dropped it, or it never existed on this server
    try:
        settings = Settings(
            home=tmp_path,
            database_url=cluster.url(name),
            database_tenant_url=cluster.url(name, user="memforest_tenant"),
            admin_key=ADMIN_KEY,
            embedding={"dim": DIM},  # type: ignore[arg-type]
        )
        with pytest.raises(ConfigurationError) as err:  # start-up refuses: nothing switches RLS off
            async with open_database(settings):
                pass
        message = str(err.value)
        assert "\n" not in message and "row-level security is not in force" in message and APP_ROLE in message

        db = Database(settings.database_url or "", tenant_url=settings.database_tenant_url)
        try:
            app = create_app(settings, db=db, start_worker=False)
            async with (
                app.router.lifespan_context(app),
                httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as client,
            ):
                r = await client.get("/readyz")
            assert r.status_code == 503, r.text
            assert APP_ROLE in r.json()["checks"]["rls"]
            with pytest.raises(ConfigurationError, match="row-level security is not in force"):
                async with db.tenant(uuid.uuid4()):
                    pass
        finally:
            await db.dispose()
    finally:
        _psql(cluster, f"CREATE ROLE {APP_ROLE} NOLOGIN;")


async def test_a_createrole_migrator_on_pg18_runs_tenant_work(cluster: EmbeddedServer) -> None:
    assert "PostgreSQL 18" in _psql(cluster, "SELECT version();")
    _drop_app_role(cluster)  # the migrator creates it: since PG 16 it then holds only ADMIN on it
    _psql(cluster, "DROP ROLE IF EXISTS mf_owner; CREATE ROLE mf_owner LOGIN CREATEROLE;")
    name = _new_db(cluster, owner="mf_owner")
    owner_url = cluster.url(name, user="mf_owner")
    migrate.upgrade(owner_url, embedding_dim=DIM)
    assert "f" in _psql(cluster, "SELECT rolsuper FROM pg_roles WHERE rolname = 'mf_owner';")

    owner = Database(owner_url)
    try:
        a, b = await seed_two_tenants(owner)
        async with owner.system() as conn:  # hole 3: the owner may become the role (SET), not only ADMIN it
            await conn.execute(text(f"SET LOCAL ROLE {APP_ROLE}"))
            await conn.execute(text("SELECT set_config('memforest.tenant_id', :t, true)"), {"t": str(a)})
            assert (await conn.execute(text("SELECT count(*) FROM forests"))).scalar_one() == 1
        # ... but tenant work on the owner's own login is refused: RESET ROLE would leave RLS behind
        with pytest.raises(ConfigurationError, match="log in as 'mf_owner', which owns the tables"):
            async with owner.tenant(a):
                pass
    finally:
        await owner.dispose()

    # The full service: the owner does system work, a login role it created does tenant work.
    _psql(cluster, f"DROP ROLE IF EXISTS mf_tenant; CREATE ROLE mf_tenant LOGIN; GRANT {APP_ROLE} TO mf_tenant;", name)
    db = Database(owner_url, tenant_url=cluster.url(name, user="mf_tenant"))
    try:
        await db.verify_rls()
        assert await _visible_forests(db, a) == 1
        assert await _visible_forests(db, b, escape="RESET ROLE") == 1  # the login role cannot escape
    finally:
        await db.dispose()
