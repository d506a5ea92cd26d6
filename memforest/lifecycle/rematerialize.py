"""Re-materialise derived artifacts from persistent state, never re-extracting (DESIGN.md 4, ADR 0009).

- ``rebuild_trees`` (``remat_trees``): drop a forest's trees, nodes and placements and rebuild them
  from cells, entity links and the fact -> scene assignment (captured from the placements before the
  drop), with a new fan-out; then refresh (new summaries and node embeddings).
- ``resummarize`` (``remat_summaries``): regenerate every internal-node summary (new prompt version
  or model); only summaries whose text changed are re-embedded.
- ``reembed`` (``remat_embeddings``): recompute fact, node (leaves and summaries) and scene-centroid
  embeddings with the current embedder.
- ``change_embedding_dimension`` + ``reembed_all``: the deployment-wide dimension change
  (``memforest rematerialize --embeddings --all``): retype every ``vector`` column, rebuild the
  HNSW indexes, update ``memforest_meta``, then re-embed every forest of every tenant.

This module runs the requested actions on one forest or on all of them; the statements live in
``memforest.store.rematerialize``. No transaction is held across a model call: rows are read in
one short transaction, embedded or summarised outside, and written in another.
"""

from __future__ import annotations

import time
import uuid

from memforest.backends.base import UsageLedger
from memforest.backends.factory import Backends
from memforest.db.engine import Database
from memforest.db.model_identity import embedding_identity
from memforest.lifecycle.remat_embeddings import (
    MAX_HNSW_DIM,
    change_embedding_dimension,
    check_embedder_dim,
    reembed,
    reembed_forest,
)
from memforest.lifecycle.remat_report import (
    MAX_FANOUT,
    MIN_FANOUT,
    Progress,
    RematReport,
    check_actions,
    check_fanout,
    finish,
    notify,
    refresh,
)
from memforest.lifecycle.remat_summaries import resummarize
from memforest.lifecycle.remat_trees import rebuild_trees
from memforest.settings import Settings
from memforest.store import embedding_meta
from memforest.store import rematerialize as store

__all__ = [
    "MAX_FANOUT",
    "MAX_HNSW_DIM",
    "MIN_FANOUT",
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
    check_actions(embeddings=embeddings, summaries=summaries, rebuild=rebuild, fanout=fanout)
    t0, local = time.perf_counter(), UsageLedger()
    report = RematReport()
    if embeddings:
        report.add(
            await reembed_forest(
                db, tenant_id, forest_id, backends.embedder, local, internal_nodes=not rebuild, progress=progress
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
        report.add_refresh(await refresh(db, settings, backends, tenant_id, forest_id, local))
    report.forests = 1
    return finish(report, local, ledger, t0)


async def all_forests(db: Database) -> list[tuple[uuid.UUID, int, str]]:
    """(tenant_id, forest_id, 'tenant/forest') of every forest in the deployment."""
    async with db.system() as conn:
        rows = await store.all_forests(conn)
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
    """Every forest of every tenant, one at a time. With ``embeddings`` the schema is first switched
    to ``settings.embedding.dim`` when it differs (``change_embedding_dimension``), and the move to
    the configured model is recorded (ADR 0042): a run that stops part way resumes after the forests
    it finished, each forest stays queryable while its vectors are replaced, and the configured model
    becomes the stored one when every forest holds its vectors."""
    check_actions(embeddings=embeddings, summaries=summaries, rebuild=rebuild, fanout=fanout)
    t0, local = time.perf_counter(), UsageLedger()
    report = RematReport()
    model, moved = embedding_identity(settings.embedding), set[str]()
    if embeddings:
        dim = settings.embedding.dim
        await check_embedder_dim(backends.embedder, dim, local)
        old = await change_embedding_dimension(db, dim)
        if old is not None:
            report.dimension_from, report.dimension_to = old, dim
        async with db.system() as conn:
            moved = await embedding_meta.begin_move(conn, model)
    forests = await all_forests(db)
    notify(progress, "forests", 0, len(forests))
    for i, (tenant_id, forest_id, name) in enumerate(forests, start=1):
        key = f"{tenant_id}/{forest_id}"
        if key not in moved:
            report.add(
                await rematerialize_forest(
                    db, settings, backends, tenant_id, forest_id, embeddings=embeddings, summaries=summaries,
                    rebuild=rebuild, fanout=fanout, ledger=local, progress=_within(progress, name),
                )
            )  # fmt: skip
            if embeddings:
                async with db.system() as conn:
                    await embedding_meta.mark_moved(conn, key)
        notify(progress, "forests", i, len(forests))
    if embeddings:
        async with db.system() as conn:
            await embedding_meta.finish_move(conn, model)
    return finish(report, local, ledger, t0)


def _within(progress: Progress | None, forest: str) -> Progress | None:
    """``progress`` with each stage named after the forest it runs on."""
    if progress is None:
        return None

    def named(stage: str, done: int, total: int) -> None:
        progress(f"{forest}: {stage}", done, total)

    return named


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
