"""Wire models of the agent-facing operations (issue 18): chat messages in, one fact corrected or
deleted, query filters, a query over several forests, and webhooks."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from memforest.schemas.base import Timestamp, WireModel
from memforest.schemas.requests import QueryIn
from memforest.schemas.session import MAX_ID_CHARS, as_utc_if_naive

#: The events a webhook can subscribe to.
WebhookEvent = Literal["job.succeeded", "job.failed"]
WEBHOOK_EVENTS: tuple[WebhookEvent, ...] = ("job.succeeded", "job.failed")
#: How long ``?wait=`` may hold a request (seconds).
MAX_WAIT_S = 30.0


class ContentPart(BaseModel):
    """One part of an OpenAI multi-part message content; only text parts carry memory."""

    model_config = ConfigDict(extra="ignore")

    type: str = Field(max_length=50)
    text: str | None = Field(default=None, max_length=1_000_000)


class Message(BaseModel):
    """One chat message in the OpenAI shape. The turn's speaker is ``name`` when given, else ``role``."""

    model_config = ConfigDict(extra="ignore")

    role: Literal["user", "assistant", "system"]
    content: str | list[ContentPart] = Field(description="Text, or a list of parts whose text parts are joined.")
    name: str | None = Field(default=None, min_length=1, max_length=MAX_ID_CHARS)

    def text(self) -> str:
        """The message's text (text parts joined by newlines)."""
        if isinstance(self.content, str):
            return self.content
        return "\n".join(p.text for p in self.content if p.type == "text" and p.text)


class MessagesIn(BaseModel):
    """``POST /v1/forests/{forest}/messages``: only ``messages`` is required."""

    model_config = ConfigDict(extra="forbid")

    messages: list[Message] = Field(min_length=1, max_length=5_000)
    session_id: str | None = Field(
        default=None, min_length=1, max_length=MAX_ID_CHARS, description="Default: a new id per request."
    )
    time: datetime | None = Field(default=None, description="When the exchange took place; default now.")
    metadata: dict[str, Any] = Field(default_factory=dict)

    @field_validator("time")
    @classmethod
    def _utc(cls, value: datetime | None) -> datetime | None:
        return None if value is None else as_utc_if_naive(value)


class FactCorrectionIn(BaseModel):
    """``PATCH /v1/forests/{forest}/facts/{fact_id}``: the corrected text; ``valid_from`` defaults to now."""

    model_config = ConfigDict(extra="forbid")

    text: str = Field(min_length=1, max_length=20_000)
    valid_from: datetime | None = None

    @field_validator("valid_from")
    @classmethod
    def _utc(cls, value: datetime | None) -> datetime | None:
        return None if value is None else as_utc_if_naive(value)


class FactDeleted(WireModel):
    """What ``DELETE /v1/forests/{forest}/facts/{fact_id}`` removed."""

    fact_id: str
    forest: str
    leaves_removed: int
    trees_removed: int
    facts_restored: int = Field(description="Facts it superseded that are current again.")
    nodes_refreshed: int
    rebalance: dict[str, int] = Field(default_factory=dict)


class QueryFilter(BaseModel):
    """Which sources evidence may come from; every given part must hold (AND)."""

    model_config = ConfigDict(extra="forbid")

    metadata: dict[str, Any] | None = Field(
        default=None, max_length=50, description="Session metadata: top-level keys equal to these values."
    )
    session_ids: list[str] | None = Field(default=None, max_length=1_000, description="Client session ids.")
    speakers: list[str] | None = Field(default=None, max_length=200, description="Speaker names of the turns.")

    @field_validator("session_ids", "speakers")
    @classmethod
    def _ids(cls, value: list[str] | None) -> list[str] | None:
        if value is not None and any(not v or len(v) > MAX_ID_CHARS or "\x00" in v for v in value):
            raise ValueError(f"ids must be 1-{MAX_ID_CHARS} characters without NUL")
        return value


class FilteredQueryIn(QueryIn):
    """``POST /v1/forests/{forest}/query`` with an optional ``filter``."""

    filter: QueryFilter | None = None


class MultiQueryIn(FilteredQueryIn):
    """``POST /v1/query``: the same options over several forests of the tenant, one ranked list."""

    forests: list[str] = Field(min_length=1, max_length=20)

    @field_validator("forests")
    @classmethod
    def _names(cls, value: list[str]) -> list[str]:
        if any(not v or len(v) > 200 for v in value):
            raise ValueError("forest names are 1-200 characters")
        return list(dict.fromkeys(value))


class WebhookIn(BaseModel):
    """``POST /v1/webhooks``."""

    model_config = ConfigDict(extra="forbid")

    url: str = Field(min_length=8, max_length=2_000, description="An http(s) URL that receives the POSTs.")
    events: list[WebhookEvent] = Field(default_factory=lambda: list(WEBHOOK_EVENTS), min_length=1, max_length=2)


class Webhook(WireModel):
    """A registered webhook (the secret is shown only when it is created)."""

    id: str
    url: str
    events: tuple[str, ...]
    created_at: Timestamp | None = None
    secret: str | None = Field(default=None, description="Only in the answer to POST /v1/webhooks.")


class WebhookDelivery(WireModel):
    """One delivery of an event to a webhook: ``state`` is pending, delivered or failed (gave up)."""

    id: str
    event_id: str
    type: str
    state: str
    attempts: int
    last_status: int | None = None
    last_error: str | None = None
    created_at: Timestamp
    next_attempt_at: Timestamp | None = None
    delivered_at: Timestamp | None = None
