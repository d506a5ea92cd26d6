"""Re-materialise derived artifacts from persistent state, never re-extracting (DESIGN.md 4, ADR 0009).

- ``rebuild_trees``: drop a forest's trees, nodes and placements and rebuild them from cells,
  entity links and the fact -> scene assignment (captured from the placements before the drop),
  with a new fan-out; then refresh (new summaries and node embeddings).
- ``resummarize``: regenerate every internal-node summary (new prompt version or model); only
  summaries whose text changed are re-embedded.
- ``reembed``: recompute fact, node (leaves and summaries) and scene-centroid embeddings with the
  current embedder.
- ``change_embedding_dimension`` + ``reembed_all``: the deployment-wide dimension change
  (``memforest rematerialize --embeddings --all``): retype every ``vector`` column, rebuild the
  HNSW indexes, update ``memforest_meta``, then re-embed every forest of every tenant.

No transaction is held across a model call: rows are read in one short transaction, embedded or
summarised outside, and written in another.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection

from memforest.backends.base import Embedder, UsageLedger
from memforest.backends.factory import Backends
from memforest.db.engine import Database
from memforest.errors import ConfigurationError, InputError
from memforest.lifecycle.treebuild import SceneScope, build_forest_trees
from memforest.pipeline.refresh import RefreshStats, refresh_forest, summary_hash
from memforest.pipeline.route import Router
from memforest.settings import PipelineSettings, Settings
from memforest.store.sql import execute, fetch_all, lock_forest, scalar
from memforest.store.trees import InsertStats

__all__ = [
    "MAX_HNSW_DIM",
    "Progress",
    "RematReport",
    "all_forests",
    "change_embedding_dimension",
    "check_fanout",
    "rebuild_trees",
    "reembed",
    "reembed_all",
    "rematerialize_all",
    "rematerialize_forest",
    "resummarize",
]

Progress = Callable[[str, int, int], None]
"""``progress(stage, done, total)``: called as work advances (the CLI drives a bar with it)."""

MIN_FANOUT, MAX_FANOUT = 2, 16
MAX_HNSW_DIM = 2000  # pgvector's HNSW index limit for ``vector``
EMBED_BATCH = 512  # rows read, embedded and written per round trip
MIGRATION_LOCK_SQL = "SELECT pg_advisory_xact_lock(hashtextextended('memforest:migrations', 0))"


@dataclass(slots=True)
class RematReport:
    """What a re-materialisation did. ``model_calls`` counts calls per stage (never ``extract``)."""

    forests: int = 0
    trees_rebuilt: int = 0
    leaves: int = 0
    nodes_refreshed: int = 0
    summaries_changed: int = 0
    embedded_facts: int = 0
    embedded_nodes: int = 0
    centroids: int = 0
    model_calls: dict[str, int] = field(default_factory=dict)
    dimension_from: int | None = None
    dimension_to: int | None = None
    wall_s: float = 0.0

    def add(self, other: RematReport) -> None:
        """Fold another report (of another forest or step) into this one."""
        for name in ("forests", "trees_rebuilt", "leaves", "nodes_refreshed", "summaries_changed"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.embedded_facts += other.embedded_facts
        self.embedded_nodes += other.embedded_nodes
        self.centroids += other.centroids
        for stage, n in other.model_calls.items():
            self.model_calls[stage] = self.model_calls.get(stage, 0) + n
        self.wall_s += other.wall_s

    def add_refresh(self, stats: RefreshStats) -> None:
        """Count what a refresh did."""
        self.nodes_refreshed += stats.nodes_refreshed
        self.summaries_changed += stats.summaries_changed
        self.embedded_nodes += stats.embedded

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON (job results, ``--json``)."""
        return {
            "forests": self.forests,
            "trees_rebuilt": self.trees_rebuilt,
            "leaves": self.leaves,
            "nodes_refreshed": self.nodes_refreshed,
            "summaries_changed": self.summaries_changed,
            "embedded_facts": self.embedded_facts,
            "embedded_nodes": self.embedded_nodes,
            "centroids": self.centroids,
            "model_calls": dict(sorted(self.model_calls.items())),
            "dimension": (
                {"from": self.dimension_from, "to": self.dimension_to} if self.dimension_from is not None else None
            ),
            "wall_s": round(self.wall_s, 4),
        }


