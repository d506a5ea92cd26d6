"""Query filters on the sources of evidence: session metadata (top-level key equality), client
session ids and turn speakers. A fact matches when one of its sources (a turn and its session)
matches every given part; a cell when its session does and, with speakers, one of its turns."""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from typing import Any

from memforest.store.recall import TIE_MARGIN, Vec
from memforest.store.sql import Conn, fetch_all

# :m (jsonb or NULL), :sids (text[] or NULL) and :sp (text[] or NULL) are the filter's parts.
_SESSION_OK = (
    "(CAST(:m AS jsonb) IS NULL OR NOT EXISTS (SELECT 1 FROM jsonb_each(CAST(:m AS jsonb)) kv "
    " WHERE s.metadata -> kv.key IS DISTINCT FROM kv.value)) "
    "AND (CAST(:sids AS text[]) IS NULL OR s.external_id = ANY(CAST(:sids AS text[])))"
)
_FACT_OK = (
    "EXISTS (SELECT 1 FROM fact_sources fs "
    "JOIN sessions s ON s.tenant_id = fs.tenant_id AND s.session_id = fs.session_id "
    "JOIN turns tu ON tu.tenant_id = fs.tenant_id AND tu.turn_id = fs.turn_id "
    f"WHERE fs.tenant_id = :t AND fs.fact_id = x.fact_id AND {_SESSION_OK} "
    "AND (CAST(:sp AS text[]) IS NULL OR tu.speaker = ANY(CAST(:sp AS text[]))))"
)
_CELL_OK = (
    f"{_SESSION_OK} AND (CAST(:sp AS text[]) IS NULL OR EXISTS (SELECT 1 FROM turns tu "
    "WHERE tu.tenant_id = c.tenant_id AND tu.session_id = c.session_id AND tu.seq BETWEEN c.turn_from AND c.turn_to "
    "AND tu.speaker = ANY(CAST(:sp AS text[]))))"
)
_CELL_FROM = "cells c JOIN sessions s ON s.tenant_id = c.tenant_id AND s.session_id = c.session_id"

_MATCHING_FACTS = (
    "SELECT x.fact_id FROM facts x WHERE x.tenant_id = :t AND x.forest_id = :f AND x.fact_id = ANY(:ids) "
    f"AND {_FACT_OK}"
)
_MATCHING_CELLS = (
    f"SELECT c.cell_id FROM {_CELL_FROM} WHERE c.tenant_id = :t AND c.forest_id = :f AND c.cell_id = ANY(:ids) "
    f"AND {_CELL_OK}"
)
# the nearest matching items; rows at the same distance kept by id, as recall keeps them
# (``memforest.store.recall``: ``TIE_MARGIN`` rows past the limit, then distance and id)
_NEAREST_FACTS = (
    "WITH c AS MATERIALIZED (SELECT x.fact_id AS id, x.embedding <=> :q AS d FROM facts x "
    "WHERE x.tenant_id = :t AND x.forest_id = :f AND x.retracted_at IS NULL AND x.embedding IS NOT NULL "
    f"AND {_FACT_OK} ORDER BY x.embedding <=> :q LIMIT :k + {TIE_MARGIN}) "
    "SELECT id, coalesce(1 - d, 0) AS sim FROM c ORDER BY d, id LIMIT :k"
)
_NEAREST_CELLS = (
    f"WITH m AS MATERIALIZED (SELECT c.cell_id AS id, n.embedding <=> :q AS d FROM {_CELL_FROM} "
    "JOIN nodes n ON n.tenant_id = c.tenant_id AND n.leaf_cell_id = c.cell_id AND n.embedding IS NOT NULL "
    f"WHERE c.tenant_id = :t AND c.forest_id = :f AND {_CELL_OK} ORDER BY n.embedding <=> :q "
    f"LIMIT :k + {TIE_MARGIN}) SELECT id, coalesce(1 - d, 0) AS sim FROM m ORDER BY d, id LIMIT :k"
)


def _params(
    tenant_id: uuid.UUID,
    forest_id: int,
    metadata: dict[str, Any] | None,
    session_ids: Sequence[str] | None,
    speakers: Sequence[str] | None,
) -> dict[str, Any]:
    return {
        "t": tenant_id, "f": forest_id, "m": json.dumps(metadata) if metadata is not None else None,
        "sids": list(session_ids) if session_ids is not None else None,
        "sp": list(speakers) if speakers is not None else None,
    }  # fmt: skip


async def matching(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    fact_ids: Sequence[int],
    cell_ids: Sequence[int],
    *,
    metadata: dict[str, Any] | None,
    session_ids: Sequence[str] | None,
    speakers: Sequence[str] | None,
) -> tuple[set[int], set[int]]:
    """The given facts and cells that match the filter."""
    p = _params(tenant_id, forest_id, metadata, session_ids, speakers)
    facts = await fetch_all(conn, _MATCHING_FACTS, p | {"ids": list(fact_ids)}) if fact_ids else []
    cells = await fetch_all(conn, _MATCHING_CELLS, p | {"ids": list(cell_ids)}) if cell_ids else []
    return {int(r["fact_id"]) for r in facts}, {int(r["cell_id"]) for r in cells}


async def nearest_matching(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    q: Vec,
    k: int,
    *,
    metadata: dict[str, Any] | None,
    session_ids: Sequence[str] | None,
    speakers: Sequence[str] | None,
) -> tuple[list[tuple[int, float]], list[tuple[int, float]]]:
    """The ``k`` facts and ``k`` cells nearest to ``q`` among those matching the filter (exact scan
    over the matching sources): ``(id, cosine)`` pairs."""
    p = _params(tenant_id, forest_id, metadata, session_ids, speakers) | {"q": q, "k": k}
    facts = await fetch_all(conn, _NEAREST_FACTS, p)
    cells = await fetch_all(conn, _NEAREST_CELLS, p)
    return [(int(r["id"]), float(r["sim"])) for r in facts], [(int(r["id"]), float(r["sim"])) for r in cells]
