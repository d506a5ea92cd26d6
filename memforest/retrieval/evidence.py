"""The evidence item a query returns (:class:`Evidence`), as assembly builds it and clients read
it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any


@dataclass(frozen=True, slots=True)
class Evidence:
    """One evidence item as returned to clients (``to_json`` is the public contract)."""

    rank: int
    kind: str
    text: str
    time: datetime
    valid_from: datetime | None
    valid_to: datetime | None
    tree: str
    score: float
    session_id: str | None
    turn_ids: tuple[str, ...]
    source_id: int = 0
    superseded: bool = False
    temporal_role: str | None = None  # "answer" | "earlier" | "later" for a temporal question's states
    forest: str | None = None  # set by a query over several forests
    other_turns: int = 0  # source turns of the fact not cited (restatements outside the question's time)

    def to_json(self) -> dict[str, Any]:
        """The evidence JSON object: exactly the documented keys (``temporal_role`` only when set,
        ``forest`` only across forests)."""
        out: dict[str, Any] = {
            "rank": self.rank,
            "kind": self.kind,
            "text": self.text,
            "time": _iso(self.time),
            "valid_from": _iso(self.valid_from),
            "valid_to": _iso(self.valid_to),
            "tree": self.tree,
            "score": round(self.score, 6),
            "session_id": self.session_id,
            "turn_ids": list(self.turn_ids),
            "fact_id": str(self.source_id) if self.kind == "fact" else None,
            "superseded": self.superseded,
        }
        if self.temporal_role is not None:
            out["temporal_role"] = self.temporal_role
        if self.forest is not None:
            out["forest"] = self.forest
        if self.other_turns:
            out["other_turns"] = self.other_turns
        return out


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None
