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
from memforest.store.sql import execute, fetch_all, fetch_one, scalar

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


async def _add_sources(
    conn: AsyncConnection, tenant_id: uuid.UUID, forest_id: int, fact_id: int, src: SourceRef
) -> int:
    added = 0
    for turn_id in src.turn_ids:
        added += await execute(
            conn,
            "INSERT INTO fact_sources (tenant_id, fact_id, turn_id, cell_id, forest_id, session_id) "
            "VALUES (:t, :fa, :tu, :c, :f, :s) ON CONFLICT DO NOTHING",
            {"t": tenant_id, "fa": fact_id, "tu": turn_id, "c": src.cell_id, "f": forest_id, "s": src.session_id},
        )
    if added:
        await execute(
            conn,
            "UPDATE facts SET source_count = source_count + :n WHERE tenant_id = :t AND fact_id = :fa",
            {"n": added, "t": tenant_id, "fa": fact_id},
        )
    return added


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
    rows = await fetch_all(
        conn,
        "SELECT fact_id, kind, speaker, valid_from, 1 - (embedding <=> :e) AS sim FROM facts "
        "WHERE tenant_id = :t AND forest_id = :f AND retracted_at IS NULL AND embedding IS NOT NULL "
        "ORDER BY embedding <=> :e LIMIT 3",
        {"t": tenant_id, "f": forest_id, "e": embedding},
    )
    for r in rows:
        if float(r["sim"]) < threshold or r["speaker"] != cand.speaker:
            continue
        same_time = abs(r["valid_from"] - cand.valid_from) <= timedelta(days=1)
        if same_time or (r["kind"] in STATE_KINDS and cand.kind.value in STATE_KINDS):
            return int(r["fact_id"])
    return None


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
    before = await fetch_one(
        conn,
        f"SELECT fact_id, value, valid_from FROM facts WHERE {where} AND valid_from <= :vf "
        "ORDER BY valid_from DESC, fact_id DESC LIMIT 1",
        slot,
    )
    after = await fetch_one(
        conn,
        f"SELECT fact_id, value, valid_from FROM facts WHERE {where} AND valid_from > :vf "
        "ORDER BY valid_from, fact_id LIMIT 1",
        slot,
    )
    value = cand.value.casefold()
    superseded = None
    if before is not None and (before["value"] or "").casefold() != value:
        p = {"t": tenant_id, "old": int(before["fact_id"]), "new": fact_id, "vf": cand.valid_from}
        await execute(
            conn,
            "UPDATE facts SET superseded_by = :new, valid_to = CASE WHEN valid_to IS NULL OR valid_to > :vf "
            "THEN :vf ELSE valid_to END WHERE tenant_id = :t AND fact_id = :old",
            p,
        )
        await execute(conn, "UPDATE facts SET supersedes = :old WHERE tenant_id = :t AND fact_id = :new", p)
        superseded = int(before["fact_id"])
    if after is not None and (after["value"] or "").casefold() != value:
        p = {"t": tenant_id, "next": int(after["fact_id"]), "new": fact_id, "nvf": after["valid_from"]}
        await execute(
            conn,
            "UPDATE facts SET superseded_by = :next, valid_to = CASE WHEN valid_to IS NULL OR valid_to > :nvf "
            "THEN :nvf ELSE valid_to END WHERE tenant_id = :t AND fact_id = :new",
            p,
        )
        await execute(conn, "UPDATE facts SET supersedes = :new WHERE tenant_id = :t AND fact_id = :next", p)
        superseded = superseded if superseded is not None else int(after["fact_id"])
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
    exact = await scalar(
        conn,
        "SELECT fact_id FROM facts WHERE tenant_id = :t AND forest_id = :f AND text_hash = :h",
        {"t": tenant_id, "f": forest_id, "h": h},
    )
    match = int(exact) if exact is not None else None
    if match is None:
        match = await _near_duplicate(conn, tenant_id, forest_id, cand, embedding, near_threshold)
    if match is not None:
        added = await _add_sources(conn, tenant_id, forest_id, match, source)
        return CanonicalOutcome(match, "merged" if added else "duplicate")
    fact_id = int(
        await scalar(
            conn,
            "INSERT INTO facts (tenant_id, forest_id, text, text_hash, kind, entities, topics, speaker, subject, "
            "attribute, value, time_text, valid_from, valid_to, recorded_at, source_count, embedding) VALUES (:t, :f, "
            ":x, :h, :k, :en, :to, :sp, :su, :at, :va, :tt, :vf, :vt, coalesce(CAST(:ra AS timestamptz), now()), 0, "
            ":e) "
            "RETURNING fact_id",
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
                "e": embedding,
            },
        )
    )
    await _add_sources(conn, tenant_id, forest_id, fact_id, source)
    superseded = await _supersede(conn, tenant_id, forest_id, fact_id, cand)
    return CanonicalOutcome(fact_id, "new", superseded)
