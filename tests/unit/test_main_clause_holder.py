"""A value that opens the sentence with a possessive in apposition ("X, Y's dog, ...") is Y's only
while the main clause says nothing of who holds it now: a main clause of living or belonging with a
person ("lives with me now", "moved in with us", "belongs to Z"), a copula whose whole predicate is a
possessive ("is mine now", "has been ours since ..."), or a person getting the value put first
("X, Y's dog, I took in") names the holder, and the apposition only a former one (review s10 R6b).
The names, the animals and the sentences are mine, none a benchmark template's."""

from __future__ import annotations

import pytest
from support.states import speaker_slots


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # the main clause says the value is someone's now: the apposition names a former holder
        ("Biscotti, Leopold's whippet until the spring, lives with me now.", ("Mia", "pet", "Biscotti")),
        ("Biscotti, Leopold's whippet, is mine now.", ("Mia", "pet", "Biscotti")),
        ("Gorse, Saoirse's lurcher, moved in with us in June.", ("Mia", "pet", "Gorse")),
        ("Gorse, Saoirse's lurcher, has been ours since the divorce.", ("Mia", "pet", "Gorse")),
        ("Gorse, Saoirse's lurcher, belongs to me these days.", ("Mia", "pet", "Gorse")),
        ("Gorse, Saoirse's lurcher, I took in after the flood.", ("Mia", "pet", "Gorse")),
        ("Gorse, Saoirse's lurcher, lives with Wystan now.", ("Wystan", "pet", "Gorse")),
        ("Biscotti, the whippet Anselm rescued, lives with us now.", ("Mia", "pet", "Biscotti")),
        ("Here is Biscotti, Leopold's whippet, who lives with me now.", ("Mia", "pet", "Biscotti")),
        # the main clause says what the animal did or what the speaker thinks of it: still Y's
        ("Biscotti, Leopold's whippet, bit me on the ankle.", ("Leopold", "pet", "Biscotti")),
        ("Biscotti, Leopold's whippet, is my favourite dog.", ("Leopold", "pet", "Biscotti")),
        ("Gorse, Saoirse's lurcher, stayed with us over Easter.", ("Saoirse", "pet", "Gorse")),
        ("Gorse, Saoirse's lurcher, no longer lives with me.", ("Saoirse", "pet", "Gorse")),
        ("Gorse, Saoirse's lurcher, is not mine.", ("Saoirse", "pet", "Gorse")),
        ("Gorse, Saoirse's lurcher, I walked on Sunday.", ("Saoirse", "pet", "Gorse")),
        ("Biscotti, the whippet Anselm rescued, chews every shoe.", ("Anselm", "pet", "Biscotti")),
        ("Here is Biscotti, Leopold's whippet.", ("Leopold", "pet", "Biscotti")),
    ],
)
def test_the_main_clause_says_who_holds_it_now(text: str, want: tuple[str, str, str]) -> None:
    assert speaker_slots(text, "Mia") == [want]
