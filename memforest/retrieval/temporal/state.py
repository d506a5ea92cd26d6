"""One state statement of a temporal chain (design 3.1, step 2): the type the plan builds and the
modules it calls (``pick``: which run answers, ``ended``: whether a run was left) read, kept below
all three so that none imports another for it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

__all__ = ["State"]


@dataclass(frozen=True, slots=True)
class State:
    """One state statement of the subject: a fact, its time and the value it names (when known)."""

    fact_id: int
    time: datetime
    text: str
    value: str | None
    slot: bool  # the write path filed it under (subject, attribute)
