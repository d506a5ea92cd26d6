"""Rebalancing after leaf removal (``memtree/rebalance.py``) over in-memory rows, with no database:
removing any subset keeps every invariant after each removal, removing everything shrinks then
empties the tree, and one removal marks only its path."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from memtree_trees import MemoryTree, grow

from memforest.memtree.model import DeleteStats
from memforest.memtree.rebalance import rebalance


async def _remove(rows: MemoryTree, source: int, stats: DeleteStats) -> None:
    """Remove the leaf of ``source`` and rebalance, as ``store.tree_delete.remove_leaf`` does."""
    parent = rows.drop_leaf(rows.leaf_of(source))
    stats.leaves += 1
    if parent is not None:
        await rebalance(rows, rows.tree, parent, stats)


def _grown(times: list[int], fanout: int) -> MemoryTree:
    tree, batch = grow(times, fanout)
    return MemoryTree.from_batch(tree, batch)


@settings(max_examples=60, deadline=None)
@given(
    times=st.lists(st.integers(0, 300), min_size=1, max_size=60),
    fanout=st.integers(2, 6),
    data=st.data(),
)
async def test_removing_any_subset_keeps_every_invariant(times: list[int], fanout: int, data: st.DataObject) -> None:
    rows = _grown(times, fanout)
    sources = list(range(1, len(times) + 1))
    doomed = data.draw(st.lists(st.sampled_from(sources), unique=True, max_size=len(sources)), label="doomed")
    stats = DeleteStats()
    for source in doomed:
        await _remove(rows, source, stats)
        assert rows.violations() == [], (source, rows.violations())
    kept = sorted((rows.nodes[rows.leaf_of(s)]["t_start"], s) for s in sources if s not in doomed)
    assert [(n["t_start"], n["seq"]) for n in rows.leaves()] == kept
    assert rows.n_leaves == len(kept) and (rows.tree.root_node_id is None) == (not kept)
    assert not any(n["dirty"] for n in rows.leaves())  # leaves are never marked


async def test_removing_everything_shrinks_then_empties_the_tree() -> None:
    rows = _grown(list(range(200)), 4)
    stats = DeleteStats()
    heights = []
    for source in range(1, 201):
        await _remove(rows, source, stats)
        heights.append(rows.tree.height)
    assert rows.violations() == []
    assert heights[0] >= 4 and heights == sorted(heights, reverse=True)  # the height only shrinks
    assert stats.collapses >= heights[0] - 1 and stats.merges > 0 and stats.trees_emptied == 1
    assert rows.nodes == {} and rows.tree.root_node_id is None and rows.n_leaves == 0


async def test_one_removal_marks_only_its_path() -> None:
    rows = _grown(list(range(64)), 4)
    total = len(rows.nodes)
    versions = {nid: n["version"] for nid, n in rows.nodes.items()}
    stats = DeleteStats()
    await _remove(rows, 31, stats)
    dirty = rows.dirty()
    # the path to the root plus at most a sibling per level (a borrow or merge), nothing else
    assert 1 <= len(dirty) <= 2 * rows.tree.height + 1 < total
    assert {nid for nid, n in rows.nodes.items() if n["version"] != versions[nid]} == dirty
    assert stats.marks >= rows.tree.height


async def test_an_underfull_node_borrows_from_a_sibling_with_children_to_spare() -> None:
    rows = _grown(list(range(8)), 4)  # in time order, level-1 nodes of 2, 2 and 4 children
    level1 = sorted((n for n in rows.nodes.values() if n["level"] == 1), key=lambda n: (n["t_start"], n["seq"]))
    assert [n["n_children"] for n in level1] == [2, 2, 4]
    thin, rich = level1[1]["node_id"], level1[2]["node_id"]
    victim = min((n for n in rows.nodes.values() if n["parent_id"] == thin), key=lambda n: n["seq"])
    stats = DeleteStats()
    await _remove(rows, int(victim["leaf_cell_id"]), stats)
    assert rows.violations() == []
    assert (stats.borrows, stats.merges) == (1, 0)
    assert (rows.nodes[thin]["n_children"], rows.nodes[rich]["n_children"]) == (2, 3)


async def test_an_underfull_node_merges_when_no_sibling_can_spare_a_child() -> None:
    rows = _grown(list(range(7)), 4)  # level-1 nodes of 2, 2 and 3 children
    level1 = sorted((n for n in rows.nodes.values() if n["level"] == 1), key=lambda n: (n["t_start"], n["seq"]))
    first = level1[0]["node_id"]
    victim = min((n for n in rows.nodes.values() if n["parent_id"] == first), key=lambda n: n["seq"])
    stats = DeleteStats()
    await _remove(rows, int(victim["leaf_cell_id"]), stats)
    assert rows.violations() == []
    assert (stats.borrows, stats.merges, stats.nodes_removed) == (0, 1, 1) and first not in rows.nodes
