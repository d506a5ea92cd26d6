"""Plain domain objects shared by every layer. No ORM, driver or HTTP objects here."""

from __future__ import annotations

import enum
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

#: Names a URL path cannot carry as one segment: clients and browsers resolve them as dot segments
#: (RFC 3986, section 5.2.4), so a forest, session or turn so named could never be reached by its
#: route. Refused where such names are made (a slash is fine: it travels encoded, ADR 0049).
DOT_SEGMENT_NAMES = frozenset({".", ".."})


class TreeKind(enum.StrEnum):
    """The three scope kinds a MemTree can index."""

    SESSION = "session"
    ENTITY = "entity"
    SCENE = "scene"


class FactKind(enum.StrEnum):
    """What sort of statement a candidate/fact is."""

    EVENT = "event"
    STATE = "state"
    PREFERENCE = "preference"
    PLAN = "plan"
    RELATION = "relation"
    OPINION = "opinion"
    OTHER = "other"


class JobState(enum.StrEnum):
    """Lifecycle of a queued job."""

    QUEUED = "queued"
    RUNNING = "running"
    SUCCEEDED = "succeeded"
    FAILED = "failed"


@dataclass(frozen=True, slots=True)
class Forest:
    """A tenant's forest as stored (the wire's view of a forest is ``schemas.resources.Forest``)."""

    tenant_id: uuid.UUID
    forest_id: int
    name: str


@dataclass(frozen=True, slots=True)
class Job:
    """A queued job as a worker claims it (the wire's view of a job is ``schemas.resources.Job``)."""

    tenant_id: uuid.UUID
    job_id: uuid.UUID
    forest_id: int | None
    kind: str
    state: JobState
    payload: dict[str, Any]
    attempts: int


# ---------------------------------------------------------------- input side


@dataclass(frozen=True, slots=True)
class TurnInput:
    """One utterance as the client sent it."""

    speaker: str
    text: str
    role: str | None = None
    external_id: str | None = None
    time: datetime | None = None  # tz-aware; None means "the session time"


@dataclass(frozen=True, slots=True)
class SessionInput:
    """One conversation episode as the client sent it. ``time`` is tz-aware."""

    external_id: str
    time: datetime
    turns: tuple[TurnInput, ...]
    metadata: dict[str, object] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ForestInput:
    """Sessions destined for one forest (a LoCoMo sample, a LongMemEval item, a native file)."""

    name: str | None
    sessions: tuple[SessionInput, ...]


# ---------------------------------------------------------------- extraction


@dataclass(frozen=True, slots=True)
class CellTurn:
    """A turn as an extractor sees it: position within the session plus client id."""

    seq: int  # 0-based position of the turn in its session
    speaker: str
    text: str
    time: datetime
    external_id: str | None = None
    role: str | None = None  # the role the client gave the turn ("user", "assistant", ...), if any


@dataclass(frozen=True, slots=True)
class CellView:
    """What one extraction call sees: b consecutive turns of one session and their time span."""

    session_external_id: str
    session_time: datetime
    turns: tuple[CellTurn, ...]

    @property
    def t_start(self) -> datetime:
        return min(t.time for t in self.turns)

    @property
    def t_end(self) -> datetime:
        return max(t.time for t in self.turns)


@dataclass(frozen=True, slots=True)
class Candidate:
    """One memory item an extractor returned for one cell.

    ``source_turn_seqs`` are the ``CellTurn.seq`` values the item came from (the specific turn
    when known). ``subject``/``attribute`` identify a slot for supersession ("Bob", "residence");
    ``value`` is the slot's value ("Davis"). ``valid_from``/``valid_to`` are absolute times
    resolved from the text when stated, otherwise ``valid_from`` is the turn time.
    """

    text: str
    kind: FactKind
    source_turn_seqs: tuple[int, ...]
    valid_from: datetime
    valid_to: datetime | None = None
    time_text: str | None = None
    entities: tuple[str, ...] = ()
    topics: tuple[str, ...] = ()
    speaker: str | None = None
    subject: str | None = None
    attribute: str | None = None
    value: str | None = None


#: The fan-out a tree may be (re)built with (``trees.fanout`` has the same CHECK).
MIN_FANOUT, MAX_FANOUT = 2, 16
