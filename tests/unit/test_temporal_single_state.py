"""A question about a state told once (issue 48): how long it has held, what held while it held
when nothing of the asked kind is dated before it, a "with" that names whom one sings or trains
with, and an anchor named only in passing by a state of another kind (statements and names of my own)."""

from __future__ import annotations

from datetime import UTC, datetime

from memforest.retrieval.question import Question
from memforest.retrieval.temporal.asked_attribute import attribute_of
from memforest.retrieval.temporal.plan import plan_answer
from tests.support.fact_rows import fact_row, own_state_row
from tests.support.temporal_answers import answer_of, answered

ME = "Zephyrine"
NOW = datetime(2026, 3, 1, tzinfo=UTC)


def _own(fid: int, month: int, text: str, attribute: str | None = None, value: str | None = None) -> dict[str, object]:
    return own_state_row(fid, month, text, ME, attribute, value)


def test_how_long_a_state_told_once_has_held_is_answered_by_its_start() -> None:
    rows = [
        _own(1, 2, "Zephyrine joined the Oxbarrow Glee Society last week.", "membership", "Oxbarrow Glee Society"),
        _own(2, 5, "Zephyrine's flat on Quenby Row is freezing.", None, None),
    ]
    assert answer_of(rows, "How long did I sing with the Oxbarrow Glee Society?", ME, NOW) == 1


def test_a_with_of_what_one_does_is_no_partner() -> None:
    assert attribute_of("How long did I sing with the Oxbarrow Glee Society?") != "partner"
    assert attribute_of("Who do I train with these days?") != "partner"
    # being, living or ending up with someone is
    assert attribute_of("Who was I with before Osgood?") == "partner"
    assert attribute_of("Who did Marisol end up with?") == "partner"


def test_while_a_state_holds_still_the_first_of_the_asked_kind_told_since_answers() -> None:
    """The choir is joined in February and never left; the mother's work is first told in March
    ("where she has worked for years"): nothing of that kind is dated by February, so the first
    told while the choir held answers."""
    mine = [_own(1, 2, "Zephyrine joined the Oxbarrow Glee Society.", "membership", "Oxbarrow Glee Society")]
    mum = "Zephyrine's mum"
    hers = [
        fact_row(2, 3, "Zephyrine's mum has worked at Dunstaple Archive for years.", ME, subject=mum.casefold(),
                 attribute="employer", value="Dunstaple Archive"),
    ]  # fmt: skip
    question = "Where did my mum work back when I was singing with the Oxbarrow Glee Society?"
    tq = Question.parse(question, now=NOW, has_as_of=False, speaker=ME).temporal
    assert tq.during == "Oxbarrow Glee Society"
    assert answered(plan_answer(tq, mum, hers, during_rows=mine)) == 2


def test_a_place_named_in_passing_by_another_kind_of_state_is_no_anchor_of_the_asked_kind() -> None:
    """Vexbridge is named only by the state of a cat; the question asks where she moved after it."""
    sister = "Zephyrine's sister"
    rows = [
        fact_row(1, 2, "She lives in Vexbridge and has a cat named Zuzu.", ME, subject=sister.casefold(),
                 attribute="pet", value="Zuzu"),
        fact_row(2, 6, "Zephyrine's sister moved out of Vexbridge.", ME, subject=sister.casefold()),
    ]  # fmt: skip
    tq = Question.parse("Where did my sister move after Vexbridge?", now=NOW, has_as_of=False, speaker=ME).temporal
    plan = plan_answer(tq, sister, rows)
    assert plan is None or plan.attribute != "pet"


def test_a_banking_statement_is_no_mobile_network() -> None:
    rows = [
        _own(1, 2, "Zephyrine banks with Tobermory Thrift.", "patronage", "Tobermory Thrift"),
        _own(2, 4, "Zephyrine's Ylvane Mobile SIM arrived this morning.", None, None),
    ]
    assert answer_of(rows, "Which mobile network was I on in May 2024?", ME, NOW) != 1


def test_a_home_or_an_employer_named_studio_is_no_yoga_studio() -> None:
    rows = [
        _own(1, 1, "Zephyrine's new place is a studio.", "home_type", "studio"),
        _own(2, 2, "Zephyrine starts at Marrow Studio as a designer.", "employer", "Marrow Studio"),
        _own(3, 3, "Zephyrine joined Quince Yoga.", "membership", "Quince Yoga"),
    ]
    assert answer_of(rows, "Which yoga studio do I go to now?", ME, NOW) not in (1, 2)


def test_a_qualified_service_asked_finds_its_unqualified_chain() -> None:
    rows = [
        _own(1, 1, "Zephyrine started swimming at Orrin Lido.", "patronage", "Orrin Lido"),
        _own(2, 3, "Zephyrine switched her home insurance to Quellwood Mutual.", "insurance", "Quellwood Mutual"),
    ]
    assert answer_of(rows, "Who was my home insurer in May 2024?", ME, NOW) == 2
