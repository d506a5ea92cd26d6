"""Time formatting shared by every layer: ISO 8601 out, a lenient parser in."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from dateutil import parser as date_parser

from memforest.errors import InputError


def iso(value: Any) -> str | None:
    """``value.isoformat()`` for a datetime (or date), None for None."""
    return value.isoformat() if value is not None else None


def parse_time(value: str, location: str) -> datetime:
    """A timestamp from ISO 8601 or a readable date; naive values are taken as UTC.

    InputError (naming ``location``) when ``value`` is not a time."""
    try:
        parsed = date_parser.parse(value)
    except (ValueError, OverflowError) as exc:
        raise InputError(f"not a time: {value!r}", location=location) from exc
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=UTC)
