"""Corroboration reads: the turns the evidence candidates cite, in one statement (named in
``memforest/store/queries/corroborate.sql``, ADR 0037)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from memforest.store import queries
from memforest.store.sql import Conn, fetch_rows

_Q = queries.load("corroborate")
_CANDIDATE_TURNS = _Q["candidate_turns"]


async def candidate_turns(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, fact_ids: Sequence[int], cell_ids: Sequence[int]
) -> dict[tuple[str, int], tuple[int, ...]]:
    """The turn ids each given fact (its sources) and cell (its turns) cites, by ``(kind, id)``; an
    item with none has no entry."""
    p = {"t": tenant_id, "f": forest_id, "fids": list(fact_ids), "cids": list(cell_ids)}
    rows = await fetch_rows(conn, _CANDIDATE_TURNS, p)
    return {(str(r["kind"]), int(r["id"])): tuple(int(t) for t in r["turns"] or ()) for r in rows}
