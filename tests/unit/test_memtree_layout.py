"""The bottom-up layout of bulk-built trees (``memtree/layout.py``), with no database: every planned
tree passes the invariants at the least height its fan-out allows, and bad input is refused."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from memtree_trees import cell_leaf, new_tree

from memforest.memtree.invariants import check_tree
from memforest.memtree.layout import group_sizes, layout, plan_trees, trees_to_build
from memforest.memtree.model import LeafSpec, TreeRef


def _min_height(n: int, k: int) -> int:
    """The least height of a tree of n >= 1 leaves whose nodes hold at most k children."""
    h = 1
    while k**h < n:
        h += 1
    return h


def test_group_sizes_share_children_evenly_within_bounds() -> None:
    for k in range(2, 17):
        for count in range(1, 300):
            sizes = group_sizes(count, k)
            assert sum(sizes) == count and max(sizes) - min(sizes) <= 1 and max(sizes) <= k
            assert len(sizes) == 1 or min(sizes) >= (k + 1) // 2
    assert layout(0, 4) == [] and layout(1, 4) == [[1]] and layout(9, 4) == [[3, 3, 3], [3]]
    with pytest.raises(ValueError):
        group_sizes(0, 4)


@settings(max_examples=60, deadline=None)
@given(
    sizes=st.lists(st.integers(0, 300), min_size=1, max_size=4),
    fanout=st.integers(2, 16),
)
def test_planned_trees_pass_every_invariant_at_the_least_height(sizes: list[int], fanout: int) -> None:
    trees = [new_tree(fanout, tree_id=i + 1) for i in range(len(sizes))]
    items: list[tuple[TreeRef, list[LeafSpec]]] = [
        (tree, [cell_leaf(j + 1, j // 3, j % 4) for j in range(n)]) for tree, n in zip(trees, sizes, strict=True)
    ]
    todo = trees_to_build(items)
    assert [tree.tree_id for tree, _ in todo] == [t.tree_id for t, n in zip(trees, sizes, strict=True) if n]
    plan = plan_trees(todo)
    assert len(plan.nodes) == sum(sizes) + sum(sum(len(level) for level in layout(n, fanout)) for n in sizes)
    for root in plan.roots:
        nodes = [
            {
                "node_id": i, "tree_id": node.tree.tree_id, "level": node.level, "parent_id": node.parent,
                "t_start": node.t_start, "seq": node.seq, "t_end": node.t_end, "n_children": node.n_children,
                "dirty": False, "leaf_fact_id": None,
                "leaf_cell_id": node.leaf.source_id if node.leaf is not None else None,
            }
            for i, node in enumerate(plan.nodes)
            if node.tree is root.tree
        ]  # fmt: skip
        tree_row = {
            "tree_id": root.tree.tree_id, "kind": "session", "label": "s", "fanout": fanout,
            "root_node_id": root.root, "height": root.height, "n_leaves": root.leaves,
        }  # fmt: skip
        assert check_tree(tree_row, nodes) == []
        assert root.height == _min_height(root.leaves, fanout)
        assert plan.nodes[root.root].parent is None and plan.nodes[root.root].level == root.height


def test_the_layout_is_as_low_as_the_fanout_allows() -> None:
    for fanout in (2, 3, 4, 16):
        for n in (1, 2, 3, 15, 16, 17, 255, 256, 257, 1000):
            assert len(layout(n, fanout)) == _min_height(n, fanout)


def test_refuses_a_tree_that_is_not_empty_unsorted_leaves_and_a_tree_given_twice() -> None:
    full = TreeRef(1, 1, new_tree(4).kind, "s", "s", 4, 7, 1)
    with pytest.raises(ValueError, match="not empty"):
        trees_to_build([(full, [cell_leaf(1, 0)])])
    backwards = [cell_leaf(1, 9), cell_leaf(2, 1)]
    with pytest.raises(ValueError, match="sorted"):
        trees_to_build([(new_tree(4), backwards)])
    with pytest.raises(ValueError, match="sorted"):
        trees_to_build([(new_tree(4), [cell_leaf(1, 9), cell_leaf(1, 9)])])
    odd = LeafSpec("turn", 1, cell_leaf(1, 0).t_start, cell_leaf(1, 0).t_end, 1, "x")
    with pytest.raises(ValueError, match="source kind"):
        trees_to_build([(new_tree(4), [odd])])
    tree = new_tree(4)
    with pytest.raises(ValueError, match="twice"):
        trees_to_build([(tree, [cell_leaf(1, 0)]), (tree, [cell_leaf(2, 1)])])
    assert trees_to_build([(full, [])]) == []  # no leaves: nothing to build, nothing checked
