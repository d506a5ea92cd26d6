"""A question's main clause names the kind it asks after before a clause or a time that leads it
does: "When I got my hair cut short, who was my dentist?" asks for a dentist; the leading clause's
own thing is asked after only where the main clause names none (questions of my own)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from support.reads import question_of

NOW = datetime(2025, 9, 3, 12, 0, tzinfo=UTC)


def _attribute(question: str) -> str | None:
    return question_of(question, now=NOW, speaker="Zsofika").temporal.attribute


@pytest.mark.parametrize(
    ("question", "attribute"),
    [
        ("When I got my hair cut short, who was my dentist?", "dentist"),
        ("Back when I had my car serviced in Pécs, who was my accountant?", "accountant"),
        ("After my brother's wedding, who was his landlord?", "landlord"),
        ("When my aunt's choir folded, who was her manager?", "manager"),
        ("While I was renting my flat, what was the gym I used?", "gym"),
        ("In 2019, what was the bakery I liked?", "bakery"),
        # the main clause names none: the leading clause's own thing
        ("When I sold my van, what did I drive?", "van"),
        # no leading clause: the first possessed thing, as before
        ("Who was my dentist when I got my hair cut short?", "dentist"),
        ("Who was my landlord?", "landlord"),
    ],
)
def test_the_main_clause_names_the_asked_kind(question: str, attribute: str) -> None:
    assert _attribute(question) == attribute


@pytest.mark.parametrize(
    ("question", "attribute"),
    [
        # an opening that asks leads nothing: the comma sits inside the main clause
        ("When did my gym, the one near my office, close?", "gym"),
        ("In what year did my brother's gym, the one near my office, close?", "gym"),
        ("When did my dentist, who was my aunt's friend, retire?", "dentist"),
        ("By how much did my rent, after my landlord's letter, go up?", "rent"),
        # a service asked after in the main clause comes before the leading clause's thing
        ("After my divorce, who did I see for physio?", "physio"),
        # the work done on one's thing, asked by "who" or "where" after a leading clause
        ("When I moved house, where did I get my hair cut?", "hairdresser"),
        # a pronoun ends the noun phrase ("the gym she used"), an acronym does not ("my US bank")
        ("When I was with my ex, what was the gym she used?", "gym"),
        ("What was my US bank?", "us_bank"),
        # a relative clause inside the leading clause: the main clause starts after its last comma
        ("When my dentist, who was near my office, retired, who did I see instead?", "dentist"),
        ("When my gym, which was near my office, closed, where did I swim?", "gym"),
        ("Back when my aunt, who had her hair cut there, moved away, when did I get my hair cut?", "hair_cut"),
        ("When exactly did my vet, who was my sister's friend, retire?", "vet"),
        # a tag or a relative clause after the main clause leaves it the main clause
        ("In 2020, who coached my son's team, which won the league?", "coach"),
        ("Around 2018, who trained my dog, was it Sam?", "trainer"),
        ("In 2022, who did my taxes, do you remember?", "accountant"),
        ("When I was in Oslo, who supplied my electricity, can you check?", "electricity_provider"),
        ("When I lived in Leeds, who was my dentist, who was also my neighbour?", "dentist"),
        ("In 2020, who coached my team, right?", "coach"),
        # a service read in the main clause only
        ("After my dentist changed practices, did I stay with her?", "dentist"),
        ("When I got my hair cut short, can you tell me who my dentist was?", "dentist"),
    ],
)
def test_an_asking_opening_or_a_later_reading_keeps_the_main_kind(question: str, attribute: str) -> None:
    assert _attribute(question) == attribute
