"""Import a forest export (JSON Lines, see ``transfer_format``) through the merge path (ADR 0008).

1. ``parse_export`` (``transfer_parse``): read and validate every line before anything is written.
2. ``load_staging``: one transaction creates the target forest when missing and a hidden staging
   forest (``~staging:<hex>``) holding the file's state with fresh ids. Derived artifacts are used
   when the file has them *and* its vectors live in this deployment's embedding space (same
   backend, model and dimension); otherwise trees are rebuilt from persistent state
   (``build_trees_from_state``) and vectors are recomputed in step 3.
3. ``complete_import`` (in-process or as an ``import`` job): embed facts that have no vector (outside
   any transaction), recompute centroids that were not usable, then ``merge_forests`` staging ->
   target and drop the staging forest. No extraction runs.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from memforest.backends.base import UsageLedger
from memforest.backends.factory import Backends
from memforest.db.catalogue import SCOPE_COLUMNS, spec
from memforest.db.engine import Database
from memforest.domain import Job
from memforest.errors import MemForestError, NotFoundError
from memforest.lifecycle.merge import MergeReport, Progress, merge_forests, notify
from memforest.lifecycle.transfer_format import TreeRec, embedding_info
from memforest.lifecycle.transfer_parse import ParsedExport, parse_export, read_export
from memforest.lifecycle.treebuild import SceneScope, build_forest_trees, route_unscened
from memforest.memtree.model import InsertStats
from memforest.pipeline.worker import update_progress
from memforest.settings import Settings
from memforest.store.jobs import insert_job
from memforest.store.sql import Conn
from memforest.store.tenants import STAGING_PREFIX, ensure_forest
from memforest.store.transfer import staging as store
from memforest.store.transfer.snapshot import forest_name
from memforest.text.digits import decimal_int

__all__ = [
    "STAGING_PREFIX",
    "ImportReport",
    "ParsedExport",
    "Staging",
    "build_trees_from_state",
    "complete_import",
    "import_file",
    "load_staging",
    "parse_export",
    "read_export",
]

EMBED_BATCH = 512

IdMaps = Mapping[str, Mapping[int, int]]
"""table name -> (file id -> staging id)"""

Override = Callable[[Any], Any]


@dataclass(frozen=True, slots=True)
class Staging:
    """A loaded staging forest and what the import still has to do."""

    staging_forest_id: int
    staging_forest: str
    dst_forest_id: int
    dst_forest: str
    reused_vectors: bool
    rebuilt_trees: bool
    job_id: uuid.UUID | None = None


def _rows(
    table: str, records: Sequence[Any], forest_id: int, maps: IdMaps, over: Mapping[str, Override]
) -> list[dict[str, Any]]:
    """Rows of ``table`` (keyed by column, from the catalogue) for ``records``: the record's field
    under the column's file name, its own id and references remapped to staging ids, JSON columns as
    text; ``over`` computes a column itself."""
    s = spec(table)
    rows = []
    for rec in records:
        row: dict[str, Any] = {"forest_id": forest_id}
        for col in s.stored:
            if col in SCOPE_COLUMNS:
                continue
            if col in over:
                row[col] = over[col](rec)
                continue
            value = getattr(rec, s.field(col))
            if col == s.id_column:
                value = maps[table][value]
            elif col in s.refs and value is not None:
                value = maps[s.refs[col]].get(value)
            elif col in s.json_columns:
                value = json.dumps(value, sort_keys=True)
            row[col] = value
        rows.append(row)
    return rows


def _same_space(parsed: ParsedExport, settings: Settings) -> bool:
    mine, theirs = embedding_info(settings), parsed.header.embedding
    return (theirs.backend, theirs.model, theirs.dim) == (mine["backend"], mine["model"], mine["dim"])


async def load_staging(
    db: Database,
    settings: Settings,
    tenant_id: uuid.UUID,
    parsed: ParsedExport,
    dst_forest: str,
    *,
    enqueue_job: bool = False,
) -> Staging:
    """One transaction: the target forest (created when missing) and a staging forest with the file's
    state. Derived artifacts are loaded when usable, else trees are built from persistent state.
    With ``enqueue_job`` the ``import`` job that completes it is queued in the same transaction."""
    t = tenant_id
    same_space = _same_space(parsed, settings)
    use_derived = parsed.header.with_derived and same_space
    recs = parsed.records
    vec = parsed.vectors
    zero = np.zeros(settings.embedding.dim, dtype=np.float32)
    async with db.tenant(tenant_id) as conn:
        dst = await ensure_forest(conn, t, dst_forest)
        staging_name = f"{STAGING_PREFIX}{uuid.uuid4().hex}"
        f = await store.create_staging_forest(conn, t, staging_name)
        maps: dict[str, dict[int, int]] = {}
        for table in ("sessions", "turns", "cells", "facts", "entities", "scene_clusters"):
            maps[table] = await store.allocate_ids(conn, t, table, [r.id for r in recs[spec(table).record]])
        fm = maps["facts"]
        # Supersession links point anywhere in the file: set once every fact is in.
        persistent: dict[str, Mapping[str, Override]] = {
            "sessions": {},
            "turns": {},
            "cells": {},
            "facts": {
                "supersedes": lambda r: None,
                "superseded_by": lambda r: None,
                "source_count": lambda r: 0,
                "embedding": lambda r: vec.get(("fact", r.id)) if use_derived else None,
            },
            "fact_sources": {},
            "entities": {},
            "entity_facts": {},
            "scene_clusters": {"centroid": lambda r: vec[("scene_cluster", r.id)] if same_space else zero},
        }
        for table, over in persistent.items():
            await store.insert_rows(conn, t, table, _rows(table, recs[spec(table).record], f, maps, over))
            if table == "facts":
                links = [
                    {"id": fm[r.id], "s": fm.get(r.supersedes or -1), "b": fm.get(r.superseded_by or -1)}
                    for r in recs["fact"]
                    if r.supersedes is not None or r.superseded_by is not None
                ]
                await store.set_fact_links(conn, t, links)
            elif table == "fact_sources":
                await store.recount_sources(conn, t, f)
        if use_derived:
            await _load_trees(conn, t, f, parsed, maps)
        else:
            km = maps["scene_clusters"]
            scenes = [
                (km[r.id], r.label or "misc", [fm[m] for m in r.members])
                for r in recs["scene_cluster"]
                if r.members and r.merged_into is None
            ]
            await build_trees_from_state(conn, t, f, settings, scenes=scenes)
        job_id = None
        if enqueue_job:
            payload = {"staging_forest_id": f, "records": parsed.counts, "reused_vectors": use_derived,
                       "rebuilt_trees": not use_derived}  # fmt: skip
            job_id = await insert_job(conn, t, dst.forest_id, "import", payload)
    return Staging(f, staging_name, dst.forest_id, dst.name, use_derived, not use_derived, job_id)


async def _load_trees(conn: Conn, t: uuid.UUID, f: int, parsed: ParsedExport, maps: dict[str, dict[int, int]]) -> None:
    """Trees, nodes and placements of the file, ids remapped (session and scene keys follow their scope)."""
    recs = parsed.records
    maps["trees"] = await store.allocate_ids(conn, t, "trees", [r.id for r in recs["tree"]])
    maps["nodes"] = await store.allocate_ids(conn, t, "nodes", [r.id for r in recs["node"]])
    km = maps["scene_clusters"]

    def key_of(r: TreeRec) -> str:
        cluster = decimal_int(r.key) if r.kind == "scene" else None
        if cluster is not None and cluster in km:
            return str(km[cluster])
        return r.key

    def source_of(r: Any) -> int:
        return maps["facts" if r.source_kind == "fact" else "cells"][r.source_id]

    vec = parsed.vectors
    derived: dict[str, Mapping[str, Override]] = {
        "trees": {"key": key_of},
        "nodes": {"embedding": lambda r: vec.get(("node", r.id))},
        "placements": {"source_id": source_of},
    }
    for table, over in derived.items():
        await store.insert_rows(conn, t, table, _rows(table, recs[spec(table).record], f, maps, over))


# ---------------------------------------------------------------- trees from persistent state


async def build_trees_from_state(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    settings: Settings,
    *,
    scenes: Sequence[tuple[int, str, Sequence[int]]] | None = None,
) -> InsertStats:
    """Hang a forest's evidence in fresh trees from its persistent state (the forest has no trees)
    with ``treebuild.build_forest_trees`` in replay mode: session trees from cells, entity trees for
    activated entities from their links, scene trees from ``scenes`` (cluster id, label, member fact
    ids in insertion order). Leaves go in in the order the write path inserted them (cells in order;
    an entity's facts backfilled in time order up to the point it earned its tree, then in creation
    order; scene members in order), batched, so a forest ingested with the same settings gets the
    same tree shapes. Live facts with a vector left without a scene are clustered. Caller holds the
    transaction."""
    return await build_forest_trees(
        conn, tenant_id, forest_id, settings.pipeline, replay=True,
        scenes=[SceneScope(str(cluster_id), label, members) for cluster_id, label, members in scenes or ()],
    )  # fmt: skip


async def place_orphans(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, settings: Settings, stats: InsertStats
) -> int:
    """Route live facts that no scene tree holds (and that have a vector) to a scene, as the write path does."""
    return await route_unscened(conn, tenant_id, forest_id, settings.pipeline, stats)


# ---------------------------------------------------------------- completing an import


@dataclass(slots=True)
class ImportReport:
    """What an import did: the staging load, the vectors computed, and the merge into the target."""

    forest: str
    records: dict[str, int] = field(default_factory=dict)
    reused_vectors: bool = False
    rebuilt_trees: bool = False
    embedded_facts: int = 0
    centroids: int = 0
    orphans_routed: int = 0
    merge: MergeReport | None = None
    wall_s: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON (job results, ``--json``)."""
        return {
            "forest": self.forest,
            "records": dict(sorted(self.records.items())),
            "reused_vectors": self.reused_vectors,
            "rebuilt_trees": self.rebuilt_trees,
            "embedded_facts": self.embedded_facts,
            "centroids": self.centroids,
            "orphans_routed": self.orphans_routed,
            "merge": self.merge.as_dict() if self.merge is not None else None,
            "wall_s": round(self.wall_s, 4),
        }


