"""Retract (a session or a turn), forget (a forest or a tenant) and re-materialise (ADR 0007, 0009)."""

from __future__ import annotations

import uuid
from typing import Any

from memforest.app.quotas import check_quotas
from memforest.backends.factory import Backends
from memforest.db.engine import Database
from memforest.domain import Forest
from memforest.errors import InputError, NotFoundError
from memforest.lifecycle.forget import FOREST_TABLES, TENANT_TABLES, forget_forest, forget_tenant
from memforest.lifecycle.rematerialize import (
    MAX_FANOUT,
    MIN_FANOUT,
    Progress,
    RematReport,
    check_fanout,
    rematerialize_all,
    rematerialize_forest,
)
from memforest.lifecycle.retract import RetractReport, retract
from memforest.pipeline.forest_indexes import IndexReport, ensure_all_indexes
from memforest.pipeline.job_bell import QUEUED
from memforest.settings import Settings
from memforest.store import jobs
from memforest.store.tenants import find_tenant, get_forest

__all__ = [
    "MAX_FANOUT",
    "MIN_FANOUT",
    "REMAT_KIND",
    "IndexReport",
    "RematReport",
    "RetractReport",
    "check_fanout",
    "ensure_all_indexes",
    "forget_by_name",
    "queue_rematerialize",
    "rematerialize",
    "retract",
]

REMAT_KIND = "rematerialize"


async def forget_by_name(db: Database, tenant: str, forest: str | None) -> dict[str, int]:
    """Forget forest ``forest`` of tenant ``tenant`` (or the whole tenant when ``forest`` is None).
    What is not there is not an error: the counts are then all zero."""
    try:
        tenant_id = await find_tenant(db, tenant)
    except NotFoundError:  # no such tenant: nothing to forget
        return dict.fromkeys(TENANT_TABLES if forest is None else FOREST_TABLES, 0)
    if forest is None:
        return await forget_tenant(db, tenant_id)
    return await forget_forest(db, tenant_id, forest)


def _check_actions(embeddings: bool, summaries: bool, rebuild_trees: bool, k: int | None) -> None:
    if not (embeddings or summaries or rebuild_trees):
        raise InputError("nothing to do: set embeddings, summaries and/or rebuild_trees", location="body")
    if k is not None and not rebuild_trees:
        raise InputError("k only applies with rebuild_trees", location="k")


async def queue_rematerialize(
    db: Database, tenant_id: uuid.UUID, forest: str, request: dict[str, Any], *, settings: Settings
) -> dict[str, Any]:
    """Queue a ``rematerialize`` job for the forest: ``request`` holds ``embeddings``, ``summaries``,
    ``rebuild_trees`` (at least one) and ``k`` (only with ``rebuild_trees``)."""
    _check_actions(
        bool(request.get("embeddings")), bool(request.get("summaries")), bool(request.get("rebuild_trees")),
        request.get("k"),
    )  # fmt: skip
    if "\x00" in forest:
        raise NotFoundError(f"no forest named {forest!r}")
    async with db.tenant(tenant_id) as conn:
        f = await get_forest(conn, tenant_id, forest)
        await check_quotas(conn, settings, tenant_id, None, adds_facts=False)  # 429 at max_queued_jobs
        job_id = await jobs.insert_job(conn, tenant_id, f.forest_id, REMAT_KIND, request)
    QUEUED.ring()
    return {"job_id": str(job_id), "kind": REMAT_KIND, "forest": f.name}


async def rematerialize(
    db: Database,
    settings: Settings,
    backends: Backends,
    forest: Forest | None,
    *,
    embeddings: bool,
    summaries: bool,
    rebuild: bool,
    fanout: int | None,
    progress: Progress | None = None,
) -> tuple[RematReport, str]:
    """Re-materialise ``forest`` in this process, or every forest of every tenant when it is None.
    Returns the report and a title naming what was done."""
    if forest is None:
        report = await rematerialize_all(
            db, settings, backends, embeddings=embeddings, summaries=summaries, rebuild=rebuild, fanout=fanout,
            progress=progress,
        )  # fmt: skip
        return report, "rematerialize: every forest"
    report = await rematerialize_forest(
        db, settings, backends, forest.tenant_id, forest.forest_id, embeddings=embeddings, summaries=summaries,
        rebuild=rebuild, fanout=fanout, progress=progress,
    )  # fmt: skip
    return report, f"rematerialize: forest {forest.name}"
