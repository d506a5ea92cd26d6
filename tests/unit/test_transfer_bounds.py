"""The export records (``lifecycle.transfer_format``) refuse every value its column would refuse
(issue 54): integers past their column's type, times outside the range once in UTC, vectors with NaN
or infinity. A crafted file is then a 422 naming the line, never a database error."""

from __future__ import annotations

import base64
from typing import Annotated, Any

import numpy as np
import pytest
from pydantic import TypeAdapter, ValidationError
from sqlalchemy import BigInteger, DateTime, Integer, SmallInteger

from memforest.db import schema
from memforest.db.catalogue import SCOPE_COLUMNS, TRANSFER_TABLES
from memforest.lifecycle.transfer_format import MODELS, decode_vector

_RANGES = {SmallInteger: 2**15, BigInteger: 2**63, Integer: 2**31}  # (subclasses first)


def _field_adapter(record: str, name: str) -> TypeAdapter[Any]:
    info = MODELS[record].model_fields[name]
    return TypeAdapter(Annotated[info.annotation, info])  # type: ignore[arg-type]


def _integer_columns() -> list[tuple[str, str, int]]:
    out = []
    for spec in TRANSFER_TABLES:
        table = getattr(schema, spec.name)
        for col in spec.own:
            kind = next((k for k in _RANGES if isinstance(table.c[col].type, k)), None)
            if kind is not None and col not in SCOPE_COLUMNS:
                out.append((spec.record, spec.field(col), _RANGES[kind]))
    return out


def _time_columns() -> list[tuple[str, str]]:
    return [
        (spec.record, spec.field(col))
        for spec in TRANSFER_TABLES
        for col in spec.own
        if isinstance(getattr(schema, spec.name).c[col].type, DateTime)
    ]


@pytest.mark.parametrize(("record", "name", "bound"), _integer_columns())
def test_every_integer_field_stays_within_its_column_type(record: str, name: str, bound: int) -> None:
    adapter = _field_adapter(record, name)
    for outside in (bound, -bound - 1):
        with pytest.raises(ValidationError):
            adapter.validate_python(outside)
    adapter.validate_python(bound - 1 if name not in ("fanout", "height") else 2)


@pytest.mark.parametrize(("record", "name"), _time_columns())
def test_every_time_field_stays_in_range_once_in_utc(record: str, name: str) -> None:
    adapter = _field_adapter(record, name)
    for outside in ("0001-01-01T00:00:00+14:00", "9999-12-31T23:00:00-05:00"):
        with pytest.raises(ValidationError, match="out of range once converted to UTC"):
            adapter.validate_python(outside)
    assert adapter.validate_python("2024-05-01T10:00:00+02:00") is not None


def test_the_integer_lists_and_maps_are_bounded_too() -> None:
    with pytest.raises(ValidationError):
        _field_adapter("scene_cluster", "members").validate_python([1, 2**63])
    with pytest.raises(ValidationError):
        _field_adapter("scene_cluster", "topic_counts").validate_python({"x": 2**31})


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")])
def test_a_vector_with_a_value_that_is_not_finite_is_refused(value: float) -> None:
    vector = np.ones(8, dtype="<f4")
    vector[3] = value
    with pytest.raises(ValueError, match="not finite"):
        decode_vector(base64.b64encode(vector.tobytes()).decode("ascii"), 8)
    assert decode_vector(base64.b64encode(np.ones(8, dtype="<f4").tobytes()).decode("ascii"), 8).shape == (8,)
