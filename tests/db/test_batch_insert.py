"""Leaf insertion (``insert_leaf`` one at a time, then ``insert_leaves`` on a whole batch) against an
independent reference: a small pure-Python B+-tree (:class:`ModelTree`) that descends from the root
instead of scanning level-1 nodes, splits along the descent path and counts the same work. For any mix
of trees, times, fan-outs, pre-existing leaves and repeated sources the stored trees must equal the
model's node for node (level, key, interval, child count and order, version, dirty flag, leaf source),
with the same tree rows, placements, returned ids and stats, and pass ``memforest check``."""

from __future__ import annotations

import bisect
import itertools
import uuid
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy.ext.asyncio import AsyncConnection

from memforest.db.engine import Database
from memforest.domain import TreeKind
from memforest.memtree.model import InsertStats, LeafSpec, TreeRef
from memforest.store.check import check_forest
from memforest.store.sql import Row, fetch_all, scalar
from memforest.store.tenants import ensure_forest, ensure_tenant
from memforest.store.trees import get_or_create_tree, insert_leaf, insert_leaves

BASE = datetime(2024, 3, 1, tzinfo=UTC)
DIM = 64
_names = itertools.count()

# One planned insert: (tree index, source index, minutes after BASE). Even trees hang cells, odd
# trees hang facts (with an embedding, so their leaves are born clean).
Plan = list[tuple[int, int, int]]


async def _sources(conn: AsyncConnection, tenant_id: uuid.UUID, forest_id: int, n: int) -> tuple[list[int], list[int]]:
    """n cells (one session) and n facts with embeddings, ids in creation order."""
    sid = await scalar(
        conn,
        "INSERT INTO sessions (tenant_id, forest_id, external_id, time, content_hash, n_turns) "
        "VALUES (:t, :f, 's', :ts, 'h', 0) RETURNING session_id",
        {"t": tenant_id, "f": forest_id, "ts": BASE},
    )
    cells, facts = [], []
    rng = np.random.default_rng(7)
    for i in range(n):
        cells.append(
            int(
                await scalar(
                    conn,
                    "INSERT INTO cells (tenant_id, forest_id, session_id, seq, turn_from, turn_to, text, t_start, "
                    "t_end) VALUES (:t, :f, :s, :i, 0, 0, 'x', :ts, :ts) RETURNING cell_id",
                    {"t": tenant_id, "f": forest_id, "s": sid, "i": i, "ts": BASE},
                )
            )
        )
        vec = rng.normal(size=DIM).astype(np.float32)
        facts.append(
            int(
                await scalar(
                    conn,
                    "INSERT INTO facts (tenant_id, forest_id, text, text_hash, kind, valid_from, embedding) "
                    "VALUES (:t, :f, :x, :h, 'event', :ts, :e) RETURNING fact_id",
                    {"t": tenant_id, "f": forest_id, "x": f"fact {i}", "h": f"h{i}", "ts": BASE, "e": vec / 3},
                )
            )
        )
    return cells, facts


def _leaf(tree_index: int, source: int, minutes: int, cells: list[int], facts: list[int]) -> LeafSpec:
    ts = BASE + timedelta(minutes=minutes)
    te = ts + timedelta(minutes=source % 3)
    if tree_index % 2 == 0:
        return LeafSpec("cell", cells[source], ts, te, cells[source], f"cell {source} at {minutes}")
    emb = np.full(DIM, (source + 1) / 100, dtype=np.float32)
    return LeafSpec("fact", facts[source], ts, te, facts[source], f"fact {source} at {minutes}", emb)


async def _trees(conn: AsyncConnection, tenant_id: uuid.UUID, forest_id: int, fanouts: list[int]) -> list[TreeRef]:
    out = []
    for i, k in enumerate(fanouts):
        kind = TreeKind.SESSION if i % 2 == 0 else TreeKind.ENTITY
        out.append(await get_or_create_tree(conn, tenant_id, forest_id, kind, f"k{i}", f"tree {i}", k))
    return out


