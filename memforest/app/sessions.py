"""Adding a session: validate a JSON session, accept it into a forest (created on the first
write), and enqueue its ingest job. The HTTP API and the MCP ``add_memory`` tool both use it."""

from __future__ import annotations

import uuid
from typing import Any

from pydantic import ValidationError
from sqlalchemy.exc import IntegrityError

from memforest.db.engine import Database
from memforest.domain import SessionInput
from memforest.errors import ConflictError, InputError
from memforest.ingest.schema import Limits, SessionModel
from memforest.pipeline.accept import accept_session
from memforest.pipeline.service import IngestReport, ingest_sessions
from memforest.settings import Settings
from memforest.store.tenants import ensure_forest

__all__ = ["IngestReport", "add_session", "ingest_sessions", "session_from_json"]


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
    ingest job. Returns ``{job_id, session_id, created}``; a repeated session is not queued again."""
    session = session_from_json(body, settings, root=root)
    pipeline = settings.pipeline
    try:
        async with db.tenant(tenant_id) as conn:
            f = await ensure_forest(conn, tenant_id, forest)
            result = await accept_session(
                conn,
                f,
                session,
                cell_turns=pipeline.cell_turns,
                fanout=pipeline.fanout_session,
                idempotency_key=idempotency_key,
            )
    except IntegrityError:
        raise ConflictError("this Idempotency-Key was already used for another request") from None
    return {
        "job_id": str(result.job_id) if result.job_id else None,
        "session_id": result.external_id,
        "created": result.created,
    }
