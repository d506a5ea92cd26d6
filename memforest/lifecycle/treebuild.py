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

from sqlalchemy.ext.asyncio import AsyncConnection

from memforest.domain import TreeKind
from memforest.pipeline.route import FactForRouting, Router
from memforest.settings import PipelineSettings
from memforest.store.sql import as_vector, fetch_all, scalar
from memforest.store.tree_bulk import bulk_build_trees
from memforest.store.trees import InsertStats, LeafSpec, TreeRef, insert_leaves

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
    kind: TreeKind
    key: str
    label: str
    fanout: int
    leaves: list[LeafSpec]


def with_fanout(pipeline: PipelineSettings, fanout: int | None) -> PipelineSettings:
    """The pipeline settings with every tree kind's fan-out set to ``fanout`` (None: unchanged)."""
    if fanout is None:
        return pipeline
    return pipeline.model_copy(update={"fanout_session": fanout, "fanout_entity": fanout, "fanout_scene": fanout})


def _fact_leaf(r: Mapping[str, Any]) -> LeafSpec:
    fid = int(r["fact_id"])
    return LeafSpec("fact", fid, r["valid_from"], r["valid_from"], fid, str(r["text"]), r["embedding"])


async def _plan(
    conn: AsyncConnection,
    tenant_id: uuid.UUID,
    forest_id: int,
    pipeline: PipelineSettings,
    scenes: Sequence[SceneScope],
    cell_vectors: Mapping[int, Any],
) -> list[_TreePlan]:
    """Every tree of the forest with its leaves in the write path's insertion order."""
    p = {"t": tenant_id, "f": forest_id}
    plans: list[_TreePlan] = []
    sessions = await fetch_all(
        conn,
        "SELECT session_id, external_id FROM sessions WHERE tenant_id = :t AND forest_id = :f "
        "ORDER BY time, session_id",
        p,
    )
    cells = await fetch_all(
        conn,
        "SELECT cell_id, session_id, text, t_start, t_end FROM cells WHERE tenant_id = :t AND forest_id = :f "
        "ORDER BY session_id, seq",
        p,
    )
    cells_of: dict[int, list[LeafSpec]] = defaultdict(list)
    for c in cells:
        cid = int(c["cell_id"])
        cells_of[int(c["session_id"])].append(
            LeafSpec("cell", cid, c["t_start"], c["t_end"], cid, str(c["text"]), cell_vectors.get(cid))
        )
    for s in sessions:
        name = str(s["external_id"])
        plans.append(
            _TreePlan(TreeKind.SESSION, name, name, pipeline.fanout_session, cells_of.get(int(s["session_id"]), []))
        )

    facts = {
        int(r["fact_id"]): r
        for r in await fetch_all(
            conn,
            "SELECT fact_id, text, valid_from, embedding FROM facts WHERE tenant_id = :t AND forest_id = :f "
            "AND retracted_at IS NULL",
            p,
        )
    }
    entities = await fetch_all(
        conn,
        "SELECT entity_id, key, label, is_speaker FROM entities WHERE tenant_id = :t AND forest_id = :f AND activated "
        "ORDER BY entity_id",
        p,
    )
    links = await fetch_all(
        conn,
        "SELECT entity_id, fact_id, session_id FROM entity_facts WHERE tenant_id = :t AND forest_id = :f "
        "ORDER BY entity_id, fact_id",
        p,
    )
    links_of: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for link in links:
        if int(link["fact_id"]) in facts:
            links_of[int(link["entity_id"])].append(link)
    for e in entities:
        items = links_of.get(int(e["entity_id"]), [])
        # The write path links facts in creation order and, once the entity earns its tree, backfills
        # the facts linked so far in time order; later facts follow in creation order.
        earned, seen = len(items), set()
        for i, link in enumerate(items):
            seen.add(int(link["session_id"]))
            if e["is_speaker"] or (i + 1 >= pipeline.entity_min_facts and len(seen) >= pipeline.entity_min_sessions):
                earned = i + 1
                break
        head = sorted((facts[int(x["fact_id"])] for x in items[:earned]), key=lambda r: (r["valid_from"], r["fact_id"]))
        order = head + [facts[int(x["fact_id"])] for x in items[earned:]]
        plans.append(
            _TreePlan(
                TreeKind.ENTITY, str(e["key"]), str(e["label"]), pipeline.fanout_entity, [_fact_leaf(r) for r in order]
            )
        )

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
        plans.append(_TreePlan(TreeKind.SCENE, scene.key, scene.label, pipeline.fanout_scene, members))
    return plans


