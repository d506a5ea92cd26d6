"""What the route decorators add to ``/openapi.json``: the problem+json error answers and the
response classes that name the media type of the non-JSON bodies (the NDJSON export, the
Prometheus text)."""

from __future__ import annotations

from typing import Any

from fastapi.responses import Response, StreamingResponse

from memforest.app.problems import PROBLEM_CONTENT_TYPE
from memforest.schemas import Problem

_WHY = {
    400: "Malformed request",
    401: "Missing, malformed, unknown or revoked key",
    403: "The key lacks the scope",
    404: "No such object for this tenant",
    409: "Conflicts with stored state",
    413: "Body over the size limit",
    422: "Invalid input",
    503: "Not ready",
}


def problems(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """``responses=`` for the given error statuses, each an ``application/problem+json`` Problem.

    The schema is inlined (it has no nested models): with ``model=`` FastAPI would file it under
    ``application/json``, which these answers never are."""
    schema = Problem.model_json_schema()
    return {
        status: {"description": _WHY.get(status, "Error"), "content": {PROBLEM_CONTENT_TYPE: {"schema": schema}}}
        for status in statuses
    }


#: The errors an authenticated endpoint (tenant or admin key) can answer.
ERRORS = problems(401, 403, 404, 422)


class NdjsonResponse(StreamingResponse):
    """A streamed JSON Lines body (``response_class=`` so the schema names the media type)."""

    media_type = "application/x-ndjson"


class PlainTextResponse(Response):
    """A plain-text body (``response_class=`` so the schema names the media type)."""

    media_type = "text/plain"
