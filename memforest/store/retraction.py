"""Named queries of a retraction (``memforest.lifecycle.retract``): sessions, turns and cells, the
fact sources of retracted turns, the facts they leave behind, and the supersession timeline
re-threaded around a removed fact. Entity, scene and tree clean-up is in
:mod:`memforest.store.retraction_graph`. The caller holds the transaction and the forest lock.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

from memforest.store.facts import SLOT_WHERE
from memforest.store.sql import Conn, Row, execute, fetch_all, fetch_one, scalar

# ------------------------------------------------------------------------------ sessions and turns

_FIND_SESSION = """
SELECT session_id, external_id, content_hash FROM sessions
WHERE tenant_id = :t AND forest_id = :f AND external_id = :e
"""
_SESSION_TURN_IDS = "SELECT turn_id FROM turns WHERE tenant_id = :t AND session_id = :s"
_TURN_COLUMNS = "SELECT turn_id, seq, speaker, text, time FROM turns WHERE tenant_id = :t AND session_id = :s"
_FIND_TURN = _TURN_COLUMNS + " AND external_id = :e"
_FIND_UNNAMED_TURN = _TURN_COLUMNS + " AND seq = :q AND external_id IS NULL"
_COUNT_TURNS = "SELECT count(*) FROM turns WHERE tenant_id = :t AND session_id = :s"
_COUNT_PENDING_CELLS = "SELECT count(*) FROM cells WHERE tenant_id = :t AND session_id = :s AND extracted_at IS NULL"
_TURN_SPEAKERS = "SELECT DISTINCT speaker FROM turns WHERE tenant_id = :t AND session_id = :s AND turn_id = ANY(:ids)"
_DELETE_SESSION_CELLS = "DELETE FROM cells WHERE tenant_id = :t AND session_id = :s"
_DELETE_SESSION_TURNS = "DELETE FROM turns WHERE tenant_id = :t AND session_id = :s"
# Its jobs (a running one is left to finish: it finds the session gone and changes nothing).
_DELETE_SESSION_JOBS = """
DELETE FROM jobs WHERE tenant_id = :t AND forest_id = :f AND kind = 'ingest'
AND payload->>'session_id' = :s AND state <> 'running'
"""
_DELETE_SESSION = "DELETE FROM sessions WHERE tenant_id = :t AND session_id = :s"
_DELETE_TURN = "DELETE FROM turns WHERE tenant_id = :t AND turn_id = :u"
_SESSION_LOST_TURN = """
UPDATE sessions SET n_turns = n_turns - 1, content_hash = :h WHERE tenant_id = :t AND session_id = :s
"""


@dataclass(frozen=True, slots=True)
class SessionRowsDeleted:
    """Rows a session retraction deleted (jobs are not counted)."""

    cells: int
    turns: int
    sessions: int


async def find_session(conn: Conn, tenant_id: uuid.UUID, forest_id: int, external_id: str) -> Row | None:
    """The session (``session_id``, ``external_id``, ``content_hash``) by its client id, or None."""
    return await fetch_one(conn, _FIND_SESSION, {"t": tenant_id, "f": forest_id, "e": external_id})


async def session_turn_ids(conn: Conn, tenant_id: uuid.UUID, session_id: int) -> list[int]:
    """The ids of every turn of the session."""
    return [int(r["turn_id"]) for r in await fetch_all(conn, _SESSION_TURN_IDS, {"t": tenant_id, "s": session_id})]


async def find_turn(conn: Conn, tenant_id: uuid.UUID, session_id: int, external_id: str) -> Row | None:
    """The turn (``turn_id``, ``seq``, ``speaker``, ``text``, ``time``) by its client id, or None."""
    return await fetch_one(conn, _FIND_TURN, {"t": tenant_id, "s": session_id, "e": external_id})


async def find_unnamed_turn(conn: Conn, tenant_id: uuid.UUID, session_id: int, seq: int) -> Row | None:
    """The turn sent without a client id at position ``seq`` of the session, or None."""
    return await fetch_one(conn, _FIND_UNNAMED_TURN, {"t": tenant_id, "s": session_id, "q": seq})


async def count_turns(conn: Conn, tenant_id: uuid.UUID, session_id: int) -> int:
    """How many turns the session has."""
    return int(await scalar(conn, _COUNT_TURNS, {"t": tenant_id, "s": session_id}))


async def count_pending_cells(conn: Conn, tenant_id: uuid.UUID, session_id: int) -> int:
    """How many cells of the session still await extraction."""
    return int(await scalar(conn, _COUNT_PENDING_CELLS, {"t": tenant_id, "s": session_id}) or 0)


async def turn_speakers(conn: Conn, tenant_id: uuid.UUID, session_id: int, turn_ids: list[int]) -> list[str]:
    """The distinct speaker labels of these turns of the session."""
    rows = await fetch_all(conn, _TURN_SPEAKERS, {"t": tenant_id, "s": session_id, "ids": turn_ids})
    return [str(r["speaker"]) for r in rows]


async def delete_session_rows(conn: Conn, tenant_id: uuid.UUID, forest_id: int, session_id: int) -> SessionRowsDeleted:
    """Delete the session's cells, turns, queued ingest jobs and row (its tree goes separately)."""
    p = {"t": tenant_id, "s": session_id}
    cells = await execute(conn, _DELETE_SESSION_CELLS, p)
    turns = await execute(conn, _DELETE_SESSION_TURNS, p)
    await execute(conn, _DELETE_SESSION_JOBS, {"t": tenant_id, "f": forest_id, "s": str(session_id)})
    sessions = await execute(conn, _DELETE_SESSION, p)
    return SessionRowsDeleted(cells=cells, turns=turns, sessions=sessions)


