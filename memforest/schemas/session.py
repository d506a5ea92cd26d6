"""The native session object: pydantic models shared by file ingest, the HTTP API and MCP.

Limits default to the defaults of :class:`~memforest.settings.APISettings` (a test pins that they
agree); a caller with other settings passes
a :class:`Limits` as the validation context (``SessionModel.model_validate(data,
context=Limits.from_settings(settings.api))``) or uses :func:`validate_session`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated, Any, Protocol

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationInfo,
    field_validator,
)
from pydantic_core import PydanticCustomError

from memforest.domain import DOT_SEGMENT_NAMES, SessionInput, TurnInput

#: Default upper bound on one turn's text (characters); the default of ``APISettings.max_text_chars``.
MAX_TEXT_CHARS: int = 20_000
#: Default upper bound on the number of turns in one session; the default of
#: ``APISettings.max_turns_per_session``.
MAX_TURNS_PER_SESSION: int = 5_000
#: Upper bound on ids and speaker names.
MAX_ID_CHARS = 200
#: Upper bound on a turn's free-text role.
MAX_ROLE_CHARS = 50


class SizeLimits(Protocol):
    """What :meth:`Limits.from_settings` reads (``memforest.settings.APISettings`` has it)."""

    @property
    def max_text_chars(self) -> int: ...

    @property
    def max_turns_per_session(self) -> int: ...


@dataclass(frozen=True, slots=True)
class Limits:
    """Size limits applied while validating sessions (passed as pydantic validation context)."""

    max_text_chars: int = MAX_TEXT_CHARS
    max_turns_per_session: int = MAX_TURNS_PER_SESSION

    @classmethod
    def from_settings(cls, api: SizeLimits) -> Limits:
        """Limits taken from the HTTP settings section."""
        return cls(max_text_chars=api.max_text_chars, max_turns_per_session=api.max_turns_per_session)


def _limits(info: ValidationInfo) -> Limits:
    ctx = info.context
    if isinstance(ctx, Limits):
        return ctx
    if isinstance(ctx, dict) and isinstance(ctx.get("limits"), Limits):
        limits: Limits = ctx["limits"]
        return limits
    return default_limits()


def as_utc_if_naive(value: datetime) -> datetime:
    """Return ``value`` unchanged when tz-aware; a naive value is taken to be UTC.

    ValueError when the time leaves the representable range once converted to UTC."""
    if value.tzinfo is None or value.tzinfo.utcoffset(value) is None:
        return value.replace(tzinfo=UTC)
    try:
        value.astimezone(UTC)
    except OverflowError:
        raise ValueError("time is out of range once converted to UTC") from None
    return value


IdStr = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_ID_CHARS)]


def addressable_id(value: str) -> str:
    """``value``, unless it is a dot segment that no URL path can carry (``domain.DOT_SEGMENT_NAMES``)."""
    if value in DOT_SEGMENT_NAMES:
        raise PydanticCustomError("dot_segment_id", "an id cannot be '.' or '..': no URL path can carry it")
    return value


# the id of a session or turn, which routes name in the path
PathIdStr = Annotated[IdStr, AfterValidator(addressable_id)]


class TurnModel(BaseModel):
    """One utterance of a session."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    speaker: IdStr = Field(description="Who spoke (a name or a role such as 'user').")
    role: str | None = Field(
        default=None,
        description="'user', 'assistant', 'system' or other free text (at most 50 characters).",
    )
    text: str = Field(description="What was said; non-empty after stripping.")
    id: PathIdStr | None = Field(default=None, description="The client's own id for this turn, e.g. 'D1:3'.")
    time: datetime | None = Field(
        default=None, description="When the turn happened; naive means UTC; absent means the session time."
    )

    @field_validator("role", mode="before")
    @classmethod
    def _check_role(cls, value: object) -> object:
        if value is None or not isinstance(value, str):
            return value
        value = value.strip()
        if not value:
            return None
        if len(value) > MAX_ROLE_CHARS:
            raise PydanticCustomError(
                "role_too_long", "role must have at most {max} characters", {"max": MAX_ROLE_CHARS}
            )
        return value

    @field_validator("text")
    @classmethod
    def _check_text(cls, value: str, info: ValidationInfo) -> str:
        value = value.strip()
        if not value:
            raise PydanticCustomError("empty_text", "text must not be empty")
        limit = _limits(info).max_text_chars
        if len(value) > limit:
            raise PydanticCustomError(
                "text_too_long",
                "text has {n} characters, more than the limit of {max}",
                {"n": len(value), "max": limit},
            )
        return value

    @field_validator("time")
    @classmethod
    def _check_time(cls, value: datetime | None) -> datetime | None:
        return None if value is None else as_utc_if_naive(value)

    def to_domain(self) -> TurnInput:
        """The domain object (tz-aware time or None)."""
        return TurnInput(speaker=self.speaker, text=self.text, role=self.role, external_id=self.id, time=self.time)


