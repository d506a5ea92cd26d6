"""Sessions and their turns: named statements of the write path."""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from memforest.domain import TurnInput
from memforest.store.sql import Conn, Row, execute, fetch_all, fetch_one, scalar

_FIND_BY_EXTERNAL_ID = """
SELECT session_id, content_hash, n_turns FROM sessions
WHERE tenant_id = :t AND forest_id = :f AND external_id = :e
"""


async def find_session(conn: Conn, tenant_id: uuid.UUID, forest_id: int, external_id: str) -> Row | None:
    """session_id, content_hash and n_turns of a forest's session by its client id, or None."""
    return await fetch_one(conn, _FIND_BY_EXTERNAL_ID, {"t": tenant_id, "f": forest_id, "e": external_id})


_INSERT_SESSION = """
INSERT INTO sessions (tenant_id, forest_id, external_id, time, content_hash, metadata, n_turns)
VALUES (:t, :f, :e, :ts, :h, CAST(:m AS jsonb), :n) RETURNING session_id
"""


async def insert_session(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    *,
    external_id: str,
    time: datetime,
    content_hash: str,
    metadata: dict[str, Any],
    n_turns: int,
) -> int:
    """Store a session row; returns its id."""
    params = {"t": tenant_id, "f": forest_id, "e": external_id, "ts": time, "h": content_hash,
              "m": json.dumps(metadata, default=str), "n": n_turns}  # fmt: skip
    return int(await scalar(conn, _INSERT_SESSION, params))


# One statement, turns inserted in order (their ids ascend with seq, as one insert per turn gave).
_INSERT_TURNS = """
INSERT INTO turns (tenant_id, forest_id, session_id, seq, external_id, speaker, role, text, time)
SELECT :t, :f, :s, u.i - 1, u.e, u.sp, u.r, u.x, u.ts FROM unnest(CAST(:e AS text[]), CAST(:sp AS text[]),
CAST(:r AS text[]), CAST(:x AS text[]), CAST(:ts AS timestamptz[])) WITH ORDINALITY AS u(e, sp, r, x, ts, i)
ORDER BY u.i
"""


async def insert_turns(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    session_id: int,
    turns: Sequence[TurnInput],
    session_time: datetime,
) -> None:
    """Store a session's turns in order (seq = position); a turn without a time takes the session's."""
    params = {
        "t": tenant_id, "f": forest_id, "s": session_id, "e": [turn.external_id for turn in turns],
        "sp": [turn.speaker for turn in turns], "r": [turn.role for turn in turns], "x": [turn.text for turn in turns],
        "ts": [turn.time or session_time for turn in turns],
    }  # fmt: skip
    await execute(conn, _INSERT_TURNS, params)


# One row per turn of the session (a session without turns: one row of NULLs after the session's
# own columns), with the not yet extracted cell that holds the turn, if any (cells hold disjoint
# runs of turns; a turn in no pending cell has NULL cell columns).
_SESSION_WORK = """
SELECT s.forest_id, s.external_id AS session_external_id, s.time AS session_time,
t.turn_id, t.seq, t.speaker, t.role, t.text, t.time, t.external_id, c.cell_id, c.seq AS cell_seq, c.turn_from, c.turn_to
FROM sessions s
LEFT JOIN turns t ON t.tenant_id = s.tenant_id AND t.session_id = s.session_id
LEFT JOIN cells c ON c.tenant_id = s.tenant_id AND c.session_id = s.session_id AND c.extracted_at IS NULL
AND t.seq BETWEEN c.turn_from AND c.turn_to
WHERE s.tenant_id = :t AND s.session_id = :s ORDER BY t.seq, c.seq
"""


async def session_work(conn: Conn, tenant_id: uuid.UUID, session_id: int) -> list[Row]:
    """A session, its turns and its pending cells in one statement: one row per turn (and pending
    cell holding it) in turn order, with the session's forest_id, session_external_id and
    session_time on every row; no row when the session is gone."""
    return await fetch_all(conn, _SESSION_WORK, {"t": tenant_id, "s": session_id})
