"""Scene assignment of a batch of facts in memory (ADR 0023): the clusters each fact could pick are
loaded once for the batch, and each fact is assigned (or spawns a cluster) as it would be against
the database after the batch's earlier facts moved their clusters' centroids.

Why one load suffices: a fact's candidates are the ``SCENE_CANDIDATES`` live clusters nearest to it.
Clusters the batch has not touched still have the centroid they were loaded with; at most one
cluster is touched per earlier fact, so the nearest ``SCENE_CANDIDATES + position`` clusters as
loaded, less the touched ones, hold every untouched cluster that can be among the candidates; the
touched (and spawned) clusters are scored against their centroids in memory.

A cluster's topic map grows with its members (hundreds of topics past a few hundred members, in a
forest that keeps meeting new subjects), and a batch changes a few of its counts: the map is taken
as the driver decodes it (no per-topic copy), and only the changed counts are written back, merged
into the stored map, instead of the whole map encoded again (ADR 0095).
"""

from __future__ import annotations

import bisect
import heapq
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np

from memforest.rules import (
    SCENE_CANDIDATES,
    cosine_sq,
    nearest_first,
    scene_accepts,
    scene_score,
    squared_norm,
    top_topics,
)
from memforest.settings import PipelineSettings
from memforest.store import scenes
from memforest.store.sql import Conn, as_vector

__all__ = ["Cluster", "SceneBatch"]


@dataclass(slots=True, eq=False)
class Cluster:
    """A cluster as the batch sees it: loaded (``cluster_id`` known, ``order`` its place in the
    batch's load order) or spawned by the batch (id known once written); ``changed``: the topics the
    batch counted in it."""

    cluster_id: int | None
    centroid: np.ndarray[Any, Any]
    member_count: int
    topic_counts: dict[str, int]
    added: int = 0  # facts the batch assigned to it
    last_time: datetime | None = None
    order: int | None = None  # index in SceneBatch.loaded's order; None when spawned or not loaded
    top: set[str] | None = None  # top_topics(topic_counts), kept until the counts change
    norm: float | None = None  # squared_norm(centroid), kept until the centroid changes
    changed: set[str] = field(default_factory=set)

    @property
    def touched(self) -> bool:
        """Whether the batch moved it: assigned a fact to it, or spawned it (the one record of a
        move is ``added``)."""
        return self.added > 0

    def top_topics(self) -> set[str]:
        """The cluster's most frequent topics, computed once per change of its counts (every fact
        of a batch scores its candidate clusters by them)."""
        if self.top is None:
            self.top = top_topics(self.topic_counts)
        return self.top

    def cosine(self, emb: np.ndarray[Any, Any], emb_norm: float) -> float:
        """``rules.cosine(centroid, emb)`` given ``squared_norm(emb)``."""
        if self.norm is None:
            self.norm = squared_norm(self.centroid)
        return cosine_sq(self.centroid, self.norm, emb, emb_norm)


def _length(v: np.ndarray[Any, Any]) -> float:
    """``float(np.linalg.norm(v))`` of a vector, by the same operations (the root of ``v . v`` in
    ``v``'s own dtype) without the function's argument handling."""
    return float(np.sqrt(v.dot(v)))


def _top_after_counting(top: set[str], counted: Sequence[str], counts: dict[str, int]) -> set[str]:
    """``top_topics(counts)`` once the topics ``counted`` were counted once more, given ``top``, the
    top topics before: a count that rose moves only its own topic up, so every topic that was below
    the top and was not counted still has at least as many topics above it as before, and the new
    top topics are among the old ones and the counted ones (a large cluster counts hundreds)."""
    return top_topics({k: counts[k] for k in top.union(counted)})


