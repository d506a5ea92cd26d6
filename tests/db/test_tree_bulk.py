"""Bottom-up bulk loading (``store/tree_bulk.py`` writing the plan of ``memtree/layout.py``): for any
leaf set, times with ties and fan-out, a bulk-built tree passes every invariant ``memforest check``
verifies, holds each leaf once in time order at the minimal height, writes leaf rows exactly as
``insert_leaf`` does, and keeps accepting incremental inserts."""

from __future__ import annotations

import itertools
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy.ext.asyncio import AsyncConnection

from memforest.db.engine import Database
from memforest.domain import TreeKind
from memforest.memtree.invariants import check_tree
from memforest.memtree.layout import layout
from memforest.memtree.model import InsertStats, LeafSpec, TreeRef
from memforest.store.sql import as_vector, fetch_all, fetch_one, scalar
from memforest.store.tenants import ensure_forest, ensure_tenant
from memforest.store.tree_bulk import bulk_build_tree, bulk_build_trees
from memforest.store.trees import get_or_create_tree, insert_leaf

BASE = datetime(2025, 6, 1, tzinfo=UTC)
DIM = 64
POOL = 240  # sources per example: up to 200 bulk leaves plus later incremental ones
_names = itertools.count()


async def _forest(conn: AsyncConnection, tenant_id: uuid.UUID) -> tuple[int, list[int], list[int]]:
    """A new forest with POOL cells (one session) and POOL facts; their ids in creation order."""
    forest = await ensure_forest(conn, tenant_id, f"grove{next(_names)}")
    p = {"t": tenant_id, "f": forest.forest_id, "n": POOL, "ts": BASE}
    sid = await scalar(
        conn,
        "INSERT INTO sessions (tenant_id, forest_id, external_id, time, content_hash, n_turns) "
        "VALUES (:t, :f, 'walk', :ts, 'h', 0) RETURNING session_id",
        p,
    )
    cells = await fetch_all(
        conn,
        "INSERT INTO cells (tenant_id, forest_id, session_id, seq, turn_from, turn_to, text, t_start, t_end) "
        "SELECT :t, :f, :s, i, 0, 0, 'the heron waded ' || i, :ts, :ts FROM generate_series(1, :n) i "
        "RETURNING cell_id",
        {**p, "s": sid},
    )
    facts = await fetch_all(
        conn,
        "INSERT INTO facts (tenant_id, forest_id, text, text_hash, kind, valid_from) "
        "SELECT :t, :f, 'Wendeline saw otter ' || i, 'otter' || i, 'event', :ts FROM generate_series(1, :n) i "
        "RETURNING fact_id",
        p,
    )
    return forest.forest_id, sorted(int(r["cell_id"]) for r in cells), sorted(int(r["fact_id"]) for r in facts)


def _leaf(kind: str, source: int, minutes: int, span: int, embedded: bool) -> LeafSpec:
    ts = BASE + timedelta(minutes=minutes)
    emb = np.full(DIM, (source % 97 + 1) / 100, dtype=np.float32) if embedded else None
    return LeafSpec(kind, source, ts, ts + timedelta(minutes=span), source, f"{kind} {source} at {minutes}", emb)


async def _tree_rows(conn: AsyncConnection, tenant_id: uuid.UUID, tree_id: int) -> tuple[dict[str, Any], list[Any]]:
    tree = await fetch_one(
        conn,
        "SELECT tree_id, kind, label, fanout, root_node_id, height, n_leaves FROM trees "
        "WHERE tenant_id = :t AND tree_id = :id",
        {"t": tenant_id, "id": tree_id},
    )
    assert tree is not None
    nodes = await fetch_all(
        conn,
        "SELECT node_id, tree_id, level, parent_id, t_start, t_end, seq, n_children, dirty, version, summary, "
        "summary_hash, embedding, embedded_hash, leaf_fact_id, leaf_cell_id FROM nodes "
        "WHERE tenant_id = :t AND tree_id = :id",
        {"t": tenant_id, "id": tree_id},
    )
    return tree, nodes


async def _placed(conn: AsyncConnection, tenant_id: uuid.UUID, tree_id: int) -> list[tuple[str, int, int]]:
    rows = await fetch_all(
        conn,
        "SELECT p.source_kind, p.source_id, n.node_id FROM placements p JOIN nodes n ON n.tenant_id = p.tenant_id "
        "AND n.node_id = p.node_id WHERE p.tenant_id = :t AND p.tree_id = :id AND n.level = 0 "
        "AND coalesce(n.leaf_fact_id, n.leaf_cell_id) = p.source_id",
        {"t": tenant_id, "id": tree_id},
    )
    return [(str(r["source_kind"]), int(r["source_id"]), int(r["node_id"])) for r in rows]


