"""Read-only browsing of one forest: facts (with provenance and supersession chains), trees, nodes.

Every function takes ``tenant_id`` and ``forest_id`` first, filters every statement by both, and
returns JSON-ready dicts (ids as strings, times as ISO 8601) whose field names are the stable
contract of the HTTP API, the MCP server and the CLI. Lists use keyset pagination with opaque
cursors, so pages never overlap or skip rows however deep the client pages.
"""

from __future__ import annotations

import base64
import binascii
import re
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from memforest.domain import TreeKind
from memforest.errors import InputError, NotFoundError
from memforest.pipeline.route import entity_key
from memforest.store.sql import Row, fetch_all, fetch_one

MAX_LIMIT = 200
MAX_CHAIN = 50  # supersession steps followed in each direction
SNIPPET_CHARS = 300
SHORT_CHARS = 200
_ID_RE = re.compile(r"[0-9]{1,18}")
_CURSOR_INT_RE = re.compile(r"-?[0-9]{1,18}")


@dataclass(frozen=True, slots=True)
class Page:
    """One page of a list: ``items`` and the cursor of the next page (None on the last one)."""

    items: list[dict[str, Any]]
    next_cursor: str | None

    def to_json(self) -> dict[str, Any]:
        """``{"items": [...], "next_cursor": ...}``."""
        return {"items": self.items, "next_cursor": self.next_cursor}


@dataclass(frozen=True, slots=True)
class FactFilter:
    """Which facts a listing shows.

    ``valid_at``: facts whose validity interval contains that time. ``as_of``: facts recorded (and not
    yet retracted) by that time, and, without ``valid_at``, valid then too. With either time the
    validity interval decides, so a fact superseded later is shown for times it was valid; without
    one, superseded facts are hidden unless ``include_superseded``. Retracted facts are hidden unless
    ``include_retracted``. ``entity`` matches an entity label or key (case-insensitive), ``session``
    a source session's external id, ``q`` the text (substring or full-text match).
    """

    kind: str | None = None
    entity: str | None = None
    session: str | None = None
    valid_at: datetime | None = None
    as_of: datetime | None = None
    include_superseded: bool = False
    include_retracted: bool = False
    q: str | None = None


# ---------------------------------------------------------------- small helpers


def parse_id(value: str) -> int:
    """A path id: anything that is not a plain non-negative integer is simply absent (NotFoundError)."""
    if not _ID_RE.fullmatch(value):
        raise NotFoundError("not found")
    return int(value)


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _sid(value: Any) -> str | None:
    return str(value) if value is not None else None


def _short(text: str | None, n: int = SHORT_CHARS) -> str | None:
    if text is None:
        return None
    return text if len(text) <= n else text[: n - 1].rstrip() + "…"


def _text_param(value: str | None, name: str) -> str | None:
    """A text filter as the database can take it (no NUL characters)."""
    if value is not None and "\x00" in value:
        raise InputError("must not contain NUL characters", location=name)
    return value


def utc_time(value: datetime | None, name: str) -> datetime | None:
    """A filter time as an aware UTC datetime (naive times are taken as UTC)."""
    if value is None:
        return None
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    try:
        return value.astimezone(UTC)
    except (OverflowError, ValueError):
        raise InputError("time out of range", location=name) from None


def _limit(limit: int) -> int:
    if not 1 <= limit <= MAX_LIMIT:
        raise InputError(f"must be 1-{MAX_LIMIT}", location="limit")
    return limit


def encode_cursor(*parts: str) -> str:
    """An opaque cursor for a keyset position."""
    return base64.urlsafe_b64encode("|".join(parts).encode("utf-8")).decode("ascii").rstrip("=")


def decode_cursor(cursor: str, n: int) -> list[str]:
    """The ``n`` parts of a cursor made by ``encode_cursor``; InputError for anything else."""
    try:
        if len(cursor) > 200:
            raise ValueError
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode("utf-8")
    except (ValueError, binascii.Error, UnicodeDecodeError):
        raise InputError("invalid cursor", location="cursor") from None
    parts = raw.split("|")
    if len(parts) != n:
        raise InputError("invalid cursor", location="cursor")
    return parts


def _cursor_time(part: str) -> datetime:
    try:
        value = datetime.fromisoformat(part)
    except ValueError:
        raise InputError("invalid cursor", location="cursor") from None
    if value.tzinfo is None:
        raise InputError("invalid cursor", location="cursor")
    return value


def _cursor_int(part: str) -> int:
    if not _CURSOR_INT_RE.fullmatch(part):
        raise InputError("invalid cursor", location="cursor")
    return int(part)


# ---------------------------------------------------------------- facts

