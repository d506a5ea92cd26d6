"""Build a forest's trees from its persistent state (ADR 0009): the one core behind
``rematerialize.rebuild_trees`` (scene membership captured from the placements it drops) and the
import of a file without derived artifacts (scene membership from the file's clusters).

Trees: one session tree per session (its cells), one entity tree per activated entity (its live
facts), one scene tree per given scene (its live member facts; a fact joins only the first scene
that lists it). Live facts with a vector but no scene are then clustered as on the write path.
Two ways to hang the leaves:

- bulk (rebuilds): every tree is laid out bottom-up from its leaves in time order
  (``store/tree_bulk.py``), a constant number of statements per batch of trees;
- replay (imports): leaves go in in the order the write path inserted them, through the batched
  ``insert_leaves`` (identical to one ``insert_leaf`` after another), so a forest ingested with the
  same settings gets exactly the same tree shapes, summaries and query results.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from memforest.domain import TreeKind
from memforest.memtree.model import InsertStats, LeafSpec, TreeRef
from memforest.pipeline.route import FactForRouting, Router
from memforest.rules import entity_earns_tree
from memforest.settings import PipelineSettings
from memforest.store import rebuild as q
from memforest.store.rebuild import TreeSpec
from memforest.store.sql import Conn, Row, as_vector, writer
from memforest.store.tree_bulk import bulk_build_trees
from memforest.store.trees import insert_leaves

__all__ = ["BULK_BATCH_LEAVES", "SceneScope", "build_forest_trees", "route_unscened", "with_fanout"]

Progress = Callable[[str, int, int], None]
BULK_BATCH_LEAVES = 5000  # leaves per bulk write (bounds statement size; progress advances per batch)


@dataclass(frozen=True, slots=True)
class SceneScope:
    """A scene to rebuild: its tree key (the cluster id), label and member facts (write-path order)."""

    key: str
    label: str
    facts: Sequence[int]


@dataclass(slots=True)
class _TreePlan:
    tree: TreeSpec
    leaves: list[LeafSpec]


def with_fanout(pipeline: PipelineSettings, fanout: int | None) -> PipelineSettings:
    """The pipeline settings with every tree kind's fan-out set to ``fanout`` (None: unchanged)."""
    if fanout is None:
        return pipeline
    return pipeline.model_copy(update={"fanout_session": fanout, "fanout_entity": fanout, "fanout_scene": fanout})


def _fact_leaf(r: Mapping[str, Any]) -> LeafSpec:
    fid = int(r["fact_id"])
    return LeafSpec("fact", fid, r["valid_from"], r["valid_from"], fid, str(r["text"]), r["embedding"])


def _entity_order(
    is_speaker: bool, links: Sequence[Row], facts: Mapping[int, Row], pipeline: PipelineSettings
) -> list[Row]:
    """An entity tree's facts in the write path's insertion order. The write path links facts in
    creation order and, once the entity earns its tree, backfills the facts linked so far in time
    order; later facts follow in creation order."""
    earned, seen = len(links), set()
    for i, link in enumerate(links):
        seen.add(int(link["session_id"]))
        if entity_earns_tree(is_speaker=is_speaker, fact_count=i + 1, session_count=len(seen), settings=pipeline):
            earned = i + 1
            break
    head = sorted((facts[int(x["fact_id"])] for x in links[:earned]), key=lambda r: (r["valid_from"], r["fact_id"]))
    return head + [facts[int(x["fact_id"])] for x in links[earned:]]


