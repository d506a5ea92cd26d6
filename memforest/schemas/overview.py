"""Overview answers for browsing: forests with counts, entities, an entity's timeline, the caller's key."""

from __future__ import annotations

from pydantic import Field

from memforest.schemas.base import Record, Timestamp, WireModel


class ForestOverview(Record):
    """A forest with its counts and the time of its last write."""

    name: str
    sessions: int
    facts: int = Field(description="Facts not retracted, superseded ones included.")
    facts_current: int = Field(description="Facts neither superseded nor retracted.")
    trees: int
    last_write: Timestamp = Field(description="The latest session accepted, fact recorded or retracted.")


class ForestOverviewList(WireModel):
    """Every forest of the tenant, by name."""

    items: tuple[ForestOverview, ...]


class EntitySummary(Record):
    """An entity of a forest (a person, place, thing facts name)."""

    key: str
    label: str
    is_speaker: bool
    fact_count: int
    session_count: int
    first_time: Timestamp | None
    last_time: Timestamp | None


class StateValue(Record):
    """One value of a state chain (or one event), valid over ``[valid_from, valid_to)``."""

    fact_id: str
    text: str
    kind: str
    value: str | None
    valid_from: Timestamp
    valid_to: Timestamp | None
    status: str = Field(description="current or superseded")


class StateChain(Record):
    """The values an entity's attribute took, in valid-time order."""

    attribute: str
    states: tuple[StateValue, ...]


class EntityTimeline(WireModel):
    """An entity, its state chains and the other facts naming it (``events``, in time order)."""

    entity: EntitySummary
    chains: tuple[StateChain, ...]
    events: tuple[StateValue, ...]


class KeyInfo(WireModel):
    """What the calling key may do."""

    scopes: tuple[str, ...]
    can_write: bool
