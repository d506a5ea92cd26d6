"""The time of the event a question names ("before the move to Miami"): the best-matching fact or
cell of the forest, by its vector's similarity and its words' overlap with the event's."""

from __future__ import annotations

import uuid
from datetime import datetime

from memforest.store.recall import Vec, anchor_candidates, nearest_cells, nearest_facts
from memforest.store.sql import Conn
from memforest.text.terms import content_terms

__all__ = ["resolve_anchor"]

NEAREST = 10  # facts and cells read by vector for an event


async def resolve_anchor(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    anchor: str,
    vec: Vec,
    *,
    exact: bool,
    as_of: datetime | None,
) -> datetime | None:
    """The time of the best-matching fact or cell for the event ``anchor`` (``vec``: its
    embedding), among those sharing a word with it; None when none does. ``exact``: the forest has
    no indexes of its own and is scanned."""
    facts = await nearest_facts(conn, tenant_id, forest_id, vec, NEAREST, exact=exact, as_of=as_of)
    cells = await nearest_cells(conn, tenant_id, forest_id, vec, NEAREST, exact=exact, as_of=as_of)
    terms = set(content_terms(anchor))
    rows = await anchor_candidates(conn, tenant_id, forest_id, [i for i, _ in facts], [i for i, _ in cells])
    sims = {("fact", i): s for i, s in facts} | {("cell", i): s for i, s in cells}
    best: tuple[float, datetime] | None = None
    for r in rows:
        doc = set(content_terms(str(r["text"])))
        overlap = len(terms & doc) / len(terms) if terms else 0.0
        score = sims.get((str(r["k"]), int(r["id"])), 0.0) + overlap
        if overlap > 0 and (best is None or score > best[0]):
            best = (score, r["ts"])
    return best[1] if best is not None else None
