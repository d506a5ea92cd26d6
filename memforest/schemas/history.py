"""The wire model of a fact's history (``GET /v1/forests/{forest}/facts/{fact_id}/history``, ADR 0044)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from memforest.schemas.base import Record, Timestamp

#: What happened to a fact, as its history lists it.
FactEventKind = Literal[
    "extracted", "created", "restated", "sources_removed", "supersedes", "superseded", "corrected", "restored",
    "deleted",
]  # fmt: skip
FACT_EVENT_KINDS: tuple[FactEventKind, ...] = (
    "extracted", "created", "restated", "sources_removed", "supersedes", "superseded", "corrected", "restored",
    "deleted",
)  # fmt: skip


class FactEvent(Record):
    """One event of a fact."""

    event: FactEventKind = Field(
        description=(
            "extracted: stored by the write path from its source turns; created: stored without source "
            "turns (a client's correction, an import); restated: a later turn said it again (sources added); "
            "sources_removed: source turns went (a retracted session or turn, or the fact's deletion); "
            "supersedes: it replaced related_fact_id; superseded / corrected: related_fact_id (a newer "
            "value / a client's correction) replaced it; restored: current again (its successor went); "
            "deleted: removed from the forest (text kept as a tombstone unless forgotten: text_dropped)."
        )
    )
    at: Timestamp = Field(description="When the change was made (its transaction's start).")
    related_fact_id: str | None = Field(None, description="The other fact of a supersession.")
    related_text: str | None = Field(None, description="That fact's text, while it is stored.")
    text: str | None = Field(None, description="The fact's text (extracted, created and deleted events).")
    kind: str | None = Field(None, description="The fact's kind.")
    valid_from: Timestamp | None = None
    valid_to: Timestamp | None = None
    sessions: list[str] = Field(default_factory=list, description="Session ids of the turns added or removed.")
    turn_ids: list[str] = Field(default_factory=list, description="The client's ids of those turns.")
    actor: str | None = Field(None, description="Who made the change: `key:<API key id>`; null for the worker.")
    text_dropped: bool = Field(False, description="The fact was deleted with forget_text: its text is not kept.")


class FactHistory(Record):
    """Every event of one fact, oldest first."""

    fact_id: str
    forest: str
    status: Literal["current", "superseded", "deleted"] = Field(description="The fact now.")
    events: list[FactEvent]
    truncated: bool = Field(False, description="True when only the oldest events are listed.")
