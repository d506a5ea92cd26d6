"""Helpers the client's modules share: parsing an answer into its wire model, path segments, and
the body of a query."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, TypedDict, TypeVar, Unpack
from urllib.parse import quote

from pydantic import BaseModel, ValidationError

from memforest.client.errors import UnexpectedResponseError

M = TypeVar("M", bound=BaseModel)


def parse(model: type[M], data: Any, what: str) -> M:
    """``model.model_validate(data)``; a body that does not fit is an UnexpectedResponseError."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "body"
        raise UnexpectedResponseError(f"malformed {what} in the response: {where}: {first['msg']}") from None


def seg(value: str) -> str:
    """A path segment, percent-encoded (names may contain '/', spaces, ...)."""
    return quote(str(value), safe="")


class QueryOptions(TypedDict, total=False):
    """The options of a query, shared by ``query`` and ``query_forests`` (all optional)."""

    mode: str  # "emb" (default) or "llm"
    top_k: int | None
    as_of: datetime | None
    time_from: datetime | None
    time_to: datetime | None
    scope: Sequence[str] | None
    include_superseded: bool
    token_budget: int | None
    source_filter: Mapping[str, Any] | None  # the ``filter`` object: metadata, session_ids, speakers
    speaker: str | None  # who asks: whom the question's "I" and "my" name
    now: datetime | None  # when the question is asked: "two years ago" counts back from it


def query_body(query: str, **options: Unpack[QueryOptions]) -> dict[str, Any]:
    """The JSON body of ``POST .../query`` and ``POST /v1/query`` (absent options left out);
    ``source_filter`` is the ``filter`` object (metadata, session_ids, speakers)."""
    body: dict[str, Any] = {
        "query": query,
        "mode": options.get("mode", "emb"),
        "include_superseded": options.get("include_superseded", False),
    }
    as_of, time_from, time_to = options.get("as_of"), options.get("time_from"), options.get("time_to")
    scope, source_filter, now = options.get("scope"), options.get("source_filter"), options.get("now")
    optional = {
        "top_k": options.get("top_k"),
        "as_of": as_of.isoformat() if as_of else None,
        "time_from": time_from.isoformat() if time_from else None,
        "time_to": time_to.isoformat() if time_to else None,
        "scope": list(scope) if scope is not None else None,
        "token_budget": options.get("token_budget"),
        "filter": dict(source_filter) if source_filter is not None else None,
        "speaker": options.get("speaker"),
        "now": now.isoformat() if now else None,
    }
    body.update({k: v for k, v in optional.items() if v is not None})
    return body
