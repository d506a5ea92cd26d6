"""A person a sentence does not name, as the subject of its state ("the guy next door bought X",
"the kids started at X"), never holds the speaker's state: a relation word is the speaker's
relative, any other word for a person files nothing, "the whole family" is the speaker. Sentences
and names of my own, no benchmark template or value."""

from __future__ import annotations

import pytest
from support.states import held_slots


@pytest.mark.parametrize(
    "text",
    [
        "The old couple upstairs moved to Brackenthwaite.",
        "The guy next door adopted a whippet called Tumbrel.",
        "Some woman at work joined Pollexfen Rowing Club.",
        "The family next door moved to Brackenthwaite.",
    ],
)
def test_someone_unnamed_files_nothing(text: str) -> None:
    assert held_slots(text) == []


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("The kids started at Pollexfen Primary.", ("Mia's kids", "school", "Pollexfen Primary")),
        ("A friend of mine joined Pollexfen Rowing Club.", ("Mia's friend", "membership", "Pollexfen Rowing Club")),
        ("Last year the twins started at Pollexfen Primary.", ("Mia's twins", "school", "Pollexfen Primary")),
        ("The whole family moved to Brackenthwaite.", ("Mia", "residence", "Brackenthwaite")),
    ],
)
def test_an_unnamed_relative_is_the_speakers(text: str, slot: tuple[str, str, str]) -> None:
    assert held_slots(text) == [slot]


def test_a_later_clause_and_the_speaker_named_before_the_value_stay_the_speakers() -> None:
    slots = held_slots("The kids started at Pollexfen Primary and I joined Pollexfen Rowing Club.")
    assert ("Mia", "membership", "Pollexfen Rowing Club") in slots
    assert ("Mia's kids", "school", "Pollexfen Primary") in slots
    assert ("Mia", "pet", "Tumbrel") in held_slots("The new neighbours adore my whippet Tumbrel.")
    # a place in the subject phrase: the verb is not the people's
    joined = held_slots("The people at Pollexfen Rowing Club were lovely so I joined.")
    assert ("Mia", "Pollexfen Rowing Club") in [(s[0], s[2]) for s in joined]
    assert ("Mia", "employer", "Pollexfen Analytics") in held_slots("The new manager at Pollexfen Analytics hired me.")
