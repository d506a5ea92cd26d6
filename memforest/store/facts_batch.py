"""Canonical facts of one commit written as a batch (ADR 0023): the duplicate lookup of every
candidate, the new facts' ids with their slots' stored neighbours, and the write of new facts,
sources and supersession links, one statement each."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any

import numpy as np

from memforest.store.forest_indexes import INDEXED_SQL
from memforest.store.queries import fill
from memforest.store.sql import Conn, Row, fetch_all, vector_array

__all__ = ["FactRow", "LinkUpdate", "SourceRow", "lookup_many", "new_ids_and_neighbours", "write_facts"]


# Candidate i (1-based): its exact match by text hash (``exact``), else, when it has a non-zero
# vector (``:nz``), the three nearest live facts, as the one-at-a-time reference reads per candidate.
# A forest without its own indexes is scanned whole for every candidate: its live facts are read
# once into ``live`` (in the order the forest's scan gives them) and each candidate ranks that copy,
# instead of reading the table's rows again per candidate. A forest with its own indexes (``ix``)
# leaves ``live`` empty and ranks by its HNSW index, as before (ADR 0065). That branch names the
# forest by a literal (``{f}``, :func:`_lookup_sql`): a plan the server caches for the statement
# then proves the forest's partial index usable however it plans (the commit's transaction lets
# the server keep a generic plan, ADR 0157), and the nearest facts never depend on that choice.
_LOOKUP_MANY = f"""
WITH q AS MATERIALIZED (  -- each vector sliced and cast once, not once per fact it is compared with
    SELECT g.i, (CAST(:h AS text[]))[g.i] AS h, (CAST(:nz AS boolean[]))[g.i] AS nz,
           CASE WHEN (CAST(:nz AS boolean[]))[g.i]
                THEN (CAST(:v AS vector[]))[g.i] END AS e
    FROM generate_series(1, :n) AS g(i)
), ix AS MATERIALIZED (SELECT {INDEXED_SQL} AS indexed),
live AS MATERIALIZED (
    SELECT fact_id, kind, speaker, valid_from, embedding, subject, attribute, value FROM facts
    WHERE NOT (SELECT indexed FROM ix) AND tenant_id = :t AND forest_id = :f AND retracted_at IS NULL
    AND embedding IS NOT NULL
)
SELECT q.i, x.fact_id AS exact_id, k.fact_id, k.kind, k.speaker, k.valid_from, 1 - k.dist AS sim, k.subject,
k.attribute, k.value
FROM q
LEFT JOIN LATERAL (SELECT fact_id FROM facts WHERE tenant_id = :t AND forest_id = :f AND text_hash = q.h) x ON true
LEFT JOIN LATERAL (  -- the distance once per fact ranked (the sort key); the cosine of the three kept
    (SELECT fact_id, kind, speaker, valid_from, embedding <=> q.e AS dist, subject, attribute, value FROM live
     WHERE q.nz AND x.fact_id IS NULL ORDER BY embedding <=> q.e LIMIT 3)
    UNION ALL
    (SELECT fact_id, kind, speaker, valid_from, embedding <=> q.e AS dist, subject, attribute, value FROM facts
     WHERE (SELECT indexed FROM ix) AND q.nz AND x.fact_id IS NULL AND tenant_id = :t AND forest_id = {{f}}
     AND retracted_at IS NULL AND embedding IS NOT NULL ORDER BY embedding <=> q.e LIMIT 3)
) k ON true
ORDER BY q.i, k.dist
"""


@lru_cache(maxsize=256)
def _lookup_sql(forest_id: int) -> str:
    """:data:`_LOOKUP_MANY` for the forest ``forest_id`` (written as a literal, ``queries.fill``)."""
    return fill(_LOOKUP_MANY, f=forest_id)


async def lookup_many(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, hashes: Sequence[str], embeddings: Sequence[np.ndarray[Any, Any]]
) -> list[Row]:
    """For each candidate ``i`` (1-based; ``hashes[i-1]``, ``embeddings[i-1]``): one row with
    ``exact_id`` when a fact of the forest has its text hash; else its three nearest live facts (one
    row each, nearest first: fact_id, kind, speaker, valid_from, cosine ``sim``, subject, attribute,
    value) when its vector is non-zero, else one row of NULLs."""
    nz = [bool(np.any(e)) for e in embeddings]
    params = {
        "t": tenant_id,
        "f": forest_id,
        "h": list(hashes),
        "nz": nz,
        "v": vector_array(embeddings),
        "n": len(hashes),
    }
    return await fetch_all(conn, _lookup_sql(forest_id), params)


# For each new fact i (1-based) in order: its id, and when it names a slot (subject and attribute not
# NULL) the slot's stored live holders just before (valid_from <= its own) and just after it.
_IDS_AND_NEIGHBOURS = """
WITH u AS MATERIALIZED (
    SELECT u.i, nextval(pg_get_serial_sequence('facts', 'fact_id')) AS id, u.s, u.a, u.vf
    FROM unnest(CAST(:s AS text[]), CAST(:a AS text[]), CAST(:vf AS timestamptz[])) WITH ORDINALITY AS u(s, a, vf, i)
    ORDER BY u.i
)
SELECT u.i, u.id, b.fact_id AS before_id, b.value AS before_value, b.valid_from AS before_valid_from,
       n.fact_id AS after_id, n.value AS after_value, n.valid_from AS after_valid_from
