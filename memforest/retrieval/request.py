"""What a caller asks of the read path (:class:`QueryRequest`) and what it answers (:class:`QueryAnswer`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from memforest.errors import InputError
from memforest.retrieval.assemble import Evidence
from memforest.retrieval.filters import SourceFilter

__all__ = ["MAX_SPEAKER_CHARS", "MODES", "SCOPE_KINDS", "QueryAnswer", "QueryRequest", "TreeScore"]

MODES = ("emb", "llm")
SCOPE_KINDS = ("session", "entity", "scene")
MAX_SPEAKER_CHARS = 200


def _aware(value: datetime | None) -> datetime | None:
    """A naive time read as UTC."""
    if value is None or value.tzinfo is not None:
        return value
    return value.replace(tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class QueryRequest:
    """One query of one forest: the question and every option the API, the MCP tools and the CLI
    share. ``top_k`` None: the preset's; ``as_of``: the memory as it was then; ``time_from`` /
    ``time_to``: evidence of that range; ``scope_kinds``: tree kinds to read; ``token_budget``:
    stop adding evidence past about this many tokens; ``source_filter``: only matching sources;
    ``speaker``: who asks (the question's "I", "me" and "my"; None: the forest's user-role
    speaker, when it has one); ``now``: when the question is asked (its "two years ago" and "last
    spring" are read from then; None: the present)."""

    forest: str
    question: str
    mode: str = "emb"
    top_k: int | None = None
    as_of: datetime | None = None
    time_from: datetime | None = None
    time_to: datetime | None = None
    scope_kinds: Sequence[str] | None = None
    include_superseded: bool = False
    token_budget: int | None = None
    source_filter: SourceFilter | None = None
    speaker: str | None = None
    now: datetime | None = None

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise InputError(f"mode must be one of {', '.join(MODES)}", location="mode")
        if self.scope_kinds is not None:
            kinds = tuple(self.scope_kinds)
            if not kinds or any(k not in SCOPE_KINDS for k in kinds):
                raise InputError(f"scope kinds must be among {', '.join(SCOPE_KINDS)}", location="scope")
            object.__setattr__(self, "scope_kinds", kinds)
        if self.speaker is not None:
            speaker = " ".join(self.speaker.split())
            if not speaker or len(speaker) > MAX_SPEAKER_CHARS:
                raise InputError(f"speaker must have 1 to {MAX_SPEAKER_CHARS} characters", location="speaker")
            object.__setattr__(self, "speaker", speaker)
        for name in ("as_of", "time_from", "time_to", "now"):
            object.__setattr__(self, name, _aware(getattr(self, name)))

    @property
    def live_only(self) -> bool:
        """Only live facts can show: no as_of, time range, superseded facts or source filter."""
        return (
            self.as_of is None
            and self.time_from is None
            and self.time_to is None
            and not self.include_superseded
            and self.source_filter is None
        )


@dataclass(frozen=True, slots=True)
class TreeScore:
    """A tree recall picked: ``kind:label``, its fused score and its rank per channel."""

    tree: str
    score: float
    ranks: dict[str, int]

    def to_json(self) -> dict[str, Any]:
        """A JSON-able dict."""
        return {"tree": self.tree, "score": self.score, "ranks": self.ranks}


@dataclass(slots=True)
class QueryAnswer:
    """The answer to one query. ``evidence`` is best first; ``context`` shows it in time order."""

    question: str
    forest: str
    mode: str
    mode_used: str
    evidence: list[Evidence]
    fallback: str | None = None
    strategy: str = "exact"
    trees: list[TreeScore] = field(default_factory=list)
    time_cues: str | None = None
    temporal: str | None = None
    timings_ms: dict[str, float] = field(default_factory=dict)
    llm_calls: dict[str, int] = field(default_factory=dict)

    def in_time_order(self) -> list[Evidence]:
        """The same items ordered by time (then rank)."""
        return sorted(self.evidence, key=lambda e: (e.time, e.rank))

    def context(self) -> str:
        """Prompt-ready context: one line per item, in time order, with time and provenance."""
        lines = []
        for e in self.in_time_order():
            where = f"{e.session_id} {','.join(e.turn_ids)}".strip()
            validity = ""
            if e.valid_to is not None:
                validity = f" (valid until {e.valid_to.date().isoformat()})"
            lines.append(f"[{e.time.date().isoformat()}] {' '.join(e.text.split())}{validity} <{where}>")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        """A JSON-able dict (the wire's ``QueryResult``)."""
        return {
            "question": self.question,
            "forest": self.forest,
            "mode": self.mode,
            "mode_used": self.mode_used,
            "fallback": self.fallback,
            "evidence": [e.to_json() for e in self.evidence],
            "context": self.context(),
            "strategy": self.strategy,
            "trees": [t.to_json() for t in self.trees],
            "time_cues": self.time_cues,
            "temporal": self.temporal,
            "timings_ms": self.timings_ms,
            "llm_calls": self.llm_calls,
        }