def check_fanout(fanout: int | None) -> int | None:
    """``fanout`` when it is None or within 2..16, else InputError."""
    if fanout is None:
        return None
    if isinstance(fanout, bool) or not isinstance(fanout, int) or not MIN_FANOUT <= fanout <= MAX_FANOUT:
        raise InputError(f"k must be an integer between {MIN_FANOUT} and {MAX_FANOUT}, got {fanout!r}", location="k")
    return fanout


def _calls(ledger: UsageLedger) -> dict[str, int]:
    return {stage: int(u["calls"]) for stage, u in ledger.as_dict().items()}


def _finish(report: RematReport, local: UsageLedger, ledger: UsageLedger | None, t0: float) -> RematReport:
    report.model_calls = _calls(local)
    report.wall_s = time.perf_counter() - t0
    if ledger is not None:
        ledger.merge(local)
    return report


def _notify(progress: Progress | None, stage: str, done: int, total: int) -> None:
    if progress is not None:
        progress(stage, done, total)


async def _refresh(
    db: Database, settings: Settings, backends: Backends, tenant_id: uuid.UUID, forest_id: int, ledger: UsageLedger
) -> RefreshStats:
    return await refresh_forest(
        db, tenant_id, forest_id, summarizer=backends.summarizer, embedder=backends.embedder,
        concurrency=settings.pipeline.refresh_concurrency, ledger=ledger,
    )  # fmt: skip


# ---------------------------------------------------------------- embeddings


async def _embed_texts(embedder: Embedder, texts: list[str], ledger: UsageLedger) -> list[np.ndarray[Any, Any]]:
    vectors = await embedder.embed(texts, stage="embed", ledger=ledger)
    return [np.asarray(v, dtype=np.float32) for v in vectors]


async def _keyset_batches(
    db: Database, tenant_id: uuid.UUID, sql: str, params: dict[str, Any], key: str, total: int
) -> AsyncIterator[list[dict[str, Any]]]:
    """Up to ``total`` rows of ``sql`` (which pages on ``:last`` / ``:n`` by ``key``), EMBED_BATCH
    at a time, each batch read in its own short transaction."""
    done, last = 0, 0
    while done < total:
        async with db.tenant(tenant_id) as conn:
            rows = await fetch_all(conn, sql, {**params, "last": last, "n": EMBED_BATCH})
        if not rows:
            return
        yield rows
        done += len(rows)
        last = int(rows[-1][key])


async def _embed_facts(
    db: Database,
    tenant_id: uuid.UUID,
    forest_id: int,
    embedder: Embedder,
    ledger: UsageLedger,
    *,
    only_missing: bool,
    progress: Progress | None = None,
) -> int:
    """(Re-)embed the forest's facts in batches; ``only_missing`` limits it to facts without a vector."""
    missing = "AND embedding IS NULL " if only_missing else ""
    p: dict[str, Any] = {"t": tenant_id, "f": forest_id}
    async with db.tenant(tenant_id) as conn:
        total = int(
            await scalar(conn, f"SELECT count(*) FROM facts WHERE tenant_id = :t AND forest_id = :f {missing}", p)
        )
    done = 0
    sql = (
        f"SELECT fact_id, text FROM facts WHERE tenant_id = :t AND forest_id = :f AND fact_id > :last {missing}"
        "ORDER BY fact_id LIMIT :n"
    )
    async for rows in _keyset_batches(db, tenant_id, sql, p, "fact_id", total):
        vectors = await _embed_texts(embedder, [str(r["text"]) for r in rows], ledger)
        async with db.tenant(tenant_id) as conn:
            await conn.execute(
                text("UPDATE facts SET embedding = :e WHERE tenant_id = :t AND fact_id = :id"),
                [{"e": v, "t": tenant_id, "id": int(r["fact_id"])} for r, v in zip(rows, vectors, strict=True)],
            )
        done += len(rows)
        _notify(progress, "embed facts", done, total)
    return done


