"""MemTree structure: time-ordered B+-tree-style insertion with splits, placements and dirty marks.

Leaves sit at level 0; every other node is internal and its key ``(t_start, seq)`` is the smallest
key below it, ``t_end`` the largest end. A new leaf finds its parent with one index seek on the
level-1 nodes of the tree (``ix_nodes_seek``), never by scanning or rebuilding the tree; the
ancestor path is then updated (key, interval, dirty flag, version) in one statement, and
over-full nodes split upward. Cost per leaf: O(height) statements, O(log N) index work.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np
from pgvector import Vector
from sqlalchemy.ext.asyncio import AsyncConnection

from memforest.domain import TreeKind
from memforest.store.sql import as_vector, execute, fetch_all, fetch_one, scalar


@dataclass(slots=True)
class TreeRef:
    """A tree row as the write path needs it (mutable: root and height change on root splits)."""

    tree_id: int
    forest_id: int
    kind: TreeKind
    key: str
    label: str
    fanout: int
    root_node_id: int | None
    height: int


@dataclass(frozen=True, slots=True)
class LeafSpec:
    """What to hang in a tree: payload (a fact or a cell), its time key and its text."""

    source_kind: str  # "fact" | "cell"
    source_id: int
    t_start: datetime
    t_end: datetime
    seq: int
    text: str
    embedding: Any = None  # a vector when already known (fact leaves copy the fact's embedding)


@dataclass(slots=True)
class InsertStats:
    """Counters of structural work."""

    leaves: int = 0
    skipped: int = 0
    splits: int = 0
    nodes_created: int = 0
    marks: int = 0
    trees_created: int = 0
    touched_trees: set[int] = field(default_factory=set)

    def add(self, other: InsertStats) -> None:
        self.leaves += other.leaves
        self.skipped += other.skipped
        self.splits += other.splits
        self.nodes_created += other.nodes_created
        self.marks += other.marks
        self.trees_created += other.trees_created
        self.touched_trees |= other.touched_trees


def _tree_from_row(row: dict[str, Any]) -> TreeRef:
    return TreeRef(
        tree_id=int(row["tree_id"]),
        forest_id=int(row["forest_id"]),
        kind=TreeKind(row["kind"]),
        key=str(row["key"]),
        label=str(row["label"]),
        fanout=int(row["fanout"]),
        root_node_id=row["root_node_id"],
        height=int(row["height"]),
    )


async def get_or_create_tree(
    conn: AsyncConnection,
    tenant_id: uuid.UUID,
    forest_id: int,
    kind: TreeKind,
    key: str,
    label: str,
    fanout: int,
    stats: InsertStats | None = None,
) -> TreeRef:
    """The tree of scope ``(kind, key)`` in the forest, created (empty) when missing."""
    params = {"t": tenant_id, "f": forest_id, "k": kind.value, "key": key, "l": label, "fo": fanout}
    row = await fetch_one(
        conn,
        "INSERT INTO trees (tenant_id, forest_id, kind, key, label, fanout) VALUES (:t, :f, :k, :key, :l, :fo) "
        "ON CONFLICT (tenant_id, forest_id, kind, key) DO NOTHING "
        "RETURNING tree_id, forest_id, kind, key, label, fanout, root_node_id, height",
        params,
    )
    if row is not None:
        if stats is not None:
            stats.trees_created += 1
        return _tree_from_row(row)
    row = await fetch_one(
        conn,
        "SELECT tree_id, forest_id, kind, key, label, fanout, root_node_id, height FROM trees "
        "WHERE tenant_id = :t AND forest_id = :f AND kind = :k AND key = :key",
        params,
    )
    assert row is not None
    return _tree_from_row(row)


async def load_tree(conn: AsyncConnection, tenant_id: uuid.UUID, tree_id: int) -> TreeRef:
    """Re-read a tree row."""
    row = await fetch_one(
        conn,
        "SELECT tree_id, forest_id, kind, key, label, fanout, root_node_id, height FROM trees "
        "WHERE tenant_id = :t AND tree_id = :id",
        {"t": tenant_id, "id": tree_id},
    )
    assert row is not None, f"tree {tree_id} vanished"
    return _tree_from_row(row)


async def _new_node(
    conn: AsyncConnection,
    tenant_id: uuid.UUID,
    tree: TreeRef,
    *,
    level: int,
    parent_id: int | None,
    t_start: datetime,
    t_end: datetime,
    seq: int,
    n_children: int,
) -> int:
    node_id = await scalar(
        conn,
        "INSERT INTO nodes (tenant_id, forest_id, tree_id, level, parent_id, t_start, t_end, seq, n_children, dirty) "
        "VALUES (:t, :f, :tree, :lvl, :p, :ts, :te, :seq, :n, true) RETURNING node_id",
        {
            "t": tenant_id,
            "f": tree.forest_id,
            "tree": tree.tree_id,
            "lvl": level,
            "p": parent_id,
            "ts": t_start,
            "te": t_end,
            "seq": seq,
            "n": n_children,
        },
    )
    return int(node_id)


async def _seek_parent(conn: AsyncConnection, tenant_id: uuid.UUID, tree: TreeRef, leaf: LeafSpec) -> int:
    """The level-1 node whose key range holds the leaf key: one index seek (or the first node)."""
    params = {"t": tenant_id, "f": tree.forest_id, "tree": tree.tree_id, "ts": leaf.t_start, "seq": leaf.seq}
    node_id = await scalar(
        conn,
        "SELECT node_id FROM nodes WHERE tenant_id = :t AND forest_id = :f AND tree_id = :tree AND level = 1 "
        "AND (t_start, seq) <= (:ts, :seq) ORDER BY t_start DESC, seq DESC LIMIT 1",
        params,
    )
    if node_id is None:
        node_id = await scalar(
            conn,
            "SELECT node_id FROM nodes WHERE tenant_id = :t AND forest_id = :f AND tree_id = :tree AND level = 1 "
            "ORDER BY t_start, seq LIMIT 1",
            params,
        )
    assert node_id is not None
    return int(node_id)


MARK_PATH_SQL = """
WITH RECURSIVE chain AS (
    SELECT node_id, parent_id FROM nodes WHERE tenant_id = :t AND node_id = :start
    UNION ALL
    SELECT n.node_id, n.parent_id FROM nodes n JOIN chain c ON n.tenant_id = :t AND n.node_id = c.parent_id
)
UPDATE nodes n SET
    dirty = true,
    version = n.version + 1,
    t_start = CASE WHEN (n.t_start, n.seq) > (:ts, :seq) THEN :ts ELSE n.t_start END,
    seq = CASE WHEN (n.t_start, n.seq) > (:ts, :seq) THEN :seq ELSE n.seq END,
    t_end = GREATEST(n.t_end, :te),
    n_children = n.n_children + CASE WHEN n.node_id = :start THEN :added ELSE 0 END
