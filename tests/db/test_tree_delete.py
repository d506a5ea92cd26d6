"""MemTree deletion against the real database: removing any subset of leaves keeps every invariant."""

from __future__ import annotations

import itertools
import uuid
from datetime import UTC, datetime, timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memforest.db.engine import Database
from memforest.domain import TreeKind
from memforest.memtree.model import DeleteStats, InsertStats, LeafSpec, TreeRef
from memforest.store.check import check_forest
from memforest.store.sql import execute, fetch_all, fetch_one, scalar
from memforest.store.tenants import ensure_forest, ensure_tenant
from memforest.store.tree_delete import drop_tree, remove_leaf, remove_source
from memforest.store.trees import get_or_create_tree, insert_leaf, load_tree

BASE = datetime(2024, 1, 1, tzinfo=UTC)
_names = itertools.count()


async def _build(db: Database, times: list[int], fanout: int) -> tuple[uuid.UUID, int, TreeRef, list[int]]:
    """A session tree of ``len(times)`` cell leaves (minute offsets ``times``); returns the cell ids."""
    tenant_id = await ensure_tenant(db, "t")
    async with db.tenant(tenant_id) as conn:
        forest = await ensure_forest(conn, tenant_id, f"f{next(_names)}")
        sid = await scalar(
            conn,
            "INSERT INTO sessions (tenant_id, forest_id, external_id, time, content_hash, n_turns) "
            "VALUES (:t, :f, 's', :ts, 'h', 0) RETURNING session_id",
            {"t": tenant_id, "f": forest.forest_id, "ts": BASE},
        )
        tree = await get_or_create_tree(conn, tenant_id, forest.forest_id, TreeKind.SESSION, "s", "s", fanout)
        cells = []
        stats = InsertStats()
        for i, minutes in enumerate(times):
            ts = BASE + timedelta(minutes=minutes)
            cid = int(
                await scalar(
                    conn,
                    "INSERT INTO cells (tenant_id, forest_id, session_id, seq, turn_from, turn_to, text, t_start, "
                    "t_end) VALUES (:t, :f, :s, :i, 0, 0, 'x', :ts, :te) RETURNING cell_id",
                    {"t": tenant_id, "f": forest.forest_id, "s": sid, "i": i, "ts": ts, "te": ts + timedelta(hours=i)},
                )
            )
            leaf = LeafSpec("cell", cid, ts, ts + timedelta(hours=i), cid, f"cell {cid}")
            await insert_leaf(conn, tenant_id, tree, leaf, stats)
            cells.append(cid)
        # a clean starting point: only what the deletions touch is dirty afterwards
        await execute(conn, "UPDATE nodes SET dirty = false WHERE tenant_id = :t", {"t": tenant_id})
    return tenant_id, forest.forest_id, tree, cells


async def _leaf_keys(db: Database, tenant_id: uuid.UUID, forest_id: int) -> list[tuple[datetime, int]]:
    async with db.tenant(tenant_id) as conn:
        rows = await fetch_all(
            conn,
            "SELECT t_start, seq FROM nodes WHERE tenant_id = :t AND forest_id = :f AND level = 0 "
            "ORDER BY t_start, seq",
            {"t": tenant_id, "f": forest_id},
        )
    return [(r["t_start"], int(r["seq"])) for r in rows]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    times=st.lists(st.integers(min_value=0, max_value=300), min_size=1, max_size=60),
    fanout=st.integers(2, 6),
    data=st.data(),
)
async def test_deleting_any_subset_keeps_every_invariant(
    db: Database, times: list[int], fanout: int, data: st.DataObject
) -> None:
    tenant_id, forest_id, tree, cells = await _build(db, times, fanout)
    doomed = data.draw(st.lists(st.sampled_from(cells), unique=True, max_size=len(cells)), label="doomed")
    stats = DeleteStats()
    async with db.tenant(tenant_id) as conn:
        for cid in doomed:
            assert await remove_source(conn, tenant_id, "cell", cid, stats, {tree.tree_id: tree}) == [tree.tree_id]
            # (the cell row goes too, so check's "every cell is placed" holds)
            await execute(conn, "DELETE FROM cells WHERE tenant_id = :t AND cell_id = :c", {"t": tenant_id, "c": cid})
            # the tree stays valid after every single removal (dirty marks aside)
            report = await check_forest(conn, tenant_id, forest_id, allow_dirty=True)
            assert report.violations == [], (cid, report.violations)
        report = await check_forest(conn, tenant_id, forest_id, allow_dirty=True)
        row = await fetch_one(
            conn,
            "SELECT n_leaves, root_node_id, height FROM trees WHERE tenant_id = :t AND tree_id = :tr",
            {"t": tenant_id, "tr": tree.tree_id},
        )
        dirty_leaves = await scalar(
            conn,
            "SELECT count(*) FROM nodes WHERE tenant_id = :t AND forest_id = :f AND level = 0 AND dirty",
            {"t": tenant_id, "f": forest_id},
        )
    assert report.violations == []
    assert stats.leaves == len(doomed)
    kept = [(BASE + timedelta(minutes=m), c) for m, c in zip(times, cells, strict=True) if c not in doomed]
    assert await _leaf_keys(db, tenant_id, forest_id) == sorted(kept)
    assert row is not None and row["n_leaves"] == len(kept)
    assert (row["root_node_id"] is None) == (not kept)
    assert dirty_leaves == 0  # untouched leaves are never marked