def _min_height(n: int, k: int) -> int:
    """The least height of a tree of n >= 1 leaves whose nodes hold at most k children (>= 1)."""
    h = 1
    while k**h < n:
        h += 1
    return h


def _leaf_view(node: dict[str, Any]) -> tuple[Any, ...]:
    """A leaf row without its ids (compared between bulk and incremental builds)."""
    emb = node["embedding"]
    return (
        node["level"], node["t_start"], node["t_end"], node["seq"], node["n_children"], node["dirty"],
        node["version"], node["summary"], node["summary_hash"], node["embedded_hash"],
        None if emb is None else as_vector(emb).tolist(), node["leaf_fact_id"], node["leaf_cell_id"],
    )  # fmt: skip


leaf_sets = st.lists(
    st.tuples(st.integers(0, 40), st.integers(0, 5), st.booleans()), min_size=0, max_size=200
)  # (minutes, span, embedded) per leaf; few distinct minutes, so many ties


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    fanout=st.integers(2, 16),
    facts=st.booleans(),
    leaves=leaf_sets,
    later=st.lists(st.tuples(st.integers(-10, 60), st.integers(0, 5)), max_size=30),
)
async def test_bulk_built_tree_passes_check_and_accepts_inserts(
    db: Database,
    fanout: int,
    facts: bool,
    leaves: list[tuple[int, int, bool]],
    later: list[tuple[int, int]],
) -> None:
    tenant_id = await ensure_tenant(db, "bulk")
    kind = "fact" if facts else "cell"
    async with db.tenant(tenant_id) as conn:
        forest_id, cells, fact_ids = await _forest(conn, tenant_id)
        pool = fact_ids if facts else cells
        tree_kind = TreeKind.ENTITY if facts else TreeKind.SESSION
        tree = await get_or_create_tree(conn, tenant_id, forest_id, tree_kind, "k", "otters", fanout)
        specs = sorted(
            (_leaf(kind, pool[i], m, span, emb) for i, (m, span, emb) in enumerate(leaves)),
            key=lambda leaf: (leaf.t_start, leaf.seq),
        )
        stats = InsertStats()
        await bulk_build_tree(conn, tenant_id, tree, specs, stats)
        row, nodes = await _tree_rows(conn, tenant_id, tree.tree_id)

        assert check_tree(row, nodes, allow_dirty=True) == []
        n = len(specs)
        assert (row["n_leaves"], stats.leaves, stats.nodes_created) == (n, n, len(nodes))
        if n == 0:
            assert nodes == [] and row["root_node_id"] is None and tree.root_node_id is None
        else:
            height = int(row["height"])
            assert (tree.root_node_id, tree.height) == (row["root_node_id"], height)
            assert height == _min_height(n, fanout) == len(layout(n, fanout))
            m = (fanout + 1) // 2
            if n >= 2 and m >= 2:  # log base 1 is unbounded (k = 2 allows one-child nodes)
                bound = 1 + next(h for h in itertools.count(0) if m**h >= n)  # ceil(log_m n) + 1
                assert height <= bound
            leaf_nodes = sorted((x for x in nodes if x["level"] == 0), key=lambda x: (x["t_start"], x["seq"]))
            assert [(x["t_start"], x["seq"]) for x in leaf_nodes] == [(s.t_start, s.seq) for s in specs]
            assert all(x["dirty"] and x["summary"] is None for x in nodes if x["level"] > 0)
            assert all(x["dirty"] == (s.embedding is None) for x, s in zip(leaf_nodes, specs, strict=True))
        placed = await _placed(conn, tenant_id, tree.tree_id)
        assert sorted((k, s) for k, s, _ in placed) == sorted((s.source_kind, s.source_id) for s in specs)
        assert len({node for *_, node in placed}) == n

        # Incremental inserts into the bulk-built tree keep every invariant.
        fresh = pool[len(leaves) : len(leaves) + len(later)]
        inserted = InsertStats()
        for source, (minutes, span) in zip(fresh, later, strict=False):
            await insert_leaf(conn, tenant_id, tree, _leaf(kind, source, minutes, span, True), inserted)
        row, nodes = await _tree_rows(conn, tenant_id, tree.tree_id)
        assert check_tree(row, nodes, allow_dirty=True) == []
        assert row["n_leaves"] == n + len(fresh) == len(await _placed(conn, tenant_id, tree.tree_id))


