"""Entities and their fact links: named statements of the write path."""

from __future__ import annotations

import uuid
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