async def test_deleting_everything_shrinks_then_empties_the_tree(db: Database) -> None:
    tenant_id, forest_id, tree, cells = await _build(db, list(range(200)), 4)
    stats = DeleteStats()
    heights = []
    async with db.tenant(tenant_id) as conn:
        for cid in cells:
            await remove_source(conn, tenant_id, "cell", cid, stats)
            heights.append((await load_tree(conn, tenant_id, tree.tree_id)).height)
        await execute(conn, "DELETE FROM cells WHERE tenant_id = :t", {"t": tenant_id})
        report = await check_forest(conn, tenant_id, forest_id, allow_dirty=True)
        nodes = await scalar(conn, "SELECT count(*) FROM nodes WHERE tenant_id = :t", {"t": tenant_id})
        tree_row = await fetch_one(
            conn, "SELECT root_node_id, n_leaves FROM trees WHERE tenant_id = :t", {"t": tenant_id}
        )
    assert report.violations == []
    assert heights[0] >= 4 and heights == sorted(heights, reverse=True)  # height only shrinks
    assert stats.collapses >= heights[0] - 1 and stats.merges > 0 and stats.trees_emptied == 1
    assert nodes == 0 and tree_row == {"root_node_id": None, "n_leaves": 0}


async def test_one_deletion_marks_only_its_path(db: Database) -> None:
    tenant_id, _, tree, cells = await _build(db, list(range(64)), 4)
    async with db.tenant(tenant_id) as conn:
        total = int(await scalar(conn, "SELECT count(*) FROM nodes WHERE tenant_id = :t", {"t": tenant_id}))
        leaf = await scalar(
            conn,
            "SELECT node_id FROM nodes WHERE tenant_id = :t AND leaf_cell_id = :c",
            {"t": tenant_id, "c": cells[30]},
        )
        stats = DeleteStats()
        assert await remove_leaf(conn, tenant_id, tree, int(leaf), stats)
        assert not await remove_leaf(conn, tenant_id, tree, int(leaf), stats)  # already gone: no-op
        dirty = int(await scalar(conn, "SELECT count(*) FROM nodes WHERE tenant_id = :t AND dirty", {"t": tenant_id}))
        placements = await scalar(
            conn,
            "SELECT count(*) FROM placements WHERE tenant_id = :t AND source_id = :c",
            {"t": tenant_id, "c": cells[30]},
        )
    assert placements == 0 and stats.leaves == 1
    # the path to the root plus at most a sibling per level (a borrow or merge), nothing else
    assert 1 <= dirty <= 2 * tree.height + 1 < total


async def test_drop_tree_removes_nodes_and_placements(db: Database) -> None:
    tenant_id, _, tree, _ = await _build(db, list(range(20)), 4)
    async with db.tenant(tenant_id) as conn:
        n = await drop_tree(conn, tenant_id, tree.tree_id)
        left = await scalar(
            conn,
            "SELECT (SELECT count(*) FROM nodes WHERE tenant_id = :t) + (SELECT count(*) FROM placements "
            "WHERE tenant_id = :t) + (SELECT count(*) FROM trees WHERE tenant_id = :t)",
            {"t": tenant_id},
        )
        assert await drop_tree(conn, tenant_id, tree.tree_id) == 0
    assert n > 20 and left == 0
