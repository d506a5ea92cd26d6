"""Query: time-stamped evidence for a question (the API, the MCP tools and the CLI)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime

from memforest.backends.factory import Backends
from memforest.db.engine import Database
from memforest.errors import InputError
from memforest.retrieval.service import MODES, Evidence, QueryResult, query
from memforest.settings import Settings

__all__ = ["MODES", "Evidence", "QueryResult", "ask"]


async def ask(
    db: Database,
    settings: Settings,
    backends: Backends,
    tenant_id: uuid.UUID,
    forest: str,
    question: str,
    *,
    mode: str = "emb",
    top_k: int | None = None,
    as_of: datetime | None = None,
    time_from: datetime | None = None,
    time_to: datetime | None = None,
    scope_kinds: Sequence[str] | None = None,
    include_superseded: bool = False,
    token_budget: int | None = None,
    api_limits: bool = True,
) -> QueryResult:
    """Answer ``question`` from the tenant's forest (404 for an unknown forest). With ``api_limits``
    (remote callers) a question over ``settings.api.max_text_chars`` is an InputError."""
    if api_limits and len(question) > settings.api.max_text_chars:
        raise InputError(f"query is longer than {settings.api.max_text_chars} characters", location="query")
    return await query(
        db, settings, backends, tenant_id, forest, question, mode=mode, top_k=top_k, as_of=as_of,
        time_from=time_from, time_to=time_to, scope_kinds=scope_kinds, include_superseded=include_superseded,
        token_budget=token_budget,
    )  # fmt: skip
