"""Shared pieces of the browse reads: pages, opaque keyset cursors, limits and JSON-ready values."""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from memforest.errors import InputError, NotFoundError
from memforest.store.sql import Row

MAX_LIMIT = 200
SHORT_CHARS = 200
_ID_RE = re.compile(r"[0-9]{1,18}")
_CURSOR_INT_RE = re.compile(r"-?[0-9]{1,18}")

CursorPart = type[datetime] | type[int]


@dataclass(frozen=True, slots=True)
class Page:
    """One page of a list: ``items`` and the cursor of the next page (None on the last one)."""

    items: list[dict[str, Any]]
    next_cursor: str | None

    def to_json(self) -> dict[str, Any]:
        """``{"items": [...], "next_cursor": ...}``."""
        return {"items": self.items, "next_cursor": self.next_cursor}


def parse_id(value: str) -> int:
    """A path id: anything that is not a plain non-negative integer is simply absent (NotFoundError)."""
    if not _ID_RE.fullmatch(value):
        raise NotFoundError("not found")
    return int(value)


def sid(value: Any) -> str | None:
    """An id as a string (None stays None)."""
    return str(value) if value is not None else None


def short(text: str | None, n: int = SHORT_CHARS) -> str | None:
    """``text`` cut to ``n`` characters with an ellipsis."""
    if text is None:
        return None
    return text if len(text) <= n else text[: n - 1].rstrip() + "…"


def text_param(value: str | None, name: str) -> str | None:
    """A text filter as the database can take it (no NUL characters)."""
    if value is not None and "\x00" in value:
        raise InputError("must not contain NUL characters", location=name)
    return value


def contains_pattern(text: str) -> str:
    """A LIKE pattern (with ``ESCAPE '\\'``) matching any text that contains ``text`` literally."""
    return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def utc_time(value: datetime | None, name: str) -> datetime | None:
    """A filter time as an aware UTC datetime (naive times are taken as UTC)."""
    if value is None:
        return None
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    try:
        return value.astimezone(UTC)
    except (OverflowError, ValueError):
        raise InputError("time out of range", location=name) from None


def check_limit(limit: int) -> int:
    """``limit`` when it is 1..MAX_LIMIT, else InputError."""
    if not 1 <= limit <= MAX_LIMIT:
        raise InputError(f"must be 1-{MAX_LIMIT}", location="limit")
    return limit


def encode_cursor(*parts: str) -> str:
    """An opaque cursor for a keyset position."""
    return base64.urlsafe_b64encode("|".join(parts).encode("utf-8")).decode("ascii").rstrip("=")


def decode_cursor(cursor: str, n: int) -> list[str]:
    """The ``n`` parts of a cursor made by ``encode_cursor``; InputError for anything else."""
    try:
        if len(cursor) > 200:
            raise ValueError
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode("utf-8")
    except (ValueError, binascii.Error, UnicodeDecodeError):
        raise InputError("invalid cursor", location="cursor") from None
    parts = raw.split("|")
    if len(parts) != n:
        raise InputError("invalid cursor", location="cursor")
    return parts


def _cursor_time(part: str) -> datetime:
    try:
        value = datetime.fromisoformat(part)
    except ValueError:
        raise InputError("invalid cursor", location="cursor") from None
    if value.tzinfo is None:
        raise InputError("invalid cursor", location="cursor")
    return value


def _cursor_int(part: str) -> int:
    if not _CURSOR_INT_RE.fullmatch(part):
        raise InputError("invalid cursor", location="cursor")
    return int(part)


def read_cursor(cursor: str, *kinds: CursorPart) -> tuple[Any, ...]:
    """The keyset position in ``cursor``, one value per kind (an aware ``datetime`` or an ``int``);
    InputError for a cursor that is not one ``encode_cursor`` made for these kinds."""
    parts = decode_cursor(cursor, len(kinds))
    return tuple(
        _cursor_time(part) if kind is datetime else _cursor_int(part) for part, kind in zip(parts, kinds, strict=True)
    )


def page_rows(rows: Sequence[Row], limit: int, key: Callable[[Row], Sequence[str]]) -> tuple[list[Row], str | None]:
    """The first ``limit`` of ``rows`` (read with ``limit + 1``) and the cursor after the last one,
    made from ``key(row)``; no cursor when there is no further row."""
    more = len(rows) > limit
    kept = list(rows[:limit])
    return kept, encode_cursor(*key(kept[-1])) if more and kept else None
