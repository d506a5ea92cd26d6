"""Route new facts to scopes (no model calls) and hang them as leaves.

Entity scope: one tree per normalised entity label once it has enough support (speakers always).
Scene scope: persistent online clustering of fact embeddings and topics (assign or spawn).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np
from sqlalchemy.ext.asyncio import AsyncConnection

from memforest.domain import TreeKind
from memforest.settings import PipelineSettings
from memforest.store.sql import as_vector, execute, fetch_all, fetch_one
from memforest.store.trees import InsertStats, LeafSpec, TreeRef, get_or_create_tree, insert_leaves

TOPIC_WEIGHT = 0.15


def entity_key(label: str) -> str:
    """The normalised form entities are keyed by (case-insensitive, single-spaced, no possessive)."""
    key = " ".join(label.casefold().split())
    for suffix in ("'s", "’s"):
        if key.endswith(suffix):
            key = key[: -len(suffix)]
    return key


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
        conn: AsyncConnection,
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
        # one statement, rows in label order (as one upsert per label would run)
        await execute(
            self.conn,
            "INSERT INTO entities (tenant_id, forest_id, key, label, is_speaker) "
            "SELECT :t, :f, u.k, u.l, true FROM unnest(CAST(:k AS text[]), CAST(:l AS text[])) WITH ORDINALITY "
            "AS u(k, l, i) ORDER BY u.i "
            "ON CONFLICT (tenant_id, forest_id, key) DO UPDATE SET is_speaker = true",
            {"t": self.tenant_id, "f": self.forest_id, "k": list(first), "l": list(first.values())},
        )

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
        p = {"t": self.tenant_id, "f": self.forest_id, "k": key, "l": label, "ts": fact.valid_from,
             "fa": fact.fact_id, "s": fact.session_id}  # fmt: skip
        # One statement: count the fact, count the session when the entity has no fact of it yet
        # (checked before this fact's link is added: same snapshot), and link the fact.
        ent = await fetch_one(
            self.conn,
            "WITH e AS (INSERT INTO entities (tenant_id, forest_id, key, label, fact_count, session_count, "
            "first_time, last_time) VALUES (:t, :f, :k, :l, 1, 1, :ts, :ts) "
            "ON CONFLICT (tenant_id, forest_id, key) DO UPDATE SET "
            "fact_count = entities.fact_count + 1, first_time = LEAST(entities.first_time, :ts), "
            "last_time = GREATEST(entities.last_time, :ts), session_count = entities.session_count + "
            "CASE WHEN EXISTS (SELECT 1 FROM entity_facts ef WHERE ef.tenant_id = :t "
            "AND ef.entity_id = entities.entity_id AND ef.session_id = :s) THEN 0 ELSE 1 END "
            "RETURNING entity_id, label, fact_count, session_count, activated, is_speaker), "
            "link AS (INSERT INTO entity_facts (tenant_id, entity_id, fact_id, forest_id, session_id) "
            "SELECT :t, e.entity_id, :fa, :f, :s FROM e ON CONFLICT DO NOTHING) "
            "SELECT * FROM e",
            p,
        )
        assert ent is not None
        entity_id = int(ent["entity_id"])
        self.stats.entity_links += 1
        sessions = int(ent["session_count"])
        label = str(ent["label"])
        if ent["activated"]:
            tree = await self._tree(TreeKind.ENTITY, key, label)
            await self._insert(tree, self._leaf(fact.fact_id, fact.valid_from, fact.text, fact.embedding))
            return
        supported = (
            int(ent["fact_count"]) >= self.settings.entity_min_facts and sessions >= self.settings.entity_min_sessions
        )
        if ent["is_speaker"] or supported:
            await self._activate(entity_id, key, label)

    async def _activate(self, entity_id: int, key: str, label: str) -> None:
        """Give the entity its tree and backfill every fact linked to it so far, in time order."""
        await execute(
            self.conn,
            "UPDATE entities SET activated = true WHERE tenant_id = :t AND entity_id = :e",
            {"t": self.tenant_id, "e": entity_id},
        )
        self.stats.entities_activated += 1
        tree = await self._tree(TreeKind.ENTITY, key, label)
        facts = await fetch_all(
            self.conn,
            "SELECT f.fact_id, f.text, f.valid_from, f.embedding FROM entity_facts ef JOIN facts f "
            "ON f.tenant_id = ef.tenant_id AND f.fact_id = ef.fact_id WHERE ef.tenant_id = :t AND ef.entity_id = :e "
            "AND f.retracted_at IS NULL ORDER BY f.valid_from, f.fact_id",
            {"t": self.tenant_id, "e": entity_id},
        )
        for f in facts:
            await self._insert(tree, self._leaf(int(f["fact_id"]), f["valid_from"], str(f["text"]), f["embedding"]))

    async def _route_scene(self, fact: FactForRouting) -> None:
        emb = np.asarray(fact.embedding, dtype=np.float32)
        p: dict[str, Any] = {"t": self.tenant_id, "f": self.forest_id, "e": emb}
        candidates = await fetch_all(
            self.conn,
            "SELECT cluster_id, member_count, topic_counts, centroid, 1 - (centroid <=> :e) AS sim "
            "FROM scene_clusters WHERE tenant_id = :t AND forest_id = :f AND merged_into IS NULL "
            "ORDER BY centroid <=> :e LIMIT 5",
            p,
        ) if np.any(emb) else []  # fmt: skip
        best: dict[str, Any] | None = None
        best_score = -1.0
        topics = set(fact.topics)
        for c in candidates:
            counts: dict[str, int] = dict(c["topic_counts"] or {})
            top = {t for t, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:8]}
            overlap = len(topics & top) / len(topics | top) if topics | top else 0.0
            score = float(c["sim"]) + TOPIC_WEIGHT * overlap
            if score > best_score:
                best, best_score = c, score
        if best is not None and best_score >= self.settings.scene_assign_threshold:
            cluster_id = int(best["cluster_id"])
            n = int(best["member_count"])
            centroid = as_vector(best["centroid"]) * n + emb
            norm = float(np.linalg.norm(centroid))
            counts = dict(best["topic_counts"] or {})
            for t in fact.topics:
                counts[t] = int(counts.get(t, 0)) + 1
            await execute(
                self.conn,
                "UPDATE scene_clusters SET centroid = :c, member_count = member_count + 1, "
                "topic_counts = CAST(:tc AS jsonb), last_time = GREATEST(last_time, :ts) "
                "WHERE tenant_id = :t AND cluster_id = :id",
                {
                    "c": centroid / norm if norm else centroid,
                    "tc": json.dumps(counts, sort_keys=True),
                    "ts": fact.valid_from,
                    "t": self.tenant_id,
                    "id": cluster_id,
                },
            )
            self.stats.scene_assignments += 1
            label = self._scene_label(counts)
        else:
            counts = {t: 1 for t in fact.topics}
            row = await fetch_one(
                self.conn,
                "INSERT INTO scene_clusters (tenant_id, forest_id, centroid, member_count, topic_counts, last_time) "
                "VALUES (:t, :f, :e, 1, CAST(:tc AS jsonb), :ts) RETURNING cluster_id",
                {**p, "tc": json.dumps(counts, sort_keys=True), "ts": fact.valid_from},
            )
            assert row is not None
            cluster_id = int(row["cluster_id"])
            self.stats.scenes_spawned += 1
            label = self._scene_label(counts)
        tree = await self._tree(TreeKind.SCENE, str(cluster_id), label)
        await self._insert(tree, self._leaf(fact.fact_id, fact.valid_from, fact.text, emb))

    @staticmethod
    def _scene_label(counts: dict[str, int]) -> str:
        top = [t for t, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:3]]
        return ", ".join(top) if top else "misc"
