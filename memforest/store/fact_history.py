"""A fact's events (``fact_events``, ADR 0044): written by the triggers of migration 0025 on
``facts`` and ``fact_sources``, read here. The transaction settings the triggers read are named here
too: ``memforest.actor`` (who made the change: an API key id) and ``memforest.history`` (``off``
while a forest is forgotten: its events go with it)."""

from __future__ import annotations

import uuid

from memforest.store.sql import Conn, Row, execute, fetch_all, scalar

__all__ = [
    "ACTOR_SETTING",
    "MAX_EVENTS",
    "actor_knobs",
    "drop_texts",
    "fact_events",
    "fact_is_live",
    "pause_history",
]

ACTOR_SETTING = "memforest.actor"
HISTORY_SETTING = "memforest.history"
#: At most this many events of one fact are read (oldest first).
MAX_EVENTS = 1000

_EVENTS = """
SELECT e.event_id, e.event, e.fact_id, e.related_fact_id, r.text AS related_text, e.text, e.kind, e.valid_from,
       e.valid_to, e.turns, e.sessions, e.actor, e.text_dropped, e.xact, e.at
FROM fact_events e
LEFT JOIN facts r ON r.tenant_id = e.tenant_id AND r.fact_id = e.related_fact_id
WHERE e.tenant_id = :t AND e.forest_id = :f AND e.fact_id = :id
ORDER BY e.event_id LIMIT :n
"""
_LIVE = "SELECT superseded_by IS NOT NULL FROM facts WHERE tenant_id = :t AND forest_id = :f AND fact_id = :id"
_PAUSE = f"SELECT set_config('{HISTORY_SETTING}', 'off', true)"
_DROP_TEXTS = "UPDATE fact_events SET text = NULL, text_dropped = true WHERE tenant_id = :t AND fact_id = :id"


def actor_knobs(actor: str | None) -> dict[str, str]:
    """The tenant-transaction settings (``Database.tenant(knobs=...)``) that name ``actor`` in the
    events the transaction writes; none for None."""
    return {ACTOR_SETTING: actor} if actor else {}


async def fact_events(conn: Conn, tenant_id: uuid.UUID, forest_id: int, fact_id: int, limit: int) -> list[Row]:
    """The fact's events oldest first, at most ``limit``, each with the related fact's text when that
    fact still exists (``related_text``)."""
    return await fetch_all(conn, _EVENTS, {"t": tenant_id, "f": forest_id, "id": fact_id, "n": limit})


async def fact_is_live(conn: Conn, tenant_id: uuid.UUID, forest_id: int, fact_id: int) -> bool | None:
    """None when the fact is not stored (deleted or never was); else whether it is superseded."""
    value = await scalar(conn, _LIVE, {"t": tenant_id, "f": forest_id, "id": fact_id})
    return None if value is None else bool(value)


async def pause_history(conn: Conn) -> None:
    """Write no fact events for the rest of the transaction (a forest being forgotten)."""
    await execute(conn, _PAUSE, {})


async def drop_texts(conn: Conn, tenant_id: uuid.UUID, fact_id: int) -> int:
    """Blank the text of every event of the fact and mark them (a deletion that forgets the text);
    returns how many events."""
    return await execute(conn, _DROP_TEXTS, {"t": tenant_id, "id": fact_id})