async def test_leaf_rows_match_insert_leaf_and_many_trees_build_at_once(db: Database) -> None:
    """Two trees per kind hold the same leaves: one bulk-built (together, in one call), one by
    insert_leaf. Leaf rows are identical apart from ids and parents."""
    tenant_id = await ensure_tenant(db, "bulk")
    async with db.tenant(tenant_id) as conn:
        forest_id, cells, facts = await _forest(conn, tenant_id)
        plan = {
            "cell": [_leaf("cell", c, (i * 7) % 30, i % 3, i % 4 == 0) for i, c in enumerate(cells[:57])],
            "fact": [_leaf("fact", f, (i * 5) % 20, 0, i % 5 != 0) for i, f in enumerate(facts[:41])],
        }
        trees: dict[tuple[str, str], TreeRef] = {}
        for kind, tree_kind in (("cell", TreeKind.SESSION), ("fact", TreeKind.SCENE)):
            for how in ("bulk", "one"):
                trees[(kind, how)] = await get_or_create_tree(
                    conn, tenant_id, forest_id, tree_kind, f"{how}-{kind}", f"{how} {kind}", 3
                )
        stats = InsertStats()
        await bulk_build_trees(
            conn,
            tenant_id,
            [(trees[(k, "bulk")], sorted(v, key=lambda x: (x.t_start, x.seq))) for k, v in plan.items()],
            stats,
        )
        assert stats.leaves == 98 and len(stats.touched_trees) == 2
        for kind, specs in plan.items():
            for spec in specs:
                await insert_leaf(conn, tenant_id, trees[(kind, "one")], spec, InsertStats())
            views: dict[str, Any] = {}
            for how in ("bulk", "one"):
                row, nodes = await _tree_rows(conn, tenant_id, trees[(kind, how)].tree_id)
                assert check_tree(row, nodes, allow_dirty=True) == []
                views[how] = sorted(_leaf_view(x) for x in nodes if x["level"] == 0)
                views[how + " root key"] = next(
                    (x["t_start"], x["seq"], x["t_end"]) for x in nodes if x["parent_id"] is None
                )
            assert views["bulk"] == views["one"] and len(views["bulk"]) == len(specs)
            assert views["bulk root key"] == views["one root key"]
            bulk_h, one_h = trees[(kind, "bulk")].height, trees[(kind, "one")].height
            assert bulk_h == _min_height(len(specs), 3) <= one_h


async def test_refuses_a_tree_that_is_not_empty_or_unsorted_leaves(db: Database) -> None:
    tenant_id = await ensure_tenant(db, "bulk")
    async with db.tenant(tenant_id) as conn:
        forest_id, cells, _ = await _forest(conn, tenant_id)
        tree = await get_or_create_tree(conn, tenant_id, forest_id, TreeKind.SESSION, "walk", "walk", 4)
        first = _leaf("cell", cells[0], 3, 0, False)
        await insert_leaf(conn, tenant_id, tree, first, InsertStats())
        stale = TreeRef(tree.tree_id, forest_id, tree.kind, tree.key, tree.label, 4, None, 1)  # an outdated copy
        with pytest.raises(ValueError, match="not empty"):
            await bulk_build_tree(conn, tenant_id, stale, [_leaf("cell", cells[1], 5, 0, False)])
        other = await get_or_create_tree(conn, tenant_id, forest_id, TreeKind.SESSION, "swim", "swim", 4)
        backwards = [_leaf("cell", cells[2], 9, 0, False), _leaf("cell", cells[3], 1, 0, False)]
        with pytest.raises(ValueError, match="sorted"):
            await bulk_build_tree(conn, tenant_id, other, backwards)
        repeated = [_leaf("cell", cells[2], 9, 0, False), _leaf("cell", cells[2], 9, 0, False)]
        with pytest.raises(ValueError, match="sorted"):
            await bulk_build_tree(conn, tenant_id, other, repeated)
        assert await scalar(conn, "SELECT count(*) FROM nodes WHERE tenant_id = :t", {"t": tenant_id}) == 2
        assert (other.root_node_id, await _placed(conn, tenant_id, other.tree_id)) == (None, [])
