"""Where a relative clause on the value does not name its holder, and where a switch clause or a
transitive move names no new value or no one moved (review rev8 R1, R12; ADR 0084, 0086
addenda). Sentences, names and things of my own."""

from __future__ import annotations

import pytest
from support.states import speaker_slots

from memforest.domain import FactKind
from memforest.text.change_subjects import clause_subject
from memforest.text.state_slot import state_slot

ME = "Oren"


def _slot(text: str) -> tuple[str, str, str] | None:
    return state_slot(text, FactKind.EVENT, ME, (ME,))


@pytest.mark.parametrize(
    ("text", "attribute"),
    [
        ("Oren moved to Galway, the town Oren's brother adores.", "residence"),
        ("Oren started at Quenby Haulage, the firm Ottoline founded.", "employer"),
        ("Oren joined the Marlow Chess Circle, the club Piet launched last year.", "membership"),
        ("Oren bought a Volvo XC40, the car Oren's uncle recommended.", "vehicle"),
        # a verb of getting in the clause does not outweigh the main clause's own subject
        ("Oren adopted Pepper, the cat Oren's neighbour rescued.", "pet"),
        ("Oren got a Mazda Tribute, the model Ingrid owns.", "vehicle"),
        ("Oren now works at Ledger Bank, the bank Oren's wife left in June.", "employer"),
        ("Yesterday Oren adopted Pepper, the cat Oren's neighbour rescued.", "pet"),
    ],
)
def test_a_main_clause_with_its_own_subject_keeps_the_state(text: str, attribute: str) -> None:
    found = _slot(text)
    assert found is not None and found[:2] == (ME, attribute), found


def test_a_first_person_state_stays_the_speakers_end_to_end() -> None:
    assert speaker_slots("I moved to Galway, the town my brother adores.") == [("Mia", "residence", "Galway")]
    assert speaker_slots("I adopted Pepper, the cat my neighbour rescued.") == [("Mia", "pet", "Pepper")]


def test_a_clause_of_liking_or_of_going_somewhere_names_no_holder() -> None:
    assert clause_subject("Meet Tansy, the goat Oren's aunt adores.", "Tansy") is None
    assert clause_subject("Meet Tansy, the goat Oren's aunt brought to the fair.", "Tansy") is None


@pytest.mark.parametrize(
    ("text", "holder"),
    [
        ("Meet Tansy, the goat Oren's aunt bought at the market.", "Oren's aunt"),
        ("Meet Tansy, the goat Oren's aunt brought home on Monday.", "Oren's aunt"),
    ],
)
def test_with_no_subject_of_its_own_a_clause_of_getting_names_the_holder(text: str, holder: str) -> None:
    found = _slot(text)
    assert found is not None and found[0] == holder and found[1] == "pet", found


def test_a_value_that_opens_the_sentence_takes_its_clauses_holder() -> None:
    assert clause_subject("Pepper, the cat Oren's niece adopted, sleeps on the stairs.", "Pepper") == "Oren's niece"


@pytest.mark.parametrize(
    "text",
    [
        "My brother changed schools, Mia drives him there now.",  # the speaker
        "Oskar switched squads, Delia coaches him now.",  # a person acting on the switcher
        "I changed seats, Hana sits beside me now.",
        "Lio changed classes, Mr. Abbot teaches him now.",
        "Switched tailors, Ravi alters my suits now.",  # Ravi takes part in the conversation
    ],
)
def test_a_person_beside_the_switcher_is_no_new_value(text: str) -> None:
    assert speaker_slots(text) == [(None, None, None)]


def test_the_doer_of_the_kind_switched_is_its_new_value() -> None:
    assert speaker_slots("I switched tutors, Elspeth tutors me now.") == [("Mia", "tutor", "Elspeth")]
    assert speaker_slots("I changed doctors, Dr. Prewitt-Ames sees me now.") == [("Mia", "doctor", "Dr. Prewitt-Ames")]


@pytest.mark.parametrize(
    "text",
    ["I moved Tuesday to Galway for the new post.", "We moved Saturday into Galway after the lease ran out."],
)
def test_a_day_after_the_verb_of_moving_is_no_one_moved(text: str) -> None:
    assert [s for s, attribute, _ in speaker_slots(text) if attribute == "residence"] == ["Mia"]
