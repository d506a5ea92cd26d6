"""Leaf insertion into MemTrees: placements checked at once, the reachable part of the trees loaded in
one query, inserts, marks and splits simulated in memory (:mod:`memforest.memtree.batch`), then every
new and changed node, placement and tree row written with one statement each (ADR 0012).

Leaves sit at level 0; every other node is internal and its key ``(t_start, seq)`` is the smallest key
below it, ``t_end`` the largest end. Cost per batch: a fixed number of statements; per leaf, O(log N)
index work and no scan or rebuild of the tree.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence, Set

from memforest.memtree.batch import Batch
from memforest.memtree.model import InsertStats, LeafSpec, TreeRef
from memforest.store.sql import Conn, execute, fetch_all
from memforest.store.tree_columns import NodeRow, PlacementRow, insert_nodes, insert_placements, next_node_ids

__all__ = ["insert_leaf", "insert_leaves"]

# For each (tree, leaf key): the level-1 node a seek finds now; for each tree: its first level-1
# node. Their ancestor chains, and every child of a chain node, are what a batch can touch.
_LOAD = """
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

# A row that would change nothing is left alone (no new row version, no trigger work).
_UPDATE_NODES = """
UPDATE nodes n SET
    parent_id = u.p, t_start = u.ts, seq = u.seq, t_end = u.te, n_children = u.n,
    dirty = CASE WHEN u.bumps > 0 THEN true ELSE n.dirty END, version = n.version + u.bumps
FROM unnest(CAST(:id AS bigint[]), CAST(:p AS bigint[]), CAST(:ts AS timestamptz[]), CAST(:seq AS bigint[]),
            CAST(:te AS timestamptz[]), CAST(:n AS int[]), CAST(:bumps AS int[])) AS u(id, p, ts, seq, te, n, bumps)
WHERE n.tenant_id = :t AND n.node_id = u.id
AND (u.bumps > 0
     OR (n.parent_id, n.t_start, n.seq, n.t_end, n.n_children) IS DISTINCT FROM (u.p, u.ts, u.seq, u.te, u.n))
"""

_UPDATE_TREES = """
UPDATE trees tr SET root_node_id = coalesce(u.r, tr.root_node_id), height = coalesce(u.h, tr.height),
n_leaves = tr.n_leaves + u.n FROM unnest(CAST(:id AS bigint[]), CAST(:r AS bigint[]),
CAST(:h AS int[]), CAST(:n AS int[])) AS u(id, r, h, n) WHERE tr.tenant_id = :t AND tr.tree_id = u.id
"""

_PLACED = """
SELECT p.tree_id, p.source_kind, p.source_id FROM placements p JOIN unnest(CAST(:tree AS bigint[]),
CAST(:sk AS text[]), CAST(:sid AS bigint[])) AS u(tree, sk, sid) ON p.tenant_id = :t
AND p.tree_id = u.tree AND p.source_kind = u.sk AND p.source_id = u.sid
"""


