"""A verb class's chain holds every place one goes to; for a kind of service the statements that
name the service pick its states out of it, another person doing the verb makes a statement theirs,
a "with" after a participle asks for a provider, not a partner, and a "following" after "is" is
no "after" (issue 48 items 1 and 2).
Sentences and names of my own."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from memforest.retrieval.temporal.chains import other_kind
from memforest.retrieval.temporal.doers import other_doer
from memforest.retrieval.temporal.parse import parse_question
from tests.support.fact_rows import fact_row
from tests.support.temporal_answers import answer_of

ME = "Odalys"
NOW = datetime(2024, 12, 15, 12, tzinfo=UTC)


def _row(fid: int, month: int, text: str, *entities: str, attribute: str | None = None,
         value: str | None = None, subject: str | None = None) -> dict[str, Any]:  # fmt: skip
    return fact_row(fid, month, text, ME, subject=subject, attribute=attribute, value=value, entities=entities)


def _answer(rows: list[dict[str, Any]], question: str) -> int | None:
    return answer_of(rows, question, ME, NOW)


PLACES = [
    _row(1, 1, "Odalys had her first check-up with her new dentist, Dr. Perrin at Quayline Smiles.", "Dr. Perrin",
         attribute="patronage", value="Dr. Perrin", subject="odalys"),
    _row(2, 5, "Odalys switched to Dr. Valcour after Dr. Perrin retired.", "Dr. Valcour",
         attribute="patronage", value="Dr. Valcour", subject="odalys"),
    _row(3, 8, "Odalys gets her usual oat flat white at Tideway Roasting every morning.", "Tideway Roasting",
         attribute="patronage", value="Tideway Roasting", subject="odalys"),
]  # fmt: skip


def test_the_service_named_picks_its_states_out_of_a_verb_class_chain() -> None:
    assert _answer(PLACES, "Which dentist is Odalys seeing now?") == 2


def test_a_chain_whose_statements_name_no_service_is_read_whole() -> None:
    unnamed = [{**r, "text": r["text"].replace("her new dentist, ", "").replace(" oat flat white", "")} for r in PLACES]
    assert _answer(unnamed, "Which dentist is Odalys seeing now?") == 3


def test_a_drink_ordered_names_a_cafe_and_so_no_dentist() -> None:
    unnamed = [{**r, "text": r["text"].replace("her new dentist, ", "")} for r in PLACES]
    assert _answer(unnamed, "Which dentist is Odalys seeing now?") == 2


def test_a_named_person_doing_the_verb_makes_the_statement_theirs() -> None:
    mine = _row(1, 1, "Odalys joined Saltmarsh Wheelers.", "Saltmarsh Wheelers", attribute="cycling_club",
                value="Saltmarsh Wheelers", subject="odalys")  # fmt: skip
    theirs = _row(2, 4, "Funny timing, Inez did the hill loop with Harbour Wheelers on Sunday.",
                  "Inez", "Harbour Wheelers")  # fmt: skip
    assert _answer([mine, theirs], "Which cycling club is Odalys in now?") == 1


def test_a_with_after_a_participle_asks_for_a_provider() -> None:
    assert parse_question("Who is Odalys insured with these days?").attribute == "insurer"
    assert parse_question("Who was Odalys banking with in 2022?").attribute == "bank"
    assert parse_question("Who is Odalys with now?").attribute == "partner"
    assert parse_question("Who was Odalys going out with before Remy?").attribute == "partner"


def test_following_as_the_verb_of_a_progressive_is_no_after() -> None:
    assert parse_question("Which diet is Odalys following at the moment?").operator == "now"
    assert parse_question("Which diet did Odalys pick following the juice cleanse?").operator == "after"
    assert parse_question("Who was Odalys's landlord following the flood?").operator == "after"


def test_a_value_replaced_is_first_mentioned_with_its_capitals() -> None:
    # "Work" opening the statement of the new laptop is no value whose first mention "to work" is
    rows = [
        _row(1, 2, "Odalys bought a Lumo Air 13.", "Lumo Air 13", attribute="device", value="Lumo Air 13",
             subject="odalys"),
        _row(2, 6, "Odalys loves taking the tram across the river to work."),
        _row(3, 10, "Work gave Odalys a new laptop, a Lumo Pro 15, so the Lumo Air is retired.", "Work", "Lumo Pro 15",
             attribute="device", value="Lumo Pro 15", subject="odalys"),
    ]  # fmt: skip
    assert _answer(rows, "What laptop did Odalys use before the Lumo Pro?") == 1


def test_a_titled_person_is_no_kind_one_joins() -> None:
    assert other_kind("Dr. Okafor", "running_club") and other_kind("Dr. Okafor", "choir")
    assert not other_kind("Dr. Okafor", "dentist") and not other_kind("Dr. Okafor", "physiotherapist")


def test_a_person_opening_a_statement_does_its_verb_though_no_entity_names_them() -> None:
    # "Ximena" opens the sentence, so the extractor lists no entity for her: the statement is hers
    row = _row(5, 3, "Ximena quit the choir, by the way, she says there's no time.")
    assert row["entities"] == [ME]
    assert other_doer(row, ME) and not other_doer(_row(6, 3, "Odalys quit the choir, no time."), ME)


def test_when_did_i_leave_asks_for_the_statement_of_leaving() -> None:
    rows = [
        _row(1, 2, "Odalys joined the Larkspur Singers, Tuesday nights.", "Larkspur Singers", attribute="membership",
             value="Larkspur Singers", subject="odalys"),
        _row(2, 5, "Odalys is thinking of leaving the Larkspur Singers after the summer.", "Larkspur Singers"),
        _row(3, 9, "Odalys did leave the Larkspur Singers in the end, a lovely last concert.", "Larkspur Singers"),
    ]  # fmt: skip
    assert _answer(rows, "When did Odalys leave the Larkspur Singers?") == 3
    assert _answer(rows, "When did Odalys join the Larkspur Singers?") == 1
