"""Route new facts to scopes (no model calls) and hang them as leaves.

Entity scope: one tree per normalised entity label once it has enough support (speakers always).
Scene scope: persistent online clustering of fact embeddings and topics (assign or spawn).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np

from memforest.domain import TreeKind
from memforest.rules import entity_earns_tree, entity_key, scene_accepts, scene_label, scene_score, top_topics
from memforest.settings import PipelineSettings
from memforest.store import entities, scenes
from memforest.store.sql import Conn, as_vector
from memforest.store.trees import InsertStats, LeafSpec, TreeRef, get_or_create_tree, insert_leaves

__all__ = ["FactForRouting", "RouteStats", "Router"]


@dataclass(slots=True)
class FactForRouting:
    """A new canonical fact as routing needs it."""

    fact_id: int
    session_id: int
    text: str
    entities: tuple[str, ...]
    topics: tuple[str, ...]
    valid_from: datetime
    embedding: np.ndarray[Any, Any]


@dataclass(slots=True)
class RouteStats:
    """Counters of routing work."""

    entity_links: int = 0
    entities_activated: int = 0
    scenes_spawned: int = 0
    scene_assignments: int = 0


class Router:
    """Routes facts of one forest inside one transaction (the caller holds the forest lock)."""

    def __init__(
        self,
        conn: Conn,
        tenant_id: uuid.UUID,
        forest_id: int,
        settings: PipelineSettings,
        insert_stats: InsertStats,
    ) -> None:
        self.conn = conn
        self.tenant_id = tenant_id
        self.forest_id = forest_id
        self.settings = settings
        self.insert_stats = insert_stats
        self.stats = RouteStats()
        self._trees: dict[tuple[TreeKind, str], TreeRef] = {}
        self._pending: list[tuple[TreeRef, LeafSpec]] | None = None  # leaves held back by route_many

    async def _insert(self, tree: TreeRef, leaf: LeafSpec) -> None:
        """Hang a leaf now, or queue it when a batch is open (route_many writes the queue at once)."""
        if self._pending is not None:
            self._pending.append((tree, leaf))
        else:
            await insert_leaves(self.conn, self.tenant_id, [(tree, leaf)], self.insert_stats)

    async def _tree(self, kind: TreeKind, key: str, label: str) -> TreeRef:
        cached = self._trees.get((kind, key))
        if cached is None:
            fanout = self.settings.fanout_entity if kind is TreeKind.ENTITY else self.settings.fanout_scene
            cached = await get_or_create_tree(
                self.conn, self.tenant_id, self.forest_id, kind, key, label, fanout, self.insert_stats
            )
            self._trees[(kind, key)] = cached
        return cached

    def _leaf(self, fact_id: int, t: datetime, text: str, embedding: Any) -> LeafSpec:
        return LeafSpec("fact", fact_id, t, t, fact_id, text, embedding)

    async def register_speakers(self, speakers: set[str]) -> None:
        """Speakers always get an entity tree."""
        first: dict[str, str] = {}  # key -> first label in sorted order (later ones only re-set the flag)
        for label in sorted(speakers):
            first.setdefault(entity_key(label), label)
        if not first:
            return
        await entities.register_speakers(self.conn, self.tenant_id, self.forest_id, list(first), list(first.values()))

    async def route(self, fact: FactForRouting) -> None:
        """Link the fact to its entities and scene, inserting leaves in every active tree."""
        await self.route_many([fact])

    async def route_many(self, facts: Sequence[FactForRouting]) -> None:
        """Route ``facts`` in order, as :meth:`route` on each would, but hang all their leaves with one
        batched insert at the end (nothing routing reads depends on the leaves)."""
        outer = self._pending
        self._pending = [] if outer is None else outer
        try:
            for fact in facts:
                await self._route_one(fact)
            if outer is None and self._pending:
                await insert_leaves(self.conn, self.tenant_id, self._pending, self.insert_stats)
        finally:
            self._pending = outer

    async def _route_one(self, fact: FactForRouting) -> None:
        seen: set[str] = set()
        for label in fact.entities:
            key = entity_key(label)
            if key and key not in seen:
                seen.add(key)
                await self._route_entity(fact, key, label.strip())
        await self._route_scene(fact)

    async def _route_entity(self, fact: FactForRouting, key: str, label: str) -> None:
        ent = await entities.link_fact(
            self.conn, self.tenant_id, self.forest_id, key=key, label=label, time=fact.valid_from,
            fact_id=fact.fact_id, session_id=fact.session_id,
        )  # fmt: skip
        entity_id = int(ent["entity_id"])
        self.stats.entity_links += 1
        label = str(ent["label"])
        if ent["activated"]:
            tree = await self._tree(TreeKind.ENTITY, key, label)
            await self._insert(tree, self._leaf(fact.fact_id, fact.valid_from, fact.text, fact.embedding))
            return
        if entity_earns_tree(
            is_speaker=bool(ent["is_speaker"]), fact_count=int(ent["fact_count"]),
            session_count=int(ent["session_count"]), settings=self.settings,
        ):  # fmt: skip
            await self._activate(entity_id, key, label)

    async def _activate(self, entity_id: int, key: str, label: str) -> None:
        """Give the entity its tree and backfill every fact linked to it so far, in time order."""
        await entities.activate(self.conn, self.tenant_id, entity_id)
        self.stats.entities_activated += 1
        tree = await self._tree(TreeKind.ENTITY, key, label)
        for f in await entities.live_facts(self.conn, self.tenant_id, entity_id):
            await self._insert(tree, self._leaf(int(f["fact_id"]), f["valid_from"], str(f["text"]), f["embedding"]))

    async def _route_scene(self, fact: FactForRouting) -> None:
        emb = np.asarray(fact.embedding, dtype=np.float32)
        candidates = (
            await scenes.nearest_clusters(self.conn, self.tenant_id, self.forest_id, emb) if np.any(emb) else []
        )
        best: dict[str, Any] | None = None
        best_score = -1.0
        for c in candidates:
            score = scene_score(float(c["sim"]), fact.topics, top_topics(dict(c["topic_counts"] or {})))
            if score > best_score:
                best, best_score = c, score
        if best is not None and scene_accepts(best_score, self.settings):
            cluster_id = int(best["cluster_id"])
            n = int(best["member_count"])
            centroid = as_vector(best["centroid"]) * n + emb
            norm = float(np.linalg.norm(centroid))
            counts: dict[str, int] = dict(best["topic_counts"] or {})
            for t in fact.topics:
                counts[t] = int(counts.get(t, 0)) + 1
            await scenes.add_member(
                self.conn, self.tenant_id, cluster_id, centroid=centroid / norm if norm else centroid,
                topic_counts=counts, time=fact.valid_from,
            )  # fmt: skip
            self.stats.scene_assignments += 1
        else:
            counts = {t: 1 for t in fact.topics}
            cluster_id = await scenes.spawn(
                self.conn, self.tenant_id, self.forest_id, centroid=emb, topic_counts=counts, time=fact.valid_from
            )
            self.stats.scenes_spawned += 1
        tree = await self._tree(TreeKind.SCENE, str(cluster_id), scene_label(counts))
        await self._insert(tree, self._leaf(fact.fact_id, fact.valid_from, fact.text, emb))