# A fact leaf whose text is its fact's text takes the fact's vector instead of a second model call.
_FACT_LEAF_MATCH = (
    "EXISTS (SELECT 1 FROM facts x WHERE x.tenant_id = n.tenant_id AND x.fact_id = n.leaf_fact_id "
    "AND x.text = n.summary AND x.embedding IS NOT NULL)"
)


async def _embed_nodes(
    db: Database,
    tenant_id: uuid.UUID,
    forest_id: int,
    embedder: Embedder,
    ledger: UsageLedger,
    *,
    internal: bool,
    progress: Progress | None = None,
) -> int:
    """Re-embed every node that has text: fact leaves copy their fact's vector, the rest (cell leaves
    and, with ``internal``, summaries) are embedded. Nodes without a summary yet are left to refresh."""
    p: dict[str, Any] = {"t": tenant_id, "f": forest_id}
    levels = "" if internal else "AND n.level = 0 "
    async with db.tenant(tenant_id) as conn:
        copied = await execute(
            conn,
            "UPDATE nodes n SET embedding = x.embedding, embedded_hash = md5(n.summary) FROM facts x "
            "WHERE n.tenant_id = :t AND n.forest_id = :f AND n.level = 0 AND n.leaf_fact_id IS NOT NULL "
            "AND x.tenant_id = n.tenant_id AND x.fact_id = n.leaf_fact_id AND x.text = n.summary "
            "AND x.embedding IS NOT NULL",
            p,
        )
        where = (
            f"n.tenant_id = :t AND n.forest_id = :f AND n.summary IS NOT NULL {levels}"
            f"AND NOT (n.leaf_fact_id IS NOT NULL AND {_FACT_LEAF_MATCH})"
        )
        total = int(await scalar(conn, f"SELECT count(*) FROM nodes n WHERE {where}", p))
    done = 0
    _notify(progress, "embed nodes", 0, total)
    sql = f"SELECT n.node_id, n.summary FROM nodes n WHERE {where} AND n.node_id > :last ORDER BY n.node_id LIMIT :n"
    async for rows in _keyset_batches(db, tenant_id, sql, p, "node_id", total):
        texts = [str(r["summary"]) for r in rows]
        vectors = await _embed_texts(embedder, texts, ledger)
        async with db.tenant(tenant_id) as conn:
            # Written only if the summary is still the text that was embedded (refresh may have moved on).
            await conn.execute(
                text(
                    "UPDATE nodes SET embedding = :e, embedded_hash = :h WHERE tenant_id = :t AND node_id = :id "
                    "AND md5(summary) = :h"
                ),
                [
                    {"e": v, "h": summary_hash(s), "t": tenant_id, "id": int(r["node_id"])}
                    for r, s, v in zip(rows, texts, vectors, strict=True)
                ],
            )
        done += len(rows)
        _notify(progress, "embed nodes", done, total)
    return copied + done


