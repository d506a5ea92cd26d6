"""Whom one moves in or lives with holds nothing of the move (sentences of my own): the state is
the mover's, the speaker's "I" included, and a "he" whose clause names the speaker only as a
companion ("with our parents") is still the one person named before it."""

from __future__ import annotations

import pytest
from support.states import speaker_slots


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("I moved in with my parents in Porto.", ("Mia", "residence", "Porto")),
        ("We moved in with my aunt in Coimbra last month.", ("Mia", "residence", "Coimbra")),
        ("My brother moved back in with our parents in Braga.", ("Mia's brother", "residence", "Braga")),
        ("My cousin lives with our grandparents in Evora now.", ("Mia's cousin", "residence", "Evora")),
        ("Tomas broke up with Ines, and he's moved back in with our parents in Faro.", ("Tomas", "residence", "Faro")),
        # a companion named as the sentence's only person before the value is still no subject
        ("Rui moved in with my sister in Lagos.", ("Rui", "residence", "Lagos")),
    ],
)
def test_a_companion_is_no_subject(text: str, slot: tuple[str, str, str]) -> None:
    assert speaker_slots(text) == [slot]


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        # "she's" / "he's" opening a later clause is "she is": the clause's subject is the one named before
        ("Joana quit, she's a nurse at Hospital Lumiar now.", ("Joana", "employer", "Hospital Lumiar", "nurse")),
        (
            "Tiago left Cortex Labs, he's an engineer at Brisa Digital now.",
            ("Tiago", "employer", "Brisa Digital", "engineer"),
        ),
        # a connective opening the sentence is no part of the name after it
        (
            "Meanwhile Tiago left Cortex Labs, he's an engineer at Brisa Digital now.",
            ("Tiago", "employer", "Brisa Digital", "engineer"),
        ),
    ],
)
def test_a_later_clause_she_is_names_its_subject(text: str, slot: tuple[str, str, str, str]) -> None:
    subject, attribute, value, title = slot
    assert speaker_slots(text) == [(subject, attribute, value), (subject, "job", title)]
