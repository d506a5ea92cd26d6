"""Route new facts to scopes (no model calls) and hang them as leaves.

Entity scope: one tree per normalised entity label once it has enough support (speakers always).
Scene scope: persistent online clustering of fact embeddings and topics (assign or spawn).

Facts are routed in batches (ADR 0023): what routing reads (the entities the batch names, the
clusters its facts could join) is loaded with one statement each, the facts are routed one after
another in memory exactly as routing each against the database would (each sees what the batch's
earlier facts did), and the outcome is written with one statement per kind: entities and links,
clusters, trees, leaves.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np

from memforest import tracing
from memforest.domain import TreeKind
from memforest.memtree.model import InsertStats, LeafSpec, TreeRef
from memforest.pipeline.route_scenes import Cluster, SceneBatch
from memforest.rules import entity_earns_tree, entity_key, scene_label
from memforest.settings import PipelineSettings
from memforest.store import entities
from memforest.store.sql import Conn, Row
from memforest.store.trees import get_or_create_trees, insert_leaves

__all__ = ["FactForRouting", "RouteStats", "Router"]

# Facts routed per batch: bounds the nearest-cluster rows a batch loads (they grow with its square).
ROUTE_BATCH = 64


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
        self._speakers: tuple[list[str], list[str]] | None = None  # keys and labels still to register

    async def _insert(self, tree: TreeRef, leaf: LeafSpec) -> None:
        """Hang a leaf now, or queue it when a batch is open (route_many writes the queue at once)."""
        if self._pending is not None:
            self._pending.append((tree, leaf))
        else:
            await insert_leaves(self.conn, self.tenant_id, [(tree, leaf)], self.insert_stats)

    def _leaf(self, fact_id: int, t: datetime, text: str, embedding: Any) -> LeafSpec:
        return LeafSpec("fact", fact_id, t, t, fact_id, text, embedding)

    async def register_speakers(self, speakers: set[str]) -> None:
        """Speakers always get an entity tree: create (or flag) their entities now."""
        self.defer_speakers(speakers)
        await self.finish()

    def defer_speakers(self, speakers: set[str]) -> None:
        """:meth:`register_speakers` without a statement of its own: the next entity load of a batch
        registers them first, in its statement, or else :meth:`finish` does (call it before the
        transaction ends)."""
        first: dict[str, str] = {}  # key -> first label in sorted order (later ones only re-set the flag)
        for label in sorted(speakers):
            first.setdefault(entity_key(label), label)
        self._speakers = (list(first), list(first.values())) if first else None

    def _take_speakers(self) -> tuple[list[str], list[str]] | None:
        speakers, self._speakers = self._speakers, None
        return speakers

    async def finish(self) -> None:
        """Register the speakers no batch has registered yet (see :meth:`register_speakers`)."""
        speakers = self._take_speakers()
        if speakers is not None:
            await entities.register_speakers(self.conn, self.tenant_id, self.forest_id, *speakers)

    async def route(self, fact: FactForRouting) -> None:
        """Link the fact to its entities and scene, inserting leaves in every active tree."""
        await self.route_many([fact])

    async def route_many(self, facts: Sequence[FactForRouting], *, fresh: bool = False) -> None:
        """Route ``facts`` in order, as :meth:`route` on each would, but hang all their leaves with one
        batched insert at the end (nothing routing reads depends on the leaves). ``fresh``: the
        facts were created in this transaction, so none of them is placed in any tree yet."""
        outer = self._pending
        self._pending = [] if outer is None else outer
        try:
            with tracing.span("route", stage="route", facts=len(facts)):
                for start in range(0, len(facts), ROUTE_BATCH):
                    await self._route_batch(facts[start : start + ROUTE_BATCH], link_entities=True)
            if outer is None and self._pending:
                with tracing.span("insert", stage="insert", leaves=len(self._pending)):
                    fresh_ids = {f.fact_id for f in facts} if fresh else set()
                    await insert_leaves(self.conn, self.tenant_id, self._pending, self.insert_stats, fresh_ids)
        finally:
            self._pending = outer

    async def _route_scene(self, fact: FactForRouting) -> None:
        """Assign the fact to its scene only (no entity links) and hang its scene leaf."""
        await self._route_batch([fact], link_entities=False)

    async def _route_batch(self, facts: Sequence[FactForRouting], *, link_entities: bool) -> None:
        """Route ``facts`` in order: load, route in memory, write (see the module docstring)."""
        embs = [np.asarray(f.embedding, dtype=np.float32) for f in facts]
        scene = SceneBatch(self.settings)
        await scene.load(self.conn, self.tenant_id, self.forest_id, embs)
        ents = _EntityBatch(self.settings)
        if link_entities:
            await ents.load(self.conn, self.tenant_id, self.forest_id, facts, self._take_speakers())
        plan: list[_Step] = []
        for pos, (fact, emb) in enumerate(zip(facts, embs, strict=True)):
            if link_entities:
                ents.link(fact, plan)
            cluster = scene.assign(pos, emb, fact.topics, fact.valid_from)
            plan.append(_Step(_SceneScope(cluster, cluster.topic_counts), fact, emb))
        self.stats.entity_links += ents.links_made
        self.stats.entities_activated += ents.activated
        self.stats.scene_assignments += scene.assignments
        self.stats.scenes_spawned += len(scene.spawned)
        backfill = await ents.write(self.conn, self.tenant_id, self.forest_id)
        await scene.write(self.conn, self.tenant_id, self.forest_id)
        await self._trees_for(plan)
        for step in plan:
            tree = self._trees[step.scope_key()]
            if step.backfill is None:
                assert step.fact is not None
                await self._insert(tree, self._leaf(step.fact.fact_id, step.fact.valid_from, step.fact.text, step.emb))
                continue
            stored = backfill.get(step.backfill[0], [])
            rows: list[tuple[datetime, int, str, Any]] = [
                (f["valid_from"], int(f["fact_id"]), str(f["text"]), f["embedding"]) for f in stored
            ]
            rows += [(f.valid_from, f.fact_id, f.text, f.embedding) for f in step.backfill[1]]
            for t, fact_id, text, embedding in sorted(rows, key=lambda r: (r[0], r[1])):
                await self._insert(tree, self._leaf(fact_id, t, text, embedding))

    async def _trees_for(self, plan: Sequence[_Step]) -> None:
        """Get or create, in first-use order, the trees of the plan's scopes not yet known."""
        wanted: dict[tuple[TreeKind, str], str] = {}
        for step in plan:
            key = step.scope_key()
            if key not in self._trees and key not in wanted:
                wanted[key] = step.label()
        scopes = [
            (kind, key, label, self.settings.fanout_entity if kind is TreeKind.ENTITY else self.settings.fanout_scene)
            for (kind, key), label in wanted.items()
        ]
        trees = await get_or_create_trees(self.conn, self.tenant_id, self.forest_id, scopes, self.insert_stats)
        for scope, tree in zip(scopes, trees, strict=True):
            self._trees[(scope[0], scope[1])] = tree