FROM chain
WHERE n.tenant_id = :t AND n.node_id = chain.node_id
RETURNING n.node_id, n.n_children
"""


async def mark_path(
    conn: AsyncConnection,
    tenant_id: uuid.UUID,
    start_node_id: int,
    *,
    t_start: datetime,
    seq: int,
    t_end: datetime,
    added_children: int = 0,
) -> dict[int, int]:
    """Mark ``start_node_id`` and its ancestors dirty, widening their keys/intervals to cover the
    given key; returns ``{node_id: n_children}`` of the marked path."""
    rows = await fetch_all(
        conn,
        MARK_PATH_SQL,
        {
            "t": tenant_id,
            "start": start_node_id,
            "ts": t_start,
            "seq": seq,
            "te": t_end,
            "added": added_children,
        },
    )
    return {int(r["node_id"]): int(r["n_children"]) for r in rows}


async def insert_leaf(
    conn: AsyncConnection, tenant_id: uuid.UUID, tree: TreeRef, leaf: LeafSpec, stats: InsertStats
) -> int | None:
    """Hang ``leaf`` in ``tree`` (caller holds the forest lock). Returns the new leaf node id, or
    None when the source is already placed in this tree (placements are unique per source and tree)."""
    placed = await scalar(
        conn,
        "SELECT node_id FROM placements WHERE tenant_id = :t AND tree_id = :tree AND source_kind = :sk "
        "AND source_id = :sid",
        {"t": tenant_id, "tree": tree.tree_id, "sk": leaf.source_kind, "sid": leaf.source_id},
    )
    if placed is not None:
        stats.skipped += 1
        return None
    if tree.root_node_id is None:
        root_id = await _new_node(
            conn, tenant_id, tree, level=1, parent_id=None, t_start=leaf.t_start, t_end=leaf.t_end,
            seq=leaf.seq, n_children=0,
        )  # fmt: skip
        await execute(
            conn,
            "UPDATE trees SET root_node_id = :r, height = 1 WHERE tenant_id = :t AND tree_id = :tree",
            {"r": root_id, "t": tenant_id, "tree": tree.tree_id},
        )
        tree.root_node_id, tree.height = root_id, 1
        stats.nodes_created += 1
        parent_id = root_id
    else:
        parent_id = await _seek_parent(conn, tenant_id, tree, leaf)
    is_fact = leaf.source_kind == "fact"
    leaf_id = await scalar(
        conn,
        "INSERT INTO nodes (tenant_id, forest_id, tree_id, level, parent_id, t_start, t_end, seq, summary, "
        "summary_hash, dirty, embedding, embedded_hash, leaf_fact_id, leaf_cell_id) "
        "VALUES (:t, :f, :tree, 0, :p, :ts, :te, :seq, :txt, md5(:txt), :dirty, :emb, "
        "CASE WHEN :has_emb THEN md5(:txt) END, :fid, :cid) RETURNING node_id",
        {
            "t": tenant_id,
            "f": tree.forest_id,
            "tree": tree.tree_id,
            "p": parent_id,
            "ts": leaf.t_start,
            "te": leaf.t_end,
            "seq": leaf.seq,
            "txt": leaf.text,
            "dirty": leaf.embedding is None,
            "emb": leaf.embedding,
            "has_emb": leaf.embedding is not None,
            "fid": leaf.source_id if is_fact else None,
            "cid": None if is_fact else leaf.source_id,
        },
    )
    await execute(
        conn,
        "INSERT INTO placements (tenant_id, tree_id, source_kind, source_id, forest_id, node_id) "
        "VALUES (:t, :tree, :sk, :sid, :f, :n)",
        {"t": tenant_id, "tree": tree.tree_id, "sk": leaf.source_kind, "sid": leaf.source_id,
         "f": tree.forest_id, "n": leaf_id},
    )  # fmt: skip
    path = await mark_path(
        conn, tenant_id, parent_id, t_start=leaf.t_start, seq=leaf.seq, t_end=leaf.t_end, added_children=1
    )
    await execute(
        conn,
        "UPDATE trees SET n_leaves = n_leaves + 1 WHERE tenant_id = :t AND tree_id = :tree",
        {"t": tenant_id, "tree": tree.tree_id},
    )
    stats.leaves += 1
    stats.nodes_created += 1
    stats.marks += len(path)
    stats.touched_trees.add(tree.tree_id)
    if path[parent_id] > tree.fanout:
        await _split(conn, tenant_id, tree, parent_id, stats)
    return int(leaf_id)


async def _split(conn: AsyncConnection, tenant_id: uuid.UUID, tree: TreeRef, node_id: int, stats: InsertStats) -> None:
    """Split an over-full node in two halves; push the new sibling into the parent (recursively)."""
    node = await fetch_one(
        conn,
        "SELECT level, parent_id, t_start, seq FROM nodes WHERE tenant_id = :t AND node_id = :n",
        {"t": tenant_id, "n": node_id},
    )
    assert node is not None
    children = await fetch_all(
        conn,
        "SELECT node_id, t_start, seq, t_end FROM nodes WHERE tenant_id = :t AND parent_id = :n ORDER BY t_start, seq",
        {"t": tenant_id, "n": node_id},
    )
    keep = len(children) // 2
    kept, moved = children[:keep], children[keep:]
    sibling = await _new_node(
        conn, tenant_id, tree, level=int(node["level"]), parent_id=node["parent_id"],
        t_start=moved[0]["t_start"], t_end=max(c["t_end"] for c in moved), seq=int(moved[0]["seq"]),
        n_children=len(moved),
    )  # fmt: skip
    await execute(
        conn,
        "UPDATE nodes SET parent_id = :s WHERE tenant_id = :t AND node_id = ANY(:ids)",
        {"s": sibling, "t": tenant_id, "ids": [int(c["node_id"]) for c in moved]},
    )
    await execute(
        conn,
        "UPDATE nodes SET n_children = :n, t_end = :te, dirty = true, version = version + 1 "
        "WHERE tenant_id = :t AND node_id = :id",
        {"n": len(kept), "te": max(c["t_end"] for c in kept), "t": tenant_id, "id": node_id},
    )
    stats.splits += 1
    stats.nodes_created += 1
    if node["parent_id"] is None:
        level = int(node["level"]) + 1
        root = await _new_node(
            conn, tenant_id, tree, level=level, parent_id=None, t_start=node["t_start"],
            t_end=max(c["t_end"] for c in children), seq=int(node["seq"]), n_children=2,
        )  # fmt: skip
        await execute(
            conn,
            "UPDATE nodes SET parent_id = :r WHERE tenant_id = :t AND node_id = ANY(:ids)",
            {"r": root, "t": tenant_id, "ids": [node_id, sibling]},
        )
        await execute(
            conn,
            "UPDATE trees SET root_node_id = :r, height = :h WHERE tenant_id = :t AND tree_id = :tree",
            {"r": root, "h": level, "t": tenant_id, "tree": tree.tree_id},
        )
        tree.root_node_id, tree.height = root, level
        stats.nodes_created += 1
        return
    parent_id = int(node["parent_id"])
    n_children = await scalar(
        conn,
        "UPDATE nodes SET n_children = n_children + 1, dirty = true, version = version + 1 "
        "WHERE tenant_id = :t AND node_id = :p RETURNING n_children",
        {"t": tenant_id, "p": parent_id},
    )
    if int(n_children) > tree.fanout:
        await _split(conn, tenant_id, tree, parent_id, stats)


# ---------------------------------------------------------------------------------------------
# Batched insertion: the same algorithm as ``insert_leaf`` applied to a whole batch in memory,
# then written back with a fixed number of statements (ADR 0012).


@dataclass(slots=True)
class _Node:
    """A node as the batched insert simulates it (``node_id`` < 0: created by this batch)."""

    node_id: int
    tree_id: int
    level: int
    parent_id: int | None
    t_start: datetime
    seq: int
    t_end: datetime
    n_children: int
    children: list[int] | None = None  # known for loaded ancestor chains and for new internal nodes
    new: bool = False
    bumps: int = 0  # version increments; every one also sets the dirty flag
    moved: bool = False  # parent changed by a split
    leaf: LeafSpec | None = None

    @property
    def key(self) -> tuple[datetime, int]:
        return (self.t_start, self.seq)


# For each (tree, leaf key): the level-1 node a seek finds now; for each tree: its first level-1
# node. Their ancestor chains, and every child of a chain node, are what a batch can touch.
_LOAD_SQL = """
WITH RECURSIVE seeds AS (
    SELECT (SELECT n.node_id FROM nodes n WHERE n.tenant_id = :t AND n.forest_id = u.f AND n.tree_id = u.tree
            AND n.level = 1 AND (n.t_start, n.seq) <= (u.ts, u.seq) ORDER BY n.t_start DESC, n.seq DESC LIMIT 1)
           AS node_id
    FROM unnest(CAST(:f AS bigint[]), CAST(:tree AS bigint[]), CAST(:ts AS timestamptz[]), CAST(:seq AS bigint[]))
         AS u(f, tree, ts, seq)
    UNION
    SELECT (SELECT n.node_id FROM nodes n WHERE n.tenant_id = :t AND n.forest_id = v.f AND n.tree_id = v.tree
            AND n.level = 1 ORDER BY n.t_start, n.seq LIMIT 1)
    FROM unnest(CAST(:first_f AS bigint[]), CAST(:first_tree AS bigint[])) AS v(f, tree)
),
chain AS (
    SELECT node_id, parent_id FROM nodes WHERE tenant_id = :t AND node_id IN (SELECT node_id FROM seeds)
    UNION
    SELECT n.node_id, n.parent_id FROM nodes n JOIN chain c ON n.tenant_id = :t AND n.node_id = c.parent_id
)
SELECT true AS on_chain, n.node_id, n.tree_id, n.level, n.parent_id, n.t_start, n.seq, n.t_end, n.n_children
FROM nodes n WHERE n.tenant_id = :t AND n.node_id IN (SELECT node_id FROM chain)
UNION ALL
SELECT false, n.node_id, n.tree_id, n.level, n.parent_id, n.t_start, n.seq, n.t_end, n.n_children
FROM nodes n WHERE n.tenant_id = :t AND n.parent_id IN (SELECT node_id FROM chain)
"""

INSERT_NODES_SQL = """
INSERT INTO nodes (tenant_id, node_id, forest_id, tree_id, level, parent_id, t_start, t_end, seq, n_children,
                   version, dirty, summary, summary_hash, embedding, embedded_hash, leaf_fact_id, leaf_cell_id)