FROM u
LEFT JOIN LATERAL (SELECT fact_id, value, valid_from FROM facts WHERE tenant_id = :t AND forest_id = :f
    AND subject = u.s AND attribute = u.a AND retracted_at IS NULL AND valid_from <= u.vf
    ORDER BY valid_from DESC, fact_id DESC LIMIT 1) b ON u.s IS NOT NULL
LEFT JOIN LATERAL (SELECT fact_id, value, valid_from FROM facts WHERE tenant_id = :t AND forest_id = :f
    AND subject = u.s AND attribute = u.a AND retracted_at IS NULL AND valid_from > u.vf
    ORDER BY valid_from, fact_id LIMIT 1) n ON u.s IS NOT NULL
ORDER BY u.i
"""


async def new_ids_and_neighbours(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    slots: Sequence[tuple[str, str] | None],
    valid_from: Sequence[datetime],
) -> list[Row]:
    """Allocate one fact id per new fact (in order) and read, for those with a ``slot``, the stored live
    holders of the slot just before and just after ``valid_from``: rows (i, id, before_id,
    before_value, before_valid_from, after_id, after_value, after_valid_from) in order."""
    params = {
        "t": tenant_id, "f": forest_id, "s": [s[0] if s else None for s in slots],
        "a": [s[1] if s else None for s in slots], "vf": list(valid_from),
    }  # fmt: skip
    return await fetch_all(conn, _IDS_AND_NEIGHBOURS, params)


@dataclass(frozen=True, slots=True)
class FactRow:
    """A new fact with its final column values (supersession and source count included)."""

    fact_id: int
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
    source_count: int
    supersedes: int | None
    superseded_by: int | None
    embedding: np.ndarray[Any, Any]


@dataclass(frozen=True, slots=True)
class SourceRow:
    """A source turn to record for a fact (skipped when already recorded)."""

    fact_id: int
    turn_id: int
    cell_id: int
    session_id: int


@dataclass(frozen=True, slots=True)
class LinkUpdate:
    """What a commit changes on a stored fact: its validity end is cut to ``valid_to`` (when earlier),
    its pointers set (when not None), and the sources the commit adds to it are counted."""

    fact_id: int
    valid_to: datetime | None = None
    supersedes: int | None = None
    superseded_by: int | None = None


_WRITE = """
WITH fa AS (
    INSERT INTO facts (tenant_id, fact_id, forest_id, text, text_hash, kind, entities, topics, speaker, subject,
    attribute, value, time_text, valid_from, valid_to, recorded_at, source_count, supersedes, superseded_by, embedding)
    SELECT :t, u.id, :f, u.x, u.h, u.k, (CAST(:en AS text[]))[u.en0 : u.en1], (CAST(:to AS text[]))[u.to0 : u.to1],
    u.sp, u.su, u.at, u.va, u.tt, u.vf, u.vt, coalesce(u.ra, now()), u.n, u.ss, u.sb,
    (CAST(:v AS vector[]))[u.i]
    FROM unnest(CAST(:id AS bigint[]), CAST(:x AS text[]), CAST(:h AS text[]), CAST(:k AS text[]),
    CAST(:en0 AS int[]), CAST(:en1 AS int[]), CAST(:to0 AS int[]), CAST(:to1 AS int[]), CAST(:sp AS text[]),
    CAST(:su AS text[]), CAST(:at AS text[]), CAST(:va AS text[]), CAST(:tt AS text[]), CAST(:vf AS timestamptz[]),
    CAST(:vt AS timestamptz[]), CAST(:ra AS timestamptz[]), CAST(:n AS int[]), CAST(:ss AS bigint[]),
    CAST(:sb AS bigint[])) WITH ORDINALITY
    AS u(id, x, h, k, en0, en1, to0, to1, sp, su, at, va, tt, vf, vt, ra, n, ss, sb, i) ORDER BY u.i
),
src AS (
    INSERT INTO fact_sources (tenant_id, fact_id, turn_id, cell_id, forest_id, session_id)
    SELECT :t, s.fa, s.turn, s.c, :f, s.s FROM unnest(CAST(:sfa AS bigint[]), CAST(:sturn AS bigint[]),
    CAST(:sc AS bigint[]), CAST(:ss_ AS bigint[])) WITH ORDINALITY AS s(fa, turn, c, s, i) ORDER BY s.i
    ON CONFLICT DO NOTHING RETURNING fact_id, turn_id
),
upd AS (
    UPDATE facts f SET source_count = f.source_count + (SELECT count(*) FROM src WHERE src.fact_id = f.fact_id),
    valid_to = LEAST(f.valid_to, o.vt), supersedes = coalesce(o.ss, f.supersedes),
    superseded_by = coalesce(o.sb, f.superseded_by)
    FROM unnest(CAST(:oid AS bigint[]), CAST(:ovt AS timestamptz[]), CAST(:oss AS bigint[]), CAST(:osb AS bigint[]))
    AS o(id, vt, ss, sb) WHERE f.tenant_id = :t AND f.fact_id = o.id
)
SELECT fact_id, turn_id FROM src WHERE fact_id = ANY(CAST(:oid AS bigint[]))
"""


def _ranges(lists: Sequence[Sequence[str]]) -> tuple[list[str], list[int], list[int]]:
    """Lists of strings as one flat array and each list's 1-based slice bounds into it."""
    flat: list[str] = []
    lo: list[int] = []
    hi: list[int] = []
    for items in lists:
        lo.append(len(flat) + 1)
        flat.extend(items)
        hi.append(len(flat))
    return flat, lo, hi


