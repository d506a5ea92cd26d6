"""The client's exceptions: every failure is a :class:`~memforest.errors.MemForestError`.

An error response (``application/problem+json``) becomes an :class:`ApiError` that is *also* the
matching class of ``memforest.errors`` (``except NotFoundError`` catches a 404); a failure to talk
to the server at all is a :class:`TransportError` (:class:`RequestTimeoutError` for timeouts).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any

import httpx

from memforest.errors import (
    AuthenticationError,
    ConflictError,
    InputError,
    MemForestError,
    ModelBackendError,
    NotFoundError,
    PayloadTooLargeError,
    PermissionDeniedError,
)
from memforest.schemas import Job


class ApiError(MemForestError):
    """The server answered with an error (``application/problem+json``).

    ``status`` is the HTTP status, ``type`` the problem type URI, ``detail`` the server's message,
    ``problem`` the whole problem object (e.g. ``location`` or ``errors`` for invalid input).
    """

    def __init__(self, status: int, type: str, title: str, detail: str, problem: Mapping[str, Any]) -> None:
        super().__init__(detail)
        self.status = status
        self.status_code = status
        self.type = type
        self.type_slug = type.rsplit("/", 1)[-1]
        self.title = title
        self.detail = detail
        self.problem = dict(problem)
        location = problem.get("location")
        self.location: str | None = location if isinstance(location, str) else None
        # Seconds the server asked to wait before retrying (its Retry-After), when it said.
        self.retry_after: float | None = None


class ApiInputError(ApiError, InputError):
    """400, 405, 415 or 422: the request was malformed or invalid."""


class ApiAuthenticationError(ApiError, AuthenticationError):
    """401: the API key is missing, malformed, unknown or revoked."""


class ApiPermissionDeniedError(ApiError, PermissionDeniedError):
    """403: the key lacks the scope (or is a tenant key on an admin endpoint, or the reverse)."""


class ApiNotFoundError(ApiError, NotFoundError):
    """404: no such object for this tenant."""


class ApiConflictError(ApiError, ConflictError):
    """409: the request conflicts with stored state."""


class ApiPayloadTooLargeError(ApiError, PayloadTooLargeError):
    """413: the body exceeds the server's limit."""


class ApiRateLimitedError(ApiError):
    """429: a rate or quota limit; ``retry_after`` says when to try again (the client retries it
    by its ``RetryPolicy`` before raising this)."""


class ApiModelBackendError(ApiError, ModelBackendError):
    """502 from the server: its model backend failed."""


class ApiServerError(ApiError):
    """Any other 5xx: the server failed or is not ready."""


class TransportError(MemForestError):
    """The server could not be reached, or the connection broke mid-request."""

    status_code = 503
    type_slug = "transport"


class RequestTimeoutError(TransportError):
    """The server did not answer within the client's timeout."""

    type_slug = "timeout"


class UnexpectedResponseError(MemForestError):
    """The server answered successfully, but not with what the API documents."""

    status_code = 502
    type_slug = "unexpected-response"


class JobWaitTimeout(MemForestError):
    """``wait_job`` gave up before the job finished. ``job`` is its last seen state."""

    status_code = 504
    type_slug = "job-wait-timeout"

    def __init__(self, message: str, job: Job) -> None:
        super().__init__(message)
        self.job = job


_BY_SLUG: dict[str, type[ApiError]] = {
    "invalid-input": ApiInputError,
    "bad-request": ApiInputError,
    "method-not-allowed": ApiInputError,
    "unsupported-media-type": ApiInputError,
    "unauthorized": ApiAuthenticationError,
    "forbidden": ApiPermissionDeniedError,
    "not-found": ApiNotFoundError,
    "conflict": ApiConflictError,
    "payload-too-large": ApiPayloadTooLargeError,
    "too-many-requests": ApiRateLimitedError,
    "model-backend": ApiModelBackendError,
    "model-output": ApiModelBackendError,
}
_BY_STATUS: dict[int, type[ApiError]] = {
    400: ApiInputError,
    401: ApiAuthenticationError,
    403: ApiPermissionDeniedError,
    404: ApiNotFoundError,
    405: ApiInputError,
    409: ApiConflictError,
    413: ApiPayloadTooLargeError,
    415: ApiInputError,
    422: ApiInputError,
    429: ApiRateLimitedError,
    502: ApiModelBackendError,
}


def error_from_response(response: httpx.Response) -> ApiError:
    """The :class:`ApiError` subclass for an error response (problem+json or not)."""
    status = response.status_code
    problem: dict[str, Any] = {}
    try:
        body = response.json()
        if isinstance(body, dict):
            problem = body
    except ValueError:
        pass
    type_uri = problem.get("type") if isinstance(problem.get("type"), str) else None
    detail = problem.get("detail") if isinstance(problem.get("detail"), str) else None
    if detail is None:
        text = " ".join(response.text.split())[:300]
        detail = text or response.reason_phrase or f"HTTP {status}"
    title = problem.get("title") if isinstance(problem.get("title"), str) else response.reason_phrase
    slug = type_uri.rsplit("/", 1)[-1] if type_uri else ""
    cls = _BY_SLUG.get(slug) or _BY_STATUS.get(status) or (ApiServerError if status >= 500 else ApiInputError)
    if type_uri is None:
        type_uri = "about:blank"
    error = cls(status, type_uri, str(title or ""), detail, problem)
    error.retry_after = retry_after_seconds(response.headers.get("Retry-After"))
    return error


def retry_after_seconds(value: str | None) -> float | None:
    """A ``Retry-After`` header in seconds (delta-seconds or an HTTP date), None when absent or unreadable."""
    if value is None:
        return None
    text = value.strip()
    if text.isascii() and text.isdigit():
        return float(text)
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())
