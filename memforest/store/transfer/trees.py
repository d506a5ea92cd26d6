"""Merge step 5: the plan per A tree, copied trees (nodes, placements; ids remapped), the leaves
that go in one by one, and the entities that now earn a tree."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from memforest.store.sql import Conn, Row, execute, fetch_all
from memforest.store.transfer.columns import insert_select
from memforest.store.transfer.snapshot import create_map, sequence_of

__all__ = [
    "activate_entities",
    "copy_planned_trees",
    "entity_candidates",
    "leaves_to_insert",
    "merged_leaves",
    "missing_entity_leaves",
    "plan_trees",
    "tree_plans",
]

_CREATE_PLAN = (
    "CREATE TEMP TABLE mm_tree_plan (old bigint PRIMARY KEY, kind text NOT NULL, key text NOT NULL, "
    "label text NOT NULL, fanout integer NOT NULL, new bigint, action text) ON COMMIT DROP"
)

_FILL_PLAN = """
INSERT INTO mm_tree_plan (old, kind, key, label, fanout)
SELECT t.tree_id, t.kind, k.key, CASE WHEN t.kind = 'session' THEN k.key ELSE t.label END, t.fanout
FROM mm_trees t CROSS JOIN LATERAL (SELECT coalesce(CASE t.kind
    WHEN 'session' THEN (SELECT m.external_id FROM mm_sessions s JOIN mm_session_map m ON m.old = s.session_id
                         WHERE s.external_id = t.key)
    WHEN 'scene' THEN (SELECT CAST(m.new AS text) FROM mm_cluster_map m WHERE CAST(m.old AS text) = t.key)
    ELSE t.key END, t.key) AS key) k
