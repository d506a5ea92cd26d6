"""Reads of the temporal read path: which names of a question are subjects of the forest, a
subject's facts (its states and state-like statements) in time order, and an interval-guided
descent of the subject's entity tree toward a time (one node read per level)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime

from memforest.store.sql import Conn, Row, fetch_all

_KNOWN_SUBJECTS = (
    "SELECT DISTINCT lower(x.speaker) AS name FROM facts x WHERE x.tenant_id = :t AND x.forest_id = :f "
    "AND lower(x.speaker) = ANY(:names) "
    "UNION SELECT DISTINCT lower(x.subject) FROM facts x WHERE x.tenant_id = :t AND x.forest_id = :f "
    "AND x.subject IS NOT NULL AND lower(x.subject) = ANY(:names) "
    "UNION SELECT lower(tr.label) FROM trees tr WHERE tr.tenant_id = :t AND tr.forest_id = :f "
    "AND tr.kind = 'entity' AND lower(tr.label) = ANY(:names)"
)
_SUBJECT_FACTS = (
    "SELECT x.fact_id, x.text, x.speaker, x.subject, x.attribute, x.value, x.entities, x.valid_from, x.valid_to, "
    "x.superseded_by, x.recorded_at, x.retracted_at FROM facts x "
    "WHERE x.tenant_id = :t AND x.forest_id = :f "
    "AND (lower(x.subject) = :s OR (x.subject IS NULL AND lower(x.speaker) = :s)) "
    "AND (CAST(:as_of AS timestamptz) IS NULL OR (x.valid_from <= :as_of AND x.recorded_at <= :as_of "
    "     AND (x.retracted_at IS NULL OR x.retracted_at > :as_of))) "
    "AND (CAST(:as_of AS timestamptz) IS NOT NULL OR x.retracted_at IS NULL) "
    "ORDER BY x.valid_from, x.fact_id"
)
_ENTITY_ROOT = (
    "SELECT tr.tree_id, tr.root_node_id FROM trees tr WHERE tr.tenant_id = :t AND tr.forest_id = :f "
    "AND tr.kind = 'entity' AND lower(tr.label) = :s AND tr.root_node_id IS NOT NULL"
)
_CHILDREN = (
    "SELECT node_id, level, leaf_fact_id, leaf_cell_id, t_start, t_end FROM nodes "
    "WHERE tenant_id = :t AND forest_id = :f AND parent_id = :p ORDER BY t_start, seq"
)


async def known_subjects(conn: Conn, tenant_id: uuid.UUID, forest_id: int, names: Sequence[str]) -> set[str]:
    """Those of ``names`` (lower case) that are a speaker, a fact subject or an entity tree of the forest."""
    if not names:
        return set()
    rows = await fetch_all(conn, _KNOWN_SUBJECTS, {"t": tenant_id, "f": forest_id, "names": list(names)})
    return {str(r["name"]) for r in rows}


async def subject_facts(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, subject: str, as_of: datetime | None
) -> list[Row]:
    """Facts about ``subject`` (its slot subject, else its speaker), oldest first, superseded ones
    included; as of ``as_of`` when given (valid, recorded and not yet retracted then), else the
    unretracted ones: ``fact_id, text, speaker, subject, attribute, value, entities, valid_from,
    valid_to, superseded_by, recorded_at, retracted_at``."""
    params = {"t": tenant_id, "f": forest_id, "s": subject.casefold(), "as_of": as_of}
    return await fetch_all(conn, _SUBJECT_FACTS, params)


async def descend_to_time(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, subject: str, at: datetime, side: str
) -> list[Row]:
    """Browse the subject's entity tree toward ``at``: at each level read the children of the
    current node and follow the one whose ``[t_start, t_end]`` holds ``at`` (for ``side`` "before",
    the last child starting before it; "after", the first ending after it). Returns the leaves of
    the last node reached (``node_id, level, leaf_fact_id, leaf_cell_id, t_start, t_end``), one
    read per level: O(log N) for a tree of N leaves. Empty when the subject has no entity tree."""
    roots = await fetch_all(conn, _ENTITY_ROOT, {"t": tenant_id, "f": forest_id, "s": subject.casefold()})
    if not roots:
        return []
    node = int(roots[0]["root_node_id"])
    while True:
        kids = await fetch_all(conn, _CHILDREN, {"t": tenant_id, "f": forest_id, "p": node})
        if not kids or int(kids[0]["level"]) == 0:
            return kids
        if side == "after":
            pick = next((k for k in kids if k["t_end"] >= at), kids[-1])
        else:
            earlier = [k for k in kids if k["t_start"] <= at]
            pick = earlier[-1] if earlier else kids[0]
        node = int(pick["node_id"])
