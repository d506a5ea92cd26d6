"""Canonical facts: the one statement that stores a new fact with its sources, and the condition that
selects a supersession slot's live facts."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np
from sqlalchemy.exc import IntegrityError

from memforest.errors import ConflictError
from memforest.store.sql import Conn, scalar


@dataclass(frozen=True, slots=True)
class NewFact:
    """The column values of a new canonical fact and its first source."""

    text: str
    text_hash: str
    kind: str
    entities: list[str]
    topics: list[str]
    speaker: str | None
    subject: str | None
    attribute: str | None
    value: str | None
    time_text: str | None
    valid_from: datetime
    valid_to: datetime | None
    recorded_at: datetime | None  # None: now()
    embedding: np.ndarray[Any, Any]
    session_id: int
    cell_id: int
    turn_ids: tuple[int, ...]


# The fact and its sources in one statement; a new fact's sources are all new, so its source_count
# is the number of distinct source turns.
_INSERT = """
WITH fa AS (INSERT INTO facts (tenant_id, forest_id, text, text_hash, kind, entities, topics, speaker,
subject, attribute, value, time_text, valid_from, valid_to, recorded_at, source_count, embedding)
VALUES (:t, :f, :x, :h, :k, :en, :to, :sp, :su, :at, :va, :tt, :vf, :vt,
coalesce(CAST(:ra AS timestamptz), now()), :n, :e) RETURNING fact_id),
src AS (INSERT INTO fact_sources (tenant_id, fact_id, turn_id, cell_id, forest_id, session_id)
SELECT :t, fa.fact_id, u.turn, :c, :f, :s FROM fa, unnest(CAST(:turns AS bigint[])) WITH ORDINALITY
AS u(turn, i) ORDER BY u.i ON CONFLICT DO NOTHING)
SELECT fact_id FROM fa
"""


async def insert_fact(conn: Conn, tenant_id: uuid.UUID, forest_id: int, fact: NewFact) -> int:
    """Store a new fact with its source turns; returns its id. ConflictError when the forest already
    holds a fact with this text."""
    params = {
        "t": tenant_id, "f": forest_id, "x": fact.text, "h": fact.text_hash, "k": fact.kind, "en": fact.entities,
        "to": fact.topics, "sp": fact.speaker, "su": fact.subject, "at": fact.attribute, "va": fact.value,
        "tt": fact.time_text, "vf": fact.valid_from, "vt": fact.valid_to, "ra": fact.recorded_at,
        "n": len(set(fact.turn_ids)), "e": fact.embedding, "turns": list(fact.turn_ids), "c": fact.cell_id,
        "s": fact.session_id,
    }  # fmt: skip
    try:
        return int(await scalar(conn, _INSERT, params))
    except IntegrityError:
        raise ConflictError("a fact with this text already exists in the forest") from None


# A slot's live facts other than :id: how a retraction reads a slot's timeline (store.retraction)
SLOT_WHERE = (
    "tenant_id = :t AND forest_id = :f AND subject = :s AND attribute = :a AND fact_id <> :id AND retracted_at IS NULL"
)