_FACT_COLS = (
    "x.fact_id, x.text, x.kind, x.entities, x.topics, x.speaker, x.time_text, x.valid_from, x.valid_to, "
    "x.recorded_at, x.retracted_at, x.supersedes, x.superseded_by, x.source_count"
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
        "valid_from": _iso(r["valid_from"]),
        "valid_to": _iso(r["valid_to"]),
        "recorded_at": _iso(r["recorded_at"]),
        "retracted_at": _iso(r["retracted_at"]),
        "supersedes": _sid(r["supersedes"]),
        "superseded_by": _sid(r["superseded_by"]),
        "source_count": int(r["source_count"]),
    }


def _fact_where(flt: FactFilter, p: dict[str, Any]) -> list[str]:
    """SQL conditions on ``facts x`` for ``flt``, filling ``p`` with their parameters."""
    where = ["x.tenant_id = :t", "x.forest_id = :f"]
    if flt.kind is not None:
        where.append("x.kind = :kind")
        p["kind"] = _text_param(flt.kind, "kind")
    valid_at = utc_time(flt.valid_at, "valid_at")
    as_of = utc_time(flt.as_of, "as_of")
    at = valid_at if valid_at is not None else as_of
    if at is not None:
        where.append("x.valid_from <= :at AND (x.valid_to IS NULL OR x.valid_to > :at)")
        p["at"] = at
    elif not flt.include_superseded:
        where.append("x.superseded_by IS NULL")
    if as_of is not None:
        where.append("x.recorded_at <= :as_of")
        p["as_of"] = as_of
    if not flt.include_retracted:
        where.append("(x.retracted_at IS NULL OR x.retracted_at > :as_of)" if as_of else "x.retracted_at IS NULL")
    if flt.entity is not None:
        p["ek"] = entity_key(_text_param(flt.entity, "entity") or "")
        where.append(
            "EXISTS (SELECT 1 FROM entity_facts ef JOIN entities e ON e.tenant_id = ef.tenant_id "
            "AND e.entity_id = ef.entity_id WHERE ef.tenant_id = x.tenant_id AND ef.fact_id = x.fact_id "
            "AND e.forest_id = :f AND e.key = :ek)"
        )
    if flt.session is not None:
        p["sess"] = _text_param(flt.session, "session")
        where.append(
            "EXISTS (SELECT 1 FROM fact_sources fs JOIN sessions s ON s.tenant_id = fs.tenant_id "
            "AND s.session_id = fs.session_id WHERE fs.tenant_id = x.tenant_id AND fs.fact_id = x.fact_id "
            "AND s.forest_id = :f AND s.external_id = :sess)"
        )
    if flt.q is not None:
        q = _text_param(flt.q, "q") or ""
        p["q"] = q
        p["qlike"] = "%" + q.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        where.append("(x.text ILIKE :qlike ESCAPE '\\' OR x.tsv @@ plainto_tsquery('english', :q))")
    return where


async def list_facts(
    conn: AsyncConnection,
    tenant_id: uuid.UUID,
    forest_id: int,
    flt: FactFilter,
    *,
    cursor: str | None = None,
    limit: int = 50,
) -> Page:
    """Facts of the forest matching ``flt`` in time order (valid_from, then id)."""
    p: dict[str, Any] = {"t": tenant_id, "f": forest_id, "n": _limit(limit) + 1}
    where = _fact_where(flt, p)
    if cursor is not None:
        t_part, id_part = decode_cursor(cursor, 2)
        p["ct"], p["cid"] = _cursor_time(t_part), _cursor_int(id_part)
        where.append("(x.valid_from, x.fact_id) > (:ct, :cid)")
    rows = await fetch_all(
        conn,
        f"SELECT {_FACT_COLS} FROM facts x WHERE {' AND '.join(where)} ORDER BY x.valid_from, x.fact_id LIMIT :n",
        p,
    )
    more = len(rows) > limit
    rows = rows[:limit]
    nxt = encode_cursor(rows[-1]["valid_from"].isoformat(), str(rows[-1]["fact_id"])) if more and rows else None
    return Page([_fact_item(r) for r in rows], nxt)


async def _fact_row(conn: AsyncConnection, tenant_id: uuid.UUID, forest_id: int, fact_id: int) -> Row | None:
    return await fetch_one(
        conn,
        f"SELECT {_FACT_COLS} FROM facts x WHERE x.tenant_id = :t AND x.forest_id = :f AND x.fact_id = :id",
        {"t": tenant_id, "f": forest_id, "id": fact_id},
    )