async def _embed_missing(
    db: Database, backends: Backends, tenant_id: uuid.UUID, forest_id: int, ledger: UsageLedger
) -> int:
    """Embed the forest's facts that have no vector, in batches (no transaction across the calls)."""
    done, last = 0, 0
    while True:
        async with db.tenant(tenant_id) as conn:
            rows = await store.facts_without_vector(conn, tenant_id, forest_id, last, EMBED_BATCH)
        if not rows:
            return done
        vectors = await backends.embedder.embed([str(r["text"]) for r in rows], stage="embed", ledger=ledger)
        async with db.tenant(tenant_id) as conn:
            await store.set_fact_vectors(
                conn, tenant_id, {int(r["fact_id"]): v for r, v in zip(rows, vectors, strict=True)}
            )
        done += len(rows)
        last = int(rows[-1]["fact_id"])


async def _finish_vectors(
    db: Database, settings: Settings, tenant_id: uuid.UUID, forest_id: int, report: ImportReport
) -> None:
    """Fact leaves take their fact's new vector (born clean, as on the write path); unusable (zero)
    centroids become the normalised sum of their members; facts still without a tree get a scene."""
    async with db.tenant(tenant_id) as conn:
        report.centroids = await store.finish_vectors(conn, tenant_id, forest_id)
        report.orphans_routed = await place_orphans(conn, tenant_id, forest_id, settings, InsertStats())


