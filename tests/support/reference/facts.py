"""The fact statements only the one-by-one reference canonicaliser runs (:mod:`support.reference.canonical`):
add sources to a fact, find its exact or near duplicates, read and link its supersession slot."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

import numpy as np

from memforest.store.facts import SLOT_WHERE
from memforest.store.sql import Conn, Row, execute, fetch_all, scalar

_ADD_SOURCES = """
WITH ins AS (
    INSERT INTO fact_sources (tenant_id, fact_id, turn_id, cell_id, forest_id, session_id)
    SELECT :t, :fa, u.turn, :c, :f, :s FROM unnest(CAST(:turns AS bigint[])) WITH ORDINALITY AS u(turn, i)
    ORDER BY u.i ON CONFLICT DO NOTHING RETURNING 1
),
upd AS (
    UPDATE facts SET source_count = source_count + (SELECT count(*) FROM ins)
    WHERE tenant_id = :t AND fact_id = :fa AND EXISTS (SELECT 1 FROM ins)
)
SELECT count(*) FROM ins
"""


async def add_sources(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    fact_id: int,
    *,
    session_id: int,
    cell_id: int,
    turn_ids: tuple[int, ...],
) -> int:
    """Add the source turns not yet recorded and count them into ``source_count`` (one statement);
    returns how many were added."""
    params = {"t": tenant_id, "fa": fact_id, "turns": list(turn_ids), "c": cell_id, "f": forest_id, "s": session_id}
    return int(await scalar(conn, _ADD_SOURCES, params) or 0)


_EXACT = "SELECT fact_id FROM facts WHERE tenant_id = :t AND forest_id = :f AND text_hash = :h"
# The exact match, else the nearest live facts: one round trip (the kNN part runs only without a match).
_LOOKUP = f"""
WITH ex AS ({_EXACT})
SELECT true AS exact, fact_id, NULL::text AS kind, NULL::text AS speaker, NULL::timestamptz AS valid_from,
       NULL::float8 AS sim, NULL::text AS subject, NULL::text AS attribute, NULL::text AS value FROM ex
UNION ALL
SELECT false, k.* FROM (
    SELECT fact_id, kind, speaker, valid_from, 1 - (embedding <=> :e) AS sim, subject, attribute, value FROM facts
    WHERE tenant_id = :t AND forest_id = :f AND retracted_at IS NULL AND embedding IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM ex) ORDER BY embedding <=> :e LIMIT 3
) k
"""


async def find_exact(conn: Conn, tenant_id: uuid.UUID, forest_id: int, text_hash: str) -> int | None:
    """The fact of the forest with this normalised-text hash, or None."""
    fact_id = await scalar(conn, _EXACT, {"t": tenant_id, "f": forest_id, "h": text_hash})
    return int(fact_id) if fact_id is not None else None


async def exact_or_nearest(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, text_hash: str, embedding: np.ndarray[Any, Any]
) -> list[Row]:
    """One row ``exact = true`` for the exact match, else the three nearest live facts (``exact =
    false``: fact_id, kind, speaker, valid_from, cosine ``sim``, subject, attribute, value)."""
    return await fetch_all(conn, _LOOKUP, {"t": tenant_id, "f": forest_id, "h": text_hash, "e": embedding})


_SLOT_NEIGHBOURS = (
    f"(SELECT true AS before, fact_id, value, valid_from FROM facts WHERE {SLOT_WHERE} AND valid_from <= :vf "
    "ORDER BY valid_from DESC, fact_id DESC LIMIT 1) UNION ALL "
    f"(SELECT false, fact_id, value, valid_from FROM facts WHERE {SLOT_WHERE} AND valid_from > :vf "
    "ORDER BY valid_from, fact_id LIMIT 1)"
)


async def slot_neighbours(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    slot: tuple[str, str],
    fact_id: int,
    valid_from: datetime,
) -> list[Row]:
    """The live holders of a (subject, attribute) slot just before (``before`` true: valid_from <=
    ``valid_from``) and just after the given time, other than ``fact_id``: fact_id, value, valid_from."""
    params = {"t": tenant_id, "f": forest_id, "s": slot[0], "a": slot[1], "id": fact_id, "vf": valid_from}
    return await fetch_all(conn, _SLOT_NEIGHBOURS, params)


# Link a new fact (:new) into its slot: the holder before it (:old) ends where it starts, and it ends
# where the next holder (:nxt, starting :nvf) starts. LEAST ignores NULL: an open end takes the new one.
_LINK = """
UPDATE facts f SET
    superseded_by = CASE WHEN f.fact_id = p.old THEN p.new WHEN f.fact_id = p.new AND p.nxt IS NOT NULL THEN p.nxt
                         ELSE f.superseded_by END,
    valid_to = CASE WHEN f.fact_id = p.old THEN LEAST(f.valid_to, p.vf)
                    WHEN f.fact_id = p.new AND p.nxt IS NOT NULL THEN LEAST(f.valid_to, p.nvf) ELSE f.valid_to END,
    supersedes = CASE WHEN f.fact_id = p.new AND p.old IS NOT NULL THEN p.old WHEN f.fact_id = p.nxt THEN p.new
                      ELSE f.supersedes END
FROM (SELECT CAST(:old AS bigint) AS old, CAST(:new AS bigint) AS new, CAST(:nxt AS bigint) AS nxt,
             CAST(:vf AS timestamptz) AS vf, CAST(:nvf AS timestamptz) AS nvf) AS p
WHERE f.tenant_id = :t AND f.fact_id = ANY(CAST(:ids AS bigint[]))
"""


async def link_supersession(
    conn: Conn,
    tenant_id: uuid.UUID,
    new: int,
    valid_from: datetime,
    *,
    old: int | None,
    nxt: int | None,
    next_valid_from: datetime | None,
) -> None:
    """Thread fact ``new`` (starting ``valid_from``) between ``old`` and ``nxt`` (starting
    ``next_valid_from``) in one statement: validity ends and supersession pointers, nothing deleted."""
    params = {"t": tenant_id, "new": new, "old": old, "nxt": nxt, "vf": valid_from, "nvf": next_valid_from,
              "ids": [i for i in (old, new, nxt) if i is not None]}  # fmt: skip
    await execute(conn, _LINK, params)