"""

_PLAN_INSERT = (
    "UPDATE mm_tree_plan pl SET new = b.tree_id, action = 'insert' FROM trees b WHERE b.tenant_id = :t "
    "AND b.forest_id = :f AND b.kind = pl.kind AND b.key = pl.key"
)
_PLAN_SKIP = (
    "UPDATE mm_tree_plan pl SET action = 'skip' WHERE pl.action IS NULL AND NOT EXISTS (SELECT 1 FROM mm_nodes n "
    "LEFT JOIN mm_fact_map fm ON fm.old = n.leaf_fact_id WHERE n.tree_id = pl.old AND n.level = 0 "
    "AND (n.leaf_cell_id IS NOT NULL OR fm.how = 'new'))"
)
_PLAN_REBUILD = (
    "UPDATE mm_tree_plan pl SET action = 'rebuild' WHERE pl.action IS NULL AND EXISTS (SELECT 1 FROM "
    "mm_tree_plan o WHERE o.kind = pl.kind AND o.key = pl.key AND o.old <> pl.old AND o.action IS DISTINCT "
    "FROM 'skip')"
)
_PLAN_COPY = "UPDATE mm_tree_plan SET action = 'copy' WHERE action IS NULL"

_NEW_TREE_IDS = (
    "UPDATE mm_tree_plan pl SET new = y.n FROM (SELECT old, nextval(CAST(:seq AS regclass)) AS n FROM "
    "(SELECT old FROM mm_tree_plan WHERE action = 'copy' ORDER BY old) z) y WHERE pl.old = y.old"
)
_NEW_NODE_IDS = (
    "INSERT INTO mm_node_map SELECT k, nextval(CAST(:seq AS regclass)) FROM (SELECT n.node_id AS k FROM mm_nodes n "
    "JOIN mm_tree_plan pl ON pl.old = n.tree_id AND pl.action = 'copy' ORDER BY n.node_id) y"
)

_COPY_TREES = insert_select(
    "trees",
    "FROM mm_trees x JOIN mm_tree_plan pl ON pl.old = x.tree_id AND pl.action = 'copy' "
    "LEFT JOIN mm_node_map r ON r.old = x.root_node_id",
    {"tree_id": "pl.new", "key": "pl.key", "label": "pl.label", "root_node_id": "r.new"},
    alias="x",
)

# Keys keep A's seq tie-breakers: ids are never reissued, so they stay unique within the tree.
_COPY_NODES = insert_select(
    "nodes",
    "FROM mm_nodes n JOIN mm_tree_plan pl ON pl.old = n.tree_id AND pl.action = 'copy' "
    "JOIN mm_node_map nm ON nm.old = n.node_id LEFT JOIN mm_node_map pm ON pm.old = n.parent_id "
    "LEFT JOIN mm_fact_map fm ON fm.old = n.leaf_fact_id LEFT JOIN mm_cell_map cm ON cm.old = n.leaf_cell_id",
    {
        "node_id": "nm.new",
        "tree_id": "pl.new",
        "parent_id": "pm.new",
        "leaf_fact_id": "fm.new",
        "leaf_cell_id": "cm.new",
    },
    alias="n",
)

_COPY_PLACEMENTS = insert_select(
    "placements",
    "FROM mm_placements x JOIN mm_tree_plan pl ON pl.old = x.tree_id AND pl.action = 'copy' "
    "JOIN mm_node_map nm ON nm.old = x.node_id "
    "LEFT JOIN mm_fact_map fm ON x.source_kind = 'fact' AND fm.old = x.source_id "
    "LEFT JOIN mm_cell_map cm ON x.source_kind = 'cell' AND cm.old = x.source_id "
    "WHERE x.source_kind = 'cell' OR fm.how = 'new'",
    {
        "tree_id": "pl.new",
        "source_id": "CASE WHEN x.source_kind = 'fact' THEN fm.new ELSE cm.new END",
        "node_id": "nm.new",
    },
    alias="x",
)

_MERGED_LEAVES = (
    "SELECT pl.new AS tree_id, nm.new AS node_id FROM mm_nodes n JOIN mm_tree_plan pl ON pl.old = n.tree_id "
    "AND pl.action = 'copy' JOIN mm_node_map nm ON nm.old = n.node_id JOIN mm_fact_map fm "
    "ON fm.old = n.leaf_fact_id AND fm.how <> 'new' WHERE n.level = 0 ORDER BY pl.new, n.node_id"
)

_TREE_PLANS = (
    "SELECT min(old) AS old, kind, key, min(label) AS label, min(fanout) AS fanout, min(new) AS new, "
    "min(action) AS action FROM mm_tree_plan WHERE action IN ('insert', 'rebuild') GROUP BY kind, key "
    "ORDER BY min(old)"
)

_LEAVES = (
    "SELECT pl.kind, pl.key, n.node_id AS a_node, 'fact' AS sk, x.fact_id AS sid, x.valid_from AS ts, "
    "x.valid_from AS te, x.text, x.embedding FROM mm_nodes n JOIN mm_tree_plan pl ON pl.old = n.tree_id "
    "AND pl.action IN ('insert', 'rebuild') JOIN mm_fact_map fm ON fm.old = n.leaf_fact_id AND fm.how = 'new' "
    "JOIN facts x ON x.tenant_id = :t AND x.fact_id = fm.new WHERE n.level = 0 AND x.retracted_at IS NULL "
    "UNION ALL "
    "SELECT pl.kind, pl.key, n.node_id, 'cell', c.cell_id, c.t_start, c.t_end, c.text, NULL FROM mm_nodes n "
    "JOIN mm_tree_plan pl ON pl.old = n.tree_id AND pl.action IN ('insert', 'rebuild') "
    "JOIN mm_cell_map cm ON cm.old = n.leaf_cell_id JOIN cells c ON c.tenant_id = :t AND c.cell_id = cm.new "
    "WHERE n.level = 0"
)

# Entities the merge touched that have no tree yet, with what decides whether they earn one.
_ENTITY_CANDIDATES = (
    "SELECT e.entity_id, e.is_speaker, e.fact_count, e.session_count, EXISTS (SELECT 1 FROM trees x "
    "WHERE x.tenant_id = :t AND x.forest_id = :f AND x.kind = 'entity' AND x.key = e.key) AS has_tree "
    "FROM entities e JOIN mm_entity_map m ON e.entity_id = m.new WHERE e.tenant_id = :t AND NOT e.activated"
)
_ACTIVATE = (
    "UPDATE entities e SET activated = true WHERE e.tenant_id = :t AND e.entity_id = ANY(:ids) "
    "AND NOT e.activated RETURNING e.entity_id"
)

_MISSING_ENTITY_LEAVES = (
    "SELECT e.key, e.label, x.fact_id, x.text, x.valid_from, x.embedding FROM entities e "
    "JOIN mm_entity_map m ON m.new = e.entity_id JOIN entity_facts ef ON ef.tenant_id = e.tenant_id "
    "AND ef.entity_id = e.entity_id JOIN facts x ON x.tenant_id = ef.tenant_id AND x.fact_id = ef.fact_id "
    "LEFT JOIN trees tr ON tr.tenant_id = e.tenant_id AND tr.forest_id = e.forest_id AND tr.kind = 'entity' "
    "AND tr.key = e.key WHERE e.tenant_id = :t AND e.activated AND x.retracted_at IS NULL "
    "AND NOT EXISTS (SELECT 1 FROM placements pl WHERE pl.tenant_id = :t AND pl.tree_id = tr.tree_id "
    "AND pl.source_kind = 'fact' AND pl.source_id = x.fact_id) ORDER BY e.key, x.valid_from, x.fact_id"
)


async def plan_trees(conn: Conn, tenant_id: uuid.UUID, forest_id: int) -> None:
    """Fill ``mm_tree_plan``: per A tree ``insert`` into B's tree of the same (kind, key), ``skip`` it
    when every leaf is a fact that merged into one of B's, ``rebuild`` it by insertion when several A
    trees share the key, else ``copy`` it as it is."""
    p = {"t": tenant_id, "f": forest_id}
    await execute(conn, _CREATE_PLAN)
    await execute(conn, _FILL_PLAN)
    await execute(conn, _PLAN_INSERT, p)
    await execute(conn, _PLAN_SKIP)
    await execute(conn, _PLAN_REBUILD)
    await execute(conn, _PLAN_COPY)


async def copy_planned_trees(conn: Conn, tenant_id: uuid.UUID, forest_id: int) -> tuple[int, int]:
    """Copy the ``copy`` trees as they are (nodes with summaries, embeddings and flags; placements of
    cells and new facts; ids remapped through ``mm_node_map``). Returns (trees, nodes) copied."""
    p = {"t": tenant_id, "f": forest_id}
    await execute(conn, _NEW_TREE_IDS, {"seq": await sequence_of(conn, "trees")})
    await create_map(conn, "mm_node_map")
    await execute(conn, _NEW_NODE_IDS, {"seq": await sequence_of(conn, "nodes")})
    trees = await execute(conn, _COPY_TREES, p)
    nodes = await execute(conn, _COPY_NODES, p)
    await execute(conn, _COPY_PLACEMENTS, p)
    return trees, nodes


async def merged_leaves(conn: Conn) -> list[Row]:
    """Leaves of copied trees whose fact merged into one of B's (``tree_id, node_id`` in B)."""
    return await fetch_all(conn, _MERGED_LEAVES)


