"""A client's edits to one fact: correct it (a superseding correction) or delete it (ADR 0020), and
read its history (ADR 0044)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from memforest.app.browse import fact_detail
from memforest.app.retry import retry_if_cut
from memforest.backends.factory import Backends
from memforest.db.engine import Database
from memforest.errors import NotFoundError
from memforest.lifecycle import correct
from memforest.settings import Settings
from memforest.store import fact_history
from memforest.store.sql import Row
from memforest.store.tenants import get_forest

__all__ = ["correct_fact", "delete_fact", "fact_events_view", "history"]


def _actor(key_id: uuid.UUID | None) -> str | None:
    return None if key_id is None else f"key:{key_id}"


async def correct_fact(
    db: Database,
    settings: Settings,
    backends: Backends,
    tenant_id: uuid.UUID,
    forest: str,
    fact_id: str,
    text: str,
    valid_from: datetime | None = None,
    *,
    key_id: uuid.UUID | None = None,
) -> dict[str, Any]:
    """Supersede the fact with the client's text; the new fact as ``GET .../facts/{id}`` shows it.
    ``key_id``: the API key making the change (named in the facts' history)."""
    done = await correct.correct_fact(
        db, settings, backends, tenant_id, forest, fact_id, text, valid_from, actor=_actor(key_id)
    )
    return await fact_detail(db, tenant_id, forest, str(done.fact_id))


async def delete_fact(
    db: Database,
    settings: Settings,
    backends: Backends,
    tenant_id: uuid.UUID,
    forest: str,
    fact_id: str,
    *,
    key_id: uuid.UUID | None = None,
    forget_text: bool = False,
) -> dict[str, Any]:
    """Remove the fact from the forest; what was removed and refreshed. Its history keeps a
    ``deleted`` event naming ``key_id``; with ``forget_text`` no event keeps its text."""
    report = await correct.delete_fact(
        db, settings, backends, tenant_id, forest, fact_id, actor=_actor(key_id), forget_text=forget_text
    )
    return {
        "fact_id": fact_id,
        "forest": forest,
        "leaves_removed": report.leaves_removed,
        "trees_removed": report.trees_removed,
        "facts_restored": report.facts_restored,
        "nodes_refreshed": report.nodes_refreshed,
        "rebalance": report.rebalance.as_dict(),
    }


@retry_if_cut
async def history(db: Database, tenant_id: uuid.UUID, forest: str, fact_id: str) -> dict[str, Any]:
    """Every event of the fact, oldest first (a deleted fact's too); NotFoundError for an unknown
    forest, or a fact of which no event is kept."""
    fid = correct.parse_fact_id(fact_id)
    async with db.tenant(tenant_id) as conn:
        f = await get_forest(conn, tenant_id, forest)
        rows = await fact_history.fact_events(conn, tenant_id, f.forest_id, fid, fact_history.MAX_EVENTS + 1)
        superseded = await fact_history.fact_is_live(conn, tenant_id, f.forest_id, fid)
    if not rows:
        raise NotFoundError(f"no fact {fid} in forest {forest!r}")
    status = "deleted" if superseded is None else "superseded" if superseded else "current"
    return {
        "fact_id": str(fid),
        "forest": forest,
        "status": status,
        "events": fact_events_view(rows[: fact_history.MAX_EVENTS]),
        "truncated": len(rows) > fact_history.MAX_EVENTS,
    }


def fact_events_view(rows: list[Row]) -> list[dict[str, Any]]:
    """The stored events as the history lists them: a fact's creation and the sources its
    transaction gave it are one ``extracted`` event; sources added later are ``restated``."""
    created_in = {int(r["xact"]) for r in rows if r["event"] == "created"}
    turns_of_creation: dict[int, Row] = {
        int(r["xact"]): r for r in rows if r["event"] == "sources_added" and int(r["xact"]) in created_in
    }
    out: list[dict[str, Any]] = []
    for r in rows:
        event = str(r["event"])
        sources: Row | None = r
        if event == "created":
            sources = turns_of_creation.get(int(r["xact"]))
            event = "created" if sources is None else "extracted"
        elif event == "sources_added":
            if int(r["xact"]) in turns_of_creation:
                continue
            event = "restated"
        out.append(_event(r, event, sources))
    return out


def _event(r: Row, event: str, sources: Row | None) -> dict[str, Any]:
    related = r["related_fact_id"]
    return {
        "event": event,
        "at": r["at"],
        "related_fact_id": None if related is None else str(related),
        "related_text": r["related_text"],
        "text": r["text"],
        "kind": r["kind"],
        "valid_from": r["valid_from"],
        "valid_to": r["valid_to"],
        "sessions": [s for s in (sources or {}).get("sessions") or () if s is not None],
        "turn_ids": [t for t in (sources or {}).get("turns") or () if t is not None],
        "actor": r["actor"],
        "text_dropped": bool(r["text_dropped"]),
    }