async def delete_turn(conn: Conn, tenant_id: uuid.UUID, turn_id: int) -> int:
    """Delete one turn row."""
    return await execute(conn, _DELETE_TURN, {"t": tenant_id, "u": turn_id})


async def session_lost_turn(conn: Conn, tenant_id: uuid.UUID, session_id: int, content_hash: str) -> None:
    """One turn fewer, and the content hash that marks the stored session as changed."""
    await execute(conn, _SESSION_LOST_TURN, {"h": content_hash, "t": tenant_id, "s": session_id})


# ------------------------------------------------------------------------------ cells

_CELL_HOLDING_TURN = """
SELECT cell_id, turn_from, turn_to FROM cells WHERE tenant_id = :t AND session_id = :s
AND turn_from <= :q AND turn_to >= :q
"""
_TURNS_BETWEEN = """
SELECT seq, speaker, text, time FROM turns WHERE tenant_id = :t AND session_id = :s
AND seq BETWEEN :a AND :b ORDER BY seq
"""
_DELETE_CELL = "DELETE FROM cells WHERE tenant_id = :t AND cell_id = :c"
_REWRITE_CELL = """
UPDATE cells SET text = :x, t_start = :ts, t_end = :te, turn_from = :a, turn_to = :b
WHERE tenant_id = :t AND cell_id = :c
"""


async def cell_holding_turn(conn: Conn, tenant_id: uuid.UUID, session_id: int, seq: int) -> Row | None:
    """The cell (``cell_id``, ``turn_from``, ``turn_to``) whose turn range holds ``seq``, or None."""
    return await fetch_one(conn, _CELL_HOLDING_TURN, {"t": tenant_id, "s": session_id, "q": seq})


async def turns_between(conn: Conn, tenant_id: uuid.UUID, session_id: int, first: int, last: int) -> list[Row]:
    """The session's turns (``seq``, ``speaker``, ``text``, ``time``) from ``first`` to ``last``."""
    return await fetch_all(conn, _TURNS_BETWEEN, {"t": tenant_id, "s": session_id, "a": first, "b": last})


async def delete_cell(conn: Conn, tenant_id: uuid.UUID, cell_id: int) -> int:
    """Delete one cell row."""
    return await execute(conn, _DELETE_CELL, {"t": tenant_id, "c": cell_id})


async def rewrite_cell(
    conn: Conn,
    tenant_id: uuid.UUID,
    cell_id: int,
    *,
    text: str,
    t_start: datetime,
    t_end: datetime,
    turn_from: int,
    turn_to: int,
) -> None:
    """Give the cell new text, interval and turn range (same id: its fact sources stay valid)."""
    params = {"x": text, "ts": t_start, "te": t_end, "a": turn_from, "b": turn_to, "t": tenant_id, "c": cell_id}
    await execute(conn, _REWRITE_CELL, params)


