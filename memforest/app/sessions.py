"""Adding a session: validate a JSON session, accept it into a forest (created on the first
write), and enqueue its ingest job. The HTTP API and the MCP ``add_memory`` tool both use it."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from pydantic import ValidationError

from memforest.app.quotas import check_quotas
from memforest.app.retry import retry_if_cut
from memforest.db.engine import Database
from memforest.domain import SessionInput
from memforest.errors import InputError
from memforest.pipeline.accept import accept_session
from memforest.pipeline.job_bell import QUEUED
from memforest.pipeline.service import IngestReport, ingest_sessions
from memforest.schemas import Limits, SessionModel
from memforest.schemas.agent import MessagesIn
from memforest.settings import Settings
from memforest.store.agent_sessions import session_of_idempotency_key
from memforest.store.tenants import ensure_forest

__all__ = [
    "IngestReport",
    "add_messages",
    "add_session",
    "ingest_sessions",
    "messages_to_session",
    "session_from_json",
]


def session_from_json(body: dict[str, Any], settings: Settings, *, root: str) -> SessionInput:
    """A session from its JSON (the native format) within the API limits; InputError naming the
    first field at fault (``root`` when the body itself is)."""
    try:
        model = SessionModel.model_validate(body, context=Limits.from_settings(settings.api))
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(p) for p in first["loc"])
        raise InputError(str(first["msg"]), location=loc or root) from None
    return model.to_domain()


@retry_if_cut
async def add_session(
    db: Database,
    settings: Settings,
    tenant_id: uuid.UUID,
    forest: str,
    body: dict[str, Any],
    *,
    idempotency_key: str | None = None,
    root: str = "body",
) -> dict[str, Any]:
    """Accept one JSON session into ``forest`` (created when it does not exist yet) and queue its
    ingest job. Returns ``{job_id, session_id, created}``; a repeated session is not queued again.
    Run once more when a database restart cuts the transaction: accepting is idempotent by
    construction (forest + session id + content, under the forest's lock, or the Idempotency-Key),
    so a second run finds a first one that did commit and adds nothing (``created`` is then false)."""
    session = session_from_json(body, settings, root=root)
    pipeline = settings.pipeline
    async with db.tenant(tenant_id) as conn:  # a reused Idempotency-Key is a ConflictError (store.jobs)
        await check_quotas(conn, settings, tenant_id, forest)  # 429 / 409 naming the cap
        f = await ensure_forest(conn, tenant_id, forest)
        result = await accept_session(
            conn,
            f,
            session,
            cell_turns=pipeline.cell_turns,
            fanout=pipeline.fanout_session,
            idempotency_key=idempotency_key,
        )
    if result.created:
        QUEUED.ring()  # this process's idle worker claims the job now, not at its next poll
    return {
        "job_id": str(result.job_id) if result.job_id else None,
        "session_id": result.external_id,
        "created": result.created,
    }


def messages_to_session(body: MessagesIn, *, now: datetime | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    """The native session JSON of an OpenAI ``messages`` list (its turns by
    :meth:`MessagesIn.transcript`; a new session id and the current time unless given), and the
    counts ``{kept, skipped}`` the answer reports."""
    transcript = body.transcript()
    when = body.time or now or datetime.now(UTC)
    session: dict[str, Any] = {
        "id": body.session_id or f"msg-{uuid.uuid4().hex}",
        "time": when.isoformat(),
        "turns": transcript.turns,
    }
    if body.metadata:
        session["metadata"] = body.metadata
    return session, {"kept": len(transcript.turns), "skipped": transcript.skipped}


async def add_messages(
    db: Database,
    settings: Settings,
    tenant_id: uuid.UUID,
    forest: str,
    body: MessagesIn,
    *,
    idempotency_key: str | None = None,
) -> dict[str, Any]:
    """Accept chat messages as one session of ``forest`` (created on the first write); as
    :func:`add_session` otherwise, with the counts of kept and skipped messages. When no message
    is kept nothing is stored (``job_id`` null, ``created`` false)."""
    if idempotency_key is not None and (body.session_id is None or body.time is None):
        # A retry under the same key reuses the generated id and time, so it replays instead of conflicting.
        async with db.tenant(tenant_id) as conn:
            prior = await session_of_idempotency_key(conn, tenant_id, idempotency_key)
        if prior is not None:
            body = body.model_copy(
                update={"session_id": body.session_id or str(prior["external_id"]), "time": body.time or prior["time"]}
            )
    session, counts = messages_to_session(body)
    if not session["turns"]:  # nothing to remember (only prompts or tool calls): no session, no job
        return {"job_id": None, "session_id": session["id"], "created": False} | counts
    accepted = await add_session(db, settings, tenant_id, forest, session, idempotency_key=idempotency_key)
    return accepted | counts
