"""A presentational opening names the thing it shows, and a reduced relative clause after it names
the holder (issue 48 item 2): "Look at X, the <animal> <Person> bought" is the Person's pet X (the
Person is the subject of the relative clause, not the animal's name), and "Here is X, the <animal>
..." states it at all. The opening is read by its grammar: an imperative of meeting or looking
("Look at", "Have a look at", "Check out") or a deictic "Here is / Here's". The names, the animals
and the sentences are mine, none a benchmark template's."""

from __future__ import annotations

import pytest
from support.states import speaker_slots


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("Look at Fennel, the iguana Dario bought at the reptile show.", ("Dario", "pet", "Fennel")),
        ("Look at Marlowe, the cockatiel my cousin Joel bought in May.", ("Joel", "pet", "Marlowe")),
        ("Have a look at Bramble, the axolotl Oona adopted.", ("Oona", "pet", "Bramble")),
        ("Here is Tansy, the chinchilla my niece Lale picked up last week.", ("Lale", "pet", "Tansy")),
        ("Here's Moss, the budgie Bastien bought.", ("Bastien", "pet", "Moss")),
        ("Here is Sorrel, my new gecko.", ("Mia", "pet", "Sorrel")),
    ],
)
def test_a_presented_value_with_a_relative_clause(text: str, want: tuple[str, str, str]) -> None:
    assert speaker_slots(text, "Mia") == [want]


@pytest.mark.parametrize(
    "text", ["Look at the rain on the window.", "Here is the receipt from the garden centre.", "Look at him go!"]
)
def test_a_presentational_opening_without_a_state_gives_none(text: str) -> None:
    assert speaker_slots(text, "Mia") == [(None, None, None)]


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # an animal in apposition with a possessive names its holder
        ("Look at Zorbec, Hjalmar's chinchilla, always chewing cables.", ("Hjalmar", "pet", "Zorbec")),
        ("Here is Nutmeg, my brother's hedgehog.", ("Mia's brother", "pet", "Nutmeg")),
        ("Meet Quimby, Ysolde's tortoise.", ("Ysolde", "pet", "Quimby")),
    ],
)
def test_a_possessive_in_apposition_names_the_holder(text: str, want: tuple[str, str, str]) -> None:
    assert speaker_slots(text, "Mia") == [want]


@pytest.mark.parametrize(
    "text",
    [
        # looking at or pointing to a person or a thing states no pet: no animal stands beside the name
        "Look at Evander, he finally passed his driving test.",
        "Have a look at Cornelius, he's the plumber my uncle recommends.",
        "Look at Zorbec go, Hjalmar's chinchilla is so quick.",
    ],
)
def test_looking_at_someone_named_states_no_pet(text: str) -> None:
    assert speaker_slots(text, "Mia") == [(None, None, None)]


def test_pointing_to_someone_by_role_states_the_role_and_no_pet() -> None:
    assert speaker_slots("Here is Philippa, my accountant.", "Mia") == [("Mia", "accountant", "Philippa")]


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # a verb of the sentence's own governs the value: the dropped subject is the speaker, and a
        # possessive after the value only describes it
        ("Just relocated to Tromso, Hjalmar's hometown.", ("Mia", "residence", "Tromso")),
        ("Adopted Zorbec, Ysolde's neighbour's old chinchilla.", ("Mia", "pet", "Zorbec")),
    ],
)
def test_a_possessive_after_a_governed_value_leaves_the_speaker_the_holder(
    text: str, want: tuple[str, str, str]
) -> None:
    assert speaker_slots(text, "Mia") == [want]


def test_a_value_that_opens_the_sentence_keeps_its_possessor_a_describer() -> None:
    # "Y's old <animal>" may name a former owner: the one it lives with now is the holder
    assert speaker_slots("Zorbec, Ysolde's old chinchilla, lives with me now.", "Mia") == [("Mia", "pet", "Zorbec")]


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # a value that opens the sentence is the possessor's: another person's animal the speaker
        # talks about is no pet of the speaker's, which would close the speaker's own
        ("Juniper, Halvard's spaniel, dug up the flowerbed again.", ("Halvard", "pet", "Juniper")),
        ("Pumpernickel, Thorvald's cat, sleeps on our porch most days.", ("Thorvald", "pet", "Pumpernickel")),
        # a noun said to be past names a former owner: none now (review s9 R6)
        ("Marzipan, Eustace's old rabbit, lives in my garden now.", ("Mia", "pet", "Marzipan")),
        ("Waffles, Corin's former dog, sleeps on my bed now.", ("Mia", "pet", "Waffles")),
    ],
)
def test_a_possessive_after_a_value_that_opens_the_sentence(text: str, want: tuple[str, str, str]) -> None:
    assert speaker_slots(text, "Mia") == [want]