async def _plan(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    pipeline: PipelineSettings,
    scenes: Sequence[SceneScope],
    cell_vectors: Mapping[int, Any],
) -> list[_TreePlan]:
    """Every tree of the forest with its leaves in the write path's insertion order."""
    plans: list[_TreePlan] = []
    sessions = await q.forest_sessions(conn, tenant_id, forest_id)
    cells_of: dict[int, list[LeafSpec]] = defaultdict(list)
    for c in await q.forest_cells(conn, tenant_id, forest_id):
        cid = int(c["cell_id"])
        cells_of[int(c["session_id"])].append(
            LeafSpec("cell", cid, c["t_start"], c["t_end"], cid, str(c["text"]), cell_vectors.get(cid))
        )
    for s in sessions:
        name = str(s["external_id"])
        spec = TreeSpec(TreeKind.SESSION, name, name, pipeline.fanout_session)
        plans.append(_TreePlan(spec, cells_of.get(int(s["session_id"]), [])))

    facts = {int(r["fact_id"]): r for r in await q.live_facts(conn, tenant_id, forest_id)}
    entities = await q.activated_entities(conn, tenant_id, forest_id)
    links_of: dict[int, list[Row]] = defaultdict(list)
    for link in await q.entity_links(conn, tenant_id, forest_id):
        if int(link["fact_id"]) in facts:
            links_of[int(link["entity_id"])].append(link)
    for e in entities:
        order = _entity_order(bool(e["is_speaker"]), links_of.get(int(e["entity_id"]), []), facts, pipeline)
        spec = TreeSpec(TreeKind.ENTITY, str(e["key"]), str(e["label"]), pipeline.fanout_entity)
        plans.append(_TreePlan(spec, [_fact_leaf(r) for r in order]))

    in_scene: set[int] = set()
    keys: set[str] = set()
    for scene in scenes:
        if scene.key in keys:
            raise ValueError(f"scene {scene.key} is given twice")
        keys.add(scene.key)
        members = []
        for fid in scene.facts:
            if fid in facts and fid not in in_scene:
                in_scene.add(fid)
                members.append(_fact_leaf(facts[fid]))
        plans.append(_TreePlan(TreeSpec(TreeKind.SCENE, scene.key, scene.label, pipeline.fanout_scene), members))
    return plans


async def route_unscened(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, pipeline: PipelineSettings, stats: InsertStats
) -> int:
    """Cluster the live facts that have a vector but no scene tree, in time order, as the write path
    does (best live cluster or a new one; cluster state is updated). Returns how many were routed."""
    rows = await q.unscened_facts(conn, tenant_id, forest_id)
    if not rows:
        return 0
    router = Router(conn, tenant_id, forest_id, pipeline, stats)
    for r in rows:
        await router._route_scene(
            FactForRouting(
                fact_id=int(r["fact_id"]), session_id=0, text=str(r["text"]), entities=tuple(r["entities"] or ()),
                topics=tuple(r["topics"] or ()), valid_from=r["valid_from"], embedding=as_vector(r["embedding"]),
            )
        )  # fmt: skip
    return len(rows)


async def build_forest_trees(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    pipeline: PipelineSettings,
    *,
    fanout: int | None = None,
    scenes: Sequence[SceneScope] = (),
    replay: bool = False,
    cell_vectors: Mapping[int, Any] | None = None,
    stats: InsertStats | None = None,
    progress: Progress | None = None,
) -> InsertStats:
    """Hang a forest's evidence in fresh trees from its persistent state; the forest must have no
    trees (ValueError otherwise). ``fanout`` overrides every kind's fan-out (None: ``pipeline``'s);
    ``scenes`` gives the scene membership; ``replay`` hangs leaves in the write path's order (same
    shapes as ingest) instead of bulk-building each tree from its leaves in time order;
    ``cell_vectors`` (cell id -> vector of its current text) lets cell leaves be born embedded.
    Live facts with a vector left without a scene are clustered (``route_unscened``). The caller
    holds the transaction and the forest lock."""
    stats = stats if stats is not None else InsertStats()
    pipeline = with_fanout(pipeline, fanout)
    if await q.forest_has_trees(conn, tenant_id, forest_id):
        raise ValueError(f"forest {forest_id} already has trees: drop them before building from state")
    plans = await _plan(conn, tenant_id, forest_id, pipeline, scenes, cell_vectors or {})
    trees = await q.create_trees(conn, tenant_id, forest_id, [pl.tree for pl in plans])
    stats.trees_created += len(trees)
    total = len(trees)
    if progress is not None:
        progress("rebuild trees", 0, total)
    if replay:
        items = [(tree, leaf) for tree, pl in zip(trees, plans, strict=True) for leaf in pl.leaves]
        await insert_leaves(conn, tenant_id, items, stats)
    else:
        batch: list[tuple[TreeRef, list[LeafSpec]]] = []
        size = done = 0
        for tree, pl in zip(trees, plans, strict=True):
            batch.append((tree, sorted(pl.leaves, key=lambda leaf: (leaf.t_start, leaf.seq))))
            size += len(pl.leaves)
            if size >= BULK_BATCH_LEAVES:
                await bulk_build_trees(writer(conn), tenant_id, batch, stats)
                done += len(batch)
                batch, size = [], 0
                if progress is not None:
                    progress("rebuild trees", done, total)
        await bulk_build_trees(writer(conn), tenant_id, batch, stats)
    if progress is not None:
        progress("rebuild trees", total, total)
    await route_unscened(conn, tenant_id, forest_id, pipeline, stats)
    return stats
