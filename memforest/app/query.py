"""Query: time-stamped evidence for a question (the API, the MCP tools and the CLI)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import replace

from memforest.app.retry import retry_if_cut
from memforest.backends.factory import Backends
from memforest.db.engine import Database
from memforest.errors import InputError
from memforest.retrieval.preset import RetrievalPreset
from memforest.retrieval.request import MODES, QueryAnswer, QueryRequest
from memforest.retrieval.service import AskedQuestion, Evidence, SourceFilter, ask_question, query
from memforest.schemas.agent import QueryFilter
from memforest.settings import Settings

__all__ = ["MODES", "Evidence", "QueryAnswer", "QueryRequest", "ask", "ask_many", "source_filter"]


@retry_if_cut
async def ask(
    db: Database,
    settings: Settings,
    backends: Backends,
    tenant_id: uuid.UUID,
    request: QueryRequest,
    *,
    api_limits: bool = True,
    asked: AskedQuestion | None = None,
) -> QueryAnswer:
    """Answer ``request`` from the tenant's forest (404 for an unknown forest). With ``api_limits``
    (remote callers) a question over ``settings.api.max_text_chars`` is an InputError. ``asked``:
    the request's question parsed and embedded already (by :func:`ask_many`, once for its forests)."""
    if api_limits:
        _check_length(settings, request)
    return await query(db, settings, backends, tenant_id, request, asked=asked)


def _check_length(settings: Settings, request: QueryRequest) -> None:
    """InputError for a question over ``settings.api.max_text_chars`` (a remote caller's limit)."""
    if len(request.question) > settings.api.max_text_chars:
        raise InputError(f"query is longer than {settings.api.max_text_chars} characters", location="query")


def source_filter(flt: QueryFilter | None) -> SourceFilter | None:
    """The read path's filter from the wire's ``filter`` object (None when absent or empty)."""
    if flt is None:
        return None
    return SourceFilter.of(flt.metadata, flt.session_ids, flt.speakers)


async def ask_many(
    db: Database,
    settings: Settings,
    backends: Backends,
    tenant_id: uuid.UUID,
    forests: Sequence[str],
    request: QueryRequest,
) -> QueryAnswer:
    """Answer ``request`` from several forests of the tenant (its own ``forest`` is not read): each
    forest is queried with the same options, and their evidence is merged into one list by score
    (best first, cut to ``top_k``), every item naming its ``forest``. The question is parsed and
    embedded once for them all. NotFoundError names the first unknown forest."""
    if not forests:
        raise InputError("name at least one forest", location="forests")
    _check_length(settings, request)
    asked = await ask_question(backends, request, names=RetrievalPreset.for_settings(settings).names_weight)
    results = [
        await ask(db, settings, backends, tenant_id, replace(request, forest=name), api_limits=False, asked=asked)
        for name in forests
    ]
    merged = sorted(
        (replace(e, forest=r.forest) for r in results for e in r.evidence), key=lambda e: (-e.score, e.rank)
    )
    k = request.top_k or max(len(r.evidence) for r in results)  # default: the preset's top_k
    evidence = [replace(e, rank=i) for i, e in enumerate(merged[:k], start=1)]
    first = results[0]
    return QueryAnswer(
        question=first.question,
        forest=",".join(forests),
        mode=first.mode,
        mode_used=first.mode_used,
        evidence=evidence,
        fallback=first.fallback,
        strategy=first.strategy,
        trees=[replace(t, tree=f"{r.forest}/{t.tree}") for r in results for t in r.trees],
        time_cues=first.time_cues,
        timings_ms={"total": round(asked.ms + sum(r.timings_ms.get("total", 0.0) for r in results), 3)},
        llm_calls={k2: sum(r.llm_calls.get(k2, 0) for r in results) for r in results for k2 in r.llm_calls},
    )
