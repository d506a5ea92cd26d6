"""Read-path probes and builders: record what the query service asked of its stages, without
changing it; parse a question and open a read transaction as the query service does."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from memforest.backends.factory import build_backends
from memforest.db.engine import Database
from memforest.domain import SessionInput
from memforest.pipeline.service import ingest_sessions
from memforest.retrieval import QueryAnswer, QueryRequest, RetrievalPreset, query, service
from memforest.retrieval.browse import BrowseLeaf, leaf_cap
from memforest.retrieval.question import Question
from memforest.settings import Settings
from memforest.store.reading import ReadIntent, ReadTransaction
from memforest.store.sql import Conn
from memforest.store.tenants import ensure_tenant
from support.sessions import said_to_assistant, session_input


def question_of(
    text: str, *, as_of: datetime | None = None, now: datetime | None = None, speaker: str | None = None
) -> Question:
    """``text`` parsed as ``query`` parses a request's question: read against ``as_of`` (else
    ``now``, else the present), asked by ``speaker``."""
    return Question.parse(text, now=as_of or now or datetime.now(UTC), has_as_of=as_of is not None, speaker=speaker)


def read_tx(conn: Conn, tenant_id: uuid.UUID, **intent: bool) -> ReadTransaction:
    """A read transaction over ``conn`` (from ``store.read_conn.reading`` or ``db.tenant``) with the
    :class:`ReadIntent` of ``intent`` (none: parameter plans throughout)."""
    return ReadTransaction(conn, tenant_id, ReadIntent(**intent))


def record_leaf_caps(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The live-leaf cap of every emb browse the query service runs from now on (0: every leaf),
    appended to the returned list; browse itself runs as before."""
    caps: list[int] = []
    real, real_reading = service.browse_emb, service.browse_emb_reading

    async def recording(*args: Any, live_only: bool = False, **kwargs: Any) -> list[BrowseLeaf]:
        preset, cues = args[4], args[5]  # browse_emb(tx, forest_id, trees, q, preset, cues, ...)
        caps.append(leaf_cap(preset, cues, live_only=live_only))
        return await real(*args, live_only=live_only, **kwargs)

    async def recording_reading(*args: Any, live_only: bool = False, **kwargs: Any) -> Any:
        preset, cues = args[4], args[5]  # browse_emb_reading(tx, forest_id, trees, q, preset, cues, ...)
        caps.append(leaf_cap(preset, cues, live_only=live_only))
        return await real_reading(*args, live_only=live_only, **kwargs)

    monkeypatch.setattr(service, "browse_emb", recording)
    monkeypatch.setattr(service, "browse_emb_reading", recording_reading)
    return caps


def exact_up_to(settings: Settings, rows: int) -> Settings:
    """``settings`` under which a forest of more than ``rows`` facts gets its own indexes (ADR 0024)."""
    retrieval = settings.retrieval.model_copy(update={"exact_scan_max_rows": rows})
    return settings.model_copy(update={"retrieval": retrieval})


async def weekly_forest(
    db: Database, settings: Settings, tenant: str, forest: str, texts: Sequence[str], speakers: tuple[str, str]
) -> uuid.UUID:
    """A tenant ``tenant`` with the forest ``forest`` ingested: three weekly sessions of ``texts``
    said by ``speakers`` in turn."""
    when = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
    sessions = [session_input(f"s{i}", when + timedelta(days=7 * i), texts, speakers) for i in range(3)]
    return await ingested_forest(db, settings, tenant, forest, sessions)


async def ingested_forest(
    db: Database, settings: Settings, tenant: str, forest: str, sessions: Sequence[SessionInput]
) -> uuid.UUID:
    """A tenant ``tenant`` with the forest ``forest`` ingested from ``sessions`` (no job failed)."""
    backends = build_backends(settings)
    try:
        tenant_id = await ensure_tenant(db, tenant)
        report = await ingest_sessions(db, settings, backends, tenant_id, forest, sessions)
        assert report.jobs_failed == 0 and not report.errors
    finally:
        await backends.aclose()
    return tenant_id


async def told_forest(
    db: Database,
    settings: Settings,
    tenant: str,
    forest: str,
    said: Sequence[tuple[str, datetime, str]],
    speaker: str,
    reply: str = "Noted.",
) -> uuid.UUID:
    """A tenant ``tenant`` with the forest ``forest`` ingested from ``said``: one session per ``(id,
    time, text)`` line that ``speaker`` tells the assistant, who answers ``reply``
    (:func:`support.sessions.said_to_assistant`)."""
    return await ingested_forest(db, settings, tenant, forest, said_to_assistant(said, speaker, reply))


async def asked(
    db: Database,
    settings: Settings,
    tenant_id: uuid.UUID,
    request: QueryRequest,
    *,
    preset: RetrievalPreset | None = None,
) -> QueryAnswer:
    """The answer to ``request`` from the tenant's forest, with backends of its own."""
    backends = build_backends(settings)
    try:
        return await query(db, settings, backends, tenant_id, request, preset=preset)
    finally:
        await backends.aclose()


async def first_turn(db: Database, settings: Settings, tenant_id: uuid.UUID, request: QueryRequest) -> str:
    """The turn id that opens the answer's first evidence item (the answer must have evidence)."""
    answer = await asked(db, settings, tenant_id, request)
    assert answer.evidence, request.question
    return answer.evidence[0].turn_ids[0]