async def _recompute_centroids(
    db: Database, tenant_id: uuid.UUID, forest_id: int, embedder: Embedder, ledger: UsageLedger
) -> int:
    """Scene centroids from their member facts' (new) vectors: the normalised sum over the facts
    placed in the cluster's scene tree. A cluster without a live member gets its label's vector."""
    p: dict[str, Any] = {"t": tenant_id, "f": forest_id}
    async with db.tenant(tenant_id) as conn:
        await lock_forest(conn, tenant_id, forest_id)
        members = await fetch_all(
            conn,
            "UPDATE scene_clusters c SET centroid = l2_normalize(m.s) FROM ("
            "SELECT t.key, sum(x.embedding) AS s FROM placements pl "
            "JOIN trees t ON t.tenant_id = pl.tenant_id AND t.tree_id = pl.tree_id "
            "JOIN facts x ON x.tenant_id = pl.tenant_id AND x.fact_id = pl.source_id "
            "WHERE pl.tenant_id = :t AND pl.forest_id = :f AND pl.source_kind = 'fact' AND t.kind = 'scene' "
            "AND x.embedding IS NOT NULL GROUP BY t.key) m "
            "WHERE c.tenant_id = :t AND c.forest_id = :f AND CAST(c.cluster_id AS text) = m.key RETURNING c.cluster_id",
            p,
        )
        updated = {int(r["cluster_id"]) for r in members}
        rest = await fetch_all(
            conn,
            "SELECT cluster_id, topic_counts FROM scene_clusters WHERE tenant_id = :t AND forest_id = :f "
            "ORDER BY cluster_id",
            p,
        )
    orphans = [r for r in rest if int(r["cluster_id"]) not in updated]
    if orphans:
        labels = [Router._scene_label(dict(r["topic_counts"] or {})) for r in orphans]
        vectors = await _embed_texts(embedder, labels, ledger)
        async with db.tenant(tenant_id) as conn:
            await conn.execute(
                text("UPDATE scene_clusters SET centroid = :e WHERE tenant_id = :t AND cluster_id = :id"),
                [{"e": v, "t": tenant_id, "id": int(r["cluster_id"])} for r, v in zip(orphans, vectors, strict=True)],
            )
    return len(updated) + len(orphans)


async def _reembed(
    db: Database,
    settings: Settings,
    backends: Backends,
    tenant_id: uuid.UUID,
    forest_id: int,
    ledger: UsageLedger,
    *,
    internal_nodes: bool,
    progress: Progress | None,
) -> RematReport:
    report = RematReport(forests=1)
    embedder = backends.embedder
    report.embedded_facts = await _embed_facts(
        db, tenant_id, forest_id, embedder, ledger, only_missing=False, progress=progress
    )
    report.embedded_nodes = await _embed_nodes(
        db, tenant_id, forest_id, embedder, ledger, internal=internal_nodes, progress=progress
    )
    report.centroids = await _recompute_centroids(db, tenant_id, forest_id, embedder, ledger)
    return report


async def reembed(
    db: Database,
    settings: Settings,
    backends: Backends,
    tenant_id: uuid.UUID,
    forest_id: int,
    *,
    ledger: UsageLedger | None = None,
    progress: Progress | None = None,
) -> RematReport:
    """Recompute every fact, node and scene-centroid embedding of the forest with the current embedder
    (no summaries, no extraction), then refresh whatever was still dirty."""
    t0, local = time.perf_counter(), UsageLedger()
    report = await _reembed(db, settings, backends, tenant_id, forest_id, local, internal_nodes=True, progress=progress)
    report.add_refresh(await _refresh(db, settings, backends, tenant_id, forest_id, local))
    return _finish(report, local, ledger, t0)


# ---------------------------------------------------------------- summaries


async def _internal_hashes(db: Database, tenant_id: uuid.UUID, forest_id: int) -> dict[int, str | None]:
    async with db.tenant(tenant_id) as conn:
        rows = await fetch_all(
            conn,
            "SELECT node_id, md5(summary) AS h FROM nodes WHERE tenant_id = :t AND forest_id = :f AND level > 0",
            {"t": tenant_id, "f": forest_id},
        )
    return {int(r["node_id"]): r["h"] for r in rows}