@dataclass(slots=True)
class SceneBatch:
    """Assign a batch's facts to clusters in order; :meth:`write` stores the outcome."""

    settings: PipelineSettings
    loaded: dict[int, Cluster] = field(default_factory=dict)
    nearest: dict[int, list[tuple[int, float]]] = field(default_factory=dict)  # position -> (cluster, sim)
    spawned: list[Cluster] = field(default_factory=list)
    assignments: int = 0
    # the touched loaded clusters in load order, as (load index, cluster): an index over the loaded
    # clusters whose ``touched`` holds, kept by ``_add`` as each is first moved rather than found among
    # every loaded cluster for each fact
    touched: list[tuple[int, Cluster]] = field(default_factory=list)

    def __post_init__(self) -> None:
        for i, c in enumerate(self.loaded.values()):  # clusters given at construction (tests)
            c.order = i

    async def load(
        self, conn: Conn, tenant_id: uuid.UUID, forest_id: int, embeddings: Sequence[np.ndarray[Any, Any]]
    ) -> None:
        """Load, for each fact (by position) with a non-zero vector, the clusters it could pick."""
        positions = [i for i, e in enumerate(embeddings) if e.any()]
        found = await scenes.nearest_clusters_many(
            conn, tenant_id, forest_id, [embeddings[i] for i in positions], [SCENE_CANDIDATES + i for i in positions]
        )
        for j in sorted(found.nearest):  # clusters loaded in order of first appearance, by position then distance
            ids, sims = found.nearest[j]
            for cid in ids:
                if cid not in self.loaded:
                    r = found.clusters[cid]
                    counts = dict(r["topic_counts"] or {})  # jsonb: text keys, integer counts
                    self.loaded[cid] = Cluster(
                        cid, as_vector(r["centroid"]), int(r["member_count"]), counts, order=len(self.loaded)
                    )
            self.nearest[positions[j]] = list(zip(ids, sims, strict=True))

    def _candidates(self, position: int, emb: np.ndarray[Any, Any]) -> list[tuple[Cluster, float]]:
        """The ``SCENE_CANDIDATES`` clusters nearest to the fact now, nearest first, with their sims."""
        loaded = self.loaded
        out = [(c, sim) for cid, sim in self.nearest.get(position, []) if not (c := loaded[cid]).added]  # untouched
        norm = squared_norm(emb)
        out += [(c, c.cosine(emb, norm)) for _, c in self.touched]
        out += [(c, c.cosine(emb, norm)) for c in self.spawned]
        # the first SCENE_CANDIDATES of a stable sort (nsmallest equals sorted()[:n])
        return heapq.nsmallest(SCENE_CANDIDATES, out, key=lambda cs: nearest_first(cs[1]))

    def assign(self, position: int, emb: np.ndarray[Any, Any], topics: Sequence[str], time: datetime) -> Cluster:
        """Assign the fact at ``position`` (vector ``emb``) to its best cluster, or spawn one; returns it."""
        best: Cluster | None = None
        best_score = -1.0
        if emb.any():
            for c, sim in self._candidates(position, emb):
                score = scene_score(sim, topics, c.top_topics())
                if score > best_score:
                    best, best_score = c, score
        if best is not None and scene_accepts(best_score, self.settings):
            centroid = best.centroid * best.member_count + emb
            norm = _length(centroid)
            best.centroid = centroid / norm if norm else centroid
            best.norm = None
            counts = dict(best.topic_counts)
            for t in topics:
                counts[t] = int(counts.get(t, 0)) + 1
            best.topic_counts = counts
            best.changed.update(topics)
            if best.top is not None:
                best.top = _top_after_counting(best.top, topics, counts)
            best.member_count += 1
            self._add(best)
            best.last_time = time if best.last_time is None else max(best.last_time, time)
            self.assignments += 1
            return best
        spawned = Cluster(None, emb, 1, {t: 1 for t in topics}, added=1, last_time=time)
        self.spawned.append(spawned)
        return spawned

    def _add(self, cluster: Cluster) -> None:
        """Count one more fact added to ``cluster``; a loaded cluster's first move also enters
        ``touched``, in load order (the only place either changes)."""
        if not cluster.added and cluster.cluster_id is not None:
            assert cluster.order is not None, "a loaded cluster has its load order"
            bisect.insort(self.touched, (cluster.order, cluster), key=lambda oc: oc[0])
        cluster.added += 1

    async def write(self, conn: Conn, tenant_id: uuid.UUID, forest_id: int) -> None:
        """Store the spawned clusters (their ids set here) and the new state of the touched ones."""

        def state(c: Cluster, counts: Mapping[str, int]) -> scenes.ClusterState:
            assert c.last_time is not None
            return scenes.ClusterState(c.centroid, counts, c.last_time, c.added)

        updated = {
            cid: state(c, {t: c.topic_counts[t] for t in sorted(c.changed)})
            for cid, c in self.loaded.items()
            if c.touched
        }
        spawned = [state(c, c.topic_counts) for c in self.spawned]
        ids = await scenes.write_clusters(conn, tenant_id, forest_id, spawned, updated)
        for c, cid in zip(self.spawned, ids, strict=True):
            c.cluster_id = cid