SELECT :t, u.id, u.f, u.tree, u.lvl, u.p, u.ts, u.te, u.seq, u.n, u.ver, u.dirty, u.txt, md5(u.txt), u.emb,
       CASE WHEN u.emb IS NOT NULL THEN md5(u.txt) END, u.fid, u.cid
FROM unnest(CAST(:id AS bigint[]), CAST(:f AS bigint[]), CAST(:tree AS bigint[]), CAST(:lvl AS int[]),
            CAST(:p AS bigint[]), CAST(:ts AS timestamptz[]), CAST(:te AS timestamptz[]), CAST(:seq AS bigint[]),
            CAST(:n AS int[]), CAST(:ver AS int[]), CAST(:dirty AS boolean[]), CAST(:txt AS text[]),
            CAST(:emb AS vector[]), CAST(:fid AS bigint[]), CAST(:cid AS bigint[]))
     AS u(id, f, tree, lvl, p, ts, te, seq, n, ver, dirty, txt, emb, fid, cid)
"""

_UPDATE_NODES_SQL = """
UPDATE nodes n SET
    parent_id = u.p, t_start = u.ts, seq = u.seq, t_end = u.te, n_children = u.n,
    dirty = CASE WHEN u.bumps > 0 THEN true ELSE n.dirty END, version = n.version + u.bumps
