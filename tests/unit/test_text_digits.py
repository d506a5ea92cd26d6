"""``decimal_int`` reads ASCII digits only, within the column's range: anything else is no number."""

from __future__ import annotations

import pytest

from memforest.text.digits import BIGINT_MAX, INT_MAX, decimal_int


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("0", 0),
        ("42", 42),
        ("007", 7),
        (str(BIGINT_MAX), BIGINT_MAX),
        (str(BIGINT_MAX + 1), None),
        ("1" * 40, None),
        ("", None),
        ("-1", None),
        ("+1", None),
        (" 1", None),
        ("1.0", None),
        ("\u00b2", None),  # superscript two: str.isdigit() says yes, int() refuses it
        ("1\u00b2", None),
        ("\u0663", None),  # Arabic-Indic three: int() would read 3
        ("\uff11", None),  # fullwidth one
    ],
)
def test_decimal_int(text: str, expected: int | None) -> None:
    assert decimal_int(text) == expected


def test_decimal_int_bound() -> None:
    assert decimal_int(str(INT_MAX), INT_MAX) == INT_MAX
    assert decimal_int(str(INT_MAX + 1), INT_MAX) is None
