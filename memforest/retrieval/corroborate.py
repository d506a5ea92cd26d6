"""Corroboration: a turn that several evidence candidates cite is likely what the question is about.

The read path's channels (similar facts, similar cells, full text, the browse of recalled trees)
each propose candidates on their own; when the facts extracted from one turn and the cell holding
it are proposed together, the pool agrees on that turn. After the rerank, each candidate gains
``preset.w_support`` for every other candidate of the pool that cites its most cited turn, and the
pool is sorted again (the rerank's order: score, then time, kind, id). At most ``MAX_SUPPORTERS``
count, so agreement never outweighs what the rerank gives the current state of a present-tense
question (its recency bonus and the superseded penalty). A question with an explicit time cue (it
asks when, names a window or an anchor, or asks for the latest or the earliest state) is left as
the rerank ordered it: its answer is the one turn said at the right time, which agreement on a
popular turn would push down. One statement reads the turns of
the whole pool; a weight of 0 reads nothing. Measurements: ADR 0042.
"""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Protocol, TypeVar

from memforest.retrieval.timecues import TimeCues
from memforest.store import corroborate as store
from memforest.store.sql import Conn

__all__ = ["MAX_SUPPORTERS", "about_time", "corroborate", "support"]

Key = tuple[str, int]  # (kind, source id)
MAX_SUPPORTERS = 3


class Ranked(Protocol):
    """What corroboration reads and writes of a reranked candidate."""

    kind: str
    source_id: int
    start: datetime
    score: float


R = TypeVar("R", bound=Ranked)


def support(turns_of: Mapping[Key, Sequence[int]]) -> dict[Key, int]:
    """For each candidate, how many other candidates cite its most cited turn (0: none), at most
    ``MAX_SUPPORTERS``."""
    cited = Counter(t for turns in turns_of.values() for t in set(turns))
    return {
        key: min(MAX_SUPPORTERS, max((cited[t] - 1 for t in set(turns)), default=0)) for key, turns in turns_of.items()
    }


async def corroborate(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, ranked: list[R], weight: float, cues: TimeCues
) -> list[R]:
    """``ranked`` (the rerank's order) with each candidate's score raised by ``weight`` times its
    :func:`support`, sorted again; unchanged when ``weight`` is 0, the pool has one item, or the
    question's ``cues`` name a time."""
    if weight <= 0.0 or len(ranked) < 2 or about_time(cues):
        return ranked
    fact_ids = [it.source_id for it in ranked if it.kind == "fact"]
    cell_ids = [it.source_id for it in ranked if it.kind == "cell"]
    backing = support(await store.candidate_turns(conn, tenant_id, forest_id, fact_ids, cell_ids))
    for it in ranked:
        it.score += weight * backing.get((it.kind, it.source_id), 0)
    ranked.sort(key=lambda it: (-it.score, it.start, it.kind, it.source_id))
    return ranked


def about_time(cues: TimeCues) -> bool:
    """The question places its answer in time explicitly: agreement would favour a popular turn over it
    (a bare present tense, "what is ...", is no such cue: it opens most questions)."""
    return bool(cues.asks_when or cues.has_window or cues.anchor_side or cues.wants_latest or cues.wants_earliest)