@dataclass(eq=False)
class MNode:
    """A node of the reference model; children are kept in key order."""

    level: int
    t_start: datetime
    seq: int
    t_end: datetime
    children: list[MNode] = field(default_factory=list)
    version: int = 0
    dirty: bool = True
    leaf: LeafSpec | None = None

    @property
    def key(self) -> tuple[datetime, int]:
        return (self.t_start, self.seq)

    def shape(self) -> tuple[Any, ...]:
        """What the database must hold for this subtree (see :func:`_stored_shape`)."""
        src = None if self.leaf is None else (self.leaf.source_kind, self.leaf.source_id, self.leaf.text)
        kids = tuple(c.shape() for c in self.children)
        return (self.level, self.t_start, self.seq, self.t_end, len(self.children), self.version, self.dirty, src, kids)


class ModelTree:
    """Textbook B+-tree over leaf keys ``(t_start, seq)``: an internal node's key is the smallest key
    below it and its ``t_end`` the largest end; every node on the insert path is marked (version + 1,
    dirty); a node over ``fanout`` children keeps the first half and hands the rest to a new right
    sibling (the split node and the parent that receives the sibling are marked once more)."""

    def __init__(self, fanout: int) -> None:
        self.fanout = fanout
        self.root: MNode | None = None
        self.placed: set[tuple[str, int]] = set()
        self.n_leaves = 0

    def insert(self, leaf: LeafSpec, stats: InsertStats) -> bool:
        """Hang ``leaf``; False (and nothing changes) when its source already hangs here."""
        if (leaf.source_kind, leaf.source_id) in self.placed:
            stats.skipped += 1
            return False
        self.placed.add((leaf.source_kind, leaf.source_id))
        key = (leaf.t_start, leaf.seq)
        if self.root is None:
            self.root = MNode(1, leaf.t_start, leaf.seq, leaf.t_end)
            stats.nodes_created += 1
        path = [self.root]
        while path[-1].level > 1:
            kids = path[-1].children
            below = [c for c in kids if c.key <= key]
            path.append(below[-1] if below else kids[0])
        new = MNode(0, leaf.t_start, leaf.seq, leaf.t_end, dirty=leaf.embedding is None, leaf=leaf)
        bisect.insort(path[-1].children, new, key=lambda n: n.key)
        for node in path:
            node.version, node.dirty = node.version + 1, True
            node.t_start, node.seq = min(node.key, key)
            node.t_end = max(node.t_end, leaf.t_end)
        self.n_leaves += 1
        stats.leaves += 1
        stats.nodes_created += 1
        stats.marks += len(path)
        for depth in range(len(path) - 1, -1, -1):
            node = path[depth]
            if len(node.children) <= self.fanout:
                break
            half = len(node.children) // 2
            moved = node.children[half:]
            sibling = MNode(node.level, moved[0].t_start, moved[0].seq, max(c.t_end for c in moved), moved)
            node.children = node.children[:half]
            node.t_end = max(c.t_end for c in node.children)
            node.version += 1
            stats.splits += 1
            stats.nodes_created += 1
            if depth == 0:
                t_end = max(node.t_end, sibling.t_end)
                self.root = MNode(node.level + 1, node.t_start, node.seq, t_end, [node, sibling])
                stats.nodes_created += 1
            else:
                parent = path[depth - 1]
                bisect.insort(parent.children, sibling, key=lambda n: n.key)
                parent.version += 1
        return True


def _stored_shape(root: int, nodes: dict[int, Row], kids: dict[int, list[Row]]) -> tuple[Any, ...]:
    """The stored subtree under ``root`` in the form of :meth:`MNode.shape` (children in key order)."""
    n = nodes[root]
    src = None
    if n["leaf_fact_id"] is not None:
        src = ("fact", int(n["leaf_fact_id"]), n["summary"])
    elif n["leaf_cell_id"] is not None:
        src = ("cell", int(n["leaf_cell_id"]), n["summary"])
    below = sorted(kids.get(root, []), key=lambda c: (c["t_start"], c["seq"]))
    children = tuple(_stored_shape(int(c["node_id"]), nodes, kids) for c in below)
    return (n["level"], n["t_start"], int(n["seq"]), n["t_end"], n["n_children"], n["version"], n["dirty"], src,
            children)  # fmt: skip


def _count(shape: tuple[Any, ...]) -> int:
    return 1 + sum(_count(c) for c in shape[-1])


