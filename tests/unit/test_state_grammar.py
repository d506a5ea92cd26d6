"""The general grammar of change (issue #48): a state is read from the structure of its clause,
not from a list of attributes. A verb may stand without its subject (people write of themselves
so), after an auxiliary or adverb; the kind of thing is the noun the value is named as (right
after it, in an appositive, after "as my"), the switch's plural ("switched vets"), or a known kind
of thing; a state may be stated by a consequence (a habit, a thing named as one's own); a person
named before an appositive is the subject; a pronoun with no one named is nobody's state.

Every sentence here was written for these tests: its people, places, organisations and kinds of
thing appear in neither split of ``bench.temporal_v2``.
"""

from __future__ import annotations

import pytest
from support.states import speaker_slots


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        # a verb without its subject, after an auxiliary or an adverb
        ("Eventually signed up with Tidewell Energy, the bills were silly.", ("Mia", "membership", "Tidewell Energy")),
        ("I've joined the Orchard Lane Quilters.", ("Mia", "membership", "Orchard Lane Quilters")),
        ("I've been banking with Corrin Savings since spring.", ("Mia", "patronage", "Corrin Savings")),
        # the kind is the noun the value is named as
        ("I bought a Veloria 3 tablet last week.", ("Mia", "device", "Veloria 3")),
        ("My cousin Rhea joined Saltwick Sharks, a water polo team.", ("Rhea", "water_polo_team", "Saltwick Sharks")),
        ("I went with Brindle & Oak as my accountant.", ("Mia", "accountant", "Brindle & Oak")),
        ("Bastian, my colleague, bought a Corriveau camper van.", ("Bastian", "camper_van", "Corriveau")),
        # the kind the sentence says was switched, the value in the next clause
        (
            "We switched vets in March and now take the cats to Hollybrook Animal Care.",
            ("Mia", "vet", "Hollybrook Animal Care"),
        ),
        ("My neighbour Ottilie switched her insurer to Fernleigh Mutual.", ("Ottilie", "insurer", "Fernleigh Mutual")),
        # stated by a consequence: a habit, a thing named as one's own (its kind known)
        ("Grabbed my usual sourdough at Crumbhill on Saturday.", ("Mia", "patronage", "Crumbhill")),
        ("Cracked the screen of my Pixel 8 again.", ("Mia", "device", "Pixel 8")),
        # a partner named with their noun is the subject of their own states
        ("My wife Soledad started a new job at Brannock Freight.", ("Soledad", "employer", "Brannock Freight")),
    ],
)
def test_a_change_is_read_from_the_clause(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in speaker_slots(text)


def test_a_switch_that_names_what_it_replaced_takes_that_kind() -> None:
    # "moved over" from one club to another is no move of home: the read path gives it A's kind
    assert ("Mia", "change", "Harbourside Masters") in speaker_slots(
        "I moved over from Kestrel Swim Club to Harbourside Masters."
    )


@pytest.mark.parametrize(
    "text",
    [
        "She spilled coffee on her Kobo Libra.",  # whose: the sentence names no one
        "I applied to Quorra Systems last week.",
        "I tried to join the Pennyfield Bowls Club but it was full.",
        "My dad advised me to bank with Corrin Savings.",
        "Imagine living in Lanzarote.",
        "I'm on the waiting list for Elmgate Allotments.",
        "My former landlord Mr. Pryce sold the building.",
        "Sold my old Quindle 4 to a neighbour.",  # an ending, not a start
    ],
)
def test_no_state_without_a_plain_statement_or_an_owner(text: str) -> None:
    assert all(attribute is None for _, attribute, _ in speaker_slots(text))