class SessionModel(BaseModel):
    """One conversation episode: an id, a session time and an ordered list of turns."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: PathIdStr = Field(description="The client's session id, unique within the forest.")
    time: datetime = Field(description="When the session took place; naive means UTC.")
    turns: list[TurnModel] = Field(description="The turns in order (at least one).")
    metadata: dict[str, Any] = Field(default_factory=dict, description="Free-form client metadata.")

    @field_validator("time")
    @classmethod
    def _check_time(cls, value: datetime) -> datetime:
        return as_utc_if_naive(value)

    @field_validator("turns")
    @classmethod
    def _check_turns(cls, value: list[TurnModel], info: ValidationInfo) -> list[TurnModel]:
        if not value:
            raise PydanticCustomError("no_turns", "a session needs at least one turn")
        limit = _limits(info).max_turns_per_session
        if len(value) > limit:
            raise PydanticCustomError(
                "too_many_turns",
                "session has {n} turns, more than the limit of {max}",
                {"n": len(value), "max": limit},
            )
        seen: dict[str, int] = {}
        for i, turn in enumerate(value):
            if turn.id is None:
                continue
            if turn.id in seen:
                raise PydanticCustomError(
                    "duplicate_turn_id",
                    "duplicate turn id '{id}' at turns[{i}] (first used at turns[{first}])",
                    {"id": turn.id, "i": i, "first": seen[turn.id]},
                )
            seen[turn.id] = i
        return value

    def to_domain(self) -> SessionInput:
        """The domain object (tz-aware session time)."""
        return SessionInput(
            external_id=self.id,
            time=self.time,
            turns=tuple(t.to_domain() for t in self.turns),
            metadata=dict(self.metadata),
        )


def validate_session(data: object, limits: Limits | None = None) -> SessionModel:
    """Validate one session object with the given limits (defaults: module constants)."""
    return SessionModel.model_validate(data, context=limits or default_limits())


def default_limits() -> Limits:
    """Limits from the module constants as they are now (they may be adjusted at run time)."""
    return Limits(max_text_chars=MAX_TEXT_CHARS, max_turns_per_session=MAX_TURNS_PER_SESSION)


def session_to_json(session: SessionInput) -> dict[str, Any]:
    """The native JSON object of a domain session (what ``POST .../sessions`` takes)."""
    turns: list[dict[str, Any]] = []
    for t in session.turns:
        turn: dict[str, Any] = {"speaker": t.speaker, "text": t.text}
        if t.role is not None:
            turn["role"] = t.role
        if t.external_id is not None:
            turn["id"] = t.external_id
        if t.time is not None:
            turn["time"] = t.time.isoformat()
        turns.append(turn)
    body: dict[str, Any] = {"id": session.external_id, "time": session.time.isoformat(), "turns": turns}
    if session.metadata:
        body["metadata"] = dict(session.metadata)
    return body
