"""MemTree insertion against the real database: random orders and sizes keep every invariant."""

from __future__ import annotations

import itertools
import uuid
from datetime import UTC, datetime, timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy.ext.asyncio import AsyncConnection

from memforest.db.engine import Database
from memforest.domain import TreeKind
from memforest.memtree.model import InsertStats, LeafSpec
from memforest.store.check import check_forest
from memforest.store.sql import execute, fetch_all, scalar
from memforest.store.tenants import ensure_forest, ensure_tenant
from memforest.store.trees import get_or_create_tree, insert_leaf

BASE = datetime(2024, 1, 1, tzinfo=UTC)
_names = itertools.count()


async def _cells(conn: AsyncConnection, tenant_id: uuid.UUID, forest_id: int, n: int) -> list[int]:
    """Cells to hang as leaves (a session with n cells)."""
    sid = await scalar(
        conn,
        "INSERT INTO sessions (tenant_id, forest_id, external_id, time, content_hash, n_turns) "
        "VALUES (:t, :f, 's', :ts, 'h', 0) RETURNING session_id",
        {"t": tenant_id, "f": forest_id, "ts": BASE},
    )
    ids = []
    for i in range(n):
        cid = await scalar(
            conn,
            "INSERT INTO cells (tenant_id, forest_id, session_id, seq, turn_from, turn_to, text, t_start, t_end) "
            "VALUES (:t, :f, :s, :i, 0, 0, 'x', :ts, :ts) RETURNING cell_id",
            {"t": tenant_id, "f": forest_id, "s": sid, "i": i, "ts": BASE},
        )
        ids.append(int(cid))
    return ids


async def _build(db: Database, times: list[int], fanout: int) -> tuple[uuid.UUID, int, InsertStats]:
    tenant_id = await ensure_tenant(db, "t")
    stats = InsertStats()
    async with db.tenant(tenant_id) as conn:
        forest = await ensure_forest(conn, tenant_id, f"f{next(_names)}")
        cell_ids = await _cells(conn, tenant_id, forest.forest_id, len(times))
        tree = await get_or_create_tree(conn, tenant_id, forest.forest_id, TreeKind.SESSION, "s", "s", fanout, stats)
        for cid, minutes in zip(cell_ids, times, strict=True):
            ts = BASE + timedelta(minutes=minutes)
            leaf = LeafSpec("cell", cid, ts, ts + timedelta(minutes=1), cid, f"cell {cid}")
            assert await insert_leaf(conn, tenant_id, tree, leaf, stats) is not None
    return tenant_id, forest.forest_id, stats


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    times=st.lists(st.integers(min_value=0, max_value=500), min_size=1, max_size=120),
    fanout=st.integers(2, 16),
)
async def test_random_insertion_orders_keep_every_invariant(db: Database, times: list[int], fanout: int) -> None:
    tenant_id, forest_id, stats = await _build(db, times, fanout)
    async with db.tenant(tenant_id) as conn:
        report = await check_forest(conn, tenant_id, forest_id, allow_dirty=True)
        leaves = await fetch_all(
            conn,
            "SELECT t_start FROM nodes WHERE tenant_id = :t AND forest_id = :f AND level = 0 ORDER BY t_start, seq",
            {"t": tenant_id, "f": forest_id},
        )
    assert report.violations == []
    assert [r["t_start"] for r in leaves] == sorted(BASE + timedelta(minutes=m) for m in times)
    assert stats.leaves == len(times)


async def test_splits_grow_height_logarithmically(db: Database) -> None:
    tenant_id, forest_id, stats = await _build(db, list(range(300)), 4)
    async with db.tenant(tenant_id) as conn:
        height = await scalar(conn, "SELECT height FROM trees WHERE tenant_id = :t", {"t": tenant_id})
        report = await check_forest(conn, tenant_id, forest_id, allow_dirty=True)
    assert report.violations == []
    # 300 leaves, fan-out 4, nodes at least half full: height between log4(300) and log2(300).
    assert 5 <= height <= 9
    assert stats.splits > 0


async def test_placing_a_source_twice_is_a_no_op(db: Database) -> None:
    tenant_id, forest_id, stats = await _build(db, [1, 2, 3], 8)
    async with db.tenant(tenant_id) as conn:
        tree = await get_or_create_tree(conn, tenant_id, forest_id, TreeKind.SESSION, "s", "s", 8)
        cell = await scalar(conn, "SELECT min(cell_id) FROM cells WHERE tenant_id = :t", {"t": tenant_id})
        again = LeafSpec("cell", int(cell), BASE, BASE, int(cell), "again")
        assert await insert_leaf(conn, tenant_id, tree, again, stats) is None
        n = await scalar(conn, "SELECT count(*) FROM nodes WHERE tenant_id = :t AND level = 0", {"t": tenant_id})
    assert n == 3


async def test_check_names_a_broken_invariant(db: Database) -> None:
    tenant_id, forest_id, _ = await _build(db, list(range(20)), 4)
    async with db.tenant(tenant_id) as conn:
        await execute(
            conn,
            "UPDATE nodes SET t_start = t_start + interval '1 day' WHERE node_id = "
            "(SELECT min(node_id) FROM nodes WHERE level = 0 AND tenant_id = :t)",
            {"t": tenant_id},
        )
        report = await check_forest(conn, tenant_id, forest_id, allow_dirty=True)
    assert not report.ok
    assert any("out of time order" in v or "smallest key" in v for v in report.violations)
