"""Canonicalise: normalise surface forms, merge exact and near duplicates within the forest, and
record supersession on the bi-temporal columns. Runs inside the caller's (short) transaction."""

from __future__ import annotations

import hashlib
import re
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import numpy as np
from sqlalchemy.ext.asyncio import AsyncConnection

from memforest.domain import Candidate, FactKind
from memforest.store.sql import execute, fetch_all, scalar

_PUNCT = re.compile(r"[^\w\s']+")
_SPACE = re.compile(r"\s+")
STATE_KINDS = {FactKind.STATE.value, FactKind.PREFERENCE.value, FactKind.RELATION.value}


def normalise_text(text: str) -> str:
    """Case-, punctuation- and whitespace-insensitive form used for exact duplicate detection."""
    return _SPACE.sub(" ", _PUNCT.sub(" ", text.casefold())).strip()


def text_hash(text: str) -> str:
    """Fingerprint of the normalised text."""
    return hashlib.sha256(normalise_text(text).encode()).hexdigest()[:40]


def clean_surface(text: str) -> str:
    """The stored surface form: trimmed, single-spaced, ending in punctuation."""
    text = _SPACE.sub(" ", text).strip()
    if text and text[-1] not in ".!?":
        text += "."
    return text


@dataclass(frozen=True, slots=True)
class SourceRef:
    """Where a candidate came from."""

    session_id: int
    cell_id: int
    turn_ids: tuple[int, ...]
    said_at: datetime | None = None  # when the source turns were said: the fact is known from then


@dataclass(frozen=True, slots=True)
class CanonicalOutcome:
    """What happened to one candidate: ``status`` is new, merged or duplicate (same source again)."""

    fact_id: int
    status: str
    superseded: int | None = None


_ADD_SOURCES_SQL = """
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


async def _add_sources(
    conn: AsyncConnection, tenant_id: uuid.UUID, forest_id: int, fact_id: int, src: SourceRef
) -> int:
    """Add the source turns not yet recorded and count them into ``source_count`` (one statement)."""
    if not src.turn_ids:
        return 0
    added = await scalar(
        conn,
        _ADD_SOURCES_SQL,
        {"t": tenant_id, "fa": fact_id, "turns": list(src.turn_ids), "c": src.cell_id, "f": forest_id,
         "s": src.session_id},
    )  # fmt: skip
    return int(added or 0)


_EXACT_SQL = "SELECT fact_id FROM facts WHERE tenant_id = :t AND forest_id = :f AND text_hash = :h"
_NEAR_SQL = (
    "SELECT fact_id, kind, speaker, valid_from, 1 - (embedding <=> :e) AS sim FROM facts "
    "WHERE tenant_id = :t AND forest_id = :f AND retracted_at IS NULL AND embedding IS NOT NULL "
    "ORDER BY embedding <=> :e LIMIT 3"
)
# The exact match, else the nearest live facts: one round trip (the kNN part runs only without a match).
_LOOKUP_SQL = f"""
WITH ex AS ({_EXACT_SQL})
SELECT true AS exact, fact_id, NULL::text AS kind, NULL::text AS speaker, NULL::timestamptz AS valid_from,
       NULL::float8 AS sim FROM ex
UNION ALL
SELECT false, k.* FROM (
    SELECT fact_id, kind, speaker, valid_from, 1 - (embedding <=> :e) AS sim FROM facts
    WHERE tenant_id = :t AND forest_id = :f AND retracted_at IS NULL AND embedding IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM ex) ORDER BY embedding <=> :e LIMIT 3
) k
"""


def _pick_near(rows: list[dict[str, Any]], cand: Candidate, threshold: float) -> int | None:
    for r in rows:
        if float(r["sim"]) < threshold or r["speaker"] != cand.speaker:
            continue
        same_time = abs(r["valid_from"] - cand.valid_from) <= timedelta(days=1)
        if same_time or (r["kind"] in STATE_KINDS and cand.kind.value in STATE_KINDS):
            return int(r["fact_id"])
    return None


async def _near_duplicate(
    conn: AsyncConnection,
    tenant_id: uuid.UUID,
    forest_id: int,
    cand: Candidate,
    embedding: np.ndarray[Any, Any],
    threshold: float,
) -> int | None:
    """A live fact of the same speaker that says the same thing (cosine >= threshold); states and
    preferences merge across time, events only within a day (two hikes are two facts)."""
    if not np.any(embedding):
        return None
    rows = await fetch_all(conn, _NEAR_SQL, {"t": tenant_id, "f": forest_id, "e": embedding})
    return _pick_near(rows, cand, threshold)


async def _match(
    conn: AsyncConnection,
    tenant_id: uuid.UUID,
    forest_id: int,
    text_hash_: str,
    cand: Candidate,
    embedding: np.ndarray[Any, Any],
    threshold: float,
) -> int | None:
    """The existing fact ``cand`` merges into: the exact duplicate, else a near duplicate, else None."""
    p = {"t": tenant_id, "f": forest_id, "h": text_hash_}
    if not np.any(embedding):
        exact = await scalar(conn, _EXACT_SQL, p)
        return int(exact) if exact is not None else None
    rows = await fetch_all(conn, _LOOKUP_SQL, {**p, "e": embedding})
    if rows and rows[0]["exact"]:
        return int(rows[0]["fact_id"])
    return _pick_near(rows, cand, threshold)


# Link a new fact (:new) into its slot: the holder before it (:old) ends where it starts, and it ends
# where the next holder (:nxt, starting :nvf) starts. LEAST ignores NULL: an open end takes the new one.
_LINK_SQL = """
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


