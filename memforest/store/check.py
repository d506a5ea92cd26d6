"""Forest invariants, verified from the database (``memforest check``)."""

from __future__ import annotations

import itertools
import uuid
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

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


def _key(n: dict[str, Any]) -> tuple[Any, int]:
    return (n["t_start"], int(n["seq"]))


def check_tree(tree: dict[str, Any], nodes: list[dict[str, Any]], *, allow_dirty: bool = False) -> list[str]:
    """Every structural invariant of one tree, given all its nodes. Returns violations in order."""
    out: list[str] = []
    name = f"tree {tree['tree_id']} ({tree['kind']}:{tree['label']})"
    k = int(tree["fanout"])
    by_id = {int(n["node_id"]): n for n in nodes}
    children: dict[int, list[dict[str, Any]]] = defaultdict(list)
    roots = []
    for n in nodes:
        if n["parent_id"] is None:
            roots.append(n)
        elif int(n["parent_id"]) not in by_id:
            out.append(f"{name}: node {n['node_id']} has a parent outside the tree")
        else:
            children[int(n["parent_id"])].append(n)
    leaves = [n for n in nodes if n["level"] == 0]
    if int(tree["n_leaves"]) != len(leaves):
        out.append(f"{name}: n_leaves is {tree['n_leaves']} but {len(leaves)} leaves exist")
    if not nodes:
        if tree["root_node_id"] is not None:
            out.append(f"{name}: empty tree with a root")
        return out
    if len(roots) != 1 or tree["root_node_id"] is None or int(roots[0]["node_id"]) != int(tree["root_node_id"]):
        out.append(f"{name}: expected exactly one root equal to trees.root_node_id")
        return out
    root = roots[0]
    if int(root["level"]) != int(tree["height"]):
        out.append(f"{name}: root level {root['level']} != height {tree['height']}")
    # Walk from the root: levels, fan-out, keys, intervals, order; reachability of every node.
    seen = 0
    ordered_leaves: list[dict[str, Any]] = []
    stack = [root]
    while stack:
        node = stack.pop()
        seen += 1
        nid = int(node["node_id"])
        kids = sorted(children.get(nid, []), key=_key)
        level = int(node["level"])
        if level == 0:
            if kids:
                out.append(f"{name}: leaf {nid} has children")
            if node["leaf_fact_id"] is None and node["leaf_cell_id"] is None:
                out.append(f"{name}: leaf {nid} has no payload")
            ordered_leaves.append(node)
            continue
        if int(node["n_children"]) != len(kids):
            out.append(f"{name}: node {nid} n_children={node['n_children']} but has {len(kids)}")
        if len(kids) > k:
            out.append(f"{name}: node {nid} has {len(kids)} children > fan-out {k}")
        if node is not root and len(kids) < (k + 1) // 2:
            out.append(f"{name}: node {nid} has {len(kids)} children < minimum {(k + 1) // 2}")
        if not kids:
            out.append(f"{name}: internal node {nid} has no children")
            continue
        for kid in kids:
            if int(kid["level"]) != level - 1:
                out.append(f"{name}: node {kid['node_id']} at level {kid['level']} under level {level}")
        if _key(kids[0]) != _key(node):
            out.append(f"{name}: node {nid} key is not the smallest key below it")
        if max(c["t_end"] for c in kids) != node["t_end"]:
            out.append(f"{name}: node {nid} t_end is not the largest end below it")
        stack.extend(reversed(kids))
    if seen != len(nodes):
        out.append(f"{name}: {len(nodes) - seen} nodes are not reachable from the root")
    for a, b in itertools.pairwise(ordered_leaves):
        if _key(a) >= _key(b):
            out.append(f"{name}: leaves {a['node_id']} and {b['node_id']} are out of time order")
            break
    if not allow_dirty:
        dirty = [int(n["node_id"]) for n in nodes if n["dirty"]]
        if dirty:
            out.append(f"{name}: {len(dirty)} dirty nodes left after refresh (first: {dirty[0]})")
    return out


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
