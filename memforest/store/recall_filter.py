"""Query filters on the sources of evidence: session metadata (top-level key equality), client
session ids and turn speakers. A fact matches when one of its sources (a turn and its session)
matches every given part; a cell when its session does and, with speakers, one of its turns."""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from typing import Any

from memforest.store import queries
from memforest.store.recall import Vec
from memforest.store.sql import Conn, fetch_all

# :m (jsonb or NULL), :sids (text[] or NULL) and :sp (text[] or NULL) are the filter's parts; the
# nearest matching items keep rows at the same distance by id, as recall keeps them
# (``TIE_MARGIN`` rows past the limit, then distance and id). The statements:
# ``memforest/store/queries/recall_filter.sql`` (ADR 0037).
_Q = queries.load("recall_filter")
_MATCHING_FACTS = _Q["matching_facts"]
_MATCHING_CELLS = _Q["matching_cells"]
_NEAREST_FACTS = _Q["nearest_matching_facts"]
_NEAREST_CELLS = _Q["nearest_matching_cells"]


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
