"""A question's kind finds the chain whose label shares a word with it, a word counting when either
begins the other: the question may name the person ("accountant", "guitarist") where the statement
named the thing ("my accounts", "guitar"), or the other way round. Words of my own."""

from __future__ import annotations

import pytest

from memforest.retrieval.temporal.chains import chain_label


@pytest.mark.parametrize(
    ("asked", "label"),
    [("accountant", "account"), ("guitarist", "guitar"), ("hairdresser", "hair"), ("hair", "hairdresser")],
)
def test_either_word_may_begin_the_other(asked: str, label: str) -> None:
    assert chain_label(asked, {label: 2, "allotment": 1}, loose=False) == label


def test_short_or_unrelated_words_share_nothing() -> None:
    assert chain_label("card", {"car": 1}, loose=False) is None
    assert chain_label("florist", {"floor": 1}, loose=False) is None
