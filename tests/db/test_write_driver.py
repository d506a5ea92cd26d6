"""A write transaction's statements go to the driver once the transaction is open on the server
(``store.write_driver``, ADR 0053): same rows, row counts and errors as through SQLAlchemy, in the
same transaction; before its first statement and outside a transaction they go through SQLAlchemy."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError
from support.db import log_statements

from memforest.db.engine import Database
from memforest.store import write_driver
from memforest.store.sql import execute, fetch_all, scalar
from memforest.store.tenants import ensure_forest, ensure_tenant

_FORESTS = "SELECT forest_id, name FROM forests WHERE tenant_id = :t ORDER BY name"


async def test_statements_go_to_the_driver_only_once_the_transaction_is_open(db: Database) -> None:
    tenant_id = await ensure_tenant(db, "a")
    async with db.engine.begin() as conn:  # SQLAlchemy begins at its first statement
        assert await write_driver.fetch(conn, "SELECT 1 AS one", None) is None
        await conn.execute(text("SELECT 1"))
        records = await write_driver.fetch(conn, "SELECT 1 AS one", None)
        assert records is not None and [dict(r) for r in records] == [{"one": 1}]
    async with db.system() as conn:  # begun on the server as it opens (ADR 0082)
        records = await write_driver.fetch(conn, "SELECT 1 AS one", None)
        assert records is not None and [dict(r) for r in records] == [{"one": 1}]
    async with db.autocommit() as conn:
        await conn.execute(text("SELECT 1"))
        assert await write_driver.fetch(conn, "SELECT 1 AS one", None) is None
    async with db.tenant(tenant_id) as conn:
        await ensure_forest(conn, tenant_id, "notes")
        log = log_statements(db)
    async with db.tenant(tenant_id) as conn:
        rows = await fetch_all(conn, _FORESTS, {"t": tenant_id})
        assert [r["name"] for r in rows] == ["notes"] and isinstance(rows[0], dict)
        assert await scalar(conn, "SELECT name FROM forests WHERE tenant_id = :t", {"t": tenant_id}) == "notes"
        assert await scalar(conn, "SELECT name FROM forests WHERE false") is None
        assert await execute(conn, "UPDATE forests SET name = name WHERE tenant_id = :t", {"t": tenant_id}) == 1
        assert await execute(conn, "DELETE FROM forests WHERE false") == 0
    sent = [sql for _, sql in log]
    assert any(s.startswith("SELECT forest_id, name FROM forests WHERE tenant_id = $1") for s in sent)
    # begun with the tenant's settings in one round trip (ADR 0082); SQLAlchemy still ends it
    assert sent[0].startswith("BEGIN; SELECT set_config('role'") and sent[-1] == "COMMIT;"


async def test_an_error_is_sqlalchemys_and_the_transaction_rolls_back(db: Database) -> None:
    tenant_id = await ensure_tenant(db, "a")
    async with db.tenant(tenant_id) as conn:
        await ensure_forest(conn, tenant_id, "notes")
    add = "INSERT INTO forests (tenant_id, name) VALUES (:t, :n)"
    with pytest.raises(IntegrityError):
        async with db.tenant(tenant_id) as conn:
            await execute(conn, add, {"t": tenant_id, "n": "other"})
            await execute(conn, add, {"t": tenant_id, "n": "notes"})
    async with db.tenant(tenant_id) as conn:
        assert [r["name"] for r in await fetch_all(conn, _FORESTS, {"t": tenant_id})] == ["notes"]


async def test_statements_sent_at_once_on_one_transaction_run_one_after_another(db: Database) -> None:
    tenant_id = await ensure_tenant(db, "a")
    async with db.tenant(tenant_id) as conn:
        await ensure_forest(conn, tenant_id, "notes")
        got = await asyncio.gather(*(scalar(conn, "SELECT :n + 0 FROM pg_sleep(0.01)", {"n": i}) for i in range(5)))
    assert got == list(range(5))
