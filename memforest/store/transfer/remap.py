"""Merge step 2: A's sessions, turns and cells in B, shared or copied with fresh ids.

A session B already holds with the same external id (or its ``<A name>/`` form), content hash and
cell spans is the same conversation: it is shared, not copied. Another session whose external id
is taken in B is renamed ``<A name>/<id>`` and keeps ``merged_from`` in its metadata.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from memforest.store.sql import Conn, execute, scalar
from memforest.store.transfer.columns import insert_select
from memforest.store.transfer.snapshot import create_map, new_ids, sequence_of

__all__ = ["SessionCounts", "copy_session_rows", "copy_sessions"]

_CELL_SPANS_A = (
    "(SELECT string_agg(c.turn_from || '-' || c.turn_to, ',' ORDER BY c.seq) FROM mm_cells c "
    "WHERE c.session_id = s.session_id)"
)
_CELL_SPANS_B = (
    "(SELECT string_agg(c.turn_from || '-' || c.turn_to, ',' ORDER BY c.seq) FROM cells c "
    "WHERE c.tenant_id = :t AND c.session_id = b.session_id)"
)

_MAP_SHARED_SESSIONS = (
    "INSERT INTO mm_session_map (old, new, external_id, shared) SELECT DISTINCT ON (s.session_id) s.session_id, "
    "b.session_id, b.external_id, true FROM mm_sessions s JOIN sessions b ON b.tenant_id = :t "
    "AND b.forest_id = :f AND b.external_id IN (s.external_id, CAST(:an AS text) || '/' || s.external_id) "
    f"AND b.content_hash = s.content_hash WHERE {_CELL_SPANS_A} IS NOT DISTINCT FROM {_CELL_SPANS_B} "
    "ORDER BY s.session_id, b.external_id = s.external_id DESC"
)

_TAKEN = "EXISTS (SELECT 1 FROM sessions b WHERE b.tenant_id = :t AND b.forest_id = :f AND b.external_id = {x})"
_ALT = "CAST(:an AS text) || '/' || s.external_id"

_MAP_NEW_SESSIONS = (
    "INSERT INTO mm_session_map (old, new, external_id, shared) "
    "SELECT x.session_id, nextval(CAST(:seq AS regclass)), CASE WHEN NOT x.taken THEN x.external_id "
    "WHEN NOT x.alt_taken THEN x.alt ELSE x.alt || '#' || x.session_id END, false FROM ("
    f"SELECT s.session_id, s.external_id, {_ALT} AS alt, {_TAKEN.format(x='s.external_id')} AS taken, "
    f"({_TAKEN.format(x=_ALT)} OR EXISTS (SELECT 1 FROM mm_sessions o WHERE o.external_id = {_ALT})) AS alt_taken "
    "FROM mm_sessions s WHERE NOT EXISTS (SELECT 1 FROM mm_session_map m WHERE m.old = s.session_id) "
    "ORDER BY s.session_id) x"
)

_COPY_SESSIONS = insert_select(
    "sessions",
    "FROM mm_sessions s JOIN mm_session_map m ON m.old = s.session_id WHERE NOT m.shared",
    {
        "session_id": "m.new",
        "external_id": "m.external_id",
        "metadata": "CASE WHEN s.metadata ? 'merged_from' THEN s.metadata ELSE s.metadata || jsonb_build_object("
        "'merged_from', jsonb_build_object('forest', CAST(:an AS text), 'session_id', s.external_id)) END",
    },
    alias="s",
)

_COUNT_RENAMED = (
    "SELECT count(*) FROM mm_sessions s JOIN mm_session_map m ON m.old = s.session_id "
    "WHERE NOT m.shared AND m.external_id <> s.external_id"
)

# Rows of shared sessions are B's rows at the same position.
_MAP_SHARED_ROWS = {
    table: f"INSERT INTO mm_{table[:-1]}_map SELECT x.{key}, b.{key} FROM mm_{table} x JOIN mm_session_map m "
    f"ON m.old = x.session_id AND m.shared JOIN {table} b ON b.tenant_id = :t AND b.session_id = m.new "
    "AND b.seq = x.seq"
    for table, key in (("turns", "turn_id"), ("cells", "cell_id"))
}

_COPY_ROWS = {
    table: insert_select(
        table,
        f"FROM mm_{table} x JOIN mm_session_map m ON m.old = x.session_id AND NOT m.shared "
        f"JOIN mm_{table[:-1]}_map r ON r.old = x.{key}",
        {key: "r.new", "session_id": "m.new"},
        alias="x",
    )
    for table, key in (("turns", "turn_id"), ("cells", "cell_id"))
}


@dataclass(frozen=True, slots=True)
class SessionCounts:
    """What became of A's sessions."""

    shared: int
    copied: int
    renamed: int


async def copy_sessions(conn: Conn, tenant_id: uuid.UUID, forest_id: int, src_name: str) -> SessionCounts:
    """Map A's sessions onto B's (``mm_session_map``): shared ones onto B's same conversation, the
    others copied under fresh ids (renamed when their external id is taken)."""
    p: dict[str, object] = {"t": tenant_id, "f": forest_id, "an": src_name}
    await create_map(conn, "mm_session_map")
    shared = await execute(conn, _MAP_SHARED_SESSIONS, p)
    await execute(conn, _MAP_NEW_SESSIONS, {**p, "seq": await sequence_of(conn, "sessions")})
    copied = await execute(conn, _COPY_SESSIONS, p)
    renamed = int(await scalar(conn, _COUNT_RENAMED))
    return SessionCounts(shared=shared, copied=copied, renamed=renamed)


async def copy_session_rows(conn: Conn, tenant_id: uuid.UUID, forest_id: int, table: str) -> int:
    """Map A's ``turns`` or ``cells`` (``mm_turn_map`` / ``mm_cell_map``) and copy those of copied
    sessions; returns the rows copied."""
    map_name = f"mm_{table[:-1]}_map"
    p = {"t": tenant_id, "f": forest_id}
    await create_map(conn, map_name)
    await execute(conn, _MAP_SHARED_ROWS[table], p)
    await new_ids(conn, table, map_name)
    return await execute(conn, _COPY_ROWS[table], p)
