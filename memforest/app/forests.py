"""Forests and their sessions: create, list, show (with counts), forget; list and show sessions."""

from __future__ import annotations

import uuid
from typing import Any

from memforest.app.quotas import check_quotas
from memforest.app.retry import retry_if_cut
from memforest.db.engine import Database
from memforest.errors import ConflictError, InputError, NotFoundError
from memforest.lifecycle.forget import forget_forest
from memforest.settings import Settings
from memforest.store import listing
from memforest.store.check import CheckReport, check_forest
from memforest.store.stats import forest_stats
from memforest.store.tenants import ensure_forest, get_forest, list_forests
from memforest.text.digits import decimal_int
from memforest.timefmt import iso


async def create_forest(db: Database, tenant_id: uuid.UUID, name: str, *, settings: Settings) -> dict[str, Any]:
    """Create a forest; ConflictError (409) when the name is taken, QuotaExceededError (409) when the
    tenant has its ``max_forests``."""
    async with db.tenant(tenant_id) as conn:
        try:
            await get_forest(conn, tenant_id, name.strip())
        except NotFoundError:
            await check_quotas(conn, settings, tenant_id, name, queues_job=False, adds_facts=False)
            forest = await ensure_forest(conn, tenant_id, name)
            return {"name": forest.name}
    raise ConflictError(f"forest {name.strip()!r} already exists")


@retry_if_cut
async def forests(db: Database, tenant_id: uuid.UUID) -> list[dict[str, Any]]:
    """The tenant's forests by name."""
    async with db.tenant(tenant_id) as conn:
        found = await list_forests(conn, tenant_id)
    return [{"name": f.name} for f in found]


@retry_if_cut
async def forest_detail(db: Database, tenant_id: uuid.UUID, name: str) -> dict[str, Any]:
    """A forest with its counts; NotFoundError for an unknown forest."""
    async with db.tenant(tenant_id) as conn:
        f = await get_forest(conn, tenant_id, name)
        counts = await forest_stats(conn, tenant_id, f.forest_id)
    return {"name": f.name, "counts": counts}


async def delete_forest(db: Database, tenant_id: uuid.UUID, name: str) -> dict[str, Any]:
    """Forget a forest and everything in it; NotFoundError when there was none."""
    counts = await forget_forest(db, tenant_id, name)
    if not counts["forests"]:
        raise NotFoundError(f"no forest named {name!r}")
    return {"name": name, "deleted": counts}


def _int_cursor(cursor: str | None) -> int:
    if cursor is None:
        return 0
    value = decimal_int(cursor)
    if value is None:
        raise InputError("invalid cursor", location="cursor")
    return value


@retry_if_cut
async def sessions_page(
    db: Database, tenant_id: uuid.UUID, forest: str, *, cursor: str | None, limit: int
) -> dict[str, Any]:
    """A page of the forest's sessions in the order they were accepted (``next_cursor`` for more)."""
    after = _int_cursor(cursor)
    async with db.tenant(tenant_id) as conn:
        f = await get_forest(conn, tenant_id, forest)
        rows = await listing.list_sessions(conn, tenant_id, f.forest_id, after=after, limit=limit + 1)
    more = len(rows) > limit
    rows = rows[:limit]
    items = [
        {
            "session_id": r["external_id"],
            "time": iso(r["time"]),
            "turns": r["n_turns"],
            "created_at": iso(r["created_at"]),
        }
        for r in rows
    ]
    return {"items": items, "next_cursor": str(rows[-1]["session_id"]) if more and rows else None}


@retry_if_cut
async def session_detail(db: Database, tenant_id: uuid.UUID, forest: str, session_id: str) -> dict[str, Any]:
    """One session with its turns; NotFoundError for an unknown forest or session."""
    async with db.tenant(tenant_id) as conn:
        f = await get_forest(conn, tenant_id, forest)
        row = await listing.find_session(conn, tenant_id, f.forest_id, session_id)
        if row is None:
            raise NotFoundError("no such session")
        turns = await listing.session_turns(conn, tenant_id, f.forest_id, row["session_id"])
    return {
        "session_id": row["external_id"],
        "time": iso(row["time"]),
        "metadata": row["metadata"],
        "created_at": iso(row["created_at"]),
        "turns": [
            {
                "id": t["external_id"],
                "speaker": t["speaker"],
                "role": t["role"],
                "text": t["text"],
                "time": iso(t["time"]),
            }
            for t in turns
        ],
    }


@retry_if_cut
async def check(db: Database, tenant_id: uuid.UUID, forest: str) -> CheckReport:
    """Every tree invariant of the forest (the report lists the violations)."""
    async with db.tenant(tenant_id) as conn:
        f = await get_forest(conn, tenant_id, forest)
        return await check_forest(conn, tenant_id, f.forest_id)
