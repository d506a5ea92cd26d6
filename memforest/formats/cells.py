"""Cells (b consecutive turns of one session) and the session content hash used for idempotency."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime

from memforest.domain import SessionInput
from memforest.errors import InputError

#: Bumped if the canonical form below ever changes (old hashes then stop matching on purpose).
CONTENT_HASH_VERSION = "memforest-session-v1"


def chunk_turns(n_turns: int, b: int) -> list[range]:
    """Split turn positions ``0..n_turns-1`` into consecutive groups of ``b`` (the last may be shorter)."""
    if isinstance(b, bool) or not isinstance(b, int) or b < 1:
        raise InputError(f"cell size must be an integer >= 1, got {b!r}", location="b")
    if isinstance(n_turns, bool) or not isinstance(n_turns, int) or n_turns < 0:
        raise InputError(f"turn count must be an integer >= 0, got {n_turns!r}", location="n_turns")
    return [range(start, min(start + b, n_turns)) for start in range(0, n_turns, b)]


def _iso(value: datetime | None) -> str | None:
    """ISO 8601 in UTC (naive taken as UTC), so equal instants hash equally."""
    if value is None:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC).isoformat()


def canonical_session_json(session: SessionInput) -> str:
    """The canonical JSON text that :func:`session_content_hash` digests."""
    doc = {
        "v": CONTENT_HASH_VERSION,
        "id": session.external_id,
        "time": _iso(session.time),
        "turns": [
            {"speaker": t.speaker, "role": t.role, "text": t.text, "id": t.external_id, "time": _iso(t.time)}
            for t in session.turns
        ],
        "metadata": session.metadata,
    }
    return json.dumps(doc, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)


def session_content_hash(session: SessionInput) -> str:
    """Stable sha256 hex of a session's content: same content, same hash; any change, another hash."""
    return hashlib.sha256(canonical_session_json(session).encode("utf-8")).hexdigest()
