"""A question typed all in lower case has its names written as the forest's texts write them
(``retrieval.temporal.casing``): sentences written for this test."""

from __future__ import annotations

import pytest

from memforest.retrieval.temporal.casing import recased, uncased

TEXTS = [
    "Ottoline left Quillfeather Cartography in May.",
    "Berengar sent photos of his flat in Vessenholm.",
    "Berengar is coming over on Sunday.",
    "We moved our savings to Corbel Mutual Bank last year.",
    "Dentist says my teeth are fine.",
    "Dentist appointment moved again.",
    "Ottoline joined the Brackwater Otters, the swimming club by the quay.",
    "Sold the Larkspur 90 today!",
    "Switched barbers, and the climbing wall at Tallowgate is great.",
    "After the move, the barber on the corner was closed.",
]


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("after ottoline left quillfeather cartography, where did she work",
         "after Ottoline left Quillfeather Cartography, where did she work"),
        # a name that only ever opens a sentence, in two texts or more, is still a name
        ("where's berengar living these days? send a card", "where's Berengar living these days? send a card"),
        # the longest run the texts write as a name
        ("how long was i with the brackwater otters", "how long was i with the Brackwater Otters"),
        # words the texts write in lower case somewhere, or that open sentences as verbs, stay as typed
        ("which barber did i switch to after the move", "which barber did i switch to after the move"),
        ("when was i climbing at tallowgate", "when was i climbing at Tallowgate"),
        ("when was it sold", "when was it sold"),
        # a word no text has stays as typed
        ("who is my dentist now", "who is my dentist now"),
        # one word of a longer name is none, nor a kind of state that opens sentences
        ("which bank was i with before corbel mutual bank?", "which bank was i with before Corbel Mutual Bank?"),
        ("who was my dentist before ottoline", "who was my dentist before Ottoline"),
    ],
)  # fmt: skip
def test_recased_writes_the_runs_the_texts_write_as_names(question: str, expected: str) -> None:
    assert recased(question, TEXTS) == expected


def test_stopwords_never_start_or_end_a_name() -> None:
    # "After" and "the" open sentences in the texts: no run starts or ends with them
    assert recased("after the move", TEXTS) == "after the move"


@pytest.mark.parametrize(
    ("question", "typed_lower"),
    [
        ("where did i live before oslo", True),
        ("where did I live before oslo? i'm curious", True),
        ("Where did I live before Oslo?", False),
        ("where did i live before Oslo", False),
        ("2023?", False),
    ],
)
def test_uncased_is_a_question_with_no_capital_but_i(question: str, typed_lower: bool) -> None:
    assert uncased(question) is typed_lower


# names written with their accents and possessives in the texts, typed without them in the question
ACCENTED = [
    "Dúnlaith quit the Harrowby Larks and joined the Quaymoor Kestrels.",
    "My cousin Dúnlaith's flat in Søndervig is tiny.",
    "Łukasz sold his van.",
    "Anyway, Łukasz's new van is a Corvid 3.",
]


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # a name one text opens a sentence with and another writes with a possessive, inside a sentence
        ("what team did dunlaith join after the harrowby larks",
         "what team did Dúnlaith join after the Harrowby Larks"),
        ("where's dunlaith's flat", "where's Dúnlaith's flat"),
        ("which van did lukasz have before", "which van did Łukasz have before"),
        ("where is the flat in sondervig", "where is the flat in Søndervig"),
    ],
)  # fmt: skip
def test_names_typed_without_accents_or_with_a_possessive_are_recased(question: str, expected: str) -> None:
    assert recased(question, ACCENTED) == expected
