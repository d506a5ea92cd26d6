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
    ("I gave away my battered Roland keyboard to the music school.", "Roland", {"keyboard"}),
    ("Orla binned her cracked Nokia after it died again.", "Nokia", set()),
    ("We scrapped the old Vauxhall Corsa after it failed its MOT.", "Vauxhall Corsa", set()),
    ("I finally got rid of the Kobo reader.", "Kobo", {"readers"}),
    ("Orla donated her Bosch drill to the repair cafe.", "Bosch", {"drill"}),
    ("The Corsa kept stalling on hills, so we scrapped it.", "Corsa", set()),
    # no noun after the value: a word of time, a number, an adverb or the sentence's end follows it
    ("I sold the Ducati Multistrada two summers ago.", "Ducati Multistrada", set()),
    ("I finally sold my old Ducati Multistrada.", "Ducati Multistrada", set()),
    ("Petra donated her Bernina yesterday.", "Bernina", set()),
    ("Petra sold the Bernina cheap to a neighbour.", "Bernina", set()),
]

NEAR_MISSES = [
    ("I dumped all my recipes onto the Kobo last night.", "Kobo", set()),
    ("The hail dumped ice across my Vauxhall Corsa on Tuesday.", "Vauxhall Corsa", set()),
    ("Orla threw out her shoulder carrying boxes into the flat in Tallinn.", "Tallinn", set()),
    ("I gave away the twist of the novel to Brennick by accident.", "Brennick", set()),
    ("I binned the plan of moving to Tallinn and stayed put.", "Tallinn", set()),
    ("I donated plasma at the hospital, then drove the Corsa home.", "Corsa", set()),
    ("The Kobo was full, so I dumped them onto a memory stick.", "Kobo", set()),
    # the value modifies the noun that heads the object: another thing is disposed of (review s10 R5b)
    ("I gave away the Ducati Multistrada pannier bags.", "Ducati Multistrada", set()),
    ("I sold the Ducati Multistrada's old exhaust online.", "Ducati Multistrada", set()),
    ("Petra binned the Bernina foot pedal after it sparked.", "Bernina", {"sewing"}),
    ("We got rid of the Pentax lens cap collection.", "Pentax", {"camera"}),
]


def _leaves(text: str, value: str, kinds: set[str]) -> bool:
    at = text.find(value)
    return leaves(text, at, at + len(value), kinds)


@pytest.mark.parametrize(("text", "value", "kinds"), CLAIMS)
def test_the_object_of_a_disposal_is_left(text: str, value: str, kinds: set[str]) -> None:
    assert _leaves(text, value, kinds)


@pytest.mark.parametrize(("text", "value", "kinds"), NEAR_MISSES)
def test_a_value_outside_the_object_of_a_disposal_is_not_left(text: str, value: str, kinds: set[str]) -> None:
    assert not _leaves(text, value, kinds)


def test_a_leaving_that_is_no_disposal_still_reads_the_whole_sentence() -> None:
    assert _leaves("Orla quit Halvard Analytics in the spring.", "Halvard", set())


def _left(later: str, held_text: str = "I bought a Lumix camera for the trip.") -> bool:
    held = State(1, datetime(2022, 3, 1, tzinfo=UTC), held_text, "Lumix", True)
    rows = [{"valid_from": datetime(2024, 2, 1, tzinfo=UTC), "text": later, "attribute": None}]
    return left_by(rows, [[held]], 0, None, lambda _text: True)


def test_the_read_path_ends_a_value_only_when_it_is_disposed_of() -> None:
    assert _left("I gave away my old Lumix to my nephew.")
    assert not _left("I dumped all my holiday pictures onto the Lumix card.")
    assert not _left("The storm dumped hail over the Lumix bag on the balcony.")


def test_a_noun_after_the_value_is_its_kind_only_when_its_statements_named_it_so() -> None:
    assert _left("I sold the Lumix camera to a collector.")
    assert not _left("I gave away the Lumix lens hood and kept the rest.")
    assert _left("I sold the Lumix to a collector.", held_text="I bought a Lumix for the trip.")
