"""A scene batch's candidate clusters for each fact, against a plain recomputation from every loaded
cluster: near ties (copies of one centroid) keep the order of a stable sort of load order, then spawn order."""

from __future__ import annotations

import dataclasses
import heapq
from datetime import UTC, datetime
from typing import Any

import numpy as np

from memforest import rules
from memforest.pipeline.route_scenes import Cluster, SceneBatch, _length
from memforest.settings import PipelineSettings


def _plain_candidates(batch: SceneBatch, position: int, emb: np.ndarray[Any, Any]) -> list[tuple[Cluster, float]]:
    """Every loaded cluster the fact's nearest list names that has not moved, then every moved loaded
    cluster in load order, then the spawned ones, each moved one scored by ``rules.cosine``."""
    out = [(batch.loaded[cid], sim) for cid, sim in batch.nearest.get(position, []) if not batch.loaded[cid].touched]
    moved = [c for c in batch.loaded.values() if c.touched] + batch.spawned
    out += [(c, rules.cosine(c.centroid, emb)) for c in moved]
    return heapq.nsmallest(rules.SCENE_CANDIDATES, out, key=lambda cs: rules.nearest_first(cs[1]))


def test_candidates_are_those_of_every_loaded_cluster_in_load_order() -> None:
    rng = np.random.default_rng(4)
    now = datetime(2024, 3, 1, tzinfo=UTC)
    for _ in range(40):
        base = rng.standard_normal((6, 16)).astype(np.float32)
        centroids = [base[int(rng.integers(6))].copy() for _ in range(14)]  # copies: ties
        loaded = {cid: Cluster(cid, centroids[i], int(rng.integers(1, 5)), {"x": 1})
                  for i, cid in enumerate(rng.permutation(np.arange(100, 114)).tolist())}  # fmt: skip
        batch = SceneBatch(PipelineSettings(scene_assign_threshold=float(rng.choice([0.2, 0.9]))), loaded=loaded)
        ids = list(loaded)
        for position in range(25):
            emb = base[int(rng.integers(6))] + np.float32(0.3) * rng.standard_normal(16).astype(np.float32)
            if position % 9 == 8:
                emb = np.zeros(16, dtype=np.float32)
            picked = [ids[int(i)] for i in rng.choice(len(ids), size=6, replace=False)]
            batch.nearest[position] = [(cid, rules.cosine(loaded[cid].centroid, emb)) for cid in picked]
            if emb.any():
                assert batch._candidates(position, emb) == _plain_candidates(batch, position, emb)
            batch.assign(position, emb, ["x"] if position % 2 else ["y"], now)
        assert [c for _, c in batch.touched] == [c for c in loaded.values() if c.touched]


def test_a_centroids_length_is_that_of_numpys_norm_to_the_bit() -> None:
    rng = np.random.default_rng(9)
    for dtype in (np.float32, np.float64):
        for v in rng.standard_normal((50, 384)).astype(dtype) * rng.uniform(0.01, 40, (50, 1)).astype(dtype):
            assert _length(v) == float(np.linalg.norm(v))
    assert _length(np.zeros(3, dtype=np.float32)) == 0.0


def test_a_cluster_is_touched_by_what_the_batch_added_and_enters_the_index_once_in_load_order() -> None:
    # one record of a move: the count of facts added (no flag of its own to keep in step with it)
    assert "touched" not in {f.name for f in dataclasses.fields(Cluster)}
    unit = np.eye(4, dtype=np.float32)
    loaded = {cid: Cluster(cid, unit[i].copy(), 2, {"walk": 1}) for i, cid in enumerate((31, 12, 47))}
    batch = SceneBatch(PipelineSettings(scene_assign_threshold=0.5), loaded=loaded)
    assert [c.order for c in loaded.values()] == [0, 1, 2]
    assert not any(c.touched for c in loaded.values())
    when = datetime(2023, 7, 9, tzinfo=UTC)
    for position, cid in enumerate((47, 31, 47)):  # the last of the load order moves first
        batch.nearest[position] = [(cid, 1.0)]
        assert batch.assign(position, loaded[cid].centroid.copy(), ["walk"], when) is loaded[cid]
    assert [c.cluster_id for _, c in batch.touched] == [31, 47]
    assert (loaded[31].added, loaded[12].added, loaded[47].added) == (1, 0, 2)
    assert [c.touched for c in loaded.values()] == [True, False, True]
    spawned = batch.assign(3, unit[3].copy(), ["swim"], when)
    assert spawned.touched and spawned.order is None and spawned not in [c for _, c in batch.touched]
