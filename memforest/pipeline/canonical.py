"""What canonicalising a candidate fact needs beside its statements: the stored surface form, the
normalised-text fingerprint exact duplicates share, the near-duplicate choice among the nearest
live facts, where a candidate came from and what became of it. The write path canonicalises whole
batches (:mod:`memforest.pipeline.canonical_batch`)."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import datetime

from memforest.domain import Candidate
from memforest.rules import is_near_duplicate, supersession_slot
from memforest.store.sql import Row

__all__ = [
    "CanonicalOutcome",
    "SourceRef",
    "clean_surface",
    "normalise_text",
    "pick_near",
    "text_hash",
]

_PUNCT = re.compile(r"[^\w\s']+")
_SPACE = re.compile(r"\s+")


def normalise_text(text: str) -> str:
    """Case-, punctuation- and whitespace-insensitive form used for exact duplicate detection."""
    return _SPACE.sub(" ", _PUNCT.sub(" ", text.casefold())).strip()


def text_hash(text: str) -> str:
    """Fingerprint of the normalised text."""
    return hashlib.sha256(normalise_text(text).encode()).hexdigest()[:40]


def clean_surface(text: str) -> str:
    """The stored surface form: trimmed, single-spaced, ending in punctuation."""
    text = _SPACE.sub(" ", text).strip()
    if text and text[-1] not in ".!?":
        text += "."
    return text


@dataclass(frozen=True, slots=True)
class SourceRef:
    """Where a candidate came from."""

    session_id: int
    cell_id: int
    turn_ids: tuple[int, ...]
    said_at: datetime | None = None  # when the source turns were said: the fact is known from then


@dataclass(frozen=True, slots=True)
class CanonicalOutcome:
    """What happened to one candidate: ``status`` is new, merged or duplicate (same source again)."""

    fact_id: int
    status: str
    superseded: int | None = None


def pick_near(rows: list[Row], cand: Candidate, threshold: float) -> int | None:
    """The first of the nearest live facts that is a near duplicate of ``cand`` (rules.is_near_duplicate)."""
    slot = supersession_slot(cand.subject, cand.attribute, cand.value)
    for r in rows:
        if is_near_duplicate(
            similarity=float(r["sim"]), threshold=threshold, same_speaker=r["speaker"] == cand.speaker,
            kind_a=str(r["kind"]), kind_b=cand.kind.value, time_a=r["valid_from"], time_b=cand.valid_from,
            slot_a=supersession_slot(r["subject"], r["attribute"], r["value"]), slot_b=slot,
            value_a=r["value"], value_b=cand.value,
        ):  # fmt: skip
            return int(r["fact_id"])
    return None
