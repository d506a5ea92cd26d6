"""Merge forest A into forest B without replaying extraction (DESIGN.md section 4, ADR 0008).

One transaction under the forest locks of A and B (taken in a fixed order, so A->B and B->A cannot
deadlock) does all structural work set-based:

1. **Snapshot A** under A's tenant context: A's rows are copied into session-private temporary
   tables (dropped at commit). Across tenants the transaction then switches the RLS tenant setting
   to B (transaction-local): A's rows are read only as A,
   B's rows are written only as B, and row-level security checks both phases.
2. **Sessions, turns, cells** are copied with new ids (id maps in temp tables). A session
   B already holds with the same external id (or its namespaced form), content hash and cell spans is
   the same conversation: it is shared, not copied, so merging A into B twice changes nothing more.
   Another session whose external id is taken in B is renamed ``<A name>/<id>``; its metadata keeps
   ``merged_from`` (forest and original id).
3. **Facts** are reconciled like ``canonicalize`` does: an exact ``text_hash`` match, else a near
   duplicate (the nearest live fact of B with the same speaker, on the same day or both state-like,
   at cosine >= ``near_duplicate_threshold``) maps A's fact onto B's, which only gains A's sources.
   Other facts are copied with their embeddings; supersession links are remapped and the slot
   timelines touched by the new facts are re-threaded (neighbours with different values are linked,
   as canonicalisation does).
4. **Scopes** are unioned: entities by normalised key (links unioned, counts recounted); a scene
   cluster of A joins the cluster of B that routing would pick for it (centroid cosine + topic
   overlap >= ``scene_assign_threshold``) or is copied. As in canonicalisation, a fact that merged
   into one of B's adds sources only, never a second leaf: its A-side scope links are not carried
   over (every fact stays in exactly one scene tree).
5. **Trees**: an A tree whose (kind, key) exists in B gets A's leaves through the normal
   ``insert_leaf`` (placements make a leaf that is already there a no-op); other trees are copied as
   they are (nodes, summaries, embeddings, placements; ids remapped), and the leaves of merged facts
   are then removed with ``store.tree_delete.remove_leaf``. Entities that now qualify get their tree
   and backfill, as routing would do.

The refresh then runs outside the transaction and touches only the dirty paths. No model is asked to
extract anything; refresh summaries and embeddings are the only model work.
"""

from __future__ import annotations

import time
import uuid
from typing import Any

from memforest.backends.base import UsageLedger
from memforest.backends.factory import Backends
from memforest.db.engine import Database
from memforest.domain import Job
from memforest.errors import InputError, MemForestError
from memforest.lifecycle.merge.reconcile import reconcile_clusters, reconcile_entities, reconcile_facts
from memforest.lifecycle.merge.remap import enter_target, remap_sessions, snapshot_source
from memforest.lifecycle.merge.report import STAGES, MergeReport, Progress, notify
from memforest.lifecycle.merge.trees import activate_entities, copy_trees, insert_leaves
from memforest.memtree.model import InsertStats
from memforest.pipeline.refresh import refresh_forest
from memforest.pipeline.worker import update_progress
from memforest.settings import Settings
from memforest.store import admin_merges
from memforest.store.sql import lock_forest
from memforest.store.tenants import get_forest

__all__ = ["merge_forests", "run_merge_job"]