# ------------------------------------------------------------------------------ facts

_DELETE_TURN_SOURCES = "DELETE FROM fact_sources WHERE tenant_id = :t AND turn_id = ANY(:ids) RETURNING fact_id"
_SOURCES_LEFT = """
SELECT f.fact_id, (SELECT count(*) FROM fact_sources s WHERE s.tenant_id = f.tenant_id
AND s.fact_id = f.fact_id) AS n FROM facts f WHERE f.tenant_id = :t AND f.fact_id = ANY(:ids)
"""
_RECOUNT_SOURCES = """
UPDATE facts f SET source_count = x.n, recorded_at = GREATEST(f.recorded_at, x.said) FROM
(SELECT s.fact_id, count(*) AS n, min(c.t_end) AS said FROM fact_sources s JOIN cells c
 ON c.tenant_id = s.tenant_id AND c.cell_id = s.cell_id WHERE s.tenant_id = :t AND s.fact_id = ANY(:ids)
 GROUP BY s.fact_id) x WHERE f.tenant_id = :t AND f.fact_id = x.fact_id
"""
_REPOINT_ENTITY_LINKS = """
UPDATE entity_facts ef SET session_id = (SELECT min(s.session_id) FROM fact_sources s
 WHERE s.tenant_id = ef.tenant_id AND s.fact_id = ef.fact_id)
WHERE ef.tenant_id = :t AND ef.fact_id = ANY(:ids) AND NOT EXISTS (SELECT 1 FROM fact_sources s
 WHERE s.tenant_id = ef.tenant_id AND s.fact_id = ef.fact_id AND s.session_id = ef.session_id)
RETURNING ef.entity_id
"""
_FACT_SCENE_KEYS = """
SELECT tr.key FROM placements p JOIN trees tr ON tr.tenant_id = p.tenant_id AND tr.tree_id = p.tree_id
WHERE p.tenant_id = :t AND p.source_kind = 'fact' AND p.source_id = :id AND tr.kind = 'scene'
"""
_FACT_FOR_REMOVAL = "SELECT fact_id, embedding, topics FROM facts WHERE tenant_id = :t AND fact_id = :id"
_DELETE_FACT_LINKS = "DELETE FROM entity_facts WHERE tenant_id = :t AND fact_id = :id RETURNING entity_id"
_DELETE_FACT = "DELETE FROM facts WHERE tenant_id = :t AND fact_id = :id"


async def delete_turn_sources(conn: Conn, tenant_id: uuid.UUID, turn_ids: list[int]) -> list[int]:
    """Delete the fact sources of these turns; the ids of the facts they supported (sorted, once)."""
    rows = await fetch_all(conn, _DELETE_TURN_SOURCES, {"t": tenant_id, "ids": turn_ids})
    return sorted({int(r["fact_id"]) for r in rows})


async def sources_left(conn: Conn, tenant_id: uuid.UUID, fact_ids: list[int]) -> dict[int, int]:
    """How many sources each of these facts still has."""
    rows = await fetch_all(conn, _SOURCES_LEFT, {"t": tenant_id, "ids": fact_ids})
    return {int(r["fact_id"]): int(r["n"]) for r in rows}


async def recount_sources(conn: Conn, tenant_id: uuid.UUID, fact_ids: list[int]) -> None:
    """Set each fact's ``source_count`` to its remaining sources and move ``recorded_at`` to when
    they were said (never earlier than before)."""
    await execute(conn, _RECOUNT_SOURCES, {"t": tenant_id, "ids": fact_ids})


async def repoint_entity_links(conn: Conn, tenant_id: uuid.UUID, fact_ids: list[int]) -> list[int]:
    """Move entity links whose session no longer supports the fact to a supporting session; the
    entities whose links moved."""
    return [
        int(r["entity_id"]) for r in await fetch_all(conn, _REPOINT_ENTITY_LINKS, {"t": tenant_id, "ids": fact_ids})
    ]