@dataclass(frozen=True, slots=True)
class _SceneScope:
    """A scene step's cluster and its topic counts as the step left them (the batch replaces a
    cluster's counts, never changes them in place), labelled only when its tree is created."""

    cluster: Cluster
    counts: Mapping[str, int]

    @property
    def label(self) -> str:
        return scene_label(self.counts)


@dataclass(slots=True)
class _Step:
    """One step of a batch's plan, in the order routing one fact at a time takes them: hang ``fact``
    in the tree of ``scope`` (an entity key with its label, or a scene), or, with ``backfill``
    (entity key, the batch's facts linked to it so far), hang every live fact of a newly activated
    entity."""

    scope: tuple[str, str] | _SceneScope
    fact: FactForRouting | None
    emb: Any = None
    backfill: tuple[str, list[FactForRouting]] | None = None

    def scope_key(self) -> tuple[TreeKind, str]:
        if isinstance(self.scope, _SceneScope):
            assert self.scope.cluster.cluster_id is not None, "scene steps resolve after the clusters are written"
            return (TreeKind.SCENE, str(self.scope.cluster.cluster_id))
        return (TreeKind.ENTITY, self.scope[0])

    def label(self) -> str:
        return self.scope.label if isinstance(self.scope, _SceneScope) else self.scope[1]