async def write_facts(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    facts: Sequence[FactRow],
    sources: Sequence[SourceRow],
    updates: Sequence[LinkUpdate],
) -> set[tuple[int, int]]:
    """Insert the new ``facts`` (ids given), record ``sources`` in order (those already recorded are
    skipped), and apply ``updates`` to stored facts, each also counting the sources this call added
    to it; one statement. Every stored fact that gets sources must be in ``updates``. Returns the
    ``(fact_id, turn_id)`` sources added to the facts of ``updates``."""
    en, en0, en1 = _ranges([f.entities for f in facts])
    to, to0, to1 = _ranges([f.topics for f in facts])
    params = {
        "t": tenant_id, "f": forest_id, "id": [f.fact_id for f in facts], "x": [f.text for f in facts],
        "h": [f.text_hash for f in facts], "k": [f.kind for f in facts], "en": en, "en0": en0, "en1": en1,
        "to": to, "to0": to0, "to1": to1, "sp": [f.speaker for f in facts], "su": [f.subject for f in facts],
        "at": [f.attribute for f in facts], "va": [f.value for f in facts], "tt": [f.time_text for f in facts],
        "vf": [f.valid_from for f in facts], "vt": [f.valid_to for f in facts],
        "ra": [f.recorded_at for f in facts], "n": [f.source_count for f in facts],
        "ss": [f.supersedes for f in facts], "sb": [f.superseded_by for f in facts],
        "v": vector_array([f.embedding for f in facts]),
        "sfa": [s.fact_id for s in sources], "sturn": [s.turn_id for s in sources],
        "sc": [s.cell_id for s in sources], "ss_": [s.session_id for s in sources],
        "oid": [u.fact_id for u in updates], "ovt": [u.valid_to for u in updates],
        "oss": [u.supersedes for u in updates], "osb": [u.superseded_by for u in updates],
    }  # fmt: skip
    rows = await fetch_all(conn, _WRITE, params)
    return {(int(r["fact_id"]), int(r["turn_id"])) for r in rows}