async def _write(conn: Conn, tenant_id: uuid.UUID, batch: Batch) -> dict[int, int]:
    """Write the simulated batch back; returns temporary id -> node id."""
    ids: dict[int, int] = {}
    if batch.created:
        ids = dict(zip(batch.created, await next_node_ids(conn, len(batch.created)), strict=True))

    def real(nid: int | None) -> int | None:
        return None if nid is None else ids.get(nid, nid)

    new = [batch.nodes[i] for i in batch.created]
    if new:
        forest = {t.tree_id: t.forest_id for t in batch.trees.values()}
        rows = [
            NodeRow(ids[n.node_id], forest[n.tree_id], n.tree_id, n.level, real(n.parent_id), n.t_start, n.t_end,
                    n.seq, n.n_children, n.bumps, n.leaf)
            for n in new
        ]  # fmt: skip
        await insert_nodes(conn, tenant_id, rows)
    changed = [n for n in batch.nodes.values() if not n.new and (n.bumps or n.moved)]
    if changed:
        await execute(
            conn,
            _UPDATE_NODES,
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
    if batch.placements:
        placements = [PlacementRow(tree, sk, sid, f, ids[n]) for tree, sk, sid, f, n in batch.placements]
        await insert_placements(conn, tenant_id, placements)
    trees = list(batch.trees.values())
    for tree in trees:
        tree.root_node_id = real(tree.root_node_id)
    if trees:
        await execute(
            conn,
            _UPDATE_TREES,
            {
                "t": tenant_id,
                "id": [t.tree_id for t in trees],
                "r": [t.root_node_id if t.tree_id in batch.new_roots else None for t in trees],
                "h": [t.height if t.tree_id in batch.new_roots else None for t in trees],
                "n": [batch.tree_leaves.get(t.tree_id, 0) for t in trees],
            },
        )
    return ids


async def insert_leaves(
    conn: Conn,
    tenant_id: uuid.UUID,
    items: Sequence[tuple[TreeRef, LeafSpec]],
    stats: InsertStats,
    fresh_facts: Set[int] = frozenset(),
) -> list[int | None]:
    """Hang every ``(tree, leaf)`` of ``items`` exactly as hanging them one at a time in order
    would (same tree shapes, keys, intervals, dirty flags, versions, placements, stats and node ids),
    with a fixed number of statements for the whole batch: placements are checked at once, the
    ancestor chains the batch can touch are loaded in one query, inserts, marks and splits run in
    memory, and every changed node is written once. The caller holds the forest lock. Returns the new
    leaf node id per item, or None where the source was already placed in that tree.

    ``fresh_facts`` are facts the caller's transaction created: no placement of theirs can be stored
    yet (fact ids are never reused), so only the batch itself is checked for them."""
    if not items:
        return []
    items_in = items
    same: dict[int, TreeRef] = {}  # one TreeRef per tree, whichever instances the caller passed
    items = [(same.setdefault(tree.tree_id, tree), leaf) for tree, leaf in items]
    seen = await _placed(conn, tenant_id, [(t, leaf) for t, leaf in items if not _fresh(leaf, fresh_facts)])
    todo: list[int | None] = []  # index into items, or None when skipped
    for i, (tree, leaf) in enumerate(items):
        k = (tree.tree_id, leaf.source_kind, leaf.source_id)
        todo.append(None if k in seen else i)
        seen.add(k)
    rooted = [(t, leaf) for i, (t, leaf) in enumerate(items) if todo[i] is not None and t.root_node_id is not None]
    batch = Batch(stats)
    if rooted:
        firsts = {t.tree_id: t for t, _ in rooted}
        rows = await fetch_all(
            conn,
            _LOAD,
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
    ids = await _write(conn, tenant_id, batch)
    for tree, _ in items_in:
        canonical = same[tree.tree_id]
        tree.root_node_id, tree.height = canonical.root_node_id, canonical.height
    return [None if t is None else ids[t] for t in temp]


def _fresh(leaf: LeafSpec, fresh_facts: Set[int]) -> bool:
    return leaf.source_kind == "fact" and leaf.source_id in fresh_facts


async def _placed(
    conn: Conn, tenant_id: uuid.UUID, items: Sequence[tuple[TreeRef, LeafSpec]]
) -> set[tuple[int, str, int]]:
    """The (tree, source kind, source id) of ``items`` already placed."""
    if not items:
        return set()
    params = {
        "t": tenant_id,
        "tree": [t.tree_id for t, _ in items],
        "sk": [leaf.source_kind for _, leaf in items],
        "sid": [leaf.source_id for _, leaf in items],
    }
    placed = await fetch_all(conn, _PLACED, params)
    return {(int(r["tree_id"]), str(r["source_kind"]), int(r["source_id"])) for r in placed}


async def insert_leaf(
    conn: Conn, tenant_id: uuid.UUID, tree: TreeRef, leaf: LeafSpec, stats: InsertStats
) -> int | None:
    """Hang ``leaf`` in ``tree`` (caller holds the forest lock): :func:`insert_leaves` on one item.
    Returns the new leaf node id, or None when the source is already placed in this tree
    (placements are unique per source and tree)."""
    return (await insert_leaves(conn, tenant_id, [(tree, leaf)], stats))[0]
