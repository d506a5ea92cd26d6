"""The database tier's fixtures (``tests/unit`` uses none, so ``make test-fast`` starts no server):
one embedded PostgreSQL per test session, a migrated template database, a fresh database cloned
from it (``CREATE DATABASE ... TEMPLATE``) for each test that asks, and the API app with an ASGI
client. Helpers the fixtures wrap live in ``tests/support/``."""

from __future__ import annotations

import itertools
import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from support import AppClient, admin_settings, app_client, cluster_root, tenant_url

from memforest.db import migrate
from memforest.db.embedded import EmbeddedServer, ensure_tenant_login, start_embedded
from memforest.db.engine import Database
from memforest.settings import Settings

TEST_DIM = 64
TEMPLATE = "memforest_template"
_counter = itertools.count()


@pytest.fixture(scope="session")
def pg_server() -> Iterator[EmbeddedServer]:
    """The session's PostgreSQL (external admin URL via MEMFOREST_TEST_SERVER_URL is not supported yet)."""
    root = cluster_root("memforest-test-")
    server = start_embedded(root / "pgdata", delete_on_exit=True)
    server.handle.psql(f"DROP DATABASE IF EXISTS {TEMPLATE}; CREATE DATABASE {TEMPLATE};")
    migrate.upgrade(server.url(TEMPLATE), embedding_dim=TEST_DIM)
    ensure_tenant_login(server)  # tenant work runs as this non-superuser login role (ADR 0018)
    yield server


def _new_database(server: EmbeddedServer) -> str:
    name = f"mf_test_{os.getpid()}_{next(_counter)}"
    server.handle.psql(f"CREATE DATABASE {name} TEMPLATE {TEMPLATE} STRATEGY FILE_COPY;")
    return name


@pytest.fixture
def db_url(pg_server: EmbeddedServer) -> Iterator[str]:
    """URL of a fresh, migrated database for this test only."""
    name = _new_database(pg_server)
    yield pg_server.url(name)
    pg_server.handle.psql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE);")


@pytest.fixture(scope="module")
def module_db_url(pg_server: EmbeddedServer) -> Iterator[str]:
    """URL of a fresh, migrated database shared by one test module (e.g. behind one server process)."""
    name = _new_database(pg_server)
    yield pg_server.url(name)
    pg_server.handle.psql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE);")


@pytest.fixture
def db_env(db_url: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """``db_url``, also set in the environment as processes read it (the CLI, benches, ``memforest
    serve`` subprocesses): owner URL, tenant login (ADR 0018) and the test embedding dimension."""
    monkeypatch.setenv("MEMFOREST_DATABASE_URL", db_url)
    monkeypatch.setenv("MEMFOREST_DATABASE_TENANT_URL", tenant_url(db_url))
    monkeypatch.setenv("MEMFOREST_EMBEDDING__DIM", str(TEST_DIM))
    return db_url


@pytest.fixture
def settings(db_url: str, tmp_path: Path) -> Settings:
    """Settings pointing at this test's database, with small deterministic defaults."""
    return Settings(
        home=tmp_path / "home",
        database_url=db_url,
        database_tenant_url=tenant_url(db_url),
        embedding={"dim": TEST_DIM},  # type: ignore[arg-type]
    )


@pytest.fixture
async def db(db_url: str) -> AsyncIterator[Database]:
    """An open Database on this test's fresh database."""
    database = Database(db_url, tenant_url=tenant_url(db_url), pool_size=4, max_overflow=4, side_pool_size=2)
    yield database
    await database.dispose()


@pytest.fixture
def api_settings(settings: Settings) -> Settings:
    """This test's settings with the shared admin key (``support.ADMIN_KEY``)."""
    return admin_settings(settings)


@pytest.fixture
async def api_client(api_settings: Settings, db: Database) -> AsyncIterator[AppClient]:
    """The API app on this test's database (lifespan running, no worker) and an ASGI client."""
    async with app_client(api_settings, db) as pair:
        yield pair
