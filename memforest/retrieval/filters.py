"""Query filters (issue 18): keep only evidence whose sources match, and make sure a selective
filter still finds the matching items nearest to the question (a filtered nearest-neighbour
channel added to the recalled candidates)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from memforest.retrieval.assemble import RecallCandidate
from memforest.store import recall_filter
from memforest.store.recall import Vec
from memforest.store.sql import Conn

__all__ = ["SourceFilter", "apply_filter"]


@dataclass(frozen=True, slots=True)
class SourceFilter:
    """Which sources evidence may come from; the given parts are ANDed."""

    metadata: dict[str, Any] | None = None
    session_ids: tuple[str, ...] | None = None
    speakers: tuple[str, ...] | None = None

    @classmethod
    def of(
        cls,
        metadata: dict[str, Any] | None = None,
        session_ids: Sequence[str] | None = None,
        speakers: Sequence[str] | None = None,
    ) -> SourceFilter | None:
        """A filter, or None when no part is given."""
        if metadata is None and session_ids is None and speakers is None:
            return None
        return cls(
            metadata=dict(metadata) if metadata is not None else None,
            session_ids=tuple(session_ids) if session_ids is not None else None,
            speakers=tuple(speakers) if speakers is not None else None,
        )


async def apply_filter(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    candidates: dict[tuple[str, int], RecallCandidate],
    flt: SourceFilter,
    q: Vec,
    k: int,
) -> dict[tuple[str, int], RecallCandidate]:
    """``candidates`` plus the ``k`` nearest matching facts and cells, less everything not matching."""
    parts: dict[str, Any] = {"metadata": flt.metadata, "session_ids": flt.session_ids, "speakers": flt.speakers}
    near_facts, near_cells = await recall_filter.nearest_matching(conn, tenant_id, forest_id, q, k, **parts)
    out = dict(candidates)
    for kind, pairs in (("fact", near_facts), ("cell", near_cells)):
        for source_id, sim in pairs:
            cand = out.setdefault((kind, source_id), RecallCandidate(kind=kind, source_id=source_id))
            cand.sim = sim if cand.sim is None else max(cand.sim, sim)
    fact_ids = [i for kind, i in out if kind == "fact"]
    cell_ids = [i for kind, i in out if kind == "cell"]
    ok_facts, ok_cells = await recall_filter.matching(conn, tenant_id, forest_id, fact_ids, cell_ids, **parts)
    return {key: c for key, c in out.items() if key[1] in (ok_facts if key[0] == "fact" else ok_cells)}
