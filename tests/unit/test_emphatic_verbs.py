"""Emphatic "do" states what the plain verb states (sentences of my own)."""

from __future__ import annotations

import pytest
from support.states import speaker_slots

from memforest.text.emphatic import plain_verbs


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        ("Tomas did move to Faro in May.", "Tomas moved to Faro in May."),
        ("Joana actually did quit Brisa Digital.", "Joana actually quit Brisa Digital."),
        ("I did finally buy the Vespa.", "I finally bought the Vespa."),
        ("Rui did stop going to Ginasio Norte.", "Rui stopped going to Ginasio Norte."),
        ("My aunt does live in Evora now.", "My aunt lives in Evora now."),
        # a question, a negation, an object pronoun: no emphasis to read
        ("Did Tomas move to Faro?", "Did Tomas move to Faro?"),
        ("Where did Tomas move to?", "Where did Tomas move to?"),
        ("Tomas did not move to Faro.", "Tomas did not move to Faro."),
        ("Tomas did it again.", "Tomas did it again."),
    ],
)
def test_plain_verbs(text: str, plain: str) -> None:
    assert plain_verbs(text) == plain


@pytest.mark.parametrize(
    ("text", "slots"),
    [
        ("Tomas did move to Faro in May.", [("Tomas", "residence", "Faro")]),
        (  # (each clause its own state)
            "Tomas actually did move to Faro in May, he works remotely for Brisa Digital from there.",
            [("Tomas", "residence", "Faro"), ("Tomas", "employer", "Brisa Digital")],
        ),
        ("My aunt does live in Evora now.", [("Mia's aunt", "residence", "Evora")]),
    ],
)
def test_an_emphatic_verb_states_a_state(text: str, slots: list[tuple[str, str, str]]) -> None:
    assert speaker_slots(text) == slots
