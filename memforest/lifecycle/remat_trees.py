"""Rebuilding a forest's trees from persistent state with a new fan-out (ADR 0009), keeping the
fact -> scene assignment and the cell-leaf vectors of the trees it drops."""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from memforest.backends.base import UsageLedger
from memforest.backends.factory import Backends
from memforest.db.engine import Database
from memforest.lifecycle.remat_embeddings import embed_facts
from memforest.lifecycle.remat_report import Progress, RematReport, check_fanout, finish, notify, refresh
from memforest.lifecycle.treebuild import SceneScope, build_forest_trees
from memforest.memtree.model import InsertStats
from memforest.settings import PipelineSettings, Settings
from memforest.store import rematerialize as store
from memforest.store.sql import Conn, lock_forest


@dataclass(slots=True)
class _Captured:
    """What a rebuild keeps from the trees it drops."""

    scenes: list[SceneScope] = field(default_factory=list)  # scene trees (key = cluster id) with their facts
    cell_vectors: dict[int, Any] = field(default_factory=dict)  # cell id -> vector of its current text


async def _capture(conn: Conn, tenant_id: uuid.UUID, forest_id: int) -> _Captured:
    """The fact -> scene assignment (recorded only in placements) and the cell-leaf vectors that
    still match their cell's text, read before the trees are dropped."""
    members: dict[str, list[int]] = {}
    labels: dict[str, str] = {}
    for r in await store.scene_members(conn, tenant_id, forest_id):
        key = str(r["key"])
        labels.setdefault(key, str(r["label"]))
        facts = members.setdefault(key, [])
        if r["source_id"] is not None:
            facts.append(int(r["source_id"]))
    return _Captured(
        scenes=[SceneScope(key, labels[key], facts) for key, facts in members.items()],
        cell_vectors=await store.current_cell_vectors(conn, tenant_id, forest_id),
    )


async def _rebuild_structure(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    pipeline: PipelineSettings,
    fanout: int | None,
    stats: InsertStats,
    progress: Progress | None,
) -> None:
    """Inside one transaction under the forest lock: drop every tree and bulk-build them again from
    persistent state (``treebuild.build_forest_trees``) with the captured scene assignment. Fact
    leaves copy the fact vector and cell leaves get their old vector back (when their text is
    unchanged), so only the new internal nodes are dirty."""
    captured = await _capture(conn, tenant_id, forest_id)
    await store.drop_forest_trees(conn, tenant_id, forest_id)
    await build_forest_trees(
        conn, tenant_id, forest_id, pipeline, fanout=fanout, scenes=captured.scenes,
        cell_vectors=captured.cell_vectors, stats=stats, progress=progress,
    )  # fmt: skip


async def rebuild_trees(
    db: Database,
    settings: Settings,
    backends: Backends,
    tenant_id: uuid.UUID,
    forest_id: int,
    *,
    fanout: int | None = None,
    ledger: UsageLedger | None = None,
    progress: Progress | None = None,
) -> RematReport:
    """Drop the forest's trees, nodes and placements and rebuild them from persistent state: session
    trees from cells, entity trees from the facts linked to activated entities, scene trees from the
    fact -> scene assignment; each tree bulk-built bottom-up from its leaves in time order; every tree
    gets fan-out ``fanout`` (2..16; None = the settings' per-kind defaults). Facts without a vector are
    embedded first. The structural part is one transaction under the forest lock; the refresh
    (summaries, node vectors) follows."""
    k = check_fanout(fanout)
    t0, local = time.perf_counter(), UsageLedger()
    report = RematReport(forests=1)
    report.embedded_facts = await embed_facts(db, tenant_id, forest_id, backends.embedder, local, only_missing=True)
    stats = InsertStats()
    async with db.tenant(tenant_id) as conn:
        await lock_forest(conn, tenant_id, forest_id)
        await _rebuild_structure(conn, tenant_id, forest_id, settings.pipeline, k, stats, progress)
    report.trees_rebuilt = stats.trees_created
    report.leaves = stats.leaves
    notify(progress, "refresh", 0, 1)
    report.add_refresh(await refresh(db, settings, backends, tenant_id, forest_id, local))
    notify(progress, "refresh", 1, 1)
    return finish(report, local, ledger, t0)
