"""Browsing a forest's facts: filtered keyset listing, and one fact with its provenance,
supersession chain and placements."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from memforest.errors import InputError, NotFoundError
from memforest.rules import entity_key
from memforest.store.browse.paging import (
    Page,
    check_limit,
    contains_pattern,
    page_rows,
    read_cursor,
    short,
    sid,
    text_param,
    utc_time,
)
from memforest.store.sql import Conn, Row, fetch_all, fetch_one
from memforest.timefmt import iso

MAX_CHAIN = 50  # supersession steps followed in each direction
SNIPPET_CHARS = 300


@dataclass(frozen=True, slots=True)
class FactFilter:
    """Which facts a listing shows.

    ``valid_at``: facts whose validity interval contains that time. ``as_of``: facts recorded (and not
    yet retracted) by that time, and, without ``valid_at``, valid then too. With either time the
    validity interval decides, so a fact superseded later is shown for times it was valid; without
    one, superseded facts are hidden unless ``include_superseded``. Retracted facts are hidden unless
    ``include_retracted``. ``entity`` matches an entity label or key (case-insensitive), ``session``
    a source session's external id, ``speaker`` the fact's speaker (case-insensitive), ``q`` the text
    (substring or full-text match). ``valid_from`` / ``valid_to``: a time window the validity
    interval overlaps (either end open).
    """

    kind: str | None = None
    entity: str | None = None
    session: str | None = None
    valid_at: datetime | None = None
    as_of: datetime | None = None
    include_superseded: bool = False
    include_retracted: bool = False
    q: str | None = None
    speaker: str | None = None
    valid_from: datetime | None = None
    valid_to: datetime | None = None


_FACT_COLS = (
    "x.fact_id, x.text, x.kind, x.entities, x.topics, x.speaker, x.time_text, x.valid_from, x.valid_to, "
    "x.recorded_at, x.retracted_at, x.supersedes, x.superseded_by, x.source_count"
)
_LIST_FACTS = "SELECT " + _FACT_COLS + " FROM facts x WHERE {where} ORDER BY x.valid_from, x.fact_id LIMIT :n"
_FACT = "SELECT " + _FACT_COLS + " FROM facts x WHERE x.tenant_id = :t AND x.forest_id = :f AND x.fact_id = :id"
# conditions on ``facts x`` that ``_fact_where`` combines
_IN_FOREST = "x.tenant_id = :t AND x.forest_id = :f"
_OF_KIND = "x.kind = :kind"
_VALID_AT = "x.valid_from <= :at AND (x.valid_to IS NULL OR x.valid_to > :at)"
_NOT_SUPERSEDED = "x.superseded_by IS NULL"
_RECORDED_BY = "x.recorded_at <= :as_of"
_NOT_RETRACTED_AS_OF = "(x.retracted_at IS NULL OR x.retracted_at > :as_of)"
_NOT_RETRACTED = "x.retracted_at IS NULL"
_OF_ENTITY = (
    "EXISTS (SELECT 1 FROM entity_facts ef JOIN entities e ON e.tenant_id = ef.tenant_id "
    "AND e.entity_id = ef.entity_id WHERE ef.tenant_id = x.tenant_id AND ef.fact_id = x.fact_id "
    "AND e.forest_id = :f AND e.key = :ek)"
)
_FROM_SESSION = (
    "EXISTS (SELECT 1 FROM fact_sources fs JOIN sessions s ON s.tenant_id = fs.tenant_id "
    "AND s.session_id = fs.session_id WHERE fs.tenant_id = x.tenant_id AND fs.fact_id = x.fact_id "
    "AND s.forest_id = :f AND s.external_id = :sess)"
)
_OF_SPEAKER = "lower(x.speaker) = lower(:speaker)"
_VALID_SINCE = "(x.valid_to IS NULL OR x.valid_to > :w_from)"
_VALID_BEFORE = "x.valid_from < :w_to"
_MATCHES_TEXT = "(x.text ILIKE :qlike ESCAPE '\\' OR x.tsv @@ plainto_tsquery('english', :q))"
_AFTER_CURSOR = "(x.valid_from, x.fact_id) > (:ct, :cid)"
_PROVENANCE = (
    "SELECT s.external_id AS session_ext, s.time AS session_time, fs.cell_id, tu.seq, tu.speaker, tu.text, "
    "tu.time, coalesce(tu.external_id, s.external_id || '#' || tu.seq) AS turn_ext, "
    "min(fs.created_at) OVER (PARTITION BY fs.cell_id) AS linked_at FROM fact_sources fs "
    "JOIN turns tu ON tu.tenant_id = fs.tenant_id AND tu.turn_id = fs.turn_id "
    "JOIN sessions s ON s.tenant_id = fs.tenant_id AND s.session_id = fs.session_id "
    "WHERE fs.tenant_id = :t AND fs.forest_id = :f AND fs.fact_id = :id "
    "ORDER BY s.time, s.session_id, fs.cell_id, tu.seq"
)
_PLACEMENTS = (
    "SELECT p.node_id, tr.tree_id, tr.kind, tr.label FROM placements p "
    "JOIN trees tr ON tr.tenant_id = p.tenant_id AND tr.tree_id = p.tree_id "
    "WHERE p.tenant_id = :t AND p.forest_id = :f AND p.source_kind = 'fact' AND p.source_id = :id "
    "ORDER BY tr.tree_id"
)


def _fact_item(r: Row) -> dict[str, Any]:
    status = "retracted" if r["retracted_at"] is not None else "superseded" if r["superseded_by"] else "current"
    return {
        "id": str(r["fact_id"]),
        "text": r["text"],
        "kind": r["kind"],
        "status": status,
        "entities": list(r["entities"] or []),
        "topics": list(r["topics"] or []),
        "speaker": r["speaker"],
        "time_text": r["time_text"],
        "valid_from": iso(r["valid_from"]),
        "valid_to": iso(r["valid_to"]),
        "recorded_at": iso(r["recorded_at"]),
        "retracted_at": iso(r["retracted_at"]),
        "supersedes": sid(r["supersedes"]),
        "superseded_by": sid(r["superseded_by"]),
        "source_count": int(r["source_count"]),
    }


def _fact_where(flt: FactFilter, p: dict[str, Any]) -> list[str]:
    """SQL conditions on ``facts x`` for ``flt``, filling ``p`` with their parameters."""
    where = [_IN_FOREST]
    if flt.kind is not None:
        where.append(_OF_KIND)
        p["kind"] = text_param(flt.kind, "kind")
    valid_at = utc_time(flt.valid_at, "valid_at")
    as_of = utc_time(flt.as_of, "as_of")
    at = valid_at if valid_at is not None else as_of
    if at is not None:
        where.append(_VALID_AT)
        p["at"] = at
    elif not flt.include_superseded:
        where.append(_NOT_SUPERSEDED)
    if as_of is not None:
        where.append(_RECORDED_BY)
        p["as_of"] = as_of
    if not flt.include_retracted:
        where.append(_NOT_RETRACTED_AS_OF if as_of else _NOT_RETRACTED)
    if flt.entity is not None:
        p["ek"] = entity_key(text_param(flt.entity, "entity") or "")
        where.append(_OF_ENTITY)
    if flt.session is not None:
        p["sess"] = text_param(flt.session, "session")
        where.append(_FROM_SESSION)
    if flt.speaker is not None:
        p["speaker"] = text_param(flt.speaker, "speaker")
        where.append(_OF_SPEAKER)
    w_from, w_to = utc_time(flt.valid_from, "valid_from"), utc_time(flt.valid_to, "valid_to")
    if w_from is not None and w_to is not None and w_from >= w_to:
        raise InputError("must be later than valid_from", location="valid_to")
    if w_from is not None:
        p["w_from"] = w_from
        where.append(_VALID_SINCE)
    if w_to is not None:
        p["w_to"] = w_to
        where.append(_VALID_BEFORE)
    if flt.q is not None:
        q = text_param(flt.q, "q") or ""
        p["q"] = q
        p["qlike"] = contains_pattern(q)
        where.append(_MATCHES_TEXT)
    return where


async def list_facts(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    flt: FactFilter,
    *,
    cursor: str | None = None,
    limit: int = 50,
) -> Page:
    """Facts of the forest matching ``flt`` in time order (valid_from, then id)."""
    p: dict[str, Any] = {"t": tenant_id, "f": forest_id, "n": check_limit(limit) + 1}
    where = _fact_where(flt, p)
    if cursor is not None:
        p["ct"], p["cid"] = read_cursor(cursor, datetime, int)
        where.append(_AFTER_CURSOR)
    rows = await fetch_all(conn, _LIST_FACTS.format(where=" AND ".join(where)), p)
    rows, nxt = page_rows(rows, limit, lambda r: (r["valid_from"].isoformat(), str(r["fact_id"])))
    return Page([_fact_item(r) for r in rows], nxt)


async def _fact_row(conn: Conn, tenant_id: uuid.UUID, forest_id: int, fact_id: int) -> Row | None:
    return await fetch_one(conn, _FACT, {"t": tenant_id, "f": forest_id, "id": fact_id})


async def fact_provenance(conn: Conn, tenant_id: uuid.UUID, forest_id: int, fact_id: int) -> list[dict[str, Any]]:
    """The fact's sources, one per cell, oldest first: session, turns (client ids), cell, snippet, time."""
    rows = await fetch_all(conn, _PROVENANCE, {"t": tenant_id, "f": forest_id, "id": fact_id})
    out: dict[int, dict[str, Any]] = {}
    for r in rows:
        src = out.get(int(r["cell_id"]))
        line = f"{r['speaker']}: {r['text']}"
        if src is None:
            out[int(r["cell_id"])] = {
                "session_id": r["session_ext"],
                "session_time": iso(r["session_time"]),
                "cell_id": str(r["cell_id"]),
                "turn_ids": [r["turn_ext"]],
                "time": iso(r["time"]),
                "snippet": line,
                "linked_at": iso(r["linked_at"]),
            }
        else:
            src["turn_ids"].append(r["turn_ext"])
            src["snippet"] += "\n" + line
    for src in out.values():
        src["snippet"] = short(src["snippet"], SNIPPET_CHARS)
    return list(out.values())