async def _create_trees(
    conn: AsyncConnection, tenant_id: uuid.UUID, forest_id: int, plans: Sequence[_TreePlan], stats: InsertStats
) -> list[TreeRef]:
    """One INSERT for every planned tree (the forest has none yet); TreeRefs in plan order."""
    if not plans:
        return []
    rows = await fetch_all(
        conn,
        "INSERT INTO trees (tenant_id, forest_id, kind, key, label, fanout) SELECT :t, :f, u.k, u.key, u.l, u.fo "
        "FROM unnest(CAST(:k AS text[]), CAST(:key AS text[]), CAST(:l AS text[]), CAST(:fo AS int[])) "
        "WITH ORDINALITY AS u(k, key, l, fo, i) ORDER BY u.i RETURNING tree_id, kind, key, root_node_id, height",
        {
            "t": tenant_id,
            "f": forest_id,
            "k": [pl.kind.value for pl in plans],
            "key": [pl.key for pl in plans],
            "l": [pl.label for pl in plans],
            "fo": [pl.fanout for pl in plans],
        },
    )
    by_key = {(str(r["kind"]), str(r["key"])): r for r in rows}
    stats.trees_created += len(rows)
    out = []
    for pl in plans:
        r = by_key[(pl.kind.value, pl.key)]
        out.append(
            TreeRef(
                int(r["tree_id"]), forest_id, pl.kind, pl.key, pl.label, pl.fanout, r["root_node_id"], int(r["height"])
            )
        )
    return out


async def route_unscened(
    conn: AsyncConnection, tenant_id: uuid.UUID, forest_id: int, pipeline: PipelineSettings, stats: InsertStats
) -> int:
    """Cluster the live facts that have a vector but no scene tree, in time order, as the write path
    does (best live cluster or a new one; cluster state is updated). Returns how many were routed.
    (``NOT IN`` over a hashed subquery: a correlated ``NOT EXISTS`` was planned as a scan of the
    forest's placements per fact right after a rebuild, 13 s for 900 facts.)"""
    rows = await fetch_all(
        conn,
        "SELECT x.fact_id, x.text, x.valid_from, x.embedding, x.entities, x.topics FROM facts x "
        "WHERE x.tenant_id = :t AND x.forest_id = :f AND x.retracted_at IS NULL AND x.embedding IS NOT NULL "
        "AND x.fact_id NOT IN (SELECT pl.source_id FROM placements pl WHERE pl.tenant_id = :t AND pl.forest_id = :f "
        "AND pl.source_kind = 'fact' AND pl.tree_id IN (SELECT tr.tree_id FROM trees tr WHERE tr.tenant_id = :t "
        "AND tr.forest_id = :f AND tr.kind = 'scene')) ORDER BY x.valid_from, x.fact_id",
        {"t": tenant_id, "f": forest_id},
    )
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
    conn: AsyncConnection,
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
    has_trees = await scalar(
        conn, "SELECT 1 FROM trees WHERE tenant_id = :t AND forest_id = :f LIMIT 1", {"t": tenant_id, "f": forest_id}
    )
    if has_trees is not None:
        raise ValueError(f"forest {forest_id} already has trees: drop them before building from state")
    plans = await _plan(conn, tenant_id, forest_id, pipeline, scenes, cell_vectors or {})
    trees = await _create_trees(conn, tenant_id, forest_id, plans, stats)
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
                await bulk_build_trees(conn, tenant_id, batch, stats)
                done += len(batch)
                batch, size = [], 0
                if progress is not None:
                    progress("rebuild trees", done, total)
        await bulk_build_trees(conn, tenant_id, batch, stats)
    if progress is not None:
        progress("rebuild trees", total, total)
    await route_unscened(conn, tenant_id, forest_id, pipeline, stats)
    return stats
