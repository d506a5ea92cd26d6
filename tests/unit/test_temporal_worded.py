"""States the write side filed under no slot but that a chain must still read (ADR 0109): a
statement naming an open-ended kind in its own words, the new value of a statement that names the
old one too, a relative's statement that only names the subject as its owner, a chain of another
kind that can never hold the asked one, and a dwelling word heading a compound (sentences of my
own)."""

from __future__ import annotations

from typing import Any

from memforest.retrieval.temporal.chains import chain_label
from memforest.retrieval.temporal.lexicon import cue_scores
from memforest.retrieval.temporal.parse import parse_question
from memforest.retrieval.temporal.plan import ANSWER, plan_answer
from memforest.retrieval.temporal.worded import kind_words, names_own_kind, new_value
from tests.support.fact_rows import fact_row


def _row(fid: int, month: int, text: str, attribute: str | None, value: str | None, *entities: str) -> dict[str, Any]:
    subject = "oskarine" if attribute else None
    return fact_row(fid, month, text, "Oskarine", subject=subject, attribute=attribute, value=value, entities=entities)


def _answer_of(rows: list[dict[str, Any]], question: str, subject: str = "Oskarine") -> int | None:
    plan = plan_answer(parse_question(question), subject, rows)
    if plan is None:
        return None
    return next(fid for fid, role in plan.roles.items() if role == ANSWER)


FILED = _row(1, 2, "Oskarine's climbing gym is Cragvault.", "climbing_gym", "Cragvault", "Cragvault")


def test_a_change_naming_the_kind_in_its_own_words_is_the_latest_state() -> None:
    switched = _row(
        2, 6, "Oskarine switched climbing gyms, from Cragvault to Boulderhaus.", None, None, "Cragvault", "Boulderhaus"
    )
    assert _answer_of([FILED, switched], "Which climbing gym does Oskarine go to now?") == 2
    assert _answer_of([FILED, switched], "What was Oskarine's climbing gym before Boulderhaus?") == 1


def test_the_new_value_is_the_one_not_being_left() -> None:
    row = _row(
        2,
        6,
        "Oskarine gave up on Cragvault; Boulderhaus is her climbing gym now.",
        None,
        None,
        "Cragvault",
        "Boulderhaus",
    )
    assert new_value(row, "Oskarine", {"cragvault"}) == "Boulderhaus"
    assert new_value(row, "Oskarine", set()) == "Boulderhaus"
    assert _answer_of([FILED, row], "What is Oskarine's climbing gym now?") == 2


def test_a_relatives_change_or_a_wish_is_no_state_of_the_subject() -> None:
    colleague = _row(
        2, 6, "Oskarine's colleague Ferdl switched climbing gyms, from Cragvault to Ropeworks.", None, None,
        "Ferdl", "Cragvault", "Ropeworks",
    )  # fmt: skip
    wish = _row(3, 8, "Oskarine would love to switch climbing gyms to Ropeworks.", None, None, "Ropeworks")
    assert _answer_of([FILED, colleague, wish], "Which climbing gym does Oskarine go to now?") == 1


def test_kind_words_are_only_for_open_ended_kinds() -> None:
    assert names_own_kind("Oskarine switched climbing gyms last week.", "Oskarine", "climbing_gym")
    assert names_own_kind("Ropeworks is her climbing gym now.", "Oskarine", "climbing_gym")
    assert kind_words("residence") is None and kind_words("membership") is None


def test_the_kind_must_be_the_subjects_own() -> None:
    """Review cases: the kind word named of someone else, or in another sense, makes no state."""
    for text in (
        "Oskarine asked Tobiah which climbing gyms he likes.",
        "Oskarine drove her neighbour's boy Tobiah to the climbing gym.",
        "Oskarine says her sister's climbing gym is Ropeworks.",
        "Oskarine's dog switched climbing gyms, and the kids went to Ropeworks.",
    ):
        assert not names_own_kind(text, "Oskarine", "climbing_gym"), text
        row = _row(2, 6, text, None, None, "Tobiah", "Ropeworks")
        assert _answer_of([FILED, row], "Which climbing gym does Oskarine go to now?") == 1, text


