"""Readings met in a blind-written world: "right now" ends the asked noun, a leading "because ..."
clause's subject is not the main clause's, an ongoing doing in the present perfect uses a place, and
a group named by its head noun answers for a kind one joins when the statement names the kind's
activity. Sentences and names of my own."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from support.states import speaker_slots
from support.temporal_answers import answered

from memforest.retrieval.temporal.parse import parse_question
from memforest.retrieval.temporal.plan import plan_answer
from memforest.retrieval.timecues import parse_time_cues
from tests.support.fact_rows import named_row

NOW = datetime(2026, 6, 15, 12, tzinfo=UTC)


def test_right_now_and_just_now_end_the_asked_noun() -> None:
    assert parse_question("who's my osteopath right now?").attribute == "osteopath"
    assert parse_question("Which choir am I in just now?").attribute == "choir"


def test_a_leading_because_clause_names_no_subject_of_the_main_clause() -> None:
    text = "Because Tessellate meets out in Dunmore now, I've left them and joined the Quire Circle."
    assert ("Mia", "membership", "Quire Circle") in speaker_slots(text)


def test_an_ongoing_doing_in_the_present_perfect_uses_the_place() -> None:
    assert ("Mia", "patronage", "Larkhill Paddlers") in speaker_slots(
        "Since June, I've been paddling with the Larkhill Paddlers."
    )
    assert not [s for s in speaker_slots("I've been talking with Orrin Bank about a loan.") if s[1]]


def _row(fid: int, year: int, text: str, attribute: str, value: str) -> dict[str, Any]:
    return named_row(
        fid, datetime(year, 3, 1, tzinfo=UTC), text, "Petra", attribute, value, speaker="Petra", subject="Petra"
    )


def _answer(question: str, rows: list[dict[str, Any]]) -> int | None:
    cues = parse_time_cues(question, NOW)
    tq = parse_question(question, speaker="Petra", now=NOW, window=(cues.after, cues.before))
    return answered(plan_answer(tq, "Petra", rows))


def test_a_group_joined_by_its_head_noun_answers_for_the_kind_its_statement_does() -> None:
    rows = [
        _row(1, 2021, "Petra joined Fenmoor Running Club.", "running_club", "Fenmoor Running Club"),
        _row(2, 2023, "Petra has been running with the Owlet Run Crew.", "patronage", "Owlet Run Crew"),
        _row(3, 2024, "Petra has been drinking with the Owlet Pub Crew.", "patronage", "Owlet Pub Crew"),
    ]
    assert _answer("Which running club am I in now?", rows) == 2


def test_a_practitioner_one_started_seeing_is_named_in_apposition() -> None:
    assert ("Mia", "osteopath", "Dr. Kestell") in speaker_slots(
        "Started seeing an osteopath, Dr. Kestell, for my back a few weeks ago."
    )
    assert ("Mia", "counsellor", "Bryony Adair") in speaker_slots(
        "I started seeing a counsellor last month - Bryony Adair, she works online."
    )
    assert not [s for s in speaker_slots("I saw a doctor, Dr Quell, about my wrist yesterday.") if s[1]]


def test_a_heading_before_a_colon_names_no_subject() -> None:
    text = "Renewal time: I've moved my home insurance from Calder Mutual to Wrenfold Insurance."
    assert [s[0] for s in speaker_slots(text) if s[1]] == ["Mia"]


def test_a_general_head_noun_lets_the_word_before_it_tell_the_kind() -> None:
    from memforest.retrieval.temporal.chains import other_kind

    assert other_kind("Pellory Health Centre", "book_club")
    assert not other_kind("Pellory Leisure Centre", "gym")


def test_the_anchors_chain_joins_without_values_of_another_kind() -> None:
    rows = [
        _row(1, 2020, "Petra registered with Dr Aske.", "membership", "Dr Aske"),
        _row(2, 2021, "Petra hosts the Quillon Readers, her book club.", "book_club", "Quillon Readers"),
        _row(3, 2022, "Petra left Quillon Readers.", "membership", "Quillon Readers"),
        _row(4, 2023, "Petra registered at Pellory Health Centre.", "membership", "Pellory Health Centre"),
        _row(5, 2024, "Petra joined the Tamsin Readers.", "membership", "Tamsin Readers"),
    ]
    assert _answer("Which book club did I join after leaving Quillon Readers?", rows) == 5


def test_a_supply_one_is_on_is_named_by_what_it_supplies() -> None:
    assert ("Mia", "patronage", "Larkwire Mobile") in speaker_slots("I'm on Larkwire Mobile and the signal is awful.")
    assert not [s for s in speaker_slots("I'm on the Quarry Line every morning.") if s[1]]
