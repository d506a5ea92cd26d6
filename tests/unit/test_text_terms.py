"""``tokenize``: lower-cased word tokens of any script, inner apostrophes kept (the typographic ones
and the backtick read as ``'``), numbers with their inner separators."""

from __future__ import annotations

import pytest

from memforest.text.terms import tokenize


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("Bob moved to Miami in 2019.", ["bob", "moved", "to", "miami", "in", "2019"]),
        (
            "Don't forget Bob's `new` car: 3.5 litres, 10,000 miles, 2023-05-07.",
            ["don't", "forget", "bob's", "new", "car", "3.5", "litres", "10,000", "miles", "2023", "05", "07"],
        ),
        (
            "snake_case and CamelCase, x2 2x 1.2.3 ,5 5, 'quoted' it''s",
            ["snake", "case", "and", "camelcase", "x2", "2", "x", "1.2.3", "5", "5", "quoted", "it", "s"],
        ),
        ("Bob`s and Bob\u2019s", ["bob's", "and", "bob's"]),
        ("", []),
        (
            "Zoë met José in Kraków at 9\u00b2\u2019s caf\u00e9",
            ["zoë", "met", "josé", "in", "kraków", "at", "9", "\u00b2's", "café"],
        ),
    ],
)
def test_tokens_of_samples(text: str, tokens: list[str]) -> None:
    assert tokenize(text) == tokens