async def _stored(conn: AsyncConnection, tenant_id: uuid.UUID, forest_id: int, trees: list[TreeRef]) -> dict[str, Any]:
    """Per tree: root level, height, n_leaves, the subtree shape, and how many nodes it has; placements."""
    p = {"t": tenant_id, "f": forest_id}
    rows = await fetch_all(
        conn,
        "SELECT node_id, tree_id, level, parent_id, t_start, t_end, seq, n_children, version, dirty, summary, "
        "leaf_fact_id, leaf_cell_id FROM nodes WHERE tenant_id = :t AND forest_id = :f",
        p,
    )
    tree_rows = {
        int(r["tree_id"]): r
        for r in await fetch_all(
            conn, "SELECT tree_id, root_node_id, height, n_leaves FROM trees WHERE tenant_id = :t AND forest_id = :f", p
        )
    }
    nodes = {int(r["node_id"]): r for r in rows}
    kids: dict[int, list[Row]] = {}
    for r in rows:
        if r["parent_id"] is not None:
            kids.setdefault(int(r["parent_id"]), []).append(r)
    out: dict[str, Any] = {"trees": [], "placements": set()}
    for t in trees:
        tr = tree_rows[t.tree_id]
        n_nodes = sum(1 for r in rows if int(r["tree_id"]) == t.tree_id)
        if tr["root_node_id"] is None:
            out["trees"].append((None, tr["n_leaves"], None, n_nodes))
            continue
        shape = _stored_shape(int(tr["root_node_id"]), nodes, kids)
        assert _count(shape) == n_nodes, f"tree {t.tree_id} has nodes its root does not reach"
        out["trees"].append((tr["height"], tr["n_leaves"], shape, n_nodes))
    placements = await fetch_all(
        conn,
        "SELECT pl.tree_id, pl.source_kind, pl.source_id, n.leaf_fact_id, n.leaf_cell_id FROM placements pl "
        "JOIN nodes n ON n.node_id = pl.node_id WHERE pl.tenant_id = :t AND pl.forest_id = :f",
        p,
    )
    for r in placements:
        leaf_source = r["leaf_fact_id"] if r["source_kind"] == "fact" else r["leaf_cell_id"]
        assert leaf_source == r["source_id"], f"placement {dict(r)} points at another leaf"
        out["placements"].add((int(r["tree_id"]), r["source_kind"], int(r["source_id"])))
    return out


def _expected(models: list[ModelTree], trees: list[TreeRef]) -> dict[str, Any]:
    out: dict[str, Any] = {"trees": [], "placements": set()}
    for m, t in zip(models, trees, strict=True):
        if m.root is None:
            out["trees"].append((None, 0, None, 0))
            continue
        shape = m.root.shape()
        out["trees"].append((m.root.level, m.n_leaves, shape, _count(shape)))
        out["placements"] |= {(t.tree_id, kind, sid) for kind, sid in m.placed}
    return out


def _stats(s: InsertStats) -> dict[str, Any]:
    d = asdict(s)
    d["touched_trees"] = sorted(s.touched_trees)
    return d


_LEAVES = (
    "SELECT node_id, tree_id, leaf_fact_id, leaf_cell_id FROM nodes WHERE tenant_id = :t AND forest_id = :f "
    "AND level = 0"
)
_ROOTS = "SELECT tree_id, root_node_id, height FROM trees WHERE tenant_id = :t AND forest_id = :f"


