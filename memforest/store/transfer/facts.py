"""Merge step 3: A's facts onto B's (exact text, near duplicate) or copied, links re-threaded.

The near-duplicate test is ``rules.is_near_duplicate`` applied set-based: the caller passes the
window (seconds), the lasting kinds and the cosine threshold from ``memforest.rules`` / settings;
two different values of one supersession slot (``rules.supersession_slot``: subject, attribute and
value all set; ``rules.same_state_value``: compared case-insensitively) never merge.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from memforest.attributes import VERB_CLASSES
from memforest.store.sql import Conn, execute, scalar
from memforest.store.transfer.columns import insert_select
from memforest.store.transfer.snapshot import create_map, new_ids

__all__ = [
    "add_sources",
    "copy_new_facts",
    "count_live_facts",
    "map_exact_facts",
    "map_near_facts",
    "rethread_slots",
]

_MAP_EXACT = (
    "INSERT INTO mm_fact_map (old, new, how) SELECT a.fact_id, b.fact_id, 'exact' FROM mm_facts a JOIN facts b "
    "ON b.tenant_id = :t AND b.forest_id = :f AND b.text_hash = a.text_hash"
)

_B_FACTS = (
    "tenant_id = :t AND forest_id = :f AND retracted_at IS NULL AND embedding IS NOT NULL "
    "AND vector_norm(embedding) > 0"
)

_COUNT_B = f"SELECT count(*) FROM (SELECT 1 FROM facts WHERE {_B_FACTS} LIMIT :cap) x"

# A and B hold different values of one (subject, attribute) slot: two states, never one fact.
_OTHER_VALUE = (
    "coalesce(a.subject, '') <> '' AND coalesce(a.attribute, '') <> '' AND coalesce(a.value, '') <> '' "
    "AND coalesce(b.value, '') <> '' AND lower(b.subject) = lower(a.subject) "
    "AND lower(b.attribute) = lower(a.attribute) AND lower(b.value) <> lower(a.value)"
)

# The nearest live fact of B that could be the same statement (same speaker; within the window, or
# both of lasting kinds) and is similar enough. Canonicalisation takes the first such fact among the
# 3 nearest; filtering first finds the same facts and more, and lets the speaker filter prune the scan.
_NEAR = """
INSERT INTO mm_fact_map (old, new, how)
SELECT a.fact_id, n.fact_id, 'near'
FROM mm_facts a CROSS JOIN LATERAL (
    SELECT b.fact_id, b.embedding <=> a.embedding AS d FROM {source}
    {where} b.speaker IS NOT DISTINCT FROM a.speaker
      AND (abs(extract(epoch FROM b.valid_from - a.valid_from)) <= :win
           OR (b.kind = ANY(:sk) AND a.kind = ANY(:sk)))
      AND NOT ({_OTHER_VALUE})
    ORDER BY b.embedding <=> a.embedding LIMIT 1
) n
WHERE a.retracted_at IS NULL AND a.embedding IS NOT NULL AND vector_norm(a.embedding) > 0
  AND NOT EXISTS (SELECT 1 FROM mm_fact_map m WHERE m.old = a.fact_id)
  AND 1 - n.d >= :thr AND n.d <> 'NaN'::float8
