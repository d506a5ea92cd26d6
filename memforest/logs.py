"""Logging: one JSON object per line (or plain text), with request/job context from contextvars.

Context fields (``request_id``, ``tenant_id``, ``forest``, ``job_id``) live in one contextvar that
holds a small mutable dict. :func:`log_context` opens a new scope (a request, a job) and
:func:`bind` adds fields to the current one in place, so a field bound deep inside a request
(the tenant, by the auth dependency) is still seen by the access line the middleware writes
when the request ends, even if it was bound from a copied context.

Conversation text is never logged: no formatter here prints request bodies, and callers log ids,
counts and error kinds only (see ADR 0010).
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import logging
import sys
import traceback
from collections.abc import Iterator
from datetime import UTC, datetime
from types import TracebackType
from typing import Any, Literal

from memforest.errors import public_reason

LogFormat = Literal["json", "text"]

CONTEXT_FIELDS = ("request_id", "tenant_id", "forest", "job_id")
# SQL echo would print statement parameters (conversation text); httpx logs every model request at INFO.
QUIET_LOGGERS = ("sqlalchemy.engine", "sqlalchemy.pool", "httpx", "httpcore")
_context: contextvars.ContextVar[dict[str, str] | None] = contextvars.ContextVar("memforest_log_context", default=None)

# Attributes every LogRecord has; anything else on a record came from ``extra=`` and is emitted as a field.
_STANDARD_ATTRS = frozenset(
    logging.LogRecord("", 0, "", 0, "", None, None).__dict__.keys()
    | {"message", "asctime", "taskName", "color_message"}
)


def current_context() -> dict[str, str]:
    """A copy of the context fields set in this task (empty outside any scope)."""
    ctx = _context.get()
    return dict(ctx) if ctx else {}


@contextlib.contextmanager
def log_context(**fields: object) -> Iterator[dict[str, str]]:
    """A new context scope inheriting the current fields plus ``fields`` (None values are skipped)."""
    scope = current_context()
    scope.update({k: str(v) for k, v in fields.items() if v is not None})
    token = _context.set(scope)
    try:
        yield scope
    finally:
        _context.reset(token)


def bind(**fields: object) -> None:
    """Add fields to the current scope in place (opens a scope for this context when there is none)."""
    values = {k: str(v) for k, v in fields.items() if v is not None}
    ctx = _context.get()
    if ctx is None:
        _context.set(values)
    else:
        ctx.update(values)


_ExcInfo = tuple[type[BaseException], BaseException, TracebackType | None] | tuple[None, None, None]


def format_exception_safely(exc: BaseException) -> str:
    """A traceback whose driver errors show their class and SQLSTATE only, never the statement,
    its parameters or the server's message (which quotes stored values)."""
    chain: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in chain:
        chain.append(current)
        current = current.__cause__ or (None if current.__suppress_context__ else current.__context__)
    parts: list[str] = []
    for link in reversed(chain):
        if parts:
            parts.append("\nThe above exception led to the following one:\n\n")
        parts.append("Traceback (most recent call last):\n")
        parts.extend(traceback.format_tb(link.__traceback__))
        parts.append(f"{type(link).__module__}.{type(link).__qualname__}: {public_reason(link)}")
    return "".join(parts)


class _SafeExceptions(logging.Formatter):
    def formatException(self, ei: _ExcInfo) -> str:
        """The traceback with driver errors redacted (see :func:`format_exception_safely`)."""
        return format_exception_safely(ei[1]) if ei[1] is not None else ""

    def format(self, record: logging.LogRecord) -> str:
        """Format ``record``; a traceback another handler cached unredacted is formatted anew."""
        record.exc_text = None
        return super().format(record)


class JsonFormatter(_SafeExceptions):
    """One JSON object per line: timestamp, level, logger, message, context fields, extras, exception."""

    def format(self, record: logging.LogRecord) -> str:
        """Render ``record`` as a single line of JSON."""
        entry: dict[str, Any] = {
            "timestamp": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry.update(current_context())
        for key, value in record.__dict__.items():
            if key not in _STANDARD_ATTRS and not key.startswith("_"):
                entry[key] = value
        if record.exc_info:
            entry["exc_info"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str, ensure_ascii=False)


class TextFormatter(_SafeExceptions):
    """``time level logger: message [key=value ...]`` for people reading a terminal."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        """The classic line plus context fields and extras as ``key=value``."""
        line = super().format(record)
        fields = current_context()
        fields.update({k: v for k, v in record.__dict__.items() if k not in _STANDARD_ATTRS and not k.startswith("_")})
        if fields:
            line += " " + " ".join(f"{k}={v}" for k, v in fields.items())
        return line


def configure_logging(fmt: LogFormat = "json", *, level: int = logging.INFO) -> logging.Handler:
    """Send every log record to stderr in ``fmt``, replacing the root logger's handlers; return the handler."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else TextFormatter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):  # let uvicorn's records reach our handler
        uv = logging.getLogger(name)
        uv.handlers.clear()
        uv.propagate = True
    for name in QUIET_LOGGERS:
        logging.getLogger(name).setLevel(max(level, logging.WARNING))
    return handler
