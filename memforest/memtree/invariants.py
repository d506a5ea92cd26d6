"""The structural rules of a MemTree, checked over its rows (``memforest check`` reads them from the
database; tests check trees built in memory the same way).

A tree is given as its row (``tree_id``, ``kind``, ``label``, ``fanout``, ``root_node_id``,
``height``, ``n_leaves``) and all its nodes (``node_id``, ``level``, ``parent_id``, ``t_start``,
``seq``, ``t_end``, ``n_children``, ``dirty``, ``leaf_fact_id``, ``leaf_cell_id``).
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["check_tree"]


def _key(n: Mapping[str, Any]) -> tuple[Any, int]:
    return (n["t_start"], int(n["seq"]))


def check_tree(tree: Mapping[str, Any], nodes: Sequence[Mapping[str, Any]], *, allow_dirty: bool = False) -> list[str]:
    """Every structural invariant of one tree, given all its nodes. Returns violations in order."""
    out: list[str] = []
    name = f"tree {tree['tree_id']} ({tree['kind']}:{tree['label']})"
    k = int(tree["fanout"])
    by_id = {int(n["node_id"]): n for n in nodes}
    children: dict[int, list[Mapping[str, Any]]] = defaultdict(list)
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
    ordered_leaves: list[Mapping[str, Any]] = []
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