"""

# Exact: B's facts materialised once, scanned per A fact.
_NEAR_EXACT = (
    "WITH bf AS MATERIALIZED (SELECT fact_id, kind, speaker, valid_from, subject, attribute, value, embedding "
    f"FROM facts WHERE {_B_FACTS}) " + _NEAR.format(source="bf b", where="WHERE", _OTHER_VALUE=_OTHER_VALUE)
)
# Large B: the HNSW index with iterative scans, as the read path does (ADR 0005).
_NEAR_INDEX = _NEAR.format(
    source="facts b WHERE b.tenant_id = :t AND b.forest_id = :f AND b.retracted_at IS NULL",
    where="AND",
    _OTHER_VALUE=_OTHER_VALUE,
)
_ITERATIVE_SCAN = "SET LOCAL hnsw.iterative_scan = relaxed_order"
_EF_SEARCH = "SET LOCAL hnsw.ef_search = {ef:d}"

_COPY_FACTS = insert_select(
    "facts",
    "FROM mm_facts a JOIN mm_fact_map m ON m.old = a.fact_id AND m.how = 'new'",
    {"fact_id": "m.new", "supersedes": None, "superseded_by": None, "source_count": "0"},
    alias="a",
)

# A's own supersession links, remapped (a link to a fact that merged into B's points at B's fact).
_REMAP_LINK = {
    col: f"UPDATE facts x SET {col} = l.new FROM mm_facts a JOIN mm_fact_map m ON m.old = a.fact_id "
    f"AND m.how = 'new' JOIN mm_fact_map l ON l.old = a.{col} WHERE x.tenant_id = :t AND x.fact_id = m.new "
    "AND l.new <> m.new"
    for col in ("supersedes", "superseded_by")
}

# A merged fact was known to B from the earlier of the two times.
_EARLIER_RECORDED = (
    "UPDATE facts x SET recorded_at = a.recorded_at FROM mm_facts a JOIN mm_fact_map m ON m.old = a.fact_id "
    "AND m.how <> 'new' WHERE x.tenant_id = :t AND x.fact_id = m.new AND a.recorded_at < x.recorded_at"
)

_CREATE_LINKS = "CREATE TEMP TABLE mm_links (p bigint, n bigint, nvf timestamptz) ON COMMIT DROP"

_RETHREAD = """
INSERT INTO mm_links (p, n, nvf)
SELECT p, n, nvf FROM (
    SELECT fact_id AS p, lead(fact_id) OVER w AS n, v AS pv, lead(v) OVER w AS nv,
           is_new AS pnew, lead(is_new) OVER w AS nnew, lead(valid_from) OVER w AS nvf
    FROM (
        SELECT x.fact_id, x.subject, x.attribute, lower(x.value) AS v, x.valid_from, nm.new IS NOT NULL AS is_new
        FROM facts x LEFT JOIN (SELECT new FROM mm_fact_map WHERE how = 'new') nm ON nm.new = x.fact_id
        WHERE x.tenant_id = :t AND x.forest_id = :f AND x.retracted_at IS NULL AND x.value IS NOT NULL
          AND (x.subject, x.attribute) IN (
              SELECT y.subject, y.attribute FROM facts y JOIN mm_fact_map m ON m.new = y.fact_id AND m.how = 'new'
              WHERE y.tenant_id = :t AND y.subject IS NOT NULL AND y.attribute IS NOT NULL AND y.value IS NOT NULL
                AND lower(y.attribute) <> ALL(CAST(:verb_classes AS text[])))
    ) s
    WINDOW w AS (PARTITION BY subject, attribute ORDER BY valid_from, fact_id)
) z
WHERE n IS NOT NULL AND pv <> nv AND (pnew OR nnew)
"""

_LINK_EARLIER = (
    "UPDATE facts x SET superseded_by = l.n, valid_to = CASE WHEN x.valid_to IS NULL OR x.valid_to > l.nvf "
    "THEN l.nvf ELSE x.valid_to END FROM mm_links l WHERE x.tenant_id = :t AND x.fact_id = l.p"
)
_LINK_LATER = "UPDATE facts x SET supersedes = l.p FROM mm_links l WHERE x.tenant_id = :t AND x.fact_id = l.n"

_INSERT_SOURCES = insert_select(
    "fact_sources",
    "FROM mm_fact_sources s JOIN mm_fact_map fm ON fm.old = s.fact_id JOIN mm_turn_map tm ON tm.old = s.turn_id "
    "JOIN mm_cell_map cm ON cm.old = s.cell_id JOIN mm_session_map sm ON sm.old = s.session_id "
    "ON CONFLICT DO NOTHING RETURNING fact_id",
    {"fact_id": "fm.new", "turn_id": "tm.new", "cell_id": "cm.new", "session_id": "sm.new"},
    alias="s",
)
_ADD_SOURCES = (
    f"WITH ins AS ({_INSERT_SOURCES}), "
    "upd AS (UPDATE facts x SET source_count = x.source_count + c.n FROM (SELECT fact_id, count(*) AS n "
    "FROM ins GROUP BY fact_id) c WHERE x.tenant_id = :t AND x.fact_id = c.fact_id RETURNING 1) "
    "SELECT count(*) FROM ins"
)


async def map_exact_facts(conn: Conn, tenant_id: uuid.UUID, forest_id: int) -> int:
    """Create ``mm_fact_map`` and map A's facts whose text B already holds; returns how many."""
    await create_map(conn, "mm_fact_map")
    return await execute(conn, _MAP_EXACT, {"t": tenant_id, "f": forest_id})


async def count_live_facts(conn: Conn, tenant_id: uuid.UUID, forest_id: int, cap: int) -> int:
    """B's live facts with a usable vector, counted up to ``cap``."""
    return int(await scalar(conn, _COUNT_B, {"t": tenant_id, "f": forest_id, "cap": cap}))


async def map_near_facts(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    *,
    threshold: float,
    window_s: float,
    state_kinds: Sequence[str],
    ef_search: int | None,
) -> int:
    """Map A's unmapped facts onto their near duplicate in B: an exact scan, or with ``ef_search``
    the HNSW index with iterative scans. Returns how many were mapped."""
    p = {"t": tenant_id, "f": forest_id, "thr": threshold, "win": window_s, "sk": list(state_kinds)}
    if ef_search is None:
        return await execute(conn, _NEAR_EXACT, p)
    await execute(conn, _ITERATIVE_SCAN)
    await execute(conn, _EF_SEARCH.format(ef=int(ef_search)))
    return await execute(conn, _NEAR_INDEX, p)


async def copy_new_facts(conn: Conn, tenant_id: uuid.UUID, forest_id: int) -> int:
    """Fresh ids for A's unmapped facts, copied with their vectors; links remapped; a merged fact
    keeps the earlier ``recorded_at``. Returns the facts copied."""
    p = {"t": tenant_id, "f": forest_id}
    await new_ids(conn, "facts", "mm_fact_map")
    copied = await execute(conn, _COPY_FACTS, p)
    for statement in _REMAP_LINK.values():
        await execute(conn, statement, p)
    await execute(conn, _EARLIER_RECORDED, p)
    return copied


async def rethread_slots(conn: Conn, tenant_id: uuid.UUID, forest_id: int) -> int:
    """Link neighbours with different values in every (subject, attribute) timeline that gained a new
    fact: the earlier one ends where the later starts and points to it (nothing is deleted). A slot
    labelled by a verb class is no timeline (``rules.timeline_slot``)."""
    p = {"t": tenant_id, "f": forest_id}
    links_p = {**p, "verb_classes": list(VERB_CLASSES)}
    await execute(conn, _CREATE_LINKS)
    links = await execute(conn, _RETHREAD, links_p)
    if links:
        await execute(conn, _LINK_EARLIER, p)
        await execute(conn, _LINK_LATER, p)
    return links


async def add_sources(conn: Conn, tenant_id: uuid.UUID, forest_id: int) -> int:
    """A's fact sources on the mapped facts (duplicates skipped), source counts raised; returns how many."""
    return int(await scalar(conn, _ADD_SOURCES, {"t": tenant_id, "f": forest_id}))
