"""Entities and their fact links: named statements of the write path."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from memforest.store.sql import Conn, Row, execute, fetch_all, fetch_one

# One statement, rows in label order (as one upsert per label would run).
_REGISTER_SPEAKERS = """
INSERT INTO entities (tenant_id, forest_id, key, label, is_speaker)
SELECT :t, :f, u.k, u.l, true FROM unnest(CAST(:k AS text[]), CAST(:l AS text[])) WITH ORDINALITY
AS u(k, l, i) ORDER BY u.i
ON CONFLICT (tenant_id, forest_id, key) DO UPDATE SET is_speaker = true
"""


async def register_speakers(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, keys: list[str], labels: list[str]
) -> None:
    """Create (or flag) the entities of the speakers: ``keys[i]`` labelled ``labels[i]``."""
    await execute(conn, _REGISTER_SPEAKERS, {"t": tenant_id, "f": forest_id, "k": keys, "l": labels})


# Count the fact, count the session when the entity has no fact of it yet (checked before this
# fact's link is added: same snapshot), and link the fact.
_LINK_FACT = """
WITH e AS (INSERT INTO entities (tenant_id, forest_id, key, label, fact_count, session_count,
first_time, last_time) VALUES (:t, :f, :k, :l, 1, 1, :ts, :ts)
ON CONFLICT (tenant_id, forest_id, key) DO UPDATE SET
fact_count = entities.fact_count + 1, first_time = LEAST(entities.first_time, :ts),
last_time = GREATEST(entities.last_time, :ts), session_count = entities.session_count +
CASE WHEN EXISTS (SELECT 1 FROM entity_facts ef WHERE ef.tenant_id = :t
AND ef.entity_id = entities.entity_id AND ef.session_id = :s) THEN 0 ELSE 1 END
RETURNING entity_id, label, fact_count, session_count, activated, is_speaker),
link AS (INSERT INTO entity_facts (tenant_id, entity_id, fact_id, forest_id, session_id)
SELECT :t, e.entity_id, :fa, :f, :s FROM e ON CONFLICT DO NOTHING)
SELECT * FROM e
"""


async def link_fact(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    *,
    key: str,
    label: str,
    time: datetime,
    fact_id: int,
    session_id: int,
) -> Row:
    """Upsert the entity ``key`` and link the fact to it, counting the fact (and its session when
    new to the entity) in one statement. Returns entity_id, label, fact_count, session_count,
    activated, is_speaker after the update."""
    params = {"t": tenant_id, "f": forest_id, "k": key, "l": label, "ts": time, "fa": fact_id, "s": session_id}
    row = await fetch_one(conn, _LINK_FACT, params)
    assert row is not None  # INSERT ... ON CONFLICT DO UPDATE always returns the row
    return row


_ACTIVATE = "UPDATE entities SET activated = true WHERE tenant_id = :t AND entity_id = :e"


async def activate(conn: Conn, tenant_id: uuid.UUID, entity_id: int) -> None:
    """Record that the entity has its own tree."""
    await execute(conn, _ACTIVATE, {"t": tenant_id, "e": entity_id})


_LIVE_FACTS = """
SELECT f.fact_id, f.text, f.valid_from, f.embedding FROM entity_facts ef JOIN facts f
ON f.tenant_id = ef.tenant_id AND f.fact_id = ef.fact_id WHERE ef.tenant_id = :t AND ef.entity_id = :e
AND f.retracted_at IS NULL ORDER BY f.valid_from, f.fact_id
"""


async def live_facts(conn: Conn, tenant_id: uuid.UUID, entity_id: int) -> list[Row]:
    """The live facts linked to an entity in time order (fact_id, text, valid_from, embedding)."""
    return await fetch_all(conn, _LIVE_FACTS, {"t": tenant_id, "e": entity_id})


# The state of the entities a batch of fact links names, before the batch: counts, flags, times,
# and which of the batch's sessions each entity already has a fact of.
_LOAD_FOR_LINKS = """
SELECT e.key, e.entity_id, e.label, e.fact_count, e.session_count, e.activated, e.is_speaker, e.first_time,
e.last_time, ARRAY(SELECT DISTINCT ef.session_id FROM entity_facts ef WHERE ef.tenant_id = :t
AND ef.entity_id = e.entity_id AND ef.session_id = ANY(CAST(:s AS bigint[]))) AS sessions
FROM entities e WHERE e.tenant_id = :t AND e.forest_id = :f AND e.key = ANY(CAST(:k AS text[]))
"""


# register_speakers' upsert, then _LOAD_FOR_LINKS reading the speakers' rows as the upsert left them
# (a statement does not see its own writes: they come from RETURNING).
_COLUMNS = "key, entity_id, label, fact_count, session_count, activated, is_speaker, first_time, last_time"
_REGISTER_AND_LOAD = f"""
WITH sp AS (INSERT INTO entities (tenant_id, forest_id, key, label, is_speaker)
SELECT :t, :f, u.k, u.l, true FROM unnest(CAST(:sk AS text[]), CAST(:sl AS text[])) WITH ORDINALITY
AS u(k, l, i) ORDER BY u.i
ON CONFLICT (tenant_id, forest_id, key) DO UPDATE SET is_speaker = true RETURNING {_COLUMNS}),
e AS (SELECT {_COLUMNS} FROM sp WHERE key = ANY(CAST(:k AS text[]))
      UNION ALL SELECT {_COLUMNS} FROM entities WHERE tenant_id = :t AND forest_id = :f
      AND key = ANY(CAST(:k AS text[])) AND key <> ALL(CAST(:sk AS text[])))