async def resummarize(
    db: Database,
    settings: Settings,
    backends: Backends,
    tenant_id: uuid.UUID,
    forest_id: int,
    *,
    ledger: UsageLedger | None = None,
    progress: Progress | None = None,
) -> RematReport:
    """Regenerate every internal-node summary (after a prompt-version or model change): every internal
    node is marked dirty with its ``summary_hash`` reset, and refresh rebuilds them level by level,
    re-embedding only the summaries whose text changed. ``summaries_changed`` counts real changes."""
    t0, local = time.perf_counter(), UsageLedger()
    before = await _internal_hashes(db, tenant_id, forest_id)
    _notify(progress, "resummarize", 0, len(before))
    async with db.tenant(tenant_id) as conn:
        await lock_forest(conn, tenant_id, forest_id)
        await execute(
            conn,
            "UPDATE nodes SET dirty = true, summary_hash = NULL, version = version + 1 "
            "WHERE tenant_id = :t AND forest_id = :f AND level > 0",
            {"t": tenant_id, "f": forest_id},
        )
    stats = await _refresh(db, settings, backends, tenant_id, forest_id, local)
    after = await _internal_hashes(db, tenant_id, forest_id)
    report = RematReport(forests=1)
    report.add_refresh(stats)
    report.summaries_changed = sum(1 for node_id, h in after.items() if before.get(node_id) != h)
    _notify(progress, "resummarize", len(after), len(after))
    return _finish(report, local, ledger, t0)


# ---------------------------------------------------------------- trees


@dataclass(slots=True)
class _Captured:
    """What a rebuild keeps from the trees it drops."""

    scenes: list[SceneScope] = field(default_factory=list)  # scene trees (key = cluster id) with their facts
    cell_vectors: dict[int, Any] = field(default_factory=dict)  # cell id -> vector of its current text


async def _capture(conn: AsyncConnection, tenant_id: uuid.UUID, forest_id: int) -> _Captured:
    """The fact -> scene assignment (recorded only in placements) and the cell-leaf vectors that
    still match their cell's text, read before the trees are dropped."""
    p = {"t": tenant_id, "f": forest_id}
    members: dict[str, list[int]] = {}
    labels: dict[str, str] = {}
    for r in await fetch_all(
        conn,
        "SELECT t.key, t.label, pl.source_id FROM trees t LEFT JOIN placements pl ON pl.tenant_id = t.tenant_id "
        "AND pl.tree_id = t.tree_id AND pl.source_kind = 'fact' WHERE t.tenant_id = :t AND t.forest_id = :f "
        "AND t.kind = 'scene' ORDER BY t.tree_id, pl.source_id",
        p,
    ):
        key = str(r["key"])
        labels.setdefault(key, str(r["label"]))
        facts = members.setdefault(key, [])
        if r["source_id"] is not None:
            facts.append(int(r["source_id"]))
    captured = _Captured(scenes=[SceneScope(key, labels[key], facts) for key, facts in members.items()])
    for r in await fetch_all(
        conn,
        "SELECT n.leaf_cell_id, n.embedding FROM nodes n JOIN cells c ON c.tenant_id = n.tenant_id "
        "AND c.cell_id = n.leaf_cell_id WHERE n.tenant_id = :t AND n.forest_id = :f AND n.level = 0 "
        "AND n.embedding IS NOT NULL AND n.embedded_hash = md5(c.text)",
        p,
    ):
        captured.cell_vectors[int(r["leaf_cell_id"])] = r["embedding"]
    return captured


