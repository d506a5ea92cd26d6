"""The answer to a query: evidence items, best first (``retrieval.assemble.Evidence`` on the wire)."""

from __future__ import annotations

from pydantic import Field

from memforest.schemas.base import RawKept, Timestamp, WireModel


class EvidenceItem(WireModel):
    """One evidence item of a query, best first by ``rank``."""

    rank: int
    kind: str = Field(description="fact or cell")
    text: str
    time: Timestamp
    valid_from: Timestamp | None
    valid_to: Timestamp | None
    tree: str = Field(description="The tree that led to it, as kind:label.")
    score: float
    session_id: str | None
    turn_ids: tuple[str, ...]
    temporal_role: str | None = Field(
        default=None,
        description="For a temporal question: answer (the state asked for), earlier or later (its neighbours).",
    )
    fact_id: str | None = Field(default=None, description="The fact's id (facts only): PATCH or DELETE it.")
    superseded: bool = Field(default=False, description="Superseded by a newer value (with include_superseded).")
    forest: str | None = Field(default=None, description="The forest it came from (POST /v1/query only).")
    other_turns: int = Field(
        default=0,
        description="A fact restated in several turns cites those in the question's time window (else the "
        "latest); how many of its other source turns are not cited (present only when not 0).",
    )


class TreeHit(WireModel):
    """A tree the forest recall picked, with its fused score and its rank per channel."""

    tree: str
    score: float
    ranks: dict[str, int]


class QueryResult(RawKept):
    """The answer to a query. ``raw`` is the server's JSON as is (what ``memforest query --json`` prints)."""

    question: str
    forest: str
    mode: str
    mode_used: str
    fallback: str | None = None
    evidence: tuple[EvidenceItem, ...]
    context: str = ""
    strategy: str | None = None
    trees: tuple[TreeHit, ...] = ()
    time_cues: str | None = None
    temporal: str | None = Field(
        default=None, description="The temporal plan's reading of the question (operator, attribute, subject)."
    )
    forests: tuple[str, ...] | None = Field(default=None, description="The forests asked (POST /v1/query only).")
    timings_ms: dict[str, float] = Field(default_factory=dict)
    llm_calls: dict[str, int] = Field(default_factory=dict)

    def in_time_order(self) -> list[EvidenceItem]:
        """The evidence ordered by time (then rank)."""
        return sorted(self.evidence, key=lambda e: (e.time, e.rank))
