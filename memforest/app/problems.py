"""Errors as ``application/problem+json`` (RFC 9457): the one response shape every HTTP endpoint
(the API and the MCP endpoint mounted on it) answers a failure with, and the ASGI types they share."""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from starlette.responses import JSONResponse

from memforest.errors import MemForestError

PROBLEM_BASE = "https://memforest.dev/problems/"
PROBLEM_CONTENT_TYPE = "application/problem+json"

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def problem_type(slug: str) -> str:
    """The stable URI naming a problem type."""
    return PROBLEM_BASE + slug


def _title(slug: str) -> str:
    return slug.replace("-", " ").capitalize()


def problem_response(
    status: int,
    slug: str,
    detail: str,
    *,
    extra: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
) -> JSONResponse:
    """A problem+json response."""
    body: dict[str, Any] = {"type": problem_type(slug), "title": _title(slug), "status": status, "detail": detail}
    if extra:
        body.update(extra)
    return JSONResponse(body, status_code=status, media_type=PROBLEM_CONTENT_TYPE, headers=headers)


def error_response(exc: MemForestError) -> JSONResponse:
    """The problem for a MemForest error: its status and slug, ``location`` when it names one,
    ``WWW-Authenticate: Bearer`` on a 401 and ``Retry-After`` when the error says when to retry
    (a 503 while the database is unavailable)."""
    headers: dict[str, str] = {"WWW-Authenticate": "Bearer"} if exc.status_code == 401 else {}
    retry_after = getattr(exc, "retry_after_s", None)
    if isinstance(retry_after, int | float) and not isinstance(retry_after, bool):
        headers["Retry-After"] = str(max(1, math.ceil(retry_after)))
    location = getattr(exc, "location", None)
    extra = {"location": location} if isinstance(location, str) else None
    return problem_response(exc.status_code, exc.type_slug, str(exc), extra=extra, headers=headers or None)