async def _rebuild_structure(
    conn: AsyncConnection,
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
    p = {"t": tenant_id, "f": forest_id}
    captured = await _capture(conn, tenant_id, forest_id)
    await execute(conn, "DELETE FROM placements WHERE tenant_id = :t AND forest_id = :f", p)
    await execute(conn, "DELETE FROM nodes WHERE tenant_id = :t AND forest_id = :f", p)
    await execute(conn, "DELETE FROM trees WHERE tenant_id = :t AND forest_id = :f", p)
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
    report.embedded_facts = await _embed_facts(db, tenant_id, forest_id, backends.embedder, local, only_missing=True)
    stats = InsertStats()
    async with db.tenant(tenant_id) as conn:
        await lock_forest(conn, tenant_id, forest_id)
        await _rebuild_structure(conn, tenant_id, forest_id, settings.pipeline, k, stats, progress)
    report.trees_rebuilt = stats.trees_created
    report.leaves = stats.leaves
    _notify(progress, "refresh", 0, 1)
    report.add_refresh(await _refresh(db, settings, backends, tenant_id, forest_id, local))
    _notify(progress, "refresh", 1, 1)
    return _finish(report, local, ledger, t0)


# ---------------------------------------------------------------- one forest, every forest


async def rematerialize_forest(
    db: Database,
    settings: Settings,
    backends: Backends,
    tenant_id: uuid.UUID,
    forest_id: int,
    *,
    embeddings: bool = False,
    summaries: bool = False,
    rebuild: bool = False,
    fanout: int | None = None,
    ledger: UsageLedger | None = None,
    progress: Progress | None = None,
) -> RematReport:
    """Run the requested actions on one forest, in the order that wastes no work: embeddings first
    (a rebuild copies fact vectors into leaves and keeps cell-leaf vectors), then the rebuild (which
    regenerates every summary, so ``summaries`` adds nothing after it), else the resummary."""
    if not (embeddings or summaries or rebuild):
        raise InputError("nothing to do: ask for embeddings, summaries and/or rebuild_trees")
    if fanout is not None and not rebuild:
        raise InputError("k (fan-out) only applies with rebuild_trees", location="k")
    check_fanout(fanout)
    t0, local = time.perf_counter(), UsageLedger()
    report = RematReport()
    if embeddings:
        report.add(
            await _reembed(
                db, settings, backends, tenant_id, forest_id, local, internal_nodes=not rebuild, progress=progress
            )
        )
    if rebuild:
        report.add(
            await rebuild_trees(
                db, settings, backends, tenant_id, forest_id, fanout=fanout, ledger=local, progress=progress
            )
        )
    elif summaries:
        report.add(await resummarize(db, settings, backends, tenant_id, forest_id, ledger=local, progress=progress))
    elif embeddings:
        report.add_refresh(await _refresh(db, settings, backends, tenant_id, forest_id, local))
    report.forests = 1
    return _finish(report, local, ledger, t0)


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


async def change_embedding_dimension(db: Database, new_dim: int) -> int | None:
    """Retype every ``vector`` column of the schema to ``vector(new_dim)`` (deployment-wide, ADR 0002).

    One transaction under the migration advisory lock: drop the vector indexes, ``ALTER ... TYPE
    vector(new_dim)`` (values become NULL, or a zero placeholder in NOT NULL columns such as scene
    centroids), update ``memforest_meta.embedding_dim``, recreate the indexes. Returns the old
    dimension, or None when it already was ``new_dim`` (nothing changed). Every stored vector must be
    recomputed afterwards (``reembed_all`` does both)."""
    if isinstance(new_dim, bool) or not isinstance(new_dim, int) or not 1 <= new_dim <= MAX_HNSW_DIM:
        raise InputError(f"embedding dimension must be 1..{MAX_HNSW_DIM} (HNSW limit), got {new_dim!r}")
    async with db.system() as conn:
        await execute(conn, MIGRATION_LOCK_SQL)
        stored = await scalar(conn, "SELECT value FROM memforest_meta WHERE key = 'embedding_dim' FOR UPDATE")
        if stored is None:
            raise ConfigurationError("the database is not initialised (no memforest_meta.embedding_dim)")
        old = int(stored)
        if old == new_dim:
            return None
        columns = await fetch_all(
            conn,
            "SELECT c.relname AS tbl, a.attname AS col, a.attnotnull AS notnull FROM pg_attribute a "
            "JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace ns ON ns.oid = c.relnamespace "
            "JOIN pg_type ty ON ty.oid = a.atttypid WHERE ns.nspname = current_schema() AND c.relkind = 'r' "
            "AND ty.typname = 'vector' AND a.attnum > 0 AND NOT a.attisdropped ORDER BY c.relname, a.attnum",
        )
        indexes = await fetch_all(
            conn,
            "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() "
            "AND (indexdef ILIKE '% USING hnsw %' OR indexdef ILIKE '% USING ivfflat %') ORDER BY indexname",
        )
        for ix in indexes:
            await execute(conn, f"DROP INDEX {_quote(str(ix['indexname']))}")
        for c in columns:
            placeholder = (
                f"CAST(array_fill(CAST(0 AS real), ARRAY[{new_dim}]) AS vector({new_dim}))"
                if c["notnull"]
                else f"CAST(NULL AS vector({new_dim}))"
            )
            await execute(
                conn,
                f"ALTER TABLE {_quote(str(c['tbl']))} ALTER COLUMN {_quote(str(c['col']))} "
                f"TYPE vector({new_dim}) USING {placeholder}",
            )
        await execute(conn, "UPDATE memforest_meta SET value = :v WHERE key = 'embedding_dim'", {"v": str(new_dim)})
        for ix in indexes:
            await execute(conn, str(ix["indexdef"]))
    await db.engine.dispose()  # pooled connections may hold plans typed for the old dimension
    return old


async def _check_embedder_dim(embedder: Embedder, dim: int, ledger: UsageLedger) -> None:
    probe = await embedder.embed(["dimension probe"], stage="embed", ledger=ledger)
    if len(probe[0]) != dim:
        raise ConfigurationError(
            f"the embedder ({embedder.name}) produces {len(probe[0])}-dimensional vectors but "
            f"MEMFOREST_EMBEDDING__DIM={dim}"
        )


async def all_forests(db: Database) -> list[tuple[uuid.UUID, int, str]]:
    """(tenant_id, forest_id, 'tenant/forest') of every forest in the deployment."""
    async with db.system() as conn:
        rows = await fetch_all(
            conn,
            "SELECT f.tenant_id, f.forest_id, t.name AS tenant, f.name FROM forests f JOIN tenants t "
            "ON t.tenant_id = f.tenant_id ORDER BY t.name, f.name",
        )
    return [(r["tenant_id"], int(r["forest_id"]), f"{r['tenant']}/{r['name']}") for r in rows]


async def rematerialize_all(
    db: Database,
    settings: Settings,
    backends: Backends,
    *,
    embeddings: bool = False,
    summaries: bool = False,
    rebuild: bool = False,
    fanout: int | None = None,
    ledger: UsageLedger | None = None,
    progress: Progress | None = None,
) -> RematReport:
    """Every forest of every tenant. With ``embeddings`` the schema is first switched to
    ``settings.embedding.dim`` when it differs (``change_embedding_dimension``), so every vector of
    the deployment is recomputed at the new dimension."""
    if not (embeddings or summaries or rebuild):
        raise InputError("nothing to do: ask for embeddings, summaries and/or rebuild_trees")
    if fanout is not None and not rebuild:
        raise InputError("k (fan-out) only applies with rebuild_trees", location="k")
    check_fanout(fanout)
    t0, local = time.perf_counter(), UsageLedger()
    report = RematReport()
    if embeddings:
        dim = settings.embedding.dim
        await _check_embedder_dim(backends.embedder, dim, local)
        old = await change_embedding_dimension(db, dim)
        if old is not None:
            report.dimension_from, report.dimension_to = old, dim
    forests = await all_forests(db)
    _notify(progress, "forests", 0, len(forests))
    for i, (tenant_id, forest_id, _name) in enumerate(forests, start=1):
        report.add(
            await rematerialize_forest(
                db, settings, backends, tenant_id, forest_id, embeddings=embeddings, summaries=summaries,
                rebuild=rebuild, fanout=fanout, ledger=local,
            )
        )  # fmt: skip
        _notify(progress, "forests", i, len(forests))
    return _finish(report, local, ledger, t0)


async def reembed_all(
    db: Database,
    settings: Settings,
    backends: Backends,
    *,
    ledger: UsageLedger | None = None,
    progress: Progress | None = None,
) -> RematReport:
    """``memforest rematerialize --embeddings --all``: switch the schema to ``settings.embedding.dim``
    if it differs, then re-embed every forest of every tenant."""
    return await rematerialize_all(db, settings, backends, embeddings=True, ledger=ledger, progress=progress)
