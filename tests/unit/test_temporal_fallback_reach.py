"""The loose plan (ADR 0057) when the write side filed nothing (ADR 0100), in sentences of my own:
a statement that names the subject by relation ("Odile's flatmate Quincy ...") is the subject's own
when asked of them; an end of the anchor is no later state; and a before / after that the
question's own words leave unanswered reads the words of the anchor's statement."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from support.temporal_answers import answered

from memforest.retrieval.temporal.loose import holds, loose_plan
from memforest.retrieval.temporal.parse import TemporalQuestion
from tests.support.fact_rows import row_at


def _row(fid: int, year: int, month: int, text: str) -> dict[str, Any]:
    return row_at(fid, datetime(year, month, 1, tzinfo=UTC), text)


def _answer(
    rows: list[dict[str, Any]], tq: TemporalQuestion, subject: str, aliases: tuple[str, ...] = ()
) -> int | None:
    plan = loose_plan(tq, subject, rows, None, {}, aliases)
    return answered(plan)


FLATMATE = [
    _row(1, 2020, 3, "Odile's flatmate Quincy practises judo at Ironbark Dojo."),
    _row(2, 2022, 5, "Odile's flatmate Quincy moved his judo classes to Saltpan Dojo."),
]


def test_a_statement_naming_the_subject_by_relation_holds_for_the_subject() -> None:
    tq = TemporalQuestion("now", None, ("Quincy",), terms=("judo",))
    assert _answer(FLATMATE, tq, "Quincy") == 2
    assert _answer(FLATMATE, tq, "Odile's flatmate", ("Quincy",)) == 2  # (the relation, named by its alias)
    # another person's relative is still not the subject's state
    assert _answer(FLATMATE, TemporalQuestion("now", None, ("Odile",), terms=("judo",)), "Odile") is None
    assert holds(FLATMATE[0]["text"], ("Quincy",)) and not holds(FLATMATE[0]["text"], ("Odile",))


def test_an_end_of_the_anchor_is_no_state_after_it() -> None:
    rows = [
        _row(1, 2020, 3, "Quincy trains judo at Ironbark Dojo."),
        _row(2, 2021, 3, "Quincy no longer trains at Ironbark Dojo."),
        _row(3, 2021, 9, "Quincy trains judo at Saltpan Dojo on Fridays."),
    ]
    tq = TemporalQuestion("after", None, ("Quincy", "Ironbark Dojo"), "Ironbark Dojo", terms=("train", "judo"))
    assert _answer(rows, tq, "Quincy") == 3


def test_a_before_unanswered_by_the_question_words_reads_the_anchor_statement() -> None:
    rows = [
        _row(1, 2019, 5, "Quincy is a paying member of Harrowgate Grapplers."),
        _row(2, 2019, 11, "Quincy had lunch with Marguerite at Pellow Cafe."),
        _row(3, 2020, 6, "Quincy is a paying member of Saltpan Dojo, judo twice a week."),
    ]
    tq = TemporalQuestion("before", None, ("Quincy", "Saltpan Dojo"), "Saltpan Dojo", terms=("judo",))
    assert _answer(rows, tq, "Quincy") == 1
    # the question's own words answer first: a statement sharing them is never passed over
    rows.insert(1, _row(4, 2019, 8, "Quincy tried judo at Ironbark Dojo."))
    assert _answer(rows, tq, "Quincy") == 4


def test_a_remark_naming_the_subject_is_taken_on_shared_words_only() -> None:
    # another speaker's remark that names the subject (3) shares no word with the question: the
    # similarity tier reads the subject's own statements only
    rows = [
        _row(1, 2021, 2, "Quincy trains judo at Ironbark Dojo."),
        _row(2, 2022, 4, "Quincy rents a flat above Pellow Cafe."),
        _row(3, 2023, 6, "Show Marguerite the photos when Quincy can."),
    ]
    tq = TemporalQuestion("now", None, ("Quincy",), terms=("birthday",))
    hints = {1: 0.30, 2: 0.31, 3: 0.33}
    plan = loose_plan(tq, "Quincy", rows, None, hints, (), {3})
    assert answered(plan) == 2
    # shared words still admit it
    tq = TemporalQuestion("now", None, ("Quincy",), terms=("photo",))
    plan = loose_plan(tq, "Quincy", rows, None, hints, (), {3})
    assert answered(plan) == 3
