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


def test_a_venture_taken_up_as_a_job_is_left_is_the_work_now() -> None:
    texts = ["Ilse works at Corran Works.", "Ilse quit Corran Works and launched a food truck called the Salt Wagon."]
    assert link_generic(["employer", "food_truck"], ["Corran Works", "Salt Wagon"], texts)[1] == "employer"


@pytest.mark.parametrize(
    ("first", "later", "labels", "values"),
    [
        # quitting a job for classes is no new job
        ("Ilse works at Corran Works.", "Ilse quit Corran Works and started pottery classes at Kiln Row.",
         ["employer", "pottery_class"], ["Corran Works", "Kiln Row"]),
        # a partner, a home or a bank left for a new thing keeps its chain
        ("Ilse is dating Bo.", "Ilse left Bo and started a blog called Solo Days.",
         ["partner", "blog"], ["Bo", "Solo Days"]),
        ("Ilse moved to Ardee.", "Ilse left Ardee at dawn and launched a podcast called Night Drift.",
         ["residence", "podcast"], ["Ardee", "Night Drift"]),
        ("Ilse banks with Fenmoor Bank.", "Ilse quit Fenmoor Bank and found a pub called the Crown.",
         ["bank", "pub"], ["Fenmoor Bank", "Crown"]),
    ],
)  # fmt: skip
def test_only_a_group_left_passes_its_chain_to_what_is_taken_up(
    first: str, later: str, labels: list[str], values: list[str]
) -> None:
    assert link_generic(labels, values, [first, later]) == labels


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
    assert not held("I'm the youngest player in Scotland.")
    assert not held("Ilse is the keeper of the Harlow Archive.", speaker="Ilse")


def test_a_titled_surname_is_found_under_the_full_name_told() -> None:
    texts = ["Ilse saw the nurse.", "Ilse switched her GP to Dr. Maren Tolle at Brookfield Health."]
    assert in_full("Dr. Tolle", texts) == "Dr. Maren Tolle"
    assert in_full("Dr Tolle", texts) == "Dr. Maren Tolle"
    assert in_full("Dr. Tolle", ["Ilse met Dr. Maren Olsen."]) == "Dr. Tolle"  # (another surname)
    assert in_full("Doctor Tolle", texts) == "Dr. Maren Tolle"  # (another spelling of the title)
    # the words between are a first name, capitalised; a short form told as asked is kept
    assert in_full("Dr. Tolle", ["Ilse saw Dr. Quay with Tolle at the clinic."]) == "Dr. Tolle"
    assert in_full("Dr. Tolle", ["Ilse met Dr. Quay and Tolle.", "Ilse switched to Dr. Tolle."]) == "Dr. Tolle"
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