async def _supersede(
    conn: AsyncConnection, tenant_id: uuid.UUID, forest_id: int, fact_id: int, cand: Candidate
) -> int | None:
    """Thread the new fact into its (subject, attribute) slot's timeline: the holder just before it
    (by valid_from) ends where it starts, and it ends where the next holder starts. Only holders
    with a different value are linked; nothing is deleted. Returns the fact linked to it (the one
    it superseded, else the later one that supersedes it), or None."""
    if not (cand.subject and cand.attribute and cand.value):
        return None
    slot = {"t": tenant_id, "f": forest_id, "s": cand.subject.casefold(), "a": cand.attribute.casefold(),
            "id": fact_id, "vf": cand.valid_from}  # fmt: skip
    where = (
        "tenant_id = :t AND forest_id = :f AND subject = :s AND attribute = :a AND fact_id <> :id "
        "AND retracted_at IS NULL"
    )
    rows = await fetch_all(
        conn,
        f"(SELECT true AS before, fact_id, value, valid_from FROM facts WHERE {where} AND valid_from <= :vf "
        "ORDER BY valid_from DESC, fact_id DESC LIMIT 1) UNION ALL "
        f"(SELECT false, fact_id, value, valid_from FROM facts WHERE {where} AND valid_from > :vf "
        "ORDER BY valid_from, fact_id LIMIT 1)",
        slot,
    )
    before = next((r for r in rows if r["before"]), None)
    after = next((r for r in rows if not r["before"]), None)
    value = cand.value.casefold()
    old = int(before["fact_id"]) if before is not None and (before["value"] or "").casefold() != value else None
    nxt = int(after["fact_id"]) if after is not None and (after["value"] or "").casefold() != value else None
    if old is None and nxt is None:
        return None
    # old ends where the new fact starts; the new fact ends where the next holder starts (one statement)
    await execute(
        conn,
        _LINK_SQL,
        {
            "t": tenant_id,
            "new": fact_id,
            "old": old,
            "nxt": nxt,
            "vf": cand.valid_from,
            "nvf": after["valid_from"] if nxt is not None and after is not None else None,
            "ids": [i for i in (old, fact_id, nxt) if i is not None],
        },
    )
    superseded = old if old is not None else nxt
    return superseded


async def canonicalize(
    conn: AsyncConnection,
    tenant_id: uuid.UUID,
    forest_id: int,
    cand: Candidate,
    embedding: np.ndarray[Any, Any],
    source: SourceRef,
    *,
    near_threshold: float,
) -> CanonicalOutcome:
    """Merge ``cand`` into an existing fact (adding a source) or insert it as a new fact."""
    surface = clean_surface(cand.text)
    h = text_hash(surface)
    match = await _match(conn, tenant_id, forest_id, h, cand, embedding, near_threshold)
    if match is not None:
        added = await _add_sources(conn, tenant_id, forest_id, match, source)
        return CanonicalOutcome(match, "merged" if added else "duplicate")
    # The fact and its sources in one statement; a new fact's sources are all new, so its
    # source_count is the number of distinct source turns.
    fact_id = int(
        await scalar(
            conn,
            "WITH fa AS (INSERT INTO facts (tenant_id, forest_id, text, text_hash, kind, entities, topics, speaker, "
            "subject, attribute, value, time_text, valid_from, valid_to, recorded_at, source_count, embedding) "
            "VALUES (:t, :f, :x, :h, :k, :en, :to, :sp, :su, :at, :va, :tt, :vf, :vt, "
            "coalesce(CAST(:ra AS timestamptz), now()), :n, :e) RETURNING fact_id), "
            "src AS (INSERT INTO fact_sources (tenant_id, fact_id, turn_id, cell_id, forest_id, session_id) "
            "SELECT :t, fa.fact_id, u.turn, :c, :f, :s FROM fa, unnest(CAST(:turns AS bigint[])) WITH ORDINALITY "
            "AS u(turn, i) ORDER BY u.i ON CONFLICT DO NOTHING) "
            "SELECT fact_id FROM fa",
            {
                "t": tenant_id,
                "f": forest_id,
                "x": surface,
                "h": h,
                "k": cand.kind.value,
                "en": list(cand.entities),
                "to": list(cand.topics),
                "sp": cand.speaker,
                "su": cand.subject.casefold() if cand.subject else None,
                "at": cand.attribute.casefold() if cand.attribute else None,
                "va": cand.value,
                "tt": cand.time_text,
                "vf": cand.valid_from,
                "vt": cand.valid_to,
                "ra": source.said_at,
                "n": len(set(source.turn_ids)),
                "e": embedding,
                "turns": list(source.turn_ids),
                "c": source.cell_id,
                "s": source.session_id,
            },
        )
    )
    superseded = await _supersede(conn, tenant_id, forest_id, fact_id, cand)
    return CanonicalOutcome(fact_id, "new", superseded)