async def merge_forests(
    db: Database,
    settings: Settings,
    backends: Backends,
    *,
    src_tenant: uuid.UUID,
    src_forest_id: int,
    dst_tenant: uuid.UUID,
    dst_forest_id: int,
    ledger: UsageLedger,
    progress: Progress | None = None,
) -> MergeReport:
    """Merge forest ``src_forest_id`` of ``src_tenant`` into ``dst_forest_id`` of ``dst_tenant`` (A is
    left unchanged). One transaction under both forest locks, then a refresh of B's dirty paths.
    Raises InputError for a forest merged into itself, NotFoundError for a missing forest."""
    if src_tenant == dst_tenant and src_forest_id == dst_forest_id:
        raise InputError("cannot merge a forest into itself", location="from")
    t0 = time.perf_counter()
    report = MergeReport(cross_tenant=src_tenant != dst_tenant)
    stats = InsertStats()
    marks: dict[str, float] = {}

    async def stage(name: str, since: float) -> float:
        now = time.perf_counter()
        marks[name] = now - since
        await notify(progress, name, STAGES.index(name) + 1, len(STAGES))
        return now

    async with db.tenant(dst_tenant) as conn:
        locks = sorted([(str(src_tenant), src_forest_id), (str(dst_tenant), dst_forest_id)])
        for tenant, forest in locks:
            await lock_forest(conn, tenant, forest)
        await snapshot_source(conn, src_tenant, src_forest_id, report)
        await enter_target(conn, dst_tenant, dst_forest_id, report)
        ts = await stage("snapshot", t0)
        await remap_sessions(conn, dst_tenant, dst_forest_id, report)
        ts = await stage("sessions", ts)
        await reconcile_facts(conn, dst_tenant, dst_forest_id, settings, report)
        ts = await stage("facts", ts)
        await reconcile_entities(conn, dst_tenant, dst_forest_id, report)
        await reconcile_clusters(conn, dst_tenant, dst_forest_id, settings, report)
        ts = await stage("scopes", ts)
        await copy_trees(conn, dst_tenant, dst_forest_id, report)
        ts = await stage("trees", ts)
        await insert_leaves(conn, dst_tenant, dst_forest_id, report, stats, progress)
        await activate_entities(conn, dst_tenant, dst_forest_id, settings, report, stats)
        ts = await stage("leaves", ts)
    refreshed = await refresh_forest(
        db, dst_tenant, dst_forest_id, summarizer=backends.summarizer, embedder=backends.embedder,
        concurrency=settings.pipeline.refresh_concurrency, ledger=ledger,
    )  # fmt: skip
    await stage("refresh", ts)
    report.leaves_inserted = stats.leaves
    report.splits = stats.splits
    report.trees_created = stats.trees_created
    report.nodes_refreshed = refreshed.nodes_refreshed
    report.summaries_changed = refreshed.summaries_changed
    report.embedded = refreshed.embedded
    report.model_calls = {stage_: int(u["calls"]) for stage_, u in ledger.as_dict().items()}
    report.stage_wall_s = marks
    report.wall_s = time.perf_counter() - t0
    return report


async def run_merge_job(
    db: Database, settings: Settings, backends: Backends, job: Job, ledger: UsageLedger
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The ``merge`` job: payload ``{"src_tenant", "src_forest", "dst_forest"}``, run in the target
    tenant (``job.tenant_id``). The source tenant is the job's own unless the admin endpoint recorded
    another in ``admin_merges`` (which the tenant role cannot write); a payload naming any other
    source tenant is refused, so a job row written as a tenant never reads another tenant."""
    p = job.payload
    try:
        async with db.system() as conn:
            src_tenant = await admin_merges.source_tenant(conn, job.tenant_id, job.job_id) or job.tenant_id
        if uuid.UUID(str(p.get("src_tenant") or job.tenant_id)) != src_tenant:
            return {}, [{"error": "refused: the merge's source tenant was not set by the admin endpoint"}]
        async with db.tenant(src_tenant) as conn:
            src = await get_forest(conn, src_tenant, str(p["src_forest"]))
        async with db.tenant(job.tenant_id) as conn:
            dst = await get_forest(conn, job.tenant_id, str(p["dst_forest"]))

        async def progress(stage: str, done: int, total: int) -> None:
            await update_progress(db, job, {"stage": stage, "done": done, "total": total})

        report = await merge_forests(
            db, settings, backends, src_tenant=src_tenant, src_forest_id=src.forest_id, dst_tenant=job.tenant_id,
            dst_forest_id=dst.forest_id, ledger=ledger, progress=progress,
        )  # fmt: skip
    except (MemForestError, KeyError, ValueError) as exc:  # a bad payload or a vanished forest: no retry
        return {}, [{"error": str(exc)}]
    return report.as_dict(), []
