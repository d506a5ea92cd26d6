"""Statements of a client's edits to one fact: a correction that supersedes it, or its deletion."""

from __future__ import annotations

import uuid
from datetime import datetime

from memforest.store.sql import Conn, Row, execute, fetch_all, fetch_one

_FACT = """
SELECT fact_id, text, kind, entities, topics, speaker, subject, attribute, valid_from, valid_to,
       supersedes, superseded_by, retracted_at, embedding
FROM facts WHERE tenant_id = :t AND forest_id = :f AND fact_id = :id FOR UPDATE
"""
_PLACEMENTS = """
SELECT p.tree_id, tr.kind, tr.key FROM placements p
JOIN trees tr ON tr.tenant_id = p.tenant_id AND tr.tree_id = p.tree_id
WHERE p.tenant_id = :t AND p.source_kind = 'fact' AND p.source_id = :id ORDER BY p.tree_id
"""
_ENTITY_LINKS = """
SELECT e.key, e.label, ef.session_id FROM entity_facts ef
JOIN entities e ON e.tenant_id = ef.tenant_id AND e.entity_id = ef.entity_id
WHERE ef.tenant_id = :t AND ef.fact_id = :id ORDER BY e.entity_id
"""
_SUPERSEDE = """
UPDATE facts SET
    valid_to = CASE WHEN fact_id = :old THEN CAST(:vf AS timestamptz) ELSE valid_to END,
    superseded_by = CASE WHEN fact_id = :old THEN :new ELSE superseded_by END,
    supersedes = CASE WHEN fact_id = :new THEN :old ELSE supersedes END
WHERE tenant_id = :t AND fact_id IN (:old, :new)
"""
_DELETE_SOURCES = "DELETE FROM fact_sources WHERE tenant_id = :t AND fact_id = :id"


async def fact_for_edit(conn: Conn, tenant_id: uuid.UUID, forest_id: int, fact_id: int) -> Row | None:
    """The fact with the columns a correction copies, locked for the edit; None when absent."""
    return await fetch_one(conn, _FACT, {"t": tenant_id, "f": forest_id, "id": fact_id})


async def fact_placements(conn: Conn, tenant_id: uuid.UUID, fact_id: int) -> list[Row]:
    """The trees holding the fact: tree_id, kind, key."""
    return await fetch_all(conn, _PLACEMENTS, {"t": tenant_id, "id": fact_id})


async def fact_entity_links(conn: Conn, tenant_id: uuid.UUID, fact_id: int) -> list[Row]:
    """The fact's entity links: the entity's key and label, and the session of the link."""
    return await fetch_all(conn, _ENTITY_LINKS, {"t": tenant_id, "id": fact_id})


async def supersede(conn: Conn, tenant_id: uuid.UUID, old: int, new: int, valid_from: datetime) -> None:
    """Fact ``new`` supersedes ``old`` from ``valid_from``: old ends there, both point at each other."""
    await execute(conn, _SUPERSEDE, {"t": tenant_id, "old": old, "new": new, "vf": valid_from})


async def delete_fact_sources(conn: Conn, tenant_id: uuid.UUID, fact_id: int) -> int:
    """Drop the fact's source links (the turns stay); returns how many."""
    return await execute(conn, _DELETE_SOURCES, {"t": tenant_id, "id": fact_id})
