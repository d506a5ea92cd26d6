"""Exception handlers mapping every error to ``application/problem+json`` (the shape: ``app.problems``)."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException

from memforest.app.problems import ASGIApp, Message, Receive, Scope, Send, error_response, problem_response
from memforest.db.lock_wait import LOCK_NOT_AVAILABLE
from memforest.errors import DatabaseUnavailableError, MemForestError, public_reason

log = logging.getLogger(__name__)

_HTTP_SLUGS = {
    400: "bad-request",
    401: "unauthorized",
    403: "forbidden",
    404: "not-found",
    405: "method-not-allowed",
    409: "conflict",
    413: "payload-too-large",
    415: "unsupported-media-type",
    422: "invalid-input",
    429: "too-many-requests",
    503: "unavailable",
}


def _memforest_error(_: Request, exc: Exception) -> Response:
    assert isinstance(exc, MemForestError)
    if isinstance(exc, DatabaseUnavailableError):  # transient: the client is told to retry
        log.warning("request refused, database unavailable: %s", public_reason(exc.__cause__ or exc))
    elif exc.status_code >= 500:
        log.error("request failed: %s: %s", type(exc).__name__, exc)
    return error_response(exc)


def _validation_error(_: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestValidationError)
    errors = [
        {"loc": [str(p) for p in e.get("loc", ())], "msg": str(e.get("msg", "")), "type": str(e.get("type", ""))}
        for e in exc.errors()
    ]
    first = errors[0] if errors else None
    detail = f"{'.'.join(first['loc'])}: {first['msg']}" if first else "invalid request"
    return problem_response(422, "invalid-input", detail, extra={"errors": errors})


def _http_error(_: Request, exc: Exception) -> Response:
    assert isinstance(exc, StarletteHTTPException)
    slug = _HTTP_SLUGS.get(exc.status_code, "internal" if exc.status_code >= 500 else "bad-request")
    return problem_response(exc.status_code, slug, str(exc.detail), headers=dict(exc.headers or {}) or None)


def _database_busy(_: Request, exc: Exception) -> Response:
    """A request that found no free pooled connection within the pool's wait, or waited for a lock
    past its ``lock_timeout``: the database is busy, not broken; 503 with ``Retry-After``. Any other
    driver error is unexpected (500)."""
    if isinstance(exc, DBAPIError) and str(getattr(exc.orig, "sqlstate", "")) != LOCK_NOT_AVAILABLE:
        raise exc  # (to the handler of unexpected errors)
    what = "no free database connection" if isinstance(exc, PoolTimeout) else "a lock wait timed out"
    log.warning("request refused, database busy: %s", what)
    return error_response(DatabaseUnavailableError("the database is busy; retry shortly"))


def _unexpected(_: Request, exc: Exception) -> Response:
    log.exception("unhandled error", exc_info=exc)
    return problem_response(500, "internal", "internal server error")


def install_problem_handlers(app: FastAPI) -> None:
    """Register the one mapping from exceptions to problem+json."""
    app.add_exception_handler(MemForestError, _memforest_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(PoolTimeout, _database_busy)
    app.add_exception_handler(DBAPIError, _database_busy)
    app.add_exception_handler(Exception, _unexpected)


class BodyLimitMiddleware:
    """413 before the app sees a body larger than ``max_bytes`` (declared or streamed)."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = None
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                declared = value
        if declared is not None:
            try:
                size = int(declared)
            except ValueError:
                size = -1
            if size < 0:
                await problem_response(400, "bad-request", "invalid Content-Length")(scope, receive, send)
                return
            if size > self.max_bytes:
                await self._too_large(scope, receive, send)
                return
        seen = 0

        async def limited_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    raise StarletteHTTPException(413, self._detail())
            return message

        await self.app(scope, limited_receive, send)

    def _detail(self) -> str:
        return f"request body exceeds the limit of {self.max_bytes} bytes"

    async def _too_large(self, scope: Scope, receive: Receive, send: Send) -> None:
        await problem_response(413, "payload-too-large", self._detail())(scope, receive, send)