@dataclass(slots=True)
class _Entity:
    """An entity as a batch sees it: its counts so far and what the batch adds."""

    entity_id: int | None  # None: created by this batch
    label: str
    fact_count: int
    session_count: int
    activated: bool
    is_speaker: bool
    sessions: set[int]
    added_facts: int = 0
    added_sessions: int = 0
    first_time: datetime | None = None
    last_time: datetime | None = None
    activates: bool = False
    linked: list[FactForRouting] = field(default_factory=list)


@dataclass(slots=True)
class _EntityBatch:
    """Entity links of a batch: counts and activations in memory, written by :meth:`write`."""

    settings: PipelineSettings
    state: dict[str, _Entity] = field(default_factory=dict)
    links: list[tuple[str, int, int]] = field(default_factory=list)  # key, fact, session
    links_made: int = 0
    activated: int = 0

    async def load(
        self,
        conn: Conn,
        tenant_id: uuid.UUID,
        forest_id: int,
        facts: Sequence[FactForRouting],
        speakers: tuple[list[str], list[str]] | None = None,
    ) -> None:
        """Read the stored entities the facts name, registering ``speakers`` (keys, labels) first."""
        keys = sorted({entity_key(label) for f in facts for label in f.entities} - {""})
        if not keys and speakers is None:
            return
        sessions = sorted({f.session_id for f in facts})
        for r in await entities.load_for_links(conn, tenant_id, forest_id, keys, sessions, speakers):
            self.state[str(r["key"])] = _Entity(
                int(r["entity_id"]), str(r["label"]), int(r["fact_count"]), int(r["session_count"]),
                bool(r["activated"]), bool(r["is_speaker"]), {int(s) for s in r["sessions"]},
            )  # fmt: skip

    def link(self, fact: FactForRouting, plan: list[_Step]) -> None:
        """Link ``fact`` to each entity it names (once per key), planning its leaves and activations."""
        seen: set[str] = set()
        for label in fact.entities:
            key = entity_key(label)
            if not key or key in seen:
                continue
            seen.add(key)
            ent = self.state.get(key)
            if ent is None:
                ent = self.state[key] = _Entity(None, label.strip(), 0, 0, False, False, set())
            ent.fact_count += 1
            ent.added_facts += 1
            if fact.session_id not in ent.sessions:
                ent.sessions.add(fact.session_id)
                ent.session_count += 1
                ent.added_sessions += 1
            t = fact.valid_from
            ent.first_time = t if ent.first_time is None else min(ent.first_time, t)
            ent.last_time = t if ent.last_time is None else max(ent.last_time, t)
            ent.linked.append(fact)
            self.links.append((key, fact.fact_id, fact.session_id))
            self.links_made += 1
            if ent.activated:
                plan.append(_Step((key, ent.label), fact, fact.embedding))
            elif entity_earns_tree(
                is_speaker=ent.is_speaker, fact_count=ent.fact_count, session_count=ent.session_count,
                settings=self.settings,
            ):  # fmt: skip
                ent.activated = ent.activates = True
                self.activated += 1
                plan.append(_Step((key, ent.label), None, backfill=(key, list(ent.linked))))

    async def write(self, conn: Conn, tenant_id: uuid.UUID, forest_id: int) -> dict[str, list[Row]]:
        """Read the stored live facts of the entities the batch activates (before its links exist), then
        write the entities and links; returns entity key -> those stored facts."""
        if not self.links:
            return {}
        stored = {k: e.entity_id for k, e in self.state.items() if e.activates and e.entity_id is not None}
        by_id = await entities.live_facts_many(conn, tenant_id, list(stored.values())) if stored else {}
        deltas = []
        for key, ent in self.state.items():
            if ent.added_facts:
                assert ent.first_time is not None and ent.last_time is not None
                deltas.append(
                    entities.EntityDelta(key, ent.label, ent.added_facts, ent.added_sessions, ent.first_time,
                                         ent.last_time, ent.activates)
                )  # fmt: skip
        await entities.link_facts(conn, tenant_id, forest_id, deltas, self.links)
        return {k: by_id[e] for k, e in stored.items()}
