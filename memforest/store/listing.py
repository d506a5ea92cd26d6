"""Sessions and turns as the API lists them (read-only)."""

from __future__ import annotations

import uuid

from memforest.store.sql import Conn, Row, fetch_all, fetch_one

_LIST_SESSIONS = (
    "SELECT session_id, external_id, time, n_turns, created_at FROM sessions "
    "WHERE tenant_id = :t AND forest_id = :f AND session_id > :c ORDER BY session_id LIMIT :n"
)
_SESSION_BY_EXTERNAL_ID = (
    "SELECT session_id, external_id, time, metadata, n_turns, created_at FROM sessions "
    "WHERE tenant_id = :t AND forest_id = :f AND external_id = :e"
)
_SESSION_TURNS = (
    "SELECT external_id, speaker, role, text, time FROM turns WHERE tenant_id = :t AND forest_id = :f "
    "AND session_id = :s ORDER BY seq"
)


async def list_sessions(conn: Conn, tenant_id: uuid.UUID, forest_id: int, *, after: int, limit: int) -> list[Row]:
    """Up to ``limit`` sessions with ``session_id > after`` in the order they were accepted:
    ``session_id``, ``external_id``, ``time``, ``n_turns``, ``created_at``."""
    return await fetch_all(conn, _LIST_SESSIONS, {"t": tenant_id, "f": forest_id, "c": after, "n": limit})


async def find_session(conn: Conn, tenant_id: uuid.UUID, forest_id: int, external_id: str) -> Row | None:
    """A session by its external id (None when absent): ids, ``time``, ``metadata``, ``n_turns``, ``created_at``."""
    return await fetch_one(conn, _SESSION_BY_EXTERNAL_ID, {"t": tenant_id, "f": forest_id, "e": external_id})


async def session_turns(conn: Conn, tenant_id: uuid.UUID, forest_id: int, session_id: int) -> list[Row]:
    """The session's turns in order: ``external_id``, ``speaker``, ``role``, ``text``, ``time``."""
    return await fetch_all(conn, _SESSION_TURNS, {"t": tenant_id, "f": forest_id, "s": session_id})