async def fact_scene_keys(conn: Conn, tenant_id: uuid.UUID, fact_id: int) -> list[str]:
    """The keys of the scene trees that hold a leaf of the fact."""
    return [str(r["key"]) for r in await fetch_all(conn, _FACT_SCENE_KEYS, {"t": tenant_id, "id": fact_id})]


async def fact_for_removal(conn: Conn, tenant_id: uuid.UUID, fact_id: int) -> Row | None:
    """The fact's ``fact_id``, ``embedding`` and ``topics`` (what its scene cluster must give back)."""
    return await fetch_one(conn, _FACT_FOR_REMOVAL, {"t": tenant_id, "id": fact_id})


async def delete_fact(conn: Conn, tenant_id: uuid.UUID, fact_id: int) -> list[int]:
    """Delete the fact's entity links, then the fact; the entities it was linked to."""
    p = {"t": tenant_id, "id": fact_id}
    links = await fetch_all(conn, _DELETE_FACT_LINKS, p)
    await execute(conn, _DELETE_FACT, p)
    return [int(r["entity_id"]) for r in links]


# ------------------------------------------------------------------------------ supersession

_FACT_SLOT = """
SELECT fact_id, valid_from, superseded_by, subject, attribute FROM facts WHERE tenant_id = :t AND fact_id = :id
"""
_FACT_SUCCESSOR = """
SELECT fact_id, value, valid_from, supersedes, subject, attribute FROM facts WHERE tenant_id = :t AND fact_id = :id
"""
_SUPERSEDED_BY = """
SELECT fact_id, value FROM facts WHERE tenant_id = :t AND forest_id = :f AND subject = :s
AND attribute = :a AND superseded_by = :id ORDER BY valid_from DESC, fact_id DESC
"""
_RELINK = """
UPDATE facts SET superseded_by = :n, valid_to = CASE WHEN valid_to = :xvf THEN :nvf ELSE valid_to END
WHERE tenant_id = :t AND fact_id = :id
"""
_MAKE_CURRENT = """
UPDATE facts SET superseded_by = NULL, valid_to = CASE WHEN valid_to = :xvf THEN NULL
ELSE valid_to END WHERE tenant_id = :t AND fact_id = :id
"""
_SET_SUPERSEDES = "UPDATE facts SET supersedes = :p WHERE tenant_id = :t AND fact_id = :n"
# The slot's live facts just before and just after the removed one in its timeline (by valid_from,
# then fact_id; the facts canonicalisation threads a new fact between, valueless corrections included): the
# pair canonicalisation would have threaded had it never been stated.
_SLOT_AROUND = (
    "(SELECT true AS before, fact_id, value, valid_from, superseded_by, supersedes FROM facts "
    f"WHERE {SLOT_WHERE} AND (valid_from, fact_id) < (:xvf, :id) ORDER BY valid_from DESC, fact_id DESC "
    "LIMIT 1) UNION ALL "
    "(SELECT false, fact_id, value, valid_from, superseded_by, supersedes FROM facts "
    f"WHERE {SLOT_WHERE} AND (valid_from, fact_id) > (:xvf, :id) ORDER BY valid_from, fact_id LIMIT 1)"
)
# Whether following superseded_by from :start reaches :target (UNION stops at a repeated fact).
_REACHES = """
WITH RECURSIVE chain (fact_id) AS (
    SELECT superseded_by FROM facts WHERE tenant_id = :t AND fact_id = :start AND superseded_by IS NOT NULL
    UNION
    SELECT f.superseded_by FROM facts f JOIN chain c ON f.tenant_id = :t AND f.fact_id = c.fact_id
    WHERE f.superseded_by IS NOT NULL
)
SELECT EXISTS (SELECT 1 FROM chain WHERE fact_id = :target)
"""
# A current fact gains a successor: it ends where the successor starts (LEAST ignores an open end).
_LINK_CURRENT = """
UPDATE facts SET superseded_by = :n, valid_to = LEAST(valid_to, :nvf)
WHERE tenant_id = :t AND fact_id = :id AND superseded_by IS NULL
"""
# Any other fact of the forest still pointing at the removed one (a merge can link a copied fact to a
# target fact outside its slot): current again. No index leads with superseded_by (migration 0019,
# ADR 0028), so this reads the forest's facts: one forest, where the old foreign key read the tenant.
_RELEASE_SUPERSEDED = """
UPDATE facts SET superseded_by = NULL, valid_to = CASE WHEN valid_to = :xvf THEN NULL ELSE valid_to END
WHERE tenant_id = :t AND forest_id = :f AND superseded_by = :id RETURNING fact_id
"""


