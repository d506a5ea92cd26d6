"""What is taken up as another thing is left is of its kind; a person asked about by title and
surname is found under the full name they were told by; a parent's word used as a name is the
speaker's parent. Sentences and names of my own."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from support.states import held_slots as held

from memforest.retrieval.temporal.chains import link_generic
from memforest.retrieval.temporal.parse import parse_question
from memforest.retrieval.temporal.pick import in_full, titled_surname
from tests.support.fact_rows import own_state_row
from tests.support.temporal_answers import answer_of

ME = "Ilse"
NOW = datetime(2024, 12, 1, 12, tzinfo=UTC)


@pytest.mark.parametrize(
    ("later", "label"),
    [
        ("Ilse has stepped away from Marrow Lane and started a duo called Tin Kite.", "membership"),
        ("Ilse quit Marrow Lane, and Ilse has formed a trio called Tin Kite.", "membership"),
        ("Marrow Lane closed down in May, so Tin Kite is Ilse's Friday thing now.", "membership"),
    ],
)
def test_a_kind_told_once_as_another_is_left_continues_its_chain(later: str, label: str) -> None:
    texts = ["Ilse joined Marrow Lane.", later]
    assert link_generic(["membership", "duo"], ["Marrow Lane", "Tin Kite"], texts)[1] == label


def test_what_is_taken_up_keeps_its_kind_when_that_is_of_another_family() -> None:
    # a class is joined, an employer is none: quitting a job for classes is no new job
    texts = ["Ilse works at Corran Works.", "Ilse quit Corran Works and started pottery classes at Kiln Row."]
    assert link_generic(["employer", "pottery_class"], ["Corran Works", "Kiln Row"], texts)[1] == "pottery_class"


def test_a_kind_told_more_than_once_or_named_links_by_leaving_no_more_than_before() -> None:
    texts = ["Ilse joined Marrow Lane.", "Ilse left Marrow Lane for a duo called Tin Kite.", "The duo Tin Kite rocks."]
    labels = link_generic(["membership", "duo", "duo"], ["Marrow Lane", "Tin Kite", "Tin Kite"], texts)
    assert labels[1:] == ["duo", "duo"]
    # merely naming the value left, with no verb of leaving, links nothing
    named = ["Ilse joined Marrow Lane.", "Ilse saw Marrow Lane play, then started a duo called Tin Kite."]
    assert link_generic(["membership", "duo"], ["Marrow Lane", "Tin Kite"], named)[1] == "duo"


def test_the_band_taken_up_answers_which_band_now() -> None:
    rows = [
        own_state_row(1, 1, "Ilse is now the bassist in Marrow Lane.", ME, "membership", "Marrow Lane"),
        own_state_row(
            2, 8, "Ilse has stepped away from Marrow Lane and started a duo called Tin Kite.", ME, "duo", "Tin Kite"
        ),
    ]
    assert answer_of(rows, "What band am I in these days?", ME, NOW) == 2


def test_a_place_in_a_band_is_a_membership() -> None:
    assert ("Mia", "membership", "Marrow Lane") in held("I'm now the bassist in Marrow Lane.")
    assert ("Mia", "membership", "Dunhollow Athletic") in held("I'm a keeper for Dunhollow Athletic.")
    assert not held("I'm a tennis player in Leeds.")


def test_a_titled_surname_is_found_under_the_full_name_told() -> None:
    texts = ["Ilse saw the nurse.", "Ilse switched her GP to Dr. Maren Tolle at Brookfield Health."]
    assert in_full("Dr. Tolle", texts) == "Dr. Maren Tolle"
    assert in_full("Dr Tolle", texts) == "Dr. Maren Tolle"
    assert in_full("Dr. Tolle", ["Ilse met Dr. Maren Olsen."]) == "Dr. Tolle"  # (another surname)
    assert in_full("Tolle", texts) == "Tolle"  # (no title: a name of its own)
    assert titled_surname("Dr. Tolle") == "Tolle"
    assert titled_surname("Brookfield Health") is None


def test_a_parents_word_used_as_a_name_is_the_speakers_parent() -> None:
    assert ("Mia's mum", "residence", "Larch House") in held("Mum finally moved into Larch House last week.")
    assert ("Mia's dad", "residence", "Fenwick") in held("Dad moved to Fenwick in March.")
    # a name that is no parent's word stays the name
    assert ("Momo", "residence", "Fenwick") in held("Momo moved to Fenwick in March.")


def test_me_before_a_name_is_the_asker_apart_from_that_name() -> None:
    asked = parse_question("As of May 2022, who was teaching me Portuguese?", speaker=ME, now=NOW)
    assert ME in asked.names and "Portuguese" in asked.names
    # a full name asked about stays whole, whoever shares its first name
    assert "Ilse Varga" in parse_question("Where did Ilse Varga live?", speaker=ME, now=NOW).names