SELECT e.*, ARRAY(SELECT DISTINCT ef.session_id FROM entity_facts ef WHERE ef.tenant_id = :t
AND ef.entity_id = e.entity_id AND ef.session_id = ANY(CAST(:s AS bigint[]))) AS sessions FROM e
"""


async def load_for_links(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    keys: list[str],
    session_ids: list[int],
    speakers: tuple[list[str], list[str]] | None = None,
) -> list[Row]:
    """The existing entities among ``keys`` (key, entity_id, label, fact_count, session_count,
    activated, is_speaker, first_time, last_time) with ``sessions``: those of ``session_ids`` the
    entity already has a linked fact of. With ``speakers`` (keys and labels), first
    :func:`register_speakers` in the same statement (the rows read are as it left them)."""
    params = {"t": tenant_id, "f": forest_id, "k": keys, "s": session_ids}
    if speakers is None:
        return await fetch_all(conn, _LOAD_FOR_LINKS, params)
    return await fetch_all(conn, _REGISTER_AND_LOAD, params | {"sk": speakers[0], "sl": speakers[1]})


@dataclass(frozen=True, slots=True)
class EntityDelta:
    """What a batch of links adds to one entity: the label it gets when new, the facts and sessions
    it newly counts, the time span of the new facts, and whether the batch activates it."""

    key: str
    label: str
    facts: int
    sessions: int
    first_time: datetime
    last_time: datetime
    activate: bool


# One upsert per entity in first-link order (new entities get their ids in that order), then every
# link; returns the entity ids. Counts add up as one link_fact per link would.
_LINK_FACTS = """
WITH e AS (
    INSERT INTO entities (tenant_id, forest_id, key, label, fact_count, session_count, first_time, last_time,
    activated)
    SELECT :t, :f, u.k, u.l, u.fc, u.sc, u.ft, u.lt, u.act FROM unnest(CAST(:k AS text[]), CAST(:l AS text[]),
    CAST(:fc AS int[]), CAST(:sc AS int[]), CAST(:ft AS timestamptz[]), CAST(:lt AS timestamptz[]),
    CAST(:act AS boolean[])) WITH ORDINALITY AS u(k, l, fc, sc, ft, lt, act, i) ORDER BY u.i
    ON CONFLICT (tenant_id, forest_id, key) DO UPDATE SET fact_count = entities.fact_count + EXCLUDED.fact_count,
    session_count = entities.session_count + EXCLUDED.session_count,
    first_time = LEAST(entities.first_time, EXCLUDED.first_time),
    last_time = GREATEST(entities.last_time, EXCLUDED.last_time), activated = entities.activated OR EXCLUDED.activated
    RETURNING key, entity_id
),
link AS (
    INSERT INTO entity_facts (tenant_id, entity_id, fact_id, forest_id, session_id)
    SELECT :t, e.entity_id, v.fa, :f, v.s FROM unnest(CAST(:lk AS text[]), CAST(:lfa AS bigint[]),
    CAST(:ls AS bigint[])) AS v(k, fa, s) JOIN e ON e.key = v.k ON CONFLICT DO NOTHING
)
SELECT key, entity_id FROM e
"""


async def link_facts(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    deltas: Sequence[EntityDelta],
    links: Sequence[tuple[str, int, int]],
) -> dict[str, int]:
    """Apply a batch of fact links in one statement: upsert each entity of ``deltas`` (one per key,
    in first-link order) adding its counts, and link every ``(key, fact_id, session_id)`` of
    ``links``. Returns key -> entity_id."""
    params = {
        "t": tenant_id, "f": forest_id, "k": [d.key for d in deltas], "l": [d.label for d in deltas],
        "fc": [d.facts for d in deltas], "sc": [d.sessions for d in deltas], "ft": [d.first_time for d in deltas],
        "lt": [d.last_time for d in deltas], "act": [d.activate for d in deltas], "lk": [k for k, _, _ in links],
        "lfa": [fa for _, fa, _ in links], "ls": [s for _, _, s in links],
    }  # fmt: skip
    rows = await fetch_all(conn, _LINK_FACTS, params)
    return {str(r["key"]): int(r["entity_id"]) for r in rows}


_LIVE_FACTS_MANY = """
SELECT ef.entity_id, f.fact_id, f.text, f.valid_from, f.embedding FROM entity_facts ef JOIN facts f
ON f.tenant_id = ef.tenant_id AND f.fact_id = ef.fact_id WHERE ef.tenant_id = :t
AND ef.entity_id = ANY(CAST(:e AS bigint[])) AND f.retracted_at IS NULL ORDER BY ef.entity_id, f.valid_from, f.fact_id
"""


async def live_facts_many(conn: Conn, tenant_id: uuid.UUID, entity_ids: list[int]) -> dict[int, list[Row]]:
    """:func:`live_facts` of several entities in one statement: entity_id -> its live facts in time order."""
    out: dict[int, list[Row]] = {e: [] for e in entity_ids}
    for r in await fetch_all(conn, _LIVE_FACTS_MANY, {"t": tenant_id, "e": entity_ids}):
        out[int(r["entity_id"])].append(r)
    return out