FROM unnest(CAST(:id AS bigint[]), CAST(:p AS bigint[]), CAST(:ts AS timestamptz[]), CAST(:seq AS bigint[]),
            CAST(:te AS timestamptz[]), CAST(:n AS int[]), CAST(:bumps AS int[])) AS u(id, p, ts, seq, te, n, bumps)
WHERE n.tenant_id = :t AND n.node_id = u.id
"""


class _Batch:
    """One batch of leaf inserts simulated in memory (the caller holds the forest lock)."""

    def __init__(self, stats: InsertStats) -> None:
        self.stats = stats
        self.nodes: dict[int, _Node] = {}
        self.level1: dict[int, list[int]] = {}  # tree_id -> level-1 node ids known in memory
        self.created: list[int] = []  # temporary ids of new nodes, in creation order
        self.trees: dict[int, TreeRef] = {}
        self.new_roots: set[int] = set()  # trees whose root this batch replaced or created
        self.tree_leaves: dict[int, int] = {}
        self.placements: list[tuple[int, str, int, int, int]] = []  # tree, kind, source, forest, temp leaf id

    def load(self, rows: list[dict[str, Any]]) -> None:
        chain_ids = {int(r["node_id"]) for r in rows if r["on_chain"]}
        for r in rows:
            nid = int(r["node_id"])
            if nid not in self.nodes:
                node = _Node(
                    nid, int(r["tree_id"]), int(r["level"]), r["parent_id"], r["t_start"], int(r["seq"]),
                    r["t_end"], int(r["n_children"]),
                )  # fmt: skip
                self.nodes[nid] = node
                if node.level == 1:
                    self.level1.setdefault(node.tree_id, []).append(nid)
        for nid in chain_ids:
            self.nodes[nid].children = []
        for r in rows:
            parent = r["parent_id"]
            if not r["on_chain"] and parent is not None and int(parent) in chain_ids:
                kids = self.nodes[int(parent)].children
                assert kids is not None
                kids.append(int(r["node_id"]))

    def _new(self, tree: TreeRef, level: int, parent: int | None, t_start: datetime, seq: int, t_end: datetime,
             n_children: int, leaf: LeafSpec | None = None) -> _Node:  # fmt: skip
        node = _Node(-(len(self.created) + 1), tree.tree_id, level, parent, t_start, seq, t_end, n_children, new=True,
                     children=None if level == 0 else [], leaf=leaf)  # fmt: skip
        self.nodes[node.node_id] = node
        self.created.append(node.node_id)
        if level == 1:
            self.level1.setdefault(tree.tree_id, []).append(node.node_id)
        return node

    def _seek(self, tree: TreeRef, key: tuple[datetime, int]) -> int:
        best: _Node | None = None
        first: _Node | None = None
        for nid in self.level1.get(tree.tree_id, []):
            n = self.nodes[nid]
            if n.key <= key and (best is None or n.key > best.key):
                best = n
            if first is None or n.key < first.key:
                first = n
        found = best or first
        assert found is not None, f"tree {tree.tree_id} has no level-1 node in memory"
        return found.node_id

    def insert(self, tree: TreeRef, leaf: LeafSpec) -> int:
        """Simulate :func:`insert_leaf` (the placement is known to be new); returns the temp leaf id."""
        self.trees[tree.tree_id] = tree
        if tree.root_node_id is None:
            root = self._new(tree, 1, None, leaf.t_start, leaf.seq, leaf.t_end, 0)
            tree.root_node_id, tree.height = root.node_id, 1
            self.new_roots.add(tree.tree_id)
            self.stats.nodes_created += 1
            parent_id = root.node_id
        else:
            parent_id = self._seek(tree, (leaf.t_start, leaf.seq))
        node = self._new(tree, 0, parent_id, leaf.t_start, leaf.seq, leaf.t_end, 0, leaf)
        self.placements.append((tree.tree_id, leaf.source_kind, leaf.source_id, tree.forest_id, node.node_id))
        parent = self.nodes[parent_id]
        assert parent.children is not None
        parent.children.append(node.node_id)
        marked = 0
        cur: _Node | None = parent
        while cur is not None:  # mark_path: widen key and interval, bump version, set dirty
            cur.bumps += 1
            if cur.key > (leaf.t_start, leaf.seq):
                cur.t_start, cur.seq = leaf.t_start, leaf.seq
            cur.t_end = max(cur.t_end, leaf.t_end)
            marked += 1
            cur = self.nodes[cur.parent_id] if cur.parent_id is not None else None
        parent.n_children += 1
        self.tree_leaves[tree.tree_id] = self.tree_leaves.get(tree.tree_id, 0) + 1
        self.stats.leaves += 1
        self.stats.nodes_created += 1
        self.stats.marks += marked
        self.stats.touched_trees.add(tree.tree_id)
        if parent.n_children > tree.fanout:
            self._split(tree, parent)
        return node.node_id

    def _split(self, tree: TreeRef, node: _Node) -> None:
        """Simulate ``_split``."""
        assert node.children is not None, f"node {node.node_id} splits but its children were not loaded"
        children = sorted((self.nodes[c] for c in node.children), key=lambda c: (c.t_start, c.seq, c.node_id))
        keep = len(children) // 2
        kept, moved = children[:keep], children[keep:]
        sibling = self._new(tree, node.level, node.parent_id, moved[0].t_start, moved[0].seq,
                            max(c.t_end for c in moved), len(moved))  # fmt: skip
        sibling.children = [c.node_id for c in moved]
        for c in moved:
            c.parent_id, c.moved = sibling.node_id, True
        node.children = [c.node_id for c in kept]
        node.n_children = len(kept)
        node.t_end = max(c.t_end for c in kept)
        node.bumps += 1
        self.stats.splits += 1
        self.stats.nodes_created += 1
        if node.parent_id is None:
            root = self._new(tree, node.level + 1, None, node.t_start, node.seq,
                             max(c.t_end for c in children), 2)  # fmt: skip
            root.children = [node.node_id, sibling.node_id]
            node.parent_id, node.moved = root.node_id, True
            sibling.parent_id = root.node_id
            tree.root_node_id, tree.height = root.node_id, root.level
            self.new_roots.add(tree.tree_id)
            self.stats.nodes_created += 1
            return
        parent = self.nodes[node.parent_id]
        assert parent.children is not None
        parent.children.append(sibling.node_id)
        parent.n_children += 1
        parent.bumps += 1
        if parent.n_children > tree.fanout:
            self._split(tree, parent)

    async def write(self, conn: AsyncConnection, tenant_id: uuid.UUID) -> dict[int, int]:
        """Write the simulated batch back; returns temporary id -> node id."""
        ids: dict[int, int] = {}
        if self.created:
            rows = await fetch_all(
                conn,
                "SELECT nextval(pg_get_serial_sequence('nodes', 'node_id')) AS id FROM generate_series(1, :n)",
                {"n": len(self.created)},
            )
            ids = dict(zip(self.created, sorted(int(r["id"]) for r in rows), strict=True))

        def real(nid: int | None) -> int | None:
            return None if nid is None else ids.get(nid, nid)

        new = [self.nodes[i] for i in self.created]
        if new:
            forest = {t.tree_id: t.forest_id for t in self.trees.values()}
            await execute(
                conn,
                INSERT_NODES_SQL,
                {
                    "t": tenant_id,
                    "id": [ids[n.node_id] for n in new],
                    "f": [forest[n.tree_id] for n in new],
                    "tree": [n.tree_id for n in new],
                    "lvl": [n.level for n in new],
                    "p": [real(n.parent_id) for n in new],
                    "ts": [n.t_start for n in new],
                    "te": [n.t_end for n in new],
                    "seq": [n.seq for n in new],
                    "n": [n.n_children for n in new],
                    "ver": [n.bumps for n in new],
                    **leaf_columns([n.leaf for n in new]),
                },
            )
        changed = [n for n in self.nodes.values() if not n.new and (n.bumps or n.moved)]
        if changed:
            await execute(
                conn,
                _UPDATE_NODES_SQL,
                {
                    "t": tenant_id,
                    "id": [n.node_id for n in changed],
                    "p": [real(n.parent_id) for n in changed],
                    "ts": [n.t_start for n in changed],
                    "seq": [n.seq for n in changed],
                    "te": [n.t_end for n in changed],
                    "n": [n.n_children for n in changed],
                    "bumps": [n.bumps for n in changed],
                },
            )
        if self.placements:
            await execute(
                conn,
                "INSERT INTO placements (tenant_id, tree_id, source_kind, source_id, forest_id, node_id) "
                "SELECT :t, u.tree, u.sk, u.sid, u.f, u.n FROM unnest(CAST(:tree AS bigint[]), "
                "CAST(:sk AS text[]), CAST(:sid AS bigint[]), CAST(:f AS bigint[]), CAST(:n AS bigint[])) "
                "AS u(tree, sk, sid, f, n)",
                {
                    "t": tenant_id,
                    "tree": [p[0] for p in self.placements],
                    "sk": [p[1] for p in self.placements],
                    "sid": [p[2] for p in self.placements],
                    "f": [p[3] for p in self.placements],
                    "n": [ids[p[4]] for p in self.placements],
                },
            )
        trees = list(self.trees.values())
        for tree in trees:
            tree.root_node_id = real(tree.root_node_id)
        if trees:
            await execute(
                conn,
                "UPDATE trees tr SET root_node_id = coalesce(u.r, tr.root_node_id), height = coalesce(u.h, tr.height), "
                "n_leaves = tr.n_leaves + u.n FROM unnest(CAST(:id AS bigint[]), CAST(:r AS bigint[]), "
                "CAST(:h AS int[]), CAST(:n AS int[])) AS u(id, r, h, n) WHERE tr.tenant_id = :t AND tr.tree_id = u.id",
                {
                    "t": tenant_id,
                    "id": [t.tree_id for t in trees],
                    "r": [t.root_node_id if t.tree_id in self.new_roots else None for t in trees],
                    "h": [t.height if t.tree_id in self.new_roots else None for t in trees],
                    "n": [self.tree_leaves.get(t.tree_id, 0) for t in trees],
                },
            )
        return ids


def _vector(value: Any) -> Vector | None:
    """A leaf embedding as an element of a ``vector[]`` parameter (None stays None)."""
    if value is None:
        return None
    return Vector(np.asarray(as_vector(value), dtype=np.float32))


def leaf_columns(leaves: Sequence[LeafSpec | None]) -> dict[str, list[Any]]:
    """The leaf-derived arrays of :data:`INSERT_NODES_SQL` (``dirty``, ``txt``, ``emb``, ``fid``,
    ``cid``) for nodes whose leaf is given, None for internal nodes. A leaf without an embedding
    is dirty, so the refresh embeds it."""
    return {
        "dirty": [leaf is None or leaf.embedding is None for leaf in leaves],
        "txt": [None if leaf is None else leaf.text for leaf in leaves],
        "emb": [None if leaf is None else _vector(leaf.embedding) for leaf in leaves],
        "fid": [leaf.source_id if leaf is not None and leaf.source_kind == "fact" else None for leaf in leaves],
        "cid": [leaf.source_id if leaf is not None and leaf.source_kind != "fact" else None for leaf in leaves],
    }


async def insert_leaves(
    conn: AsyncConnection, tenant_id: uuid.UUID, items: Sequence[tuple[TreeRef, LeafSpec]], stats: InsertStats
) -> list[int | None]:
    """Hang every ``(tree, leaf)`` of ``items`` exactly as calling :func:`insert_leaf` on each in order
    would (same tree shapes, keys, intervals, dirty flags, versions, placements, stats and node ids),
    with a fixed number of statements for the whole batch: placements are checked at once, the
    ancestor chains the batch can touch are loaded in one query, inserts, marks and splits run in
    memory, and every changed node is written once. The caller holds the forest lock. Returns the new
    leaf node id per item, or None where the source was already placed in that tree."""
    if not items:
        return []
    items_in = items
    same: dict[int, TreeRef] = {}  # one TreeRef per tree, whichever instances the caller passed
    items = [(same.setdefault(tree.tree_id, tree), leaf) for tree, leaf in items]
    placed = await fetch_all(
        conn,
        "SELECT p.tree_id, p.source_kind, p.source_id FROM placements p JOIN unnest(CAST(:tree AS bigint[]), "
        "CAST(:sk AS text[]), CAST(:sid AS bigint[])) AS u(tree, sk, sid) ON p.tenant_id = :t "
        "AND p.tree_id = u.tree AND p.source_kind = u.sk AND p.source_id = u.sid",
        {
            "t": tenant_id,
            "tree": [t.tree_id for t, _ in items],
            "sk": [leaf.source_kind for _, leaf in items],
            "sid": [leaf.source_id for _, leaf in items],
        },
    )
    seen = {(int(r["tree_id"]), str(r["source_kind"]), int(r["source_id"])) for r in placed}
    todo: list[int | None] = []  # index into items, or None when skipped
    for i, (tree, leaf) in enumerate(items):
        k = (tree.tree_id, leaf.source_kind, leaf.source_id)
        todo.append(None if k in seen else i)
        seen.add(k)
    rooted = [(t, leaf) for i, (t, leaf) in enumerate(items) if todo[i] is not None and t.root_node_id is not None]
    batch = _Batch(stats)
    if rooted:
        firsts = {t.tree_id: t for t, _ in rooted}
        rows = await fetch_all(
            conn,
            _LOAD_SQL,
            {
                "t": tenant_id,
                "f": [t.forest_id for t, _ in rooted],
                "tree": [t.tree_id for t, _ in rooted],
                "ts": [leaf.t_start for _, leaf in rooted],
                "seq": [leaf.seq for _, leaf in rooted],
                "first_f": [t.forest_id for t in firsts.values()],
                "first_tree": list(firsts),
            },
        )
        batch.load(rows)
    temp: list[int | None] = []
    for i, (tree, leaf) in enumerate(items):
        if todo[i] is None:
            stats.skipped += 1
            temp.append(None)
        else:
            temp.append(batch.insert(tree, leaf))
    ids = await batch.write(conn, tenant_id)
    for tree, _ in items_in:
        canonical = same[tree.tree_id]
        tree.root_node_id, tree.height = canonical.root_node_id, canonical.height
    return [None if t is None else ids[t] for t in temp]
