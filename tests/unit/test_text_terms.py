"""``tokenize`` reads ASCII text through a pattern of its own: the tokens are those of the general
(unicode) pattern, character for character."""

from __future__ import annotations

import random
import string

import pytest

from memforest.text.terms import _APOSTROPHES, _TOKEN_RE, tokenize


def _general(text: str) -> list[str]:
    """The unicode pattern alone (what every text went through before the ASCII path)."""
    return _TOKEN_RE.findall(text.translate(_APOSTROPHES).lower())


@pytest.mark.parametrize(
    "text",
    [
        "Bob moved to Miami in 2019.",
        "Don't forget Bob's `new` car: 3.5 litres, 10,000 miles, 2023-05-07.",
        "snake_case and CamelCase, x2 2x 1.2.3 ,5 5, 'quoted' it''s",
        "tabs\tand\nnew lines; UPPER lower 123abc abc123 a_1",
        "",
        "Zoë met José in Kraków at 9\u00b2\u2019s caf\u00e9",  # not ASCII: the general path
    ],
)
def test_tokens_of_samples(text: str) -> None:
    assert tokenize(text) == _general(text)


def test_tokens_of_random_ascii_text() -> None:
    """Random strings over every printable ASCII character (letters, digits, punctuation with the
    apostrophe, backtick, underscore, comma and period weighted up)."""
    rnd = random.Random(26)
    alphabet = string.printable + "'`_.,0123456789 " * 4
    for _ in range(3000):
        text = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 60)))
        assert text.isascii()
        assert tokenize(text) == _general(text), text
