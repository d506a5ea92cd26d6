"""Whose state a sentence tells when the speaker tells of someone else: the person opening the
clause, also after a linking word ("And Tobiah has signed for X"), holds it, and the speaker named
only after the value ("..., so that's no longer my problem") or only as an object before it holds
nothing of it. Sentences and names of my own, no benchmark template or value."""

from __future__ import annotations

import pytest
from support.states import speaker_slots


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("And Tobiah has started at Corvex Labs as a tester.", ("Tobiah", "employer", "Corvex Labs")),
        ("Anyway, Tobiah has started at Corvex Labs as a tester.", ("Tobiah", "employer", "Corvex Labs")),
        (
            "And Tobiah has started at Corvex Labs as a tester, so the rota is no longer my problem.",
            ("Tobiah", "employer", "Corvex Labs"),
        ),
        ("So Tobiah moved to Larkhall.", ("Tobiah", "residence", "Larkhall")),
        # the speaker's own: named as the one who acts before the value
        ("And I moved to Larkhall.", ("Mia", "residence", "Larkhall")),
    ],
)
def test_the_person_opening_the_clause_holds_the_state(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in speaker_slots(text)


def test_an_aside_header_names_no_kind() -> None:
    # ("Different subject:" opens an aside; the friend's club is the friend's)
    slots = speaker_slots("Different subject: my pal Tobiah plays for the Balgay Rovers in the Sunday league.")
    assert ("Tobiah", "membership", "Balgay Rovers") in slots
    assert not [s for s in slots if s[1] == "different_subject"]


def test_a_person_who_helped_the_speaker_holds_nothing_of_it() -> None:
    assert ("Mia", "residence", "Larkhall") in speaker_slots("Tobiah helped me move to Larkhall.")


def test_a_first_of_no_service_opening_the_sentence_is_no_habit() -> None:
    assert not [s for s in speaker_slots("First thing at Corvex Labs was a fire drill.") if s[2] == "Corvex Labs"]
