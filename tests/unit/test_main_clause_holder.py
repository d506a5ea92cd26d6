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


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # a clause spliced on after the apposition whose verb has an object or complement of its own
        # (a pronoun, an article, a possessive, an infinitive, a participle, an adjective): the value
        # is not its object, so it says nothing of who holds the value (review s10 fix10, V1)
        ("Here's Marzipan, Evander's dachshund, I bought him a tartan collar.", "Evander"),
        ("Meet Marzipan, Evander's dachshund, I got to walk him on Sunday.", "Evander"),
        ("Marzipan, Evander's dachshund, I found wandering near the quay this morning.", "Evander"),
        ("This is Marzipan, Evander's dachshund, I chose his name.", "Evander"),
        ("Here's Marzipan, Evander's dachshund, we got drenched walking him today.", "Evander"),
        ("Marzipan, Evander's dachshund, I keep forgetting is deaf.", "Evander"),
        ("Marzipan, Evander's dachshund, I got used to slowly.", "Evander"),
        ("Gooseberry, Leocadia's corgi, I bought a lead for.", "Leocadia"),
        ("Here is Marzipan, Evander's dachshund, Tobiah gets to walk him on Mondays.", "Evander"),
        # the same after a relative clause of getting
        ("Meet Gooseberry, the corgi Leocadia adopted, I got her a padded kennel.", "Leocadia"),
        ("Meet Hollyhock, the donkey Isembard bought, I won a ribbon riding her.", "Isembard"),
        # a stay bounded in time or now and then is no holding now (V2)
        ("Marzipan, Evander's dachshund, I kept for a week in October.", "Evander"),
        ("Marzipan, Evander's dachshund, is ours again this week while Evander is in Trondheim.", "Evander"),
        ("Gooseberry, Leocadia's corgi, moved in with us for the winter while Leocadia sails.", "Leocadia"),
        ("Gooseberry, Leocadia's corgi, is mine now until Leocadia is back.", "Leocadia"),
        ("Gooseberry, Leocadia's corgi, is ours too.", "Leocadia"),
        ("Gooseberry, Leocadia's corgi, lives with me on weekends.", "Leocadia"),
        # saving is no getting, and a getting for someone or something else is a gift or a purpose
        # (review s10 V10)
        ("Marzipan, Evander's dachshund, I rescued from the weir this morning.", "Evander"),
        ("Gooseberry, Leocadia's corgi, I bought from a kennel in Fife for Wystan's birthday.", "Leocadia"),
        ("Gooseberry, Leocadia's corgi, I bought last week for my godson.", "Leocadia"),
        ("Marzipan, Evander's dachshund, I took home after the county fair.", "Evander"),
        # a verb of getting with no object of its own (the end of the clause, an adverbial of time or
        # source after it), or a stay "for good": the main clause's person holds the value
        ("Marzipan, Evander's dachshund, I adopted two years ago.", "Mia"),
        ("Gooseberry, Leocadia's corgi, we adopted from the pound.", "Mia"),
        ("Marzipan, Evander's dachshund, I bought from him last spring.", "Mia"),
        ("Gooseberry, Leocadia's corgi, I inherited when she emigrated.", "Mia"),
        ("Marzipan, Evander's dachshund, I took in.", "Mia"),
        ("Meet Gooseberry, the corgi Leocadia adopted, I took in after she moved abroad.", "Mia"),
        ("Gooseberry, Leocadia's corgi, moved in with us for good.", "Mia"),
    ],
)
def test_a_main_clause_with_its_own_object_or_a_bounded_stay_names_no_holder(text: str, want: str) -> None:
    value = text.removeprefix("Here's ").removeprefix("Here is ").removeprefix("Meet ").removeprefix("This is ")
    assert speaker_slots(text, "Mia") == [(want, "pet", value.split(",")[0])]