def test_the_value_is_no_place_cause_or_person_and_a_return_is_read_forwards() -> None:
    bought = _row(
        3, 5, "Oskarine bought a Volvo XC40 from a dealer in Kesselbrunn.", None, None, "Volvo XC40", "Kesselbrunn"
    )
    assert new_value(bought, "Oskarine", set()) == "Volvo XC40"
    back = _row(
        4, 9, "Oskarine went back to driving the Skoda Octavia after selling the Volvo XC40.", None, None,
        "Skoda Octavia", "Volvo XC40",
    )  # fmt: skip
    assert new_value(back, "Oskarine", {"skoda octavia", "volvo xc40"}) == "Skoda Octavia"
    nephew = _row(5, 9, "Oskarine's nephew, Tobiah, got her onto Ropeworks.", None, None, "Tobiah", "Ropeworks")
    assert new_value(nephew, "Oskarine", set()) == "Ropeworks"


def test_a_relatives_leaving_does_not_continue_the_subjects_chain() -> None:
    job = _row(1, 2, "Oskarine works at Pellworth Labs.", "employer", "Pellworth Labs", "Pellworth Labs")
    flatmate = _row(
        2, 6, "Oskarine's flatmate Joris gave up on Pellworth Labs; Orrin Foods is his workplace now.", None, None,
        "Joris", "Pellworth Labs", "Orrin Foods",
    )  # fmt: skip
    assert _answer_of([job, flatmate], "Where does Oskarine work now?") == 1


def test_a_cue_statement_naming_the_old_value_takes_the_new_one() -> None:
    first = _row(1, 2, "Oskarine adopted a dog called Pimpernel.", "pet", "Pimpernel", "Pimpernel")
    after = _row(
        2, 9, "After Pimpernel passed away, Oskarine got a dog named Quorra.", None, None, "Pimpernel", "Quorra"
    )
    assert _answer_of([first, after], "Which pet does Oskarine have now?") == 2


def test_a_kind_one_joins_or_is_served_by_is_never_a_devices_chain() -> None:
    assert chain_label("choir", {"device": 2}) is None
    assert chain_label("insurer", {"device": 1, "vehicle": 1, "employer": 1}) is None
    assert chain_label("choir", {"hobby": 1}) == "hobby"
    assert chain_label("tablet", {"device": 1}) == "device"
    assert chain_label("climbing_gym", {"hobby": 1}) == "hobby"  # (joined before served)


def test_a_dwelling_word_heading_a_compound_cues_no_home() -> None:
    assert "residence" not in cue_scores("Oskarine found a new coffee place: Tassenhaus.")
    assert "residence" not in cue_scores("Oskarine signed up at a yoga studio.")
    assert "residence" in cue_scores("Oskarine found a place in Varnholt.")
    assert "residence" in cue_scores("Oskarine found a great place in Varnholt.")
    assert "residence" in cue_scores("Oskarine moved into a studio in Varnholt.")


def test_a_statement_naming_the_subject_by_another_name_is_theirs() -> None:
    """The subject asked by name, a later statement naming them by their relation only."""
    filed = fact_row(
        1, 2, "Oskarine's cousin Tilmann picked up a second-hand Corvid Ultrabook laptop.", "Oskarine",
        subject="tilmann", attribute="device", value="Corvid Ultrabook", entities=("Tilmann", "Corvid Ultrabook"),
    )  # fmt: skip
    later = fact_row(
        2, 8, "Oskarine's cousin picked up a second-hand Zephyr Nine laptop.", "Oskarine", entities=("Zephyr Nine",)
    )
    question = parse_question("What is Tilmann's laptop now?")
    plan = plan_answer(question, "Tilmann", [filed, later], aliases=("Oskarine's cousin",))
    assert plan is not None and plan.roles.get(2) == ANSWER
    alone = plan_answer(question, "Tilmann", [filed, later])
    assert alone is not None and alone.roles.get(1) == ANSWER