async def drop_staging(db: Database, tenant_id: uuid.UUID, staging_forest_id: int) -> None:
    """Delete a staging forest and everything in it (only ever a ``~staging:`` forest)."""
    async with db.tenant(tenant_id) as conn:
        await store.drop_staging_forest(conn, tenant_id, staging_forest_id, STAGING_PREFIX)


async def complete_import(
    db: Database,
    settings: Settings,
    backends: Backends,
    tenant_id: uuid.UUID,
    staging_forest_id: int,
    dst_forest_id: int,
    *,
    ledger: UsageLedger,
    progress: Progress | None = None,
    report: ImportReport | None = None,
) -> ImportReport:
    """Vectors for the staging forest, merge staging -> target, drop staging (also on failure)."""
    t0 = time.perf_counter()
    async with db.tenant(tenant_id) as conn:
        name = await forest_name(conn, tenant_id, dst_forest_id)
        staged = await forest_name(conn, tenant_id, staging_forest_id)
    if staged is None or not staged.startswith(STAGING_PREFIX):
        raise NotFoundError(f"staging forest {staging_forest_id} does not exist (import already finished?)")
    if name is None:
        await drop_staging(db, tenant_id, staging_forest_id)
        raise NotFoundError(f"target forest {dst_forest_id} does not exist")
    report = report or ImportReport(forest=name)
    report.forest = name
    try:
        await notify(progress, "vectors", 0, 1)
        report.embedded_facts = await _embed_missing(db, backends, tenant_id, staging_forest_id, ledger)
        await _finish_vectors(db, settings, tenant_id, staging_forest_id, report)
        await notify(progress, "vectors", 1, 1)
        report.merge = await merge_forests(
            db, settings, backends, src_tenant=tenant_id, src_forest_id=staging_forest_id, dst_tenant=tenant_id,
            dst_forest_id=dst_forest_id, ledger=ledger, progress=progress,
        )  # fmt: skip
    finally:
        await drop_staging(db, tenant_id, staging_forest_id)
    report.wall_s += time.perf_counter() - t0
    return report


