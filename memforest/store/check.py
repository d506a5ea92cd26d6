"""Forest invariants, verified from the database (``memforest check``): each tree by the rules of
:mod:`memforest.memtree.invariants`, then placements and reachability by query."""

from __future__ import annotations

import uuid
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from memforest.memtree.invariants import check_tree
from memforest.store.sql import Conn, fetch_all, scalar

_TREES = (
    "SELECT tree_id, kind, label, fanout, root_node_id, height, n_leaves FROM trees "
    "WHERE tenant_id = :t AND forest_id = :f ORDER BY tree_id"
)

_NODES = (
    "SELECT node_id, tree_id, level, parent_id, t_start, t_end, seq, n_children, dirty, leaf_fact_id, "
    "leaf_cell_id FROM nodes WHERE tenant_id = :t AND forest_id = :f"
)

_BAD_PLACEMENTS = (
    "SELECT p.tree_id, p.source_kind, p.source_id FROM placements p JOIN nodes n "
    "ON n.tenant_id = p.tenant_id AND n.node_id = p.node_id WHERE p.tenant_id = :t AND p.forest_id = :f "
    "AND (n.tree_id <> p.tree_id OR n.level <> 0 OR (p.source_kind = 'fact' AND n.leaf_fact_id "
    "IS DISTINCT FROM p.source_id) OR (p.source_kind = 'cell' AND n.leaf_cell_id IS DISTINCT FROM p.source_id)) "
    "LIMIT 1"
)

_DUPLICATE_LEAVES = (
    "SELECT tree_id, coalesce(leaf_fact_id, leaf_cell_id) AS src, count(*) AS n FROM nodes "
    "WHERE tenant_id = :t AND forest_id = :f AND level = 0 GROUP BY tree_id, leaf_fact_id, leaf_cell_id "
    "HAVING count(*) > 1 LIMIT 1"
)

_UNPLACED_FACTS = (
    "SELECT f.fact_id FROM facts f WHERE f.tenant_id = :t AND f.forest_id = :f AND f.retracted_at IS NULL "
    "AND NOT EXISTS (SELECT 1 FROM placements p WHERE p.tenant_id = f.tenant_id AND p.source_kind = 'fact' "
    "AND p.source_id = f.fact_id) ORDER BY f.fact_id LIMIT 1"
)

_UNPLACED_CELLS = (
    "SELECT c.cell_id FROM cells c WHERE c.tenant_id = :t AND c.forest_id = :f AND NOT EXISTS "
    "(SELECT 1 FROM placements p WHERE p.tenant_id = c.tenant_id AND p.source_kind = 'cell' "
    "AND p.source_id = c.cell_id) ORDER BY c.cell_id LIMIT 1"
)

_COUNT_FACTS = "SELECT count(*) FROM facts WHERE tenant_id = :t AND forest_id = :f"


@dataclass(frozen=True, slots=True)
class CheckReport:
    """Result of a check: the violations found (empty = all invariants hold) and what was checked."""

    violations: list[str]
    trees: int
    nodes: int
    facts: int

    @property
    def ok(self) -> bool:
        return not self.violations


async def check_forest(conn: Conn, tenant_id: uuid.UUID, forest_id: int, *, allow_dirty: bool = False) -> CheckReport:
    """Check every tree of the forest plus placements and fact reachability."""
    p = {"t": tenant_id, "f": forest_id}
    trees = await fetch_all(conn, _TREES, p)
    nodes = await fetch_all(conn, _NODES, p)
    by_tree: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for n in nodes:
        by_tree[int(n["tree_id"])].append(n)
    violations: list[str] = []
    for tree in trees:
        violations += check_tree(tree, by_tree.get(int(tree["tree_id"]), []), allow_dirty=allow_dirty)
    bad_placements = await fetch_all(conn, _BAD_PLACEMENTS, p)
    for bp in bad_placements:
        violations.append(f"placement of {bp['source_kind']} {bp['source_id']} in tree {bp['tree_id']} is wrong")
    dup_leaves = await fetch_all(conn, _DUPLICATE_LEAVES, p)
    for d in dup_leaves:
        violations.append(f"source {d['src']} has {d['n']} leaves in tree {d['tree_id']}")
    unplaced_facts = await fetch_all(conn, _UNPLACED_FACTS, p)
    for u in unplaced_facts:
        violations.append(f"fact {u['fact_id']} is not reachable from any tree")
    unplaced_cells = await fetch_all(conn, _UNPLACED_CELLS, p)
    for u in unplaced_cells:
        violations.append(f"cell {u['cell_id']} is not placed in its session tree")
    facts_n = int(await scalar(conn, _COUNT_FACTS, p))
    return CheckReport(violations=violations, trees=len(trees), nodes=len(nodes), facts=facts_n)
