"""The loose plan of a temporal question no attribute chain answers (``loose.loose_plan``, ADR
0057), in sentences of my own: the subject's statements that share a word with the question (or
name its anchor) in time order, and the operator answered on that list; and a state asked in the
present tense is asked for now (``parse_question``)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import pytest
from support.temporal_answers import answered

from memforest.retrieval.temporal.loose import loose_plan
from memforest.retrieval.temporal.parse import TemporalQuestion, parse_question, question_terms
from memforest.retrieval.temporal.plan import plan_answer
from tests.support.fact_rows import row_at

NOW = datetime(2025, 4, 1, tzinfo=UTC)


def _row(fid: int, year: int, month: int, text: str, subject: str | None = "Ysolde") -> dict[str, Any]:
    return row_at(fid, datetime(year, month, 1, tzinfo=UTC), text, subject=subject)


ROWS = [
    _row(1, 2020, 2, "Ysolde takes her oboe lessons with Bertrand Quayle on Mondays."),
    _row(2, 2020, 9, "Ysolde's allotment at Hobbs Meadow has the best rhubarb."),
    _row(3, 2021, 6, "Ysolde stopped the oboe lessons with Bertrand Quayle and now learns with Cressida Vane."),
    _row(4, 2022, 1, "Ysolde's friend Tamsin said Ysolde should try oboe with Dorrit Fell.", "Tamsin"),
    _row(5, 2022, 8, "Ysolde misses the oboe lessons with Bertrand Quayle."),
    _row(6, 2023, 3, "Ysolde's oboe teacher these days is Marguerite Osei at Lindqvist Hall."),
    _row(7, 2023, 9, "Ysolde went to a concert at Fenwick Hall."),
]


def _answer(tq: TemporalQuestion, hints: dict[int, float] | None = None) -> int | None:
    plan = loose_plan(tq, "Ysolde", ROWS, None, hints or {})
    return answered(plan)


def _tq(op: str, terms: tuple[str, ...], anchor: str | None = None, at: datetime | None = None) -> TemporalQuestion:
    return TemporalQuestion(op, "oboe_teacher", ("Ysolde",), anchor, terms=terms, at=at)


def test_now_is_the_latest_statement_that_shares_a_word_with_the_question() -> None:
    # the nostalgia (5) and another person's statement (4) are no state; the concert shares no word
    assert _answer(_tq("now", ("oboe", "teach"))) == 6


def test_as_of_is_the_latest_statement_at_the_time() -> None:
    assert _answer(_tq("as_of", ("oboe",), at=datetime(2022, 12, 1, tzinfo=UTC))) == 3
    assert _answer(_tq("as_of", ("oboe",), at=datetime(2021, 1, 1, tzinfo=UTC))) == 1
    assert _answer(_tq("as_of", ("oboe",), at=datetime(2019, 1, 1, tzinfo=UTC))) is None


def test_before_and_after_read_the_anchor_from_its_first_mention() -> None:
    assert _answer(_tq("before", ("oboe",), anchor="Cressida Vane")) == 1
    # a statement after the anchor's start that names something besides the anchor comes after it
    assert _answer(_tq("after", ("oboe",), anchor="Bertrand Quayle")) == 3
    assert _answer(_tq("after", ("oboe",), anchor="Cressida Vane")) == 6


def test_counting_back_steps_down_the_list() -> None:
    assert _answer(TemporalQuestion("latest", "oboe_teacher", ("Ysolde",), back=1, terms=("oboe",))) == 3


def test_no_shared_word_falls_back_to_the_most_similar_statements() -> None:
    hints = {1: 0.61, 3: 0.63, 6: 0.64, 7: 0.30, 2: 0.20}
    assert _answer(_tq("now", ("tutor",)), hints) == 6
    assert _answer(_tq("now", ("tutor",))) is None  # nothing similar known: no plan


CELLO = [
    _row(11, 2020, 3, "Ysolde takes cello lessons with Anna Berg."),
    _row(12, 2022, 5, "Ysolde stopped her cello lessons with Anna Berg and no longer plays."),
    _row(13, 2023, 2, "Ysolde would love cello lessons with Clara Holm one day."),
    _row(14, 2024, 6, "Ysolde hates the cello lessons Greta Lind gave her sister Nora."),
]


def _cello(op: str, rows: list[dict[str, Any]], at: datetime | None = None) -> int | None:
    tq = TemporalQuestion(op, "cello_teacher", ("Ysolde",), None, terms=("cello", "teach"), at=at)
    plan = loose_plan(tq, "Ysolde", rows, None, {})
    return answered(plan)


def test_now_is_no_state_that_ended_nor_a_relatives_state() -> None:
    # the end (12), the wish (13) and the sister's teacher (14) tell no teacher of Ysolde's now,
    # and the 2020 teacher is known to have ended: no plan
    assert _cello("now", CELLO) is None
    assert _cello("now", CELLO[:2]) is None
    assert _cello("as_of", CELLO, at=datetime(2021, 1, 1, tzinfo=UTC)) == 11
    assert _cello("now", [CELLO[0], CELLO[3]]) == 11
    # a new state after the end still holds
    assert _answer(_tq("as_of", ("oboe",), at=datetime(2022, 12, 1, tzinfo=UTC))) == 3


def test_operators_it_does_not_answer_give_no_plan() -> None:
    assert _answer(_tq("how_long", ("oboe",))) is None


def test_when_is_the_first_statement_naming_the_value_with_no_mood() -> None:
    assert _answer(_tq("when", ("oboe",), anchor="Cressida Vane")) == 3
    # the suggestion that names Dorrit Fell first is no start; a short form of the name counts
    told = [*ROWS, _row(8, 2024, 2, "Ysolde started oboe with Dorrit Fell today.")]
    plan = loose_plan(_tq("when", ("oboe",), anchor="Dorrit Fell Quartet"), "Ysolde", told, None, {})
    assert answered(plan) == 8
    assert answered(loose_plan(_tq("when", ("oboe",), anchor="Dorrit Fell"), "Ysolde", told, None, {})) == 8


@pytest.mark.parametrize(
    ("question", "operator"),
    [
        ("Which bakery am I with?", "now"),
        ("Who is Ysolde's oboe teacher?", "now"),
        ("Where does Ysolde keep her allotment?", "now"),
        ("Who cuts my hair nowadays?", "now"),
        ("Who was Ysolde's oboe teacher?", None),  # past tense: no time asked
        ("Who did Ysolde learn the oboe with?", None),
        ("What does Ysolde like?", None),  # no asked state
    ],
)
def test_a_state_asked_in_the_present_tense_is_asked_for_now(question: str, operator: str | None) -> None:
    assert parse_question(question, speaker="Ysolde", now=NOW).operator == operator


def test_question_terms_are_what_it_asks_about() -> None:
    assert question_terms("Who teaches Ysolde the oboe these days?", ("Ysolde",)) == ("teach", "oboe")
    # the one who does the work asked after is its worker's kind, as "who did my hair?" (ADR 0155)
    assert parse_question("Who cuts my hair nowadays?", speaker="Ysolde", now=NOW).attribute == "hairdresser"
    assert question_terms("Who cuts my hair nowadays?", ("Ysolde",)) == ("cut", "hair")


def test_a_now_read_from_the_tense_takes_only_the_kinds_own_chain() -> None:
    def slot(fid: int, year: int, text: str, attribute: str, value: str) -> dict[str, Any]:
        return {**_row(fid, year, 1, text), "attribute": attribute, "value": value, "entities": ["Ysolde", value]}

    rows = [
        slot(1, 2021, "Ysolde joined Pemberley Rowing Club.", "membership", "Pemberley Rowing Club"),
        slot(2, 2022, "Ysolde left Pemberley Rowing Club for Quarrington Scullers.", "change", "Quarrington Scullers"),
    ]
    named = TemporalQuestion("now", "bank", ("Ysolde",), noun="bank")
    # "which bank is Ysolde with now?" may be read from a verb class's chain; "which bank is
    # Ysolde with?" names no time, so a chain of another kind never answers it
    assert plan_answer(named, "Ysolde", rows) is not None
    assert plan_answer(replace(named, implied=True), "Ysolde", rows) is None
    assert parse_question("Which bank is Ysolde with?", now=NOW).implied
    assert not parse_question("Which bank is Ysolde with now?", now=NOW).implied


def test_a_now_read_from_the_tense_gets_no_loose_plan() -> None:
    assert _answer(replace(_tq("now", ("oboe", "teach")), implied=True)) is None


def test_the_anchor_starts_at_its_first_mention_with_no_mood() -> None:
    rows = [
        _row(21, 2020, 3, "Ysolde takes cello lessons with Anna Berg."),
        _row(22, 2022, 2, "Ysolde would love cello lessons with Clara Holm someday."),
        _row(23, 2023, 4, "Ysolde took cello lessons with Piet Moor all year."),
        _row(24, 2024, 5, "Ysolde learns cello with Clara Holm now."),
    ]
    tq = TemporalQuestion("before", "cello_teacher", ("Ysolde",), "Clara Holm", terms=("cello",))
    plan = loose_plan(tq, "Ysolde", rows, None, {})
    assert plan is not None and plan.roles.get(23) == "answer"  # the wish (22) starts nothing


def test_another_named_persons_kind_is_none_of_the_subjects_states() -> None:
    rows = [
        *ROWS[:3],
        _row(8, 2024, 2, "Cressida's new oboe teacher at Gullet Row is Wystan Pell.", None),
    ]
    plan = loose_plan(_tq("now", ("oboe", "teach")), "Ysolde", rows, None, {})
    assert answered(plan) == 3  # (Cressida's teacher is hers, not Ysolde's)
    mine = [*rows, _row(9, 2024, 5, "Ysolde's new oboe teacher at Gullet Row is Wystan Pell.", None)]
    assert answered(loose_plan(_tq("now", ("oboe", "teach")), "Ysolde", mine, None, {})) == 9


@pytest.mark.parametrize("word", ["pal", "mate", "buddy"])
def test_a_friend_by_a_casual_word_holds_their_own_state(word: str) -> None:
    rows = [*ROWS[:3], _row(8, 2024, 2, f"Ysolde's {word} Wystan takes oboe lessons with Ottilie Marsh now.", None)]
    assert answered(loose_plan(_tq("now", ("oboe",)), "Ysolde", rows, None, {})) == 3


def test_a_contraction_or_an_is_names_no_other_owner() -> None:
    rows = [*ROWS[:3], _row(8, 2024, 2, "It's a great oboe teacher Ysolde found in Wystan Pell.", None)]
    assert answered(loose_plan(_tq("now", ("oboe", "teach")), "Ysolde", rows, None, {})) == 8


def test_a_value_stated_in_a_plain_clause_of_a_sentence_with_a_mood_is_a_state() -> None:
    rows = [
        _row(1, 2021, 3, "Ysolde rows with Pellbrook Oars and says her cousin should have joined her there.", None),
        _row(2, 2022, 5, "Ysolde might switch to Garrow Scullers one day, maybe.", None),
        # the plan opens the sentence: a value told after it is no state of Ysolde's either
        _row(3, 2022, 6, "Maybe Ysolde will try rowing at Garrow Scullers, Brannoc says Lathe Oars is better.", None),
    ]
    tq = TemporalQuestion("as_of", "rowing_club", ("Ysolde",), terms=("row",), at=datetime(2022, 9, 1, tzinfo=UTC))
    # the suggestion is in another clause than Pellbrook Oars; the wish names its value in its own
    assert answered(loose_plan(tq, "Ysolde", rows, None, {})) == 1


def test_after_is_the_statement_that_names_the_anchor_and_a_new_value() -> None:
    rows = [
        _row(1, 2021, 2, "Ysolde swims at the Orrin Baths every morning.", None),
        _row(2, 2021, 5, "Brannoc drove Ysolde home from the pool in his old Tarrant 90.", None),
        _row(3, 2022, 3, "The Orrin Baths closed for repairs, so now Ysolde swims at Kestle Lido.", None),
    ]
    tq = TemporalQuestion("after", "pool", ("Ysolde",), "Orrin Baths", terms=("pool", "swim"))
    # the lift home in between names a value too, but not the pool that closed
    assert answered(loose_plan(tq, "Ysolde", rows, None, {})) == 3


def test_after_and_when_read_the_anchor_only_where_the_statement_tells_the_change() -> None:
    rows = [
        _row(1, 2021, 2, "Ysolde works at Acme Haulage.", None),
        _row(2, 2021, 9, "Ysolde started work at Corbel Mutual.", None),
        _row(3, 2022, 1, "Ysolde met her Acme Haulage workmates at the Crown Inn.", None),
    ]
    after = TemporalQuestion("after", "employer", ("Ysolde",), "Acme Haulage", terms=("work",))
    assert answered(loose_plan(after, "Ysolde", rows, None, {})) == 2  # (a meeting names no change)
    market = [_row(4, 2020, 5, "Ysolde liked the Saturday market on Castle Green.", None),
              _row(5, 2022, 3, "Ysolde started going to Castle Green Dental.", None)]  # fmt: skip
    when = TemporalQuestion("when", "dentist", ("Ysolde",), "Castle Green Dental", terms=("go",))
    assert answered(loose_plan(when, "Ysolde", market, None, {})) == 5  # (the whole name first)