async def _run(db: Database, fanouts: list[int], prefix: Plan, batch: Plan) -> dict[str, Any]:
    """Hang ``prefix`` one leaf at a time, then ``batch`` in one call, and compare with the model;
    returns what the batch reported (stats, returned ids) for further checks."""
    tenant_id = await ensure_tenant(db, "t")
    n_sources = 1 + max(s for _, s, _ in prefix + batch)
    models = [ModelTree(k) for k in fanouts]
    pre_stats, stats, want_stats = InsertStats(), InsertStats(), InsertStats()
    async with db.tenant(tenant_id) as conn:
        forest = await ensure_forest(conn, tenant_id, f"f{next(_names)}")
        cells, facts = await _sources(conn, tenant_id, forest.forest_id, n_sources)
        trees = await _trees(conn, tenant_id, forest.forest_id, fanouts)
        for ti, s, m in prefix:
            leaf = _leaf(ti, s, m, cells, facts)
            await insert_leaf(conn, tenant_id, trees[ti], leaf, pre_stats)
            models[ti].insert(leaf, InsertStats())
    async with db.tenant(tenant_id) as conn:  # a later transaction, as the next commit would be
        fresh = await _trees(conn, tenant_id, forest.forest_id, fanouts)  # re-read rows (roots may have moved)
        items = [(fresh[ti], _leaf(ti, s, m, cells, facts)) for ti, s, m in batch]
        hung = []
        for ti, s, m in batch:
            if models[ti].insert(_leaf(ti, s, m, cells, facts), want_stats):
                want_stats.touched_trees.add(fresh[ti].tree_id)
                hung.append(True)
            else:
                hung.append(False)
        returned = await insert_leaves(conn, tenant_id, items, stats)
        got = await _stored(conn, tenant_id, forest.forest_id, fresh)
        p = {"t": tenant_id, "f": forest.forest_id}
        leaf_rows = await fetch_all(conn, _LEAVES, p)
        leaf_of = {int(r["node_id"]): (int(r["tree_id"]), r["leaf_fact_id"] or r["leaf_cell_id"]) for r in leaf_rows}
        roots = {int(r["tree_id"]): (r["root_node_id"], r["height"]) for r in await fetch_all(conn, _ROOTS, p)}
        report = await check_forest(conn, tenant_id, forest.forest_id, allow_dirty=True)
    # not every test source is placed (the check would say so); every tree invariant must hold
    assert [v for v in report.violations if v.startswith("tree ")] == []
    assert got == _expected(models, fresh)
    assert _stats(stats) == _stats(want_stats)
    assert [r is not None for r in returned] == hung
    for (tree, leaf), r in zip(items, returned, strict=True):
        if r is not None:  # the id of the leaf just hung for that source
            assert leaf_of[r] == (tree.tree_id, leaf.source_id)
    for t in fresh:  # the caller's tree rows follow root splits
        if t.root_node_id is not None:
            assert (t.root_node_id, t.height) == roots[t.tree_id]
    return {"stats": _stats(stats), "returned": returned}


plans = st.lists(
    st.tuples(st.integers(0, 3), st.integers(0, 40), st.integers(0, 300)), min_size=0, max_size=40
)  # fmt: skip


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    fanouts=st.lists(st.integers(2, 6), min_size=4, max_size=4),
    prefix=plans,
    batch=plans.filter(bool),
)
async def test_inserts_match_reference_model(db: Database, fanouts: list[int], prefix: Plan, batch: Plan) -> None:
    await _run(db, fanouts, prefix, batch)


async def test_batch_into_big_tree_appends_splits_and_repeats(db: Database) -> None:
    """A deep tree (fan-out 3), a batch that appends, prepends (widening the first node), inserts in
    the middle, splits the root, and repeats sources already placed before and within the batch."""
    prefix = [(0, s, 10 * s) for s in range(60)] + [(1, s, 10 * s) for s in range(0, 60, 2)]
    batch = (
        [(0, 60 + i, 600 + i) for i in range(25)]  # appends
        + [(0, 90 + i, -5 - i) for i in range(6)]  # before everything
        + [(0, 100 + i, 155 + i) for i in range(6)]  # in the middle
        + [(0, 3, 30), (1, 4, 40), (0, 60, 600), (1, 101, 5), (1, 101, 5)]  # already placed / twice
    )
    out = await _run(db, [3, 4, 2, 2], prefix, batch)
    assert out["stats"]["skipped"] == 4 and out["stats"]["splits"] > 10
    assert out["returned"].count(None) == 4


async def test_empty_batch_writes_nothing(db: Database) -> None:
    tenant_id = await ensure_tenant(db, "t")
    stats = InsertStats()
    async with db.tenant(tenant_id) as conn:
        assert await insert_leaves(conn, tenant_id, [], stats) == []
        assert await scalar(conn, "SELECT count(*) FROM nodes") == 0
    assert stats == InsertStats()
