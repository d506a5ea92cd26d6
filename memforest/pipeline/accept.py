"""Accept: one transaction stores a session, its turns and cells, hangs the cells in the session
tree (ancestors marked dirty) and enqueues the ingest job. Raw cells are recallable at once."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection

from memforest.domain import SessionInput, TreeKind
from memforest.errors import ConflictError
from memforest.ingest.cells import chunk_turns, session_content_hash
from memforest.pipeline import jobs
from memforest.store.sql import fetch_all, fetch_one, lock_forest, scalar
from memforest.store.tenants import Forest
from memforest.store.trees import InsertStats, LeafSpec, get_or_create_tree, insert_leaf


@dataclass(frozen=True, slots=True)
class AcceptResult:
    """What accept did: the session and job ids; ``created`` False when it was already there."""

    session_id: int
    external_id: str
    job_id: uuid.UUID | None
    created: bool
    turns: int
    cells: int


def render_turn(speaker: str, text_: str) -> str:
    """How a turn reads inside a cell's text."""
    return f"{speaker}: {text_}"


async def _existing(
    conn: AsyncConnection, forest: Forest, session: SessionInput, content_hash: str
) -> AcceptResult | None:
    row = await fetch_one(
        conn,
        "SELECT session_id, content_hash, n_turns FROM sessions WHERE tenant_id = :t AND forest_id = :f "
        "AND external_id = :e",
        {"t": forest.tenant_id, "f": forest.forest_id, "e": session.external_id},
    )
    if row is None:
        return None
    if row["content_hash"] != content_hash:
        raise ConflictError(
            f"session {session.external_id!r} already exists in forest {forest.name!r} with different content"
        )
    job_id = await scalar(
        conn,
        "SELECT job_id FROM jobs WHERE tenant_id = :t AND forest_id = :f AND kind = 'ingest' "
        "AND payload->>'session_id' = :s ORDER BY created_at LIMIT 1",
        {"t": forest.tenant_id, "f": forest.forest_id, "s": str(row["session_id"])},
    )
    n_cells = await scalar(
        conn,
        "SELECT count(*) FROM cells WHERE tenant_id = :t AND session_id = :s",
        {"t": forest.tenant_id, "s": row["session_id"]},
    )
    return AcceptResult(
        session_id=int(row["session_id"]),
        external_id=session.external_id,
        job_id=job_id,
        created=False,
        turns=int(row["n_turns"]),
        cells=int(n_cells),
    )


async def accept_session(
    conn: AsyncConnection,
    forest: Forest,
    session: SessionInput,
    *,
    cell_turns: int,
    fanout: int,
    idempotency_key: str | None = None,
) -> AcceptResult:
    """Store ``session`` (idempotent on forest + session id + content) inside the caller's transaction."""
    tenant_id = forest.tenant_id
    await lock_forest(conn, tenant_id, forest.forest_id, "sessions")
    content_hash = session_content_hash(session)
    if idempotency_key is not None:
        prior = await fetch_one(
            conn,
            "SELECT job_id, forest_id, request_hash FROM jobs WHERE tenant_id = :t AND idempotency_key = :k",
            {"t": tenant_id, "k": idempotency_key},
        )
        if prior is not None:
            if prior["request_hash"] != content_hash or prior["forest_id"] != forest.forest_id:
                raise ConflictError("this Idempotency-Key was used with a different request")
            existing = await _existing(conn, forest, session, content_hash)
            if existing is not None:
                return AcceptResult(
                    existing.session_id, existing.external_id, prior["job_id"], False, existing.turns, existing.cells
                )
    existing = await _existing(conn, forest, session, content_hash)
    if existing is not None:
        return existing
    session_id = int(
        await scalar(
            conn,
            "INSERT INTO sessions (tenant_id, forest_id, external_id, time, content_hash, metadata, n_turns) "
            "VALUES (:t, :f, :e, :ts, :h, CAST(:m AS jsonb), :n) RETURNING session_id",
            {
                "t": tenant_id,
                "f": forest.forest_id,
                "e": session.external_id,
                "ts": session.time,
                "h": content_hash,
                "m": json.dumps(session.metadata, default=str),
                "n": len(session.turns),
            },
        )
    )
    turn_rows: list[dict[str, Any]] = [
        {
            "t": tenant_id,
            "f": forest.forest_id,
            "s": session_id,
            "seq": i,
            "e": turn.external_id,
            "sp": turn.speaker,
            "r": turn.role,
            "x": turn.text,
            "ts": turn.time or session.time,
        }
        for i, turn in enumerate(session.turns)
    ]
    await conn.execute(
        text(
            "INSERT INTO turns (tenant_id, forest_id, session_id, seq, external_id, speaker, role, text, time) "
            "VALUES (:t, :f, :s, :seq, :e, :sp, :r, :x, :ts)"
        ),
        turn_rows,
    )
    cell_rows = []
    for cseq, span in enumerate(chunk_turns(len(session.turns), cell_turns)):
        members = [turn_rows[i] for i in span]
        cell_rows.append(
            {
                "t": tenant_id,
                "f": forest.forest_id,
                "s": session_id,
                "seq": cseq,
                "a": span.start,
                "b": span.stop - 1,
                "x": "\n".join(render_turn(m["sp"], m["x"]) for m in members),
                "ts": min(m["ts"] for m in members),
                "te": max(m["ts"] for m in members),
            }
        )
    await conn.execute(
        text(
            "INSERT INTO cells (tenant_id, forest_id, session_id, seq, turn_from, turn_to, text, t_start, t_end) "
            "VALUES (:t, :f, :s, :seq, :a, :b, :x, :ts, :te)"
        ),
        cell_rows,
    )
    cells = await fetch_all(
        conn,
        "SELECT cell_id, text, t_start, t_end FROM cells WHERE tenant_id = :t AND session_id = :s ORDER BY seq",
        {"t": tenant_id, "s": session_id},
    )
    tree = await get_or_create_tree(
        conn, tenant_id, forest.forest_id, TreeKind.SESSION, session.external_id, session.external_id, fanout
    )
    stats = InsertStats()
    for c in cells:
        leaf = LeafSpec("cell", int(c["cell_id"]), c["t_start"], c["t_end"], int(c["cell_id"]), str(c["text"]))
        await insert_leaf(conn, tenant_id, tree, leaf, stats)
    job_id = await jobs.enqueue(
        conn,
        tenant_id,
        forest.forest_id,
        "ingest",
        {"session_id": session_id},
        idempotency_key=idempotency_key,
        request_hash=content_hash,
    )
    return AcceptResult(session_id, session.external_id, job_id, True, len(turn_rows), len(cells))