async def supersession_chain(conn: Conn, tenant_id: uuid.UUID, forest_id: int, fact: Row) -> list[dict[str, Any]]:
    """The facts linked to ``fact`` by supersession, oldest first, the fact itself included.

    Follows ``supersedes`` back and ``superseded_by`` forward, at most ``MAX_CHAIN`` steps each way,
    stopping at a fact already seen (so a corrupt cycle cannot loop)."""
    seen = {int(fact["fact_id"])}
    sides: dict[str, list[Row]] = {"supersedes": [], "superseded_by": []}
    for column, side in sides.items():
        row = fact
        for _ in range(MAX_CHAIN):
            nxt = row[column]
            if nxt is None or int(nxt) in seen:
                break
            found = await _fact_row(conn, tenant_id, forest_id, int(nxt))
            if found is None:
                break
            seen.add(int(nxt))
            side.append(found)
            row = found
    ordered = [*reversed(sides["supersedes"]), fact, *sides["superseded_by"]]
    return [
        {
            "id": str(r["fact_id"]),
            "text": r["text"],
            "valid_from": iso(r["valid_from"]),
            "valid_to": iso(r["valid_to"]),
            "recorded_at": iso(r["recorded_at"]),
            "retracted_at": iso(r["retracted_at"]),
            "is_requested": r is fact,
        }
        for r in ordered
    ]


async def fact_placements(conn: Conn, tenant_id: uuid.UUID, forest_id: int, fact_id: int) -> list[dict[str, Any]]:
    """The trees holding the fact and the leaf node in each."""
    rows = await fetch_all(conn, _PLACEMENTS, {"t": tenant_id, "f": forest_id, "id": fact_id})
    return [
        {"tree_id": str(r["tree_id"]), "tree_kind": r["kind"], "tree_label": r["label"], "node_id": str(r["node_id"])}
        for r in rows
    ]


async def get_fact(conn: Conn, tenant_id: uuid.UUID, forest_id: int, fact_id: int) -> dict[str, Any]:
    """One fact with ``provenance``, ``supersession_chain`` and ``placements``; NotFoundError when absent."""
    row = await _fact_row(conn, tenant_id, forest_id, fact_id)
    if row is None:
        raise NotFoundError("no such fact")
    out = _fact_item(row)
    out["provenance"] = await fact_provenance(conn, tenant_id, forest_id, fact_id)
    out["supersession_chain"] = await supersession_chain(conn, tenant_id, forest_id, row)
    out["placements"] = await fact_placements(conn, tenant_id, forest_id, fact_id)
    return out
