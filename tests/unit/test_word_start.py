"""Where a match of a pattern that searches a whole text may start (``lexicon.WORD_START``): at a
word's start, after an opening quote or a lone hyphen, or after one short hyphenated prefix; never at
another letter of a word or of a hyphenated run, so no search re-scans a long run from each letter."""

from __future__ import annotations

import re

import pytest

from memforest.text.lexicon import WORD_START

_WORDS = re.compile(rf"{WORD_START}[A-Za-z]+")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Ana moved", ["Ana", "moved"]),
        ("al-Hassan's dog", ["al", "Hassan", "dog"]),
        ("my half-sister", ["my", "half", "sister"]),
        ("a T-shirt", ["a", "T", "shirt"]),
        ("-Ana moved", ["Ana", "moved"]),
        ("'Little Acorns'", ["Little", "Acorns"]),
        ("eBay", ["eBay"]),
        ("O'Brien", ["O"]),
        # one prefix only: the third part of a run starts nothing
        ("a-b-c-d", ["a", "b"]),
        ("great-grandmother-in-law", ["great", "grandmother"]),
    ],
)
def test_matches_start_at_a_words_start_or_after_one_short_prefix(text: str, words: list[str]) -> None:
    assert _WORDS.findall(text) == words
