"""``store.sql.fetch_all`` / ``fetch_one`` / ``fetch_rows`` send statements inside a transaction to asyncpg directly
(ADR 0024, session 9). Their errors must still be SQLAlchemy's: a constraint violation is
``IntegrityError`` (callers turn it into 409), a connection cut mid-transaction is unavailability
(503), and the statement runs inside its caller's transaction."""

from __future__ import annotations

import pytest
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from memforest.db.engine import Database
from memforest.db.failures import raw_connection
from memforest.errors import DatabaseUnavailableError
from memforest.store.sql import execute, fetch_all, fetch_one, fetch_rows, scalar
from memforest.store.tenants import ensure_forest, ensure_tenant

_INSERT_FOREST = "INSERT INTO forests (tenant_id, name) VALUES (:t, :n) RETURNING forest_id"


async def test_a_constraint_violation_on_the_direct_path_is_sqlalchemys_integrity_error(db: Database) -> None:
    tenant_id = await ensure_tenant(db, "acme")
    async with db.tenant(tenant_id) as conn:
        await ensure_forest(conn, tenant_id, "notes")
    with pytest.raises(IntegrityError) as caught:
        async with db.tenant(tenant_id) as conn:
            await fetch_one(conn, _INSERT_FOREST, {"t": tenant_id, "n": "notes"})
    assert "notes" not in str(caught.value)  # parameters stay out of the error, as the engine's do


async def test_a_direct_statement_belongs_to_its_callers_transaction(db: Database) -> None:
    tenant_id = await ensure_tenant(db, "acme")
    with pytest.raises(RuntimeError):
        async with db.tenant(tenant_id) as conn:
            await fetch_one(conn, _INSERT_FOREST, {"t": tenant_id, "n": "rolled-back"})
            raise RuntimeError("abort")
    async with db.tenant(tenant_id) as conn:
        assert await fetch_all(conn, "SELECT name FROM forests WHERE name = 'rolled-back'") == []


async def test_a_connection_cut_mid_transaction_on_the_direct_path_is_unavailability(db: Database) -> None:
    tenant_id = await ensure_tenant(db, "acme")
    with pytest.raises(DatabaseUnavailableError):
        async with db.tenant(tenant_id) as conn:
            pid = await scalar(conn, "SELECT pg_backend_pid()")
            async with db.system() as other:
                await execute(other, "SELECT pg_terminate_backend(:p)", {"p": pid})
            await fetch_all(conn, "SELECT forest_id FROM forests")
    async with db.tenant(tenant_id) as conn:  # the pool replaced the cut connection
        assert await fetch_all(conn, "SELECT forest_id FROM forests") == []


async def test_row_views_read_like_rows_inside_and_outside_a_transaction(db: Database) -> None:
    tenant_id = await ensure_tenant(db, "acme")
    sql = "SELECT forest_id, name FROM forests WHERE tenant_id = :t ORDER BY forest_id"
    async with db.tenant(tenant_id) as conn:
        await ensure_forest(conn, tenant_id, "notes")
        await ensure_forest(conn, tenant_id, "work")
        inside = await fetch_rows(conn, sql, {"t": tenant_id})  # the driver's records
        expected = await fetch_all(conn, sql, {"t": tenant_id})
    async with db.engine.connect() as conn:  # no transaction open yet: through SQLAlchemy
        outside = await fetch_rows(conn, sql, {"t": tenant_id})
    for rows in (inside, outside):
        assert [r["name"] for r in rows] == ["notes", "work"]
        assert [dict(r) for r in rows] == expected


async def test_a_constraint_violation_of_a_row_view_statement_is_sqlalchemys_integrity_error(db: Database) -> None:
    tenant_id = await ensure_tenant(db, "acme")
    async with db.tenant(tenant_id) as conn:
        await ensure_forest(conn, tenant_id, "notes")
    with pytest.raises(IntegrityError):
        async with db.tenant(tenant_id) as conn:
            await fetch_rows(conn, _INSERT_FOREST, {"t": tenant_id, "n": "notes"})


async def test_a_checked_out_connection_hands_its_driver_over_without_a_greenlet(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The driver's statements of a transaction, and the read-only transactions themselves, reach
    the pool connection through the checked-out connection (ADR 0022, session 28), not through
    SQLAlchemy's ``get_raw_connection`` (a greenlet a call); a closed connection still asks it."""
    tenant_id = await ensure_tenant(db, "acme")

    async def refused(self: AsyncConnection) -> object:
        raise AssertionError("get_raw_connection called")

    monkeypatch.setattr(AsyncConnection, "get_raw_connection", refused)
    async with db.reading(tenant_id) as conn:
        assert await fetch_all(conn, "SELECT 1 AS one") == [{"one": 1}]
    async with db.tenant(tenant_id) as conn:
        await ensure_forest(conn, tenant_id, "notes")
        assert [r["name"] for r in await fetch_rows(conn, "SELECT name FROM forests")] == ["notes"]
    async with db.engine.connect() as conn:
        await conn.close()
        with pytest.raises(AssertionError, match="get_raw_connection"):
            await raw_connection(conn)
