"""Cells (the extraction units of a session): named statements of the write path."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from memforest.store.sql import Conn, Row, execute, fetch_all, scalar


@dataclass(frozen=True, slots=True)
class NewCell:
    """A cell to store: its position in the session, the turn range it covers, its text and span."""

    seq: int
    turn_from: int
    turn_to: int
    text: str
    t_start: datetime
    t_end: datetime


_COUNT = "SELECT count(*) FROM cells WHERE tenant_id = :t AND session_id = :s"


async def count_cells(conn: Conn, tenant_id: uuid.UUID, session_id: int) -> int:
    """How many cells a session has."""
    return int(await scalar(conn, _COUNT, {"t": tenant_id, "s": session_id}))


# One statement, cells inserted in order (their ids ascend with seq, as one insert per cell gave).
_INSERT = """
INSERT INTO cells (tenant_id, forest_id, session_id, seq, turn_from, turn_to, text, t_start, t_end)
SELECT :t, :f, :s, u.seq, u.a, u.b, u.x, u.ts, u.te FROM unnest(CAST(:seq AS int[]), CAST(:a AS int[]),
CAST(:b AS int[]), CAST(:x AS text[]), CAST(:ts AS timestamptz[]), CAST(:te AS timestamptz[])) WITH ORDINALITY
AS u(seq, a, b, x, ts, te, i) ORDER BY u.i
RETURNING cell_id, seq, text, t_start, t_end
"""


async def insert_cells(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, session_id: int, cells: Sequence[NewCell]
) -> list[Row]:
    """Store a session's cells; returns the stored cells in ``seq`` order (cell_id, seq, text,
    t_start, t_end)."""
    params = {
        "t": tenant_id, "f": forest_id, "s": session_id, "seq": [c.seq for c in cells],
        "a": [c.turn_from for c in cells], "b": [c.turn_to for c in cells], "x": [c.text for c in cells],
        "ts": [c.t_start for c in cells], "te": [c.t_end for c in cells],
    }  # fmt: skip
    return sorted(await fetch_all(conn, _INSERT, params), key=lambda r: int(r["seq"]))


_RECORD_ERRORS = """
UPDATE cells c SET extract_attempts = c.extract_attempts + 1, extract_error = u.e FROM
unnest(CAST(:ids AS bigint[]), CAST(:errs AS text[])) AS u(id, e)
WHERE c.tenant_id = :t AND c.cell_id = u.id
"""


async def record_extract_errors(conn: Conn, tenant_id: uuid.UUID, cell_ids: list[int], errors: list[str]) -> None:
    """Count a failed extraction attempt on each cell and record its error."""
    await execute(conn, _RECORD_ERRORS, {"t": tenant_id, "ids": cell_ids, "errs": errors})


_MARK_EXTRACTED = """
UPDATE cells SET extracted_at = now(), extract_attempts = extract_attempts + 1, extract_error = NULL
WHERE tenant_id = :t AND cell_id = ANY(CAST(:ids AS bigint[])) AND extracted_at IS NULL RETURNING cell_id
"""


async def mark_extracted(conn: Conn, tenant_id: uuid.UUID, cell_ids: list[int]) -> set[int]:
    """Mark the cells extracted; returns those this call marked (not already marked by another worker)."""
    rows = await fetch_all(conn, _MARK_EXTRACTED, {"t": tenant_id, "ids": cell_ids})
    return {int(r["cell_id"]) for r in rows}
