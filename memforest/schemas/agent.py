"""Wire models of the agent-facing operations (issue 18): chat messages in, one fact corrected or
deleted, query filters, a query over several forests, and webhooks."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from memforest.schemas.base import Timestamp, WireModel
from memforest.schemas.requests import QueryIn
from memforest.schemas.session import MAX_ID_CHARS, as_utc_if_naive

#: The events a webhook can subscribe to (ADR 0045); a webhook registered without ``events`` gets the job events.
WebhookEvent = Literal["job.succeeded", "job.failed", "memory.changed"]
WEBHOOK_EVENTS: tuple[WebhookEvent, ...] = ("job.succeeded", "job.failed", "memory.changed")
JOB_EVENTS: tuple[WebhookEvent, ...] = ("job.succeeded", "job.failed")
#: How long ``?wait=`` may hold a request (seconds).
MAX_WAIT_S = 30.0


#: The chat roles of the OpenAI format (``function`` is its older name for a tool result).
ChatRole = Literal["user", "assistant", "system", "developer", "tool", "function"]
#: Why a message became no turn (the keys of ``skipped`` in the answer).
SkipReason = Literal["system_prompt", "tool_calls_only", "no_text"]


class ContentPart(BaseModel):
    """One part of an OpenAI multi-part content. Text parts carry memory; image, audio, file and
    refusal parts are dropped (their payloads are not read)."""

    model_config = ConfigDict(extra="ignore")

    type: str = Field(max_length=50)
    text: str | None = Field(default=None, max_length=1_000_000)


class FunctionCall(BaseModel):
    """The function an assistant message calls (OpenAI's ``function`` of a tool call)."""

    model_config = ConfigDict(extra="ignore")

    name: str | None = Field(default=None, max_length=MAX_ID_CHARS)
    arguments: str | None = Field(default=None, max_length=1_000_000)


class ToolCall(BaseModel):
    """One tool call of an assistant message; its id links the ``tool`` message that answers it."""

    model_config = ConfigDict(extra="ignore")

    id: str | None = Field(default=None, max_length=1_000)
    type: str = Field(default="function", max_length=50)
    function: FunctionCall | None = None


class Message(BaseModel):
    """One chat message in the OpenAI shape, as the OpenAI SDK and agent frameworks send it.

    Every field of that shape is accepted (an unknown one is a 422); what becomes a turn is
    :meth:`MessagesIn.transcript`'s rule."""

    model_config = ConfigDict(extra="forbid")

    role: ChatRole
    content: str | list[ContentPart] | None = Field(
        default=None, description="Text, or a list of parts whose text parts are joined; null with tool_calls."
    )
    name: str | None = Field(default=None, max_length=MAX_ID_CHARS, description="The speaker, or the tool's name.")
    tool_calls: list[ToolCall] | None = Field(default=None, max_length=1_000)
    tool_call_id: str | None = Field(default=None, max_length=1_000, description="The call a tool message answers.")
    function_call: FunctionCall | None = Field(default=None, description="The older single tool call.")
    refusal: str | None = Field(default=None, max_length=1_000_000)
    audio: dict[str, Any] | None = None
    annotations: list[Any] | None = None

    def text(self) -> str:
        """The message's text (text parts joined by newlines; empty for null content)."""
        if self.content is None:
            return ""
        if isinstance(self.content, str):
            return self.content
        return "\n".join(p.text for p in self.content if p.type == "text" and p.text)

    def calls(self) -> list[FunctionCall]:
        """The functions this message calls (``tool_calls`` and the older ``function_call``)."""
        found = [c.function for c in self.tool_calls or () if c.function is not None]
        return found + ([self.function_call] if self.function_call is not None else [])


@dataclass(frozen=True, slots=True)
class Transcript:
    """What :meth:`MessagesIn.transcript` keeps: native turns (speaker, role, text) and the count of
    skipped messages per reason."""

    turns: list[dict[str, str]]
    skipped: dict[str, int]


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

    def transcript(self) -> Transcript:
        """The turns of the messages, by the documented rule (docs/agents.md):

        - ``user`` and ``assistant`` messages with text are kept, spoken by ``name``, else the role;
        - ``tool`` (and ``function``) results are kept as context turns spoken by the tool: the
          message's ``name``, else the function of the assistant's tool call with that
          ``tool_call_id``, else ``tool``;
        - ``system`` and ``developer`` prompts are skipped (``system_prompt``);
        - an assistant message with tool calls and no text is skipped (``tool_calls_only``);
        - any other message without text (null or blank content, only image, audio or file parts)
          is skipped (``no_text``). Non-text parts and tool-call arguments are never stored."""
        tool_names: dict[str, str] = {}
        turns: list[dict[str, str]] = []
        skipped: dict[str, int] = {}
        for m in self.messages:
            for call in m.tool_calls or ():
                if call.id and call.function is not None and call.function.name:
                    tool_names[call.id] = call.function.name
            text = m.text().strip()
            reason: SkipReason | None = None
            if m.role in ("system", "developer"):
                reason = "system_prompt"
            elif not text:
                reason = "tool_calls_only" if m.role == "assistant" and m.calls() else "no_text"
            if reason is not None:
                skipped[reason] = skipped.get(reason, 0) + 1
                continue
            speaker = m.name.strip() if m.name and m.name.strip() else None
            if speaker is None and m.role in ("tool", "function"):
                speaker = tool_names.get(m.tool_call_id or "", "tool")
            turns.append({"speaker": speaker or m.role, "role": m.role, "text": text})
        return Transcript(turns, skipped)


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
    events: list[WebhookEvent] = Field(
        default_factory=lambda: list(JOB_EVENTS),
        min_length=1,
        max_length=len(WEBHOOK_EVENTS),
        description="`job.succeeded`, `job.failed` (the default: both), `memory.changed` (facts created, "
        "superseded, corrected, restored or deleted, one event per transaction).",
    )


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
