"""A former thing told in the past tense as its sentence's subject states nothing held now ("my old
flat on X was tiny"); an old friend's news and a clause after the past one still state theirs.
Sentences and names of my own, no benchmark template or value."""

from __future__ import annotations

import pytest
from support.states import held_slots


@pytest.mark.parametrize(
    "text",
    [
        "My old flat on Quenby Row was tiny.",
        "My old flat on Quenby Row was freezing.",
        "Our previous house in Brackenthwaite had a huge garden.",
        "My old job at Pollexfen Analytics paid better.",
        "My childhood home in Brackenthwaite was a bungalow.",
        "My last car was a Skelwith Tourer.",
        "The old house in Brackenthwaite was freezing.",
    ],
)
def test_a_former_thing_in_the_past_holds_nothing_now(text: str) -> None:
    assert held_slots(text) == []


@pytest.mark.parametrize(
    ("text", "held"),
    [
        ("My old car was a wreck so I bought a Skelwith Tourer.", ("Mia", "Skelwith Tourer")),
        ("My old friend Ildris moved to Brackenthwaite.", ("Ildris", "Brackenthwaite")),
        ("My old school friend Ildris moved to Brackenthwaite.", ("Ildris", "Brackenthwaite")),
        # what a former thing did to the speaker, and "last" as the latest
        ("My previous company moved me to Brackenthwaite.", ("Mia", "Brackenthwaite")),
        ("My old team at Pollexfen Analytics hired me back.", ("Mia", "Pollexfen Analytics")),
        ("My last payslip from Pollexfen Analytics arrived yesterday.", ("Mia", "Pollexfen Analytics")),
    ],
)
def test_an_old_friend_or_a_later_clause_still_state(text: str, held: tuple[str, str]) -> None:
    assert held in [(s[0], s[2]) for s in held_slots(text)]
