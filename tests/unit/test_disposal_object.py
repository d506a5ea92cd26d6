"""A verb of disposal ends a value only when the value is its object: the noun phrase right after
the verb (after its particle: "gave away", "got rid of"), past at most a few determiners,
possessives and modifiers. A value named elsewhere in the sentence ("dumped my recipes onto X",
"the hail dumped ice across X") is not disposed of (review s9 R5). The sentences are mine, none a
benchmark template's."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memforest.retrieval.temporal.ended import left_by
from memforest.retrieval.temporal.state import State
from memforest.text.mood import leaves

CLAIMS = [
    ("I gave away my battered Roland keyboard to the music school.", "Roland"),
    ("Orla binned her cracked Nokia after it died again.", "Nokia"),
    ("We scrapped the old Vauxhall Corsa after it failed its MOT.", "Vauxhall Corsa"),
    ("I finally got rid of the Kobo reader.", "Kobo"),
    ("Orla donated her Bosch drill to the repair cafe.", "Bosch"),
    ("The Corsa kept stalling on hills, so we scrapped it.", "Corsa"),
]

NEAR_MISSES = [
    ("I dumped all my recipes onto the Kobo last night.", "Kobo"),
    ("The hail dumped ice across my Vauxhall Corsa on Tuesday.", "Vauxhall Corsa"),
    ("Orla threw out her shoulder carrying boxes into the flat in Tallinn.", "Tallinn"),
    ("I gave away the twist of the novel to Brennick by accident.", "Brennick"),
    ("I binned the plan of moving to Tallinn and stayed put.", "Tallinn"),
    ("I donated plasma at the hospital, then drove the Corsa home.", "Corsa"),
    ("The Kobo was full, so I dumped them onto a memory stick.", "Kobo"),
]


@pytest.mark.parametrize(("text", "value"), CLAIMS)
def test_the_object_of_a_disposal_is_left(text: str, value: str) -> None:
    assert leaves(text, text.find(value))


@pytest.mark.parametrize(("text", "value"), NEAR_MISSES)
def test_a_value_outside_the_object_of_a_disposal_is_not_left(text: str, value: str) -> None:
    assert not leaves(text, text.find(value))


def test_a_leaving_that_is_no_disposal_still_reads_the_whole_sentence() -> None:
    text = "Orla quit Halvard Analytics in the spring."
    assert leaves(text, text.find("Halvard"))


def _left(later: str) -> bool:
    held = State(1, datetime(2022, 3, 1, tzinfo=UTC), "I bought a Lumix camera for the trip.", "Lumix", True)
    rows = [{"valid_from": datetime(2024, 2, 1, tzinfo=UTC), "text": later, "attribute": None}]
    return left_by(rows, [[held]], 0, None, lambda _text: True)


def test_the_read_path_ends_a_value_only_when_it_is_disposed_of() -> None:
    assert _left("I gave away my old Lumix to my nephew.")
    assert not _left("I dumped all my holiday pictures onto the Lumix card.")
    assert not _left("The storm dumped hail over the Lumix bag on the balcony.")
