"""The batched insert simulation (``memtree/batch.py``) over trees that start empty, with no
database: any insertion order keeps every invariant, splits grow the height logarithmically, and a
leaf keyed before all others lowers the keys along its path."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st
from memtree_trees import BASE, MemoryTree, cell_leaf, grow, new_tree

from memforest.memtree.batch import Batch
from memforest.memtree.model import InsertStats


@settings(max_examples=60, deadline=None)
@given(times=st.lists(st.integers(0, 300), min_size=1, max_size=80), fanout=st.integers(2, 6))
def test_any_insertion_order_keeps_every_invariant(times: list[int], fanout: int) -> None:
    stats = InsertStats()
    tree, batch = grow(times, fanout, stats)
    rows = MemoryTree.from_batch(tree, batch)
    assert rows.violations() == []
    keys = [(n["t_start"], n["seq"]) for n in rows.leaves()]
    assert keys == sorted((cell_leaf(i + 1, m).t_start, i + 1) for i, m in enumerate(times))
    assert stats.leaves == len(times) == rows.n_leaves
    assert stats.nodes_created == len(batch.nodes) == len(batch.created)
    assert stats.touched_trees == {tree.tree_id} and batch.new_roots == {tree.tree_id}
    assert [p[2] for p in batch.placements] == list(range(1, len(times) + 1))
    smallest = (fanout + 1) // 2
    if smallest >= 2 and len(times) > 1:  # a non-root node holds >= ceil(k/2) children
        assert tree.height <= 1 + math.log(len(times) / 2, smallest) + 1e-9


def test_splits_grow_the_height_logarithmically() -> None:
    stats = InsertStats()
    tree, batch = grow(range(1000), 4, stats)
    assert MemoryTree.from_batch(tree, batch).violations() == []
    assert 5 <= tree.height <= 10  # between log4(1000) and 1 + log2(500)
    assert stats.splits > 0 and stats.marks >= stats.leaves


def test_a_leaf_before_all_others_lowers_the_keys_on_its_path() -> None:
    tree, batch = grow([10 * i for i in range(1, 40)], 3)
    first = batch.insert(tree, cell_leaf(99, 0))
    rows = MemoryTree.from_batch(tree, batch)
    assert rows.violations() == []
    path = []
    current = rows.nodes[first]["parent_id"]
    while current is not None:
        path.append(rows.nodes[current])
        current = rows.nodes[current]["parent_id"]
    assert path[-1]["node_id"] == tree.root_node_id
    assert all((n["t_start"], n["seq"]) == (BASE, 99) for n in path)


def test_many_trees_share_one_batch() -> None:
    stats = InsertStats()
    batch = Batch(stats)
    trees = [new_tree(fanout, tree_id=fanout) for fanout in (2, 3, 5)]
    for i in range(30):
        for tree in trees:
            batch.insert(tree, cell_leaf(i + 1, (7 * i) % 30))
    for tree in trees:
        assert MemoryTree.from_batch(tree, batch).violations() == []
        assert batch.tree_leaves[tree.tree_id] == 30
    assert stats.touched_trees == {2, 3, 5} and stats.leaves == 90