async def import_parsed(
    db: Database,
    settings: Settings,
    backends: Backends,
    tenant_id: uuid.UUID,
    parsed: ParsedExport,
    forest: str,
    *,
    ledger: UsageLedger,
    progress: Progress | None = None,
) -> ImportReport:
    """Load a parsed export into staging and merge it into ``forest`` (created when missing)."""
    t0 = time.perf_counter()
    staging = await load_staging(db, settings, tenant_id, parsed, forest)
    report = ImportReport(
        forest=staging.dst_forest,
        records=parsed.counts,
        reused_vectors=staging.reused_vectors,
        rebuilt_trees=staging.rebuilt_trees,
        wall_s=time.perf_counter() - t0,
    )
    return await complete_import(
        db, settings, backends, tenant_id, staging.staging_forest_id, staging.dst_forest_id,
        ledger=ledger, progress=progress, report=report,
    )  # fmt: skip


async def import_file(
    db: Database,
    settings: Settings,
    backends: Backends,
    tenant_id: uuid.UUID,
    path: Path,
    forest: str,
    *,
    ledger: UsageLedger,
    progress: Progress | None = None,
) -> ImportReport:
    """Validate the whole file first (nothing is written on bad input), then import it."""
    parsed = read_export(path)
    return await import_parsed(db, settings, backends, tenant_id, parsed, forest, ledger=ledger, progress=progress)


async def run_import_job(
    db: Database, settings: Settings, backends: Backends, job: Job, ledger: UsageLedger
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The ``import`` job: payload ``{"staging_forest_id", "records", "reused_vectors", "rebuilt_trees"}``;
    the job's forest is the target. The staging forest is dropped whatever happens."""
    p = job.payload
    if job.forest_id is None or "staging_forest_id" not in p:
        return {}, [{"error": "an import job needs a target forest and a staging forest"}]

    async def progress(stage: str, done: int, total: int) -> None:
        await update_progress(db, job, {"stage": stage, "done": done, "total": total})

    report = ImportReport(
        forest="",
        records=dict(p.get("records") or {}),
        reused_vectors=bool(p.get("reused_vectors")),
        rebuilt_trees=bool(p.get("rebuilt_trees")),
    )
    try:
        report = await complete_import(
            db, settings, backends, job.tenant_id, int(p["staging_forest_id"]), int(job.forest_id),
            ledger=ledger, progress=progress, report=report,
        )  # fmt: skip
    except MemForestError as exc:
        return {}, [{"error": str(exc)}]
    return report.as_dict(), []
