"""MemTree structure: time-ordered B+-tree-style insertion with splits, placements and dirty marks.

Leaves sit at level 0; every other node is internal and its key ``(t_start, seq)`` is the smallest
key below it, ``t_end`` the largest end. A new leaf finds its parent with one index seek on the
level-1 nodes of the tree (``ix_nodes_seek``), never by scanning or rebuilding the tree; the
ancestor path is then updated (key, interval, dirty flag, version) in one statement, and
over-full nodes split upward. Cost per leaf: O(height) statements, O(log N) index work.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from memforest.domain import TreeKind
from memforest.store.sql import execute, fetch_all, fetch_one, scalar


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
