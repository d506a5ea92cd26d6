"""Accept: one transaction stores a session, its turns and cells, hangs the cells in the session
tree (ancestors marked dirty) and enqueues the ingest job. Raw cells are recallable at once."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from memforest import tracing
from memforest.domain import Forest, SessionInput, TreeKind
from memforest.errors import ConflictError
from memforest.formats.cells import chunk_turns, session_content_hash
from memforest.memtree.model import InsertStats, LeafSpec
from memforest.store import cells, jobs, sessions
from memforest.store.sql import Conn, lock_forest
from memforest.store.trees import get_or_create_tree, insert_leaves


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


async def _existing(conn: Conn, forest: Forest, session: SessionInput, content_hash: str) -> AcceptResult | None:
    row = await sessions.find_session(conn, forest.tenant_id, forest.forest_id, session.external_id)
    if row is None:
        return None
    if row["content_hash"] != content_hash:
        raise ConflictError(
            f"session {session.external_id!r} already exists in forest {forest.name!r} with different content"
        )
    session_id = int(row["session_id"])
    job_id = await jobs.find_session_ingest_job(conn, forest.tenant_id, forest.forest_id, session_id)
    n_cells = await cells.count_cells(conn, forest.tenant_id, session_id)
    return AcceptResult(
        session_id=session_id,
        external_id=session.external_id,
        job_id=job_id,
        created=False,
        turns=int(row["n_turns"]),
        cells=n_cells,
    )


def _cells(session: SessionInput, cell_turns: int) -> list[cells.NewCell]:
    """The session's turns chunked into cells of ``cell_turns`` consecutive turns."""
    out = []
    for cseq, span in enumerate(chunk_turns(len(session.turns), cell_turns)):
        members = [session.turns[i] for i in span]
        times = [m.time or session.time for m in members]
        text_ = "\n".join(render_turn(m.speaker, m.text) for m in members)
        out.append(cells.NewCell(cseq, span.start, span.stop - 1, text_, min(times), max(times)))
    return out


async def accept_session(
    conn: Conn,
    forest: Forest,
    session: SessionInput,
    *,
    cell_turns: int,
    fanout: int,
    idempotency_key: str | None = None,
) -> AcceptResult:
    """Store ``session`` (idempotent on forest + session id + content) inside the caller's transaction,
    as the write path's ``accept`` stage (a tracing span)."""
    with tracing.span("accept", stage="accept", tenant_id=forest.tenant_id):
        result = await _accept(conn, forest, session, cell_turns, fanout, idempotency_key)
        tracing.annotate(created=result.created, turns=result.turns, cells=result.cells)
        return result


async def _accept(
    conn: Conn, forest: Forest, session: SessionInput, cell_turns: int, fanout: int, idempotency_key: str | None
) -> AcceptResult:
    tenant_id = forest.tenant_id
    await lock_forest(conn, tenant_id, forest.forest_id, "sessions")
    content_hash = session_content_hash(session)
    if idempotency_key is not None:
        prior = await jobs.find_by_idempotency_key(conn, tenant_id, idempotency_key)
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
    session_id = await sessions.insert_session(
        conn, tenant_id, forest.forest_id, external_id=session.external_id, time=session.time,
        content_hash=content_hash, metadata=session.metadata, n_turns=len(session.turns),
    )  # fmt: skip
    await sessions.insert_turns(conn, tenant_id, forest.forest_id, session_id, session.turns, session.time)
    stored = await cells.insert_cells(conn, tenant_id, forest.forest_id, session_id, _cells(session, cell_turns))
    tree = await get_or_create_tree(
        conn, tenant_id, forest.forest_id, TreeKind.SESSION, session.external_id, session.external_id, fanout
    )
    leaves = [
        (tree, LeafSpec("cell", int(c["cell_id"]), c["t_start"], c["t_end"], int(c["cell_id"]), str(c["text"])))
        for c in stored
    ]
    await insert_leaves(conn, tenant_id, leaves, InsertStats())
    job_id = await jobs.insert_job(
        conn,
        tenant_id,
        forest.forest_id,
        "ingest",
        {"session_id": session_id, **tracing.carrier()},  # the job continues this request's trace
        idempotency_key=idempotency_key,
        request_hash=content_hash,
    )
    return AcceptResult(session_id, session.external_id, job_id, True, len(session.turns), len(stored))