async def fact_slot(conn: Conn, tenant_id: uuid.UUID, fact_id: int) -> Row | None:
    """The fact's ``valid_from``, ``superseded_by``, ``subject`` and ``attribute``."""
    return await fetch_one(conn, _FACT_SLOT, {"t": tenant_id, "id": fact_id})


async def fact_successor(conn: Conn, tenant_id: uuid.UUID, fact_id: int) -> Row | None:
    """A fact's ``fact_id, value, valid_from, supersedes, subject, attribute`` (read as a successor)."""
    return await fetch_one(conn, _FACT_SUCCESSOR, {"t": tenant_id, "id": fact_id})


async def superseded_by(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, subject: str, attribute: str, fact_id: int
) -> list[Row]:
    """The facts of the slot that ``fact_id`` superseded (``fact_id``, ``value``), latest first."""
    params = {"t": tenant_id, "f": forest_id, "s": subject, "a": attribute, "id": fact_id}
    return await fetch_all(conn, _SUPERSEDED_BY, params)


async def relink_superseded(
    conn: Conn, tenant_id: uuid.UUID, fact_id: int, successor_id: int, old_start: datetime, new_start: datetime
) -> None:
    """Let ``successor_id`` supersede the fact; a ``valid_to`` that was ``old_start`` (set by the
    removed supersession) becomes ``new_start``."""
    params = {"t": tenant_id, "id": fact_id, "xvf": old_start, "n": successor_id, "nvf": new_start}
    await execute(conn, _RELINK, params)


async def make_current(conn: Conn, tenant_id: uuid.UUID, fact_id: int, old_start: datetime) -> None:
    """The fact is superseded no more; a ``valid_to`` that was ``old_start`` is cleared."""
    await execute(conn, _MAKE_CURRENT, {"t": tenant_id, "id": fact_id, "xvf": old_start})


async def slot_around(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, slot: tuple[str, str], fact_id: int, valid_from: datetime
) -> list[Row]:
    """The slot's live facts just before (``before`` true) and just after ``fact_id``
    (starting ``valid_from``) in its timeline: ``fact_id, value, valid_from, superseded_by, supersedes``."""
    params = {"t": tenant_id, "f": forest_id, "s": slot[0], "a": slot[1], "id": fact_id, "xvf": valid_from}
    return await fetch_all(conn, _SLOT_AROUND, params)


async def supersession_reaches(conn: Conn, tenant_id: uuid.UUID, start_id: int, target_id: int) -> bool:
    """Whether ``target_id`` is among the successors of ``start_id`` (following ``superseded_by``)."""
    return bool(await scalar(conn, _REACHES, {"t": tenant_id, "start": start_id, "target": target_id}))


async def link_current(conn: Conn, tenant_id: uuid.UUID, fact_id: int, successor_id: int, new_start: datetime) -> int:
    """Let ``successor_id`` supersede the fact if it is current; it ends at ``new_start``. How many (0 or 1)."""
    return await execute(conn, _LINK_CURRENT, {"t": tenant_id, "id": fact_id, "n": successor_id, "nvf": new_start})


async def set_supersedes(conn: Conn, tenant_id: uuid.UUID, fact_id: int, predecessor_id: int | None) -> None:
    """Point the fact's ``supersedes`` at ``predecessor_id`` (None: nothing)."""
    await execute(conn, _SET_SUPERSEDES, {"p": predecessor_id, "t": tenant_id, "n": fact_id})


async def release_superseded(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, fact_id: int, old_start: datetime
) -> list[int]:
    """Every fact of the forest still superseded by ``fact_id`` becomes current (a ``valid_to`` that
    was ``old_start`` is cleared); their ids."""
    rows = await fetch_all(conn, _RELEASE_SUPERSEDED, {"t": tenant_id, "f": forest_id, "id": fact_id, "xvf": old_start})
    return [int(r["fact_id"]) for r in rows]
