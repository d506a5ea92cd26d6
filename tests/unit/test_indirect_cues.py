"""States told only by their consequences (issue 48 item 5: indirect statements): the words of a
car's upkeep, a phone's or a laptop's everyday troubles, a course's work, a diet's foods and a
condition's care point a statement to the attribute (sentences of my own)."""

from __future__ import annotations

import pytest

from memforest.retrieval.temporal.lexicon import is_state_of


@pytest.mark.parametrize(
    ("text", "attribute"),
    [
        ("The mechanic at Quinta Motors says the Corvo needs new brakes.", "vehicle"),
        ("Had the gearbox on the Corvo fixed, ouch.", "vehicle"),
        ("Put winter tyres on the Corvo yesterday.", "vehicle"),
        ("The Corvo is on a lease until 2026.", "vehicle"),
        ("The battery on the Pinecone 5 dies by lunch now.", "device"),
        ("Cracked the screen of the Lumo Air again.", "device"),
        ("Failed my first exam at Tallinn Tech, ugh.", "school"),
        ("The thesis deadline at Ridgefield College is in June.", "school"),
        ("Cutting out meat and dairy since January.", "diet"),
        ("The new medication from the Harbour Clinic makes me sleepy.", "health"),
    ],
)
def test_consequence_words_point_to_the_attribute(text: str, attribute: str) -> None:
    assert is_state_of(text, attribute)
