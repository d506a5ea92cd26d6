"""A walk tells the runs among the facts it read after each of its first reads, then at doubling
intervals, bisecting back: it stops with the facts a telling after every node read would have
stopped with (always while the runs never fall), told O(log n) times."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence

from memforest.retrieval.temporal.walk import TOLD_EACH, walk_side
from memforest.store.sql import Row


class _Nodes:
    """Bottom nodes in time order, walked from the first: each holds the subject's facts read there
    (none for a node of other people's facts)."""

    def __init__(self, nodes: list[list[Row]]) -> None:
        self.nodes, self.at, self.reads = nodes, 0, 0

    async def step(self, side: int) -> list[Row] | None:
        if self.at >= len(self.nodes):
            return None
        self.at += 1
        self.reads += 1
        return self.nodes[self.at - 1]

    def pending(self) -> list[Row]:
        return []


async def _facts(leaves: list[Row], ahead: Sequence[Row]) -> list[Row]:
    return list(leaves)


class _Runs:
    """Runs of values among facts (a fact with a value that differs from the last one starts one),
    counting its tellings."""

    def __init__(self) -> None:
        self.told = 0

    def __call__(self, rows: list[Row]) -> int:
        self.told += 1
        values = [r["value"] for r in rows if r["value"] is not None]
        return sum(1 for i, v in enumerate(values) if i == 0 or v != values[i - 1])


def _told_each_read(nodes: list[list[Row]], start: list[Row], enough: int, limit: int) -> tuple[list[Row], int]:
    """The walk telling the runs after every node read that added facts."""
    rows, walk, runs = list(start), _Nodes(nodes), _Runs()
    while walk.reads < limit and runs(rows) < enough:
        leaves = asyncio.run(walk.step(1))
        if leaves is None:
            break
        rows += leaves
    return rows, walk.reads


def _world(rng: random.Random, n: int, states: float) -> list[list[Row]]:
    """``n`` nodes of a few facts, a share ``states`` of them with a value, some nodes empty."""
    nodes, fid = [], 0
    for _ in range(n):
        node = []
        for _ in range(rng.choice((0, 0, 1, 2, 3))):
            fid += 1
            value = rng.choice("abc") if rng.random() < states else None
            node.append({"fact_id": fid, "value": value})
        nodes.append(node)
    return nodes


def test_stops_with_the_facts_a_telling_after_every_read_stops_with() -> None:
    rng = random.Random(7)
    for trial in range(400):
        nodes = _world(rng, rng.randint(0, 60), rng.choice((0.0, 0.05, 0.3, 0.9)))
        enough, limit = rng.randint(1, 5), rng.randint(1, 80)
        start: list[Row] = [{"fact_id": 0, "value": rng.choice(("a", None))}]
        want, _ = _told_each_read(nodes, start, enough, limit)
        got, reads = asyncio.run(walk_side(_Nodes(nodes), 1, list(start), _facts, _Runs(), enough, limit))
        assert [r["fact_id"] for r in got] == [r["fact_id"] for r in want], trial
        assert reads <= min(limit, len(nodes)), trial


def test_a_walk_to_the_edge_tells_the_runs_a_logarithmic_number_of_times() -> None:
    nodes: list[list[Row]] = [[{"fact_id": i, "value": None}] for i in range(1, 1025)]
    runs = _Runs()
    got, reads = asyncio.run(walk_side(_Nodes(nodes), 1, [], _facts, runs, 2, 4096))
    assert len(got) == 1024 and reads == 1024
    assert runs.told <= TOLD_EACH + 13, runs.told  # log2(1024) + 3 after the first ones, not 1,025


def test_facts_read_past_the_first_enough_read_are_left_out_but_counted() -> None:
    nodes: list[list[Row]] = [[{"fact_id": i, "value": v}] for i, v in enumerate("abxxxxx", start=1)]
    nodes[2:] = [[{"fact_id": i, "value": None}] for i in range(3, 8)]
    got, reads = asyncio.run(walk_side(_Nodes(nodes), 1, [], _facts, _Runs(), 2, 100))
    assert [r["fact_id"] for r in got] == [1, 2]
    assert reads >= 2


def test_the_first_reads_stop_at_the_first_crossing_even_when_the_runs_fall_later() -> None:
    # a fact read later can join two chains into one: the runs rise to enough, then fall
    told = iter([0, 1, 2, 1, 1, 2, 2])
    nodes: list[list[Row]] = [[{"fact_id": i, "value": None}] for i in range(1, 7)]
    got, _ = asyncio.run(walk_side(_Nodes(nodes), 1, [], _facts, lambda rows: next(told), 2, 100))
    assert [r["fact_id"] for r in got] == [1, 2]
