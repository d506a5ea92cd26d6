"""Building blocks of the wire models: the base class, timestamps, pages, and two client conveniences.

Every response model is frozen and ignores unknown keys (an older client keeps working against a
newer server). A :data:`Timestamp` is a ``datetime`` in Python and, on the wire, exactly
``datetime.isoformat()`` (``+00:00``, not pydantic's ``Z``), so a server that validates its dicts
through a model sends the same bytes as before.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Annotated, Any, Generic, Self, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    ModelWrapValidatorHandler,
    PlainSerializer,
    PrivateAttr,
    WithJsonSchema,
    model_validator,
)

T = TypeVar("T")


def _isoformat(value: datetime) -> str:
    return value.isoformat()


#: A point in time: ``datetime`` in Python, ISO 8601 (``datetime.isoformat()``) in JSON.
Timestamp = Annotated[
    datetime,
    PlainSerializer(_isoformat, return_type=str, when_used="json"),
    WithJsonSchema({"type": "string", "format": "date-time"}),
]


class WireModel(BaseModel):
    """A response body (or a part of one): immutable; unknown keys are ignored."""

    model_config = ConfigDict(frozen=True, extra="ignore", populate_by_name=True)


class Record(WireModel):
    """A wire object that also reads like the mapping the client used to return: ``r["field"]``."""

    def __getitem__(self, key: str) -> Any:
        for name, info in type(self).model_fields.items():
            if key in (name, info.alias):
                return getattr(self, name)
        raise KeyError(key)

    def get(self, key: str, default: Any = None) -> Any:
        """``r[key]``, or ``default`` when the model has no such field."""
        try:
            return self[key]
        except KeyError:
            return default


class RawKept(WireModel):
    """A model that remembers the JSON object it was validated from (``raw``, never serialised)."""

    _raw: dict[str, Any] = PrivateAttr(default_factory=dict)

    @model_validator(mode="wrap")
    @classmethod
    def _keep_raw(cls, data: Any, handler: ModelWrapValidatorHandler[Self]) -> Self:
        model = handler(data)
        if isinstance(data, dict):
            model._raw = dict(data)
        return model

    @property
    def raw(self) -> Mapping[str, Any]:
        """The JSON object as the server sent it."""
        return self._raw


class Page(WireModel, Generic[T]):
    """One page of a list endpoint; ``next_cursor`` is None on the last page."""

    items: tuple[T, ...]
    next_cursor: str | None = None

    def __len__(self) -> int:
        return len(self.items)
