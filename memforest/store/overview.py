"""Overview reads of a tenant's memory: its forests with counts and last write, a forest's entities,
and one entity's timeline (its state chains and the other facts naming it)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from memforest.errors import NotFoundError
from memforest.rules import entity_key
from memforest.store.browse.paging import Page, check_limit, contains_pattern, page_rows, read_cursor, text_param
from memforest.store.sql import Conn, Row, fetch_all, fetch_one
from memforest.timefmt import iso

MAX_STATES = 500  # state facts of one entity in a timeline
MAX_EVENTS = 200  # other facts naming the entity in a timeline

_FORESTS = (
    "SELECT f.name, "
    "(SELECT count(*) FROM sessions s WHERE s.tenant_id = f.tenant_id AND s.forest_id = f.forest_id) AS sessions, "
    "(SELECT count(*) FROM facts x WHERE x.tenant_id = f.tenant_id AND x.forest_id = f.forest_id "
    "AND x.retracted_at IS NULL) AS facts, "
    "(SELECT count(*) FROM facts x WHERE x.tenant_id = f.tenant_id AND x.forest_id = f.forest_id "
    "AND x.retracted_at IS NULL AND x.superseded_by IS NULL) AS facts_current, "
    "(SELECT count(*) FROM trees tr WHERE tr.tenant_id = f.tenant_id AND tr.forest_id = f.forest_id) AS trees, "
    "greatest(f.created_at, "
    "(SELECT max(s.created_at) FROM sessions s WHERE s.tenant_id = f.tenant_id AND s.forest_id = f.forest_id), "
    "(SELECT max(greatest(x.recorded_at, x.retracted_at)) FROM facts x "
    "WHERE x.tenant_id = f.tenant_id AND x.forest_id = f.forest_id)) AS last_write "
    "FROM forests f WHERE f.tenant_id = :t AND f.name NOT LIKE '~staging:%' ORDER BY f.name"
)
_ENTITY_COLS = "e.entity_id, e.key, e.label, e.is_speaker, e.fact_count, e.session_count, e.first_time, e.last_time"
_ENTITIES = (
    "SELECT " + _ENTITY_COLS + " FROM entities e WHERE e.tenant_id = :t AND e.forest_id = :f AND e.fact_count > 0 "
    "{more} ORDER BY e.fact_count DESC, e.entity_id LIMIT :n"
)
_ENTITY_MATCHES = "AND e.key LIKE :qlike ESCAPE '\\' "
_ENTITY_AFTER = "AND (e.fact_count < :cn OR (e.fact_count = :cn AND e.entity_id > :cid)) "
_ENTITY = "SELECT " + _ENTITY_COLS + " FROM entities e WHERE e.tenant_id = :t AND e.forest_id = :f AND e.key = :ek"
_STATE_COLS = "x.fact_id, x.text, x.kind, x.attribute, x.value, x.valid_from, x.valid_to, x.superseded_by"
# the entity's slots: facts whose subject is the entity (ix_facts_subject), superseded ones included
_STATES = (
    "SELECT " + _STATE_COLS + " FROM facts x WHERE x.tenant_id = :t AND x.forest_id = :f "
    "AND lower(x.subject) = :subj AND x.attribute IS NOT NULL AND x.retracted_at IS NULL "
    "ORDER BY x.attribute, x.valid_from, x.fact_id LIMIT :n"
)
# the other facts linked to the entity, in time order: the points of the timeline
_EVENTS = (
    "SELECT " + _STATE_COLS + " FROM entity_facts ef JOIN facts x ON x.tenant_id = ef.tenant_id "
    "AND x.fact_id = ef.fact_id WHERE ef.tenant_id = :t AND ef.entity_id = :e AND x.retracted_at IS NULL "
    "AND (x.attribute IS NULL OR x.subject IS NULL OR lower(x.subject) <> :subj) "
    "ORDER BY x.valid_from, x.fact_id LIMIT :n"
)


async def forest_overview(conn: Conn, tenant_id: uuid.UUID) -> list[dict[str, Any]]:
    """Every forest of the tenant by name: sessions, facts (not retracted), current facts, trees and
    the time of its last write (a session accepted, a fact recorded or retracted, or its creation)."""
    rows = await fetch_all(conn, _FORESTS, {"t": tenant_id})
    return [
        {
            "name": r["name"],
            "sessions": int(r["sessions"]),
            "facts": int(r["facts"]),
            "facts_current": int(r["facts_current"]),
            "trees": int(r["trees"]),
            "last_write": iso(r["last_write"]),
        }
        for r in rows
    ]


def _entity_item(r: Row) -> dict[str, Any]:
    return {
        "key": r["key"],
        "label": r["label"],
        "is_speaker": bool(r["is_speaker"]),
        "fact_count": int(r["fact_count"]),
        "session_count": int(r["session_count"]),
        "first_time": iso(r["first_time"]),
        "last_time": iso(r["last_time"]),
    }


async def list_entities(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, *, q: str | None, cursor: str | None, limit: int
) -> Page:
    """The forest's entities with facts, most facts first; ``q`` a substring of the entity's key."""
    p: dict[str, Any] = {"t": tenant_id, "f": forest_id, "n": check_limit(limit) + 1}
    more = ""
    if q is not None:
        key = entity_key(text_param(q, "q") or "")
        p["qlike"] = contains_pattern(key)
        more += _ENTITY_MATCHES
    if cursor is not None:
        p["cn"], p["cid"] = read_cursor(cursor, int, int)
        more += _ENTITY_AFTER
    rows = await fetch_all(conn, _ENTITIES.format(more=more), p)
    rows, nxt = page_rows(rows, limit, lambda r: (str(r["fact_count"]), str(r["entity_id"])))
    return Page([_entity_item(r) for r in rows], nxt)


def _state(r: Row) -> dict[str, Any]:
    return {
        "fact_id": str(r["fact_id"]),
        "text": r["text"],
        "kind": r["kind"],
        "value": r["value"],
        "valid_from": iso(r["valid_from"]),
        "valid_to": iso(r["valid_to"]),
        "status": "superseded" if r["superseded_by"] is not None else "current",
    }


def _chains(rows: Sequence[Row]) -> list[dict[str, Any]]:
    chains: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        chains.setdefault(str(r["attribute"]), []).append(_state(r))
    return [{"attribute": attribute, "states": states} for attribute, states in chains.items()]


async def entity_timeline(conn: Conn, tenant_id: uuid.UUID, forest_id: int, entity: str) -> dict[str, Any]:
    """The entity named ``entity`` (label or key): its state chains, one per attribute with its values
    in valid-time order (superseded ones included, retracted ones not), and the other facts naming
    it (``events``). NotFoundError for an entity the forest does not know."""
    key = entity_key(text_param(entity, "entity") or "")
    row = await fetch_one(conn, _ENTITY, {"t": tenant_id, "f": forest_id, "ek": key})
    if row is None:
        raise NotFoundError(f"no entity {entity!r} in this forest")
    subj = str(row["label"]).lower()
    states = await fetch_all(conn, _STATES, {"t": tenant_id, "f": forest_id, "subj": subj, "n": MAX_STATES})
    events = await fetch_all(conn, _EVENTS, {"t": tenant_id, "e": row["entity_id"], "subj": subj, "n": MAX_EVENTS})
    return {
        "entity": _entity_item(row),
        "chains": _chains(states),
        "events": [_state(r) for r in events],
    }
