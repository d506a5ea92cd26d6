"""Row-level security: with tenant A set, tenant B's rows are invisible even without a tenant filter."""

from __future__ import annotations

import uuid

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from memforest.db.engine import Database


async def _seed(db: Database) -> tuple[uuid.UUID, uuid.UUID]:
    a, b = uuid.uuid4(), uuid.uuid4()
    async with db.system() as conn:
        for tid, name in ((a, "tenant-a"), (b, "tenant-b")):
            await conn.execute(text("INSERT INTO tenants (tenant_id, name) VALUES (:t, :n)"), {"t": tid, "n": name})
            await conn.execute(
                text("INSERT INTO forests (tenant_id, name) VALUES (:t, :n)"),
                {"t": tid, "n": f"{name}-forest"},
            )
    return a, b


async def test_other_tenants_rows_are_invisible_without_a_filter(db: Database) -> None:
    a, _b = await _seed(db)
    async with db.tenant(a) as conn:
        forests = (await conn.execute(text("SELECT tenant_id, name FROM forests"))).all()
        tenants = (await conn.execute(text("SELECT tenant_id FROM tenants"))).all()
    assert [(r.tenant_id, r.name) for r in forests] == [(a, "tenant-a-forest")]
    assert [r.tenant_id for r in tenants] == [a]
    async with db.system() as conn:  # the owner (no RLS role) sees both: the rows really exist
        assert (await conn.execute(text("SELECT count(*) FROM forests"))).scalar() == 2


async def test_writing_a_row_for_another_tenant_is_refused(db: Database) -> None:
    a, b = await _seed(db)
    with pytest.raises(DBAPIError, match="row-level security"):
        async with db.tenant(a) as conn:
            await conn.execute(text("INSERT INTO forests (tenant_id, name) VALUES (:t, 'sneaky')"), {"t": b})
    async with db.tenant(a) as conn:
        changed = await conn.execute(text("UPDATE forests SET name = 'renamed'"))
        assert changed.rowcount == 1
        deleted = await conn.execute(text("DELETE FROM forests WHERE tenant_id = :t"), {"t": b})
        assert deleted.rowcount == 0
    async with db.system() as conn:
        names = sorted((await conn.execute(text("SELECT name FROM forests"))).scalars())
    assert names == ["renamed", "tenant-b-forest"]


async def test_no_tenant_set_sees_nothing(db: Database) -> None:
    await _seed(db)
    async with db.engine.begin() as conn:
        await conn.execute(text("SET LOCAL ROLE memforest_app"))
        assert (await conn.execute(text("SELECT count(*) FROM forests"))).scalar() == 0


async def _lighthouse_fact(db: Database, tenant_id: uuid.UUID) -> int:
    """Add one fact about a lighthouse to the tenant's forest; its forest id."""
    async with db.system() as conn:
        forest_id = int(
            (await conn.execute(text("SELECT forest_id FROM forests WHERE tenant_id = :t"), {"t": tenant_id})).scalar()
        )
        await conn.execute(
            text(
                "INSERT INTO facts (tenant_id, forest_id, text, text_hash, kind, valid_from) "
                "VALUES (:t, :f, 'Blake painted the lighthouse', 'h1', 'event', now())"
            ),
            {"t": tenant_id, "f": forest_id},
        )
    return forest_id


async def test_text_match_functions_keep_to_the_callers_tenant(db: Database) -> None:
    """The SECURITY DEFINER full-text functions (migrations 0011, 0013, 0014, 0023) run as the
    owner, so they must apply the policy's tenant filter themselves: another tenant's forest id
    yields nothing."""
    a, b = await _seed(db)
    fb = await _lighthouse_fact(db, b)
    # a large forest's candidates come from the function (migration 0014), a small one's from the
    # recall statement itself under the policy (test_forest_indexes compares the two)
    call = (
        "SELECT count(*) FROM memforest_fact_text_candidates(:f, to_tsquery('english', 'lighthouse'), NULL, NULL, "
        "10, 10, NULL)"
    )
    async with db.tenant(a) as conn:
        assert (await conn.execute(text(call), {"f": fb})).scalar() == 0
    async with db.tenant(b) as conn:
        assert (await conn.execute(text(call), {"f": fb})).scalar() == 1
    async with db.engine.begin() as conn:  # no tenant set
        await conn.execute(text("SET LOCAL ROLE memforest_app"))
        assert (await conn.execute(text(call), {"f": fb})).scalar() == 0


async def test_definer_functions_do_not_read_the_callers_temporary_tables(db: Database) -> None:
    """A SECURITY DEFINER function searches the caller's temporary schema last (migration 0021): a
    temporary ``facts`` that ``memforest_app`` makes does not stand in for the table inside it. Every
    such function of MemForest names ``pg_temp`` last (a new one must too)."""
    _, b = await _seed(db)
    fb = await _lighthouse_fact(db, b)
    call = (
        "SELECT count(*) FROM memforest_fact_text_candidates(:f, to_tsquery('english', 'lighthouse'), NULL, NULL, "
        "10, 10, NULL)"
    )
    async with db.tenant(b) as conn:
        await conn.execute(text("CREATE TEMPORARY TABLE facts ON COMMIT DROP AS SELECT * FROM facts"))
        await conn.execute(text("INSERT INTO pg_temp.facts SELECT * FROM pg_temp.facts"))  # the fact twice
        assert (await conn.execute(text("SELECT count(*) FROM facts WHERE text LIKE '%lighthouse'"))).scalar() == 2
        assert (await conn.execute(text(call), {"f": fb})).scalar() == 1
    async with db.system() as conn:
        paths = (
            await conn.execute(
                text(
                    "SELECT p.proname, coalesce(array_to_string(p.proconfig, ';'), '') FROM pg_proc p "
                    "WHERE p.prosecdef AND p.proname LIKE 'memforest%'"
                )
            )
        ).all()
    assert len(paths) >= 5
    assert all(config.endswith(", pg_temp") for _, config in paths), paths
