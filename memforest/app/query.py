"""Query: time-stamped evidence for a question (the API, the MCP tools and the CLI)."""

from __future__ import annotations

import uuid
from typing import Any

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
    api_limits: bool = True,
    **options: Any,
) -> QueryResult:
    """Answer ``question`` from the tenant's forest (404 for an unknown forest); ``options`` are
    those of ``retrieval.service.query`` (mode, top_k, as_of, ...). With ``api_limits`` (remote
    callers) a question over ``settings.api.max_text_chars`` is an InputError."""
    if api_limits and len(question) > settings.api.max_text_chars:
        raise InputError(f"query is longer than {settings.api.max_text_chars} characters", location="query")
    return await query(db, settings, backends, tenant_id, forest, question, **options)