async def fact_provenance(
    conn: AsyncConnection, tenant_id: uuid.UUID, forest_id: int, fact_id: int
) -> list[dict[str, Any]]:
    """The fact's sources, one per cell, oldest first: session, turns (client ids), cell, snippet, time."""
    rows = await fetch_all(
        conn,
        "SELECT s.external_id AS session_ext, s.time AS session_time, fs.cell_id, tu.seq, tu.speaker, tu.text, "
        "tu.time, coalesce(tu.external_id, s.external_id || '#' || tu.seq) AS turn_ext, "
        "min(fs.created_at) OVER (PARTITION BY fs.cell_id) AS linked_at FROM fact_sources fs "
        "JOIN turns tu ON tu.tenant_id = fs.tenant_id AND tu.turn_id = fs.turn_id "
        "JOIN sessions s ON s.tenant_id = fs.tenant_id AND s.session_id = fs.session_id "
        "WHERE fs.tenant_id = :t AND fs.forest_id = :f AND fs.fact_id = :id "
        "ORDER BY s.time, s.session_id, fs.cell_id, tu.seq",
        {"t": tenant_id, "f": forest_id, "id": fact_id},
    )
    out: dict[int, dict[str, Any]] = {}
    for r in rows:
        src = out.get(int(r["cell_id"]))
        line = f"{r['speaker']}: {r['text']}"
        if src is None:
            out[int(r["cell_id"])] = {
                "session_id": r["session_ext"],
                "session_time": _iso(r["session_time"]),
                "cell_id": str(r["cell_id"]),
                "turn_ids": [r["turn_ext"]],
                "time": _iso(r["time"]),
                "snippet": line,
                "linked_at": _iso(r["linked_at"]),
            }
        else:
            src["turn_ids"].append(r["turn_ext"])
            src["snippet"] += "\n" + line
    for src in out.values():
        src["snippet"] = _short(src["snippet"], SNIPPET_CHARS)
    return list(out.values())


async def supersession_chain(
    conn: AsyncConnection, tenant_id: uuid.UUID, forest_id: int, fact: Row
) -> list[dict[str, Any]]:
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
            "valid_from": _iso(r["valid_from"]),
            "valid_to": _iso(r["valid_to"]),
            "recorded_at": _iso(r["recorded_at"]),
            "retracted_at": _iso(r["retracted_at"]),
            "is_requested": r is fact,
        }
        for r in ordered
    ]


async def fact_placements(
    conn: AsyncConnection, tenant_id: uuid.UUID, forest_id: int, fact_id: int
) -> list[dict[str, Any]]:
    """The trees holding the fact and the leaf node in each."""
    rows = await fetch_all(
        conn,
        "SELECT p.node_id, tr.tree_id, tr.kind, tr.label FROM placements p "
        "JOIN trees tr ON tr.tenant_id = p.tenant_id AND tr.tree_id = p.tree_id "
        "WHERE p.tenant_id = :t AND p.forest_id = :f AND p.source_kind = 'fact' AND p.source_id = :id "
        "ORDER BY tr.tree_id",
        {"t": tenant_id, "f": forest_id, "id": fact_id},
    )
    return [
        {"tree_id": str(r["tree_id"]), "tree_kind": r["kind"], "tree_label": r["label"], "node_id": str(r["node_id"])}
        for r in rows
    ]


async def get_fact(conn: AsyncConnection, tenant_id: uuid.UUID, forest_id: int, fact_id: int) -> dict[str, Any]:
    """One fact with ``provenance``, ``supersession_chain`` and ``placements``; NotFoundError when absent."""
    row = await _fact_row(conn, tenant_id, forest_id, fact_id)
    if row is None:
        raise NotFoundError("no such fact")
    out = _fact_item(row)
    out["provenance"] = await fact_provenance(conn, tenant_id, forest_id, fact_id)
    out["supersession_chain"] = await supersession_chain(conn, tenant_id, forest_id, row)
    out["placements"] = await fact_placements(conn, tenant_id, forest_id, fact_id)
    return out


# ---------------------------------------------------------------- trees


def _tree_item(r: Row) -> dict[str, Any]:
    return {
        "id": str(r["tree_id"]),
        "kind": r["kind"],
        "label": r["label"],
        "key": r["key"],
        "root_node_id": _sid(r["root_node_id"]),
        "height": int(r["height"]),
        "n_leaves": int(r["n_leaves"]),
        "fanout": int(r["fanout"]),
        "created_at": _iso(r["created_at"]),
    }