async def tree_plans(conn: Conn) -> list[Row]:
    """One row per (kind, key) that takes leaves one by one (``insert`` / ``rebuild``)."""
    return await fetch_all(conn, _TREE_PLANS)


async def leaves_to_insert(conn: Conn, tenant_id: uuid.UUID) -> list[Row]:
    """The live leaves of ``insert``/``rebuild`` trees, as B's facts and cells."""
    return await fetch_all(conn, _LEAVES, {"t": tenant_id})


async def entity_candidates(conn: Conn, tenant_id: uuid.UUID, forest_id: int) -> list[Row]:
    """Not yet activated entities the merge touched (``entity_id, is_speaker, fact_count,
    session_count, has_tree``)."""
    return await fetch_all(conn, _ENTITY_CANDIDATES, {"t": tenant_id, "f": forest_id})


async def activate_entities(conn: Conn, tenant_id: uuid.UUID, entity_ids: Sequence[int]) -> int:
    """Mark entities activated; returns how many changed."""
    if not entity_ids:
        return 0
    return len(await fetch_all(conn, _ACTIVATE, {"t": tenant_id, "ids": list(entity_ids)}))


async def missing_entity_leaves(conn: Conn, tenant_id: uuid.UUID) -> list[Row]:
    """Live linked facts of the touched activated entities that their entity tree lacks, in time order."""
    return await fetch_all(conn, _MISSING_ENTITY_LEAVES, {"t": tenant_id})