async def list_trees(
    conn: AsyncConnection,
    tenant_id: uuid.UUID,
    forest_id: int,
    kind: TreeKind | None = None,
    *,
    cursor: str | None = None,
    limit: int = 50,
) -> Page:
    """Trees of the forest (optionally of one kind) in creation order."""
    p: dict[str, Any] = {"t": tenant_id, "f": forest_id, "n": _limit(limit) + 1}
    where = ["tenant_id = :t", "forest_id = :f"]
    if kind is not None:
        where.append("kind = :kind")
        p["kind"] = str(kind)
    if cursor is not None:
        (part,) = decode_cursor(cursor, 1)
        p["c"] = _cursor_int(part)
        where.append("tree_id > :c")
    rows = await fetch_all(
        conn,
        "SELECT tree_id, kind, key, label, fanout, root_node_id, height, n_leaves, created_at FROM trees "
        f"WHERE {' AND '.join(where)} ORDER BY tree_id LIMIT :n",
        p,
    )
    more = len(rows) > limit
    rows = rows[:limit]
    return Page([_tree_item(r) for r in rows], encode_cursor(str(rows[-1]["tree_id"])) if more and rows else None)


# ---------------------------------------------------------------- nodes


def _interval(r: Row) -> dict[str, str | None]:
    return {"start": _iso(r["t_start"]), "end": _iso(r["t_end"])}


_NODE_COLS = (
    "n.node_id, n.tree_id, n.level, n.parent_id, n.t_start, n.t_end, n.seq, n.n_children, n.summary, n.dirty, "
    "n.leaf_fact_id, n.leaf_cell_id, fa.text AS fact_text, ce.text AS cell_text"
)
_NODE_JOINS = (
    "LEFT JOIN facts fa ON fa.tenant_id = n.tenant_id AND fa.fact_id = n.leaf_fact_id "
    "LEFT JOIN cells ce ON ce.tenant_id = n.tenant_id AND ce.cell_id = n.leaf_cell_id"
)


def _leaf(r: Row) -> dict[str, Any] | None:
    if r["leaf_fact_id"] is not None:
        return {"kind": "fact", "id": str(r["leaf_fact_id"]), "text": r["fact_text"]}
    if r["leaf_cell_id"] is not None:
        return {"kind": "cell", "id": str(r["leaf_cell_id"]), "text": r["cell_text"]}
    return None


def _child_item(r: Row) -> dict[str, Any]:
    leaf = _leaf(r)
    text = r["summary"] if r["summary"] is not None else (leaf or {}).get("text")
    return {
        "id": str(r["node_id"]),
        "level": int(r["level"]),
        "interval": _interval(r),
        "n_children": int(r["n_children"]),
        "dirty": bool(r["dirty"]),
        "text": _short(text),
        "leaf": {"kind": leaf["kind"], "id": leaf["id"]} if leaf else None,
    }


async def get_node(
    conn: AsyncConnection,
    tenant_id: uuid.UUID,
    forest_id: int,
    node_id: int,
    *,
    cursor: str | None = None,
    limit: int = 50,
) -> dict[str, Any]:
    """One node with a page of its children in time order; NotFoundError when absent."""
    p: dict[str, Any] = {"t": tenant_id, "f": forest_id, "id": node_id, "n": _limit(limit) + 1}
    row = await fetch_one(
        conn,
        f"SELECT {_NODE_COLS}, tr.kind AS tree_kind, tr.label AS tree_label FROM nodes n "
        "JOIN trees tr ON tr.tenant_id = n.tenant_id AND tr.tree_id = n.tree_id "
        f"{_NODE_JOINS} WHERE n.tenant_id = :t AND n.forest_id = :f AND n.node_id = :id",
        p,
    )
    if row is None:
        raise NotFoundError("no such node")
    where = "n.tenant_id = :t AND n.forest_id = :f AND n.parent_id = :id"
    if cursor is not None:
        t_part, seq_part, id_part = decode_cursor(cursor, 3)
        p["ct"], p["cs"], p["cid"] = _cursor_time(t_part), _cursor_int(seq_part), _cursor_int(id_part)
        where += " AND (n.t_start, n.seq, n.node_id) > (:ct, :cs, :cid)"
    children = await fetch_all(
        conn,
        f"SELECT {_NODE_COLS} FROM nodes n {_NODE_JOINS} WHERE {where} ORDER BY n.t_start, n.seq, n.node_id LIMIT :n",
        p,
    )
    more = len(children) > limit
    children = children[:limit]
    last = children[-1] if children else None
    nxt = encode_cursor(last["t_start"].isoformat(), str(last["seq"]), str(last["node_id"])) if more and last else None
    return {
        "id": str(row["node_id"]),
        "tree": {"id": str(row["tree_id"]), "kind": row["tree_kind"], "label": row["tree_label"]},
        "level": int(row["level"]),
        "interval": _interval(row),
        "parent_id": _sid(row["parent_id"]),
        "dirty": bool(row["dirty"]),
        "n_children": int(row["n_children"]),
        "summary": row["summary"] if row["level"] > 0 else None,
        "leaf": _leaf(row),
        "children": [_child_item(c) for c in children],
        "children_next_cursor": nxt,
    }
