"""States counted back from the latest, and noun phrases that end at the question's verb, read from
a question's grammar (sentences of my own; no benchmark template, name or value): "my previous
accountant", "the landlord before last", "three flats ago"; a compound noun before an auxiliary
("which broadband deal did ..."). A time counted back is no step."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memforest.retrieval.temporal.asked import asked_noun, first_person, part_point, steps_back
from memforest.retrieval.temporal.parse import parse_question
from memforest.retrieval.temporal.plan import _answer_index, _runs
from memforest.retrieval.temporal.state import State
from tests.support.fact_rows import own_state_row
from tests.support.temporal_answers import answer_of

NOW = datetime(2026, 6, 15, 12, tzinfo=UTC)


@pytest.mark.parametrize(
    ("question", "back"),
    [
        ("Who was my previous accountant?", 1),
        ("What was Ilse's former allotment society?", 1),
        ("What was my old optician called?", 1),
        # the adjective is on the person, not on the thing asked
        ("Which choir did my old flatmate sing in?", 0),
        ("Who was the landlord before last?", 2),
        ("Which climbing wall was my last but one?", 2),
        ("Where did I live three flats ago?", 3),
        ("Which laptop did Bram use 2 laptops back?", 2),
        ("Where did I use to swim?", 1),
        ("Which band did Bram used to play in?", 1),
        # a time counted back, or "previous to" as a preposition, counts no state
        ("Where did I live two years ago?", 0),
        ("Which car did I drive the summer before last?", 0),
        ("Who was my dentist previous to Dr. Okonkwo-Brandt?", 0),
        ("Which cafe did I like in the old town?", 0),
        ("What is my current accountant?", 0),
        # a count of times (any unit, a feast) names a time, not states
        ("Where did Bram live two decades ago?", 0),
        ("Which office was Ilse in 3 hours ago?", 0),
        ("Which allotment did I rent two Christmases back?", 0),
        ("Who was my landlord a couple of fortnights ago?", 0),
        # states are counted only when the counted noun is the asked noun (or its plural)
        ("Which rowing club was I in two clubs ago?", 2),
        ("Which rowing club was I in two summers ago?", 0),
        ("Which allotment did I rent two landlords ago?", 0),
        # "use to" with an object after the verb asks for an instrument, not a past habit
        ("Which van did Bram use to move the piano?", 0),
        ("What knife did Ilse use to carve the roast?", 0),
        ("Which card did I use to book the ferry to Calais?", 0),
        ("Which studio was used to record the album?", 0),
        ("Who did I use to play squash with?", 1),
        ("Which bakery did Bram use to go to before the move?", 1),
        ("Where did I use to buy my bread?", 1),
    ],
)
def test_steps_back(question: str, back: int) -> None:
    asked = first_person(question, "Ilse")  # ("my" read as the asker's, as the read path does)
    assert steps_back(asked, asked_noun(asked)) == back


def test_a_counted_state_asks_for_the_latest_minus_its_steps() -> None:
    tq = parse_question("Who was my previous accountant?", speaker="Ilse", now=NOW)
    assert (tq.operator, tq.back, tq.noun) == ("latest", 1, "accountant")
    tq = parse_question("Where did Bram work two jobs ago?", speaker="Ilse", now=NOW)
    assert (tq.operator, tq.back) == ("latest", 2)
    # a named time wins over no step: "two years ago" stays an as-of point
    tq = parse_question("Where did Bram work two years ago?", speaker="Ilse", now=NOW)
    assert (tq.operator, tq.back) == ("as_of", 0)
    # a unit of time outside the short list is a time too, counted back from the question's time
    tq = parse_question("Where did Bram work two decades ago?", speaker="Ilse", now=NOW)
    assert (tq.operator, tq.back, tq.at) == ("as_of", 0, datetime(2006, 6, 15, 12, tzinfo=UTC))
    tq = parse_question("Which choir was Ilse in 5 hours ago?", speaker="Ilse", now=NOW)
    assert (tq.operator, tq.back, tq.at) == ("as_of", 0, datetime(2026, 6, 15, 7, tzinfo=UTC))
    # an instrument asked with "use to" counts no state
    tq = parse_question("Which kayak did Bram use to cross the lake?", speaker="Ilse", now=NOW)
    assert (tq.operator, tq.back) == (None, 0)


@pytest.mark.parametrize(
    "question",
    [
        "Which kayak did Bram paddle before this one?",
        "What kayak did I have before the current one?",
        "Which kayak club was Bram in before the one he goes to now?",
        "Which kayak did Bram own before his present kayak?",
        "Which kayak did Bram buy before the new one?",
    ],
)
def test_before_the_state_that_holds_now_asks_for_the_previous_one(question: str) -> None:
    tq = parse_question(question, speaker="Ilse", now=NOW)
    assert (tq.operator, tq.back, tq.anchor) == ("latest", 1, None)
    assert tq.noun is not None and tq.noun.startswith("kayak")


def test_a_name_that_reads_like_the_current_one_is_an_anchor() -> None:
    tq = parse_question("What did Bram do before the Current One tour?", speaker="Ilse", now=NOW)
    assert (tq.operator, tq.anchor) == ("before", "Current One")


@pytest.mark.parametrize(
    ("question", "noun"),
    [
        ("What was my very first kayak?", "kayak"),
        ("Which was Bram's very last allotment?", "allotment"),
        ("What's the most recent choir Bram joined?", "choir"),
        ("What's the first allotment Ilse rented?", "allotment"),
    ],
)
def test_the_noun_after_an_ordinal_and_after_whats_the(question: str, noun: str) -> None:
    assert asked_noun(first_person(question, "Ilse")) == noun


@pytest.mark.parametrize(
    ("question", "noun"),
    [
        ("Which broadband deal did I have before Zephyr?", "broadband deal"),
        ("Which reading group am I in now?", "reading group"),
        ("Which choir am I in these days?", "choir"),
        ("What savings plan was Bram on in 2021?", "savings plan"),
        ("What was Bram's previous savings plan?", "savings plan"),
        # a verb after the noun still ends it, as does an inflected verb at the end
        ("When did Bram's cat died?", "cat"),
        ("Which garage services my van these days?", "garage"),
    ],
)
def test_a_noun_phrase_ends_at_the_questions_verb(question: str, noun: str) -> None:
    assert asked_noun(question) == noun


def _state(i: int, value: str) -> State:
    return State(i, datetime(2020 + i, 1, 1, tzinfo=UTC), f"about {value}", value, True)


def test_a_short_form_of_a_name_is_no_change() -> None:
    runs = _runs([_state(0, "Tillbrook Analytics"), _state(1, "Tillbrook"), _state(2, "Harrow Labs")])
    assert [[s.fact_id for s in run] for run in runs] == [[0, 1], [2]]


def test_a_name_inside_a_longer_one_is_a_change_unless_it_keeps_the_first_word() -> None:
    for short, full in (("York", "New York"), ("Dunmere", "Port Dunmere"), ("Jersey", "New Jersey")):
        runs = _runs([_state(0, short), _state(1, full)])
        assert [[s.fact_id for s in run] for run in runs] == [[0], [1]]
    runs = _runs([_state(0, "the Quillon Works"), _state(1, "Quillon")])
    assert [[s.fact_id for s in run] for run in runs] == [[0, 1]]


def test_counting_back_past_the_first_known_state_pins_nothing() -> None:
    states = [_state(0, "Tillbrook Analytics"), _state(1, "Harrow Labs")]
    tq = parse_question("Where did Bram work three jobs ago?", speaker="Ilse", now=NOW)
    assert _answer_index(tq, states, None)[0] is None
    tq = parse_question("Where did Bram work one job ago?", speaker="Ilse", now=NOW)
    assert (tq.operator, tq.back) == ("latest", 1)
    assert _answer_index(tq, states, None)[0] == 0


@pytest.mark.parametrize(
    ("question", "day"),
    [
        ("Who was my landlord at the end of last year?", datetime(2025, 12, 1, tzinfo=UTC)),
        ("Which gym did Bram use early this year?", datetime(2026, 2, 15, tzinfo=UTC)),
        ("What phone did I have last Christmas?", datetime(2025, 12, 25, tzinfo=UTC)),
        ("Where was I living last Easter?", datetime(2026, 4, 8, tzinfo=UTC)),
        ("Which choir was Ilse in around Easter 2019?", datetime(2019, 4, 8, tzinfo=UTC)),
        # a quarter of a year: its middle
        ("Which bank was I with in the first quarter of 2024?", datetime(2024, 2, 15, tzinfo=UTC)),
        ("Where did Bram work in Q3 2023?", datetime(2023, 8, 15, tzinfo=UTC)),
        ("Who insured my van in Q2 of last year?", datetime(2025, 5, 15, tzinfo=UTC)),
        ("Where was Ilse living in the last quarter of 2022?", datetime(2022, 11, 15, tzinfo=UTC)),
        ("Which gym did Bram use in 2023 Q2?", datetime(2023, 5, 15, tzinfo=UTC)),
        ("Who was my landlord in the first quarter 2024?", datetime(2024, 2, 15, tzinfo=UTC)),
        ("What did I drive in the last quarter of an hour?", None),
    ],
)
def test_a_part_of_a_year_or_a_feast_is_a_point(question: str, day: datetime | None) -> None:
    assert part_point(question, NOW) == day


def test_a_quarter_of_a_year_is_asked_as_of_its_middle() -> None:
    """Ilse banked with Fernhill from January 2024 and with Corvane from May: the first quarter of
    2024 (middle 15 February) is Fernhill's, the year's middle would be Corvane's."""
    rows = [
        own_state_row(1, 1, "Ilse opened her account at Fernhill Bank.", "Ilse", "bank", "Fernhill Bank"),
        own_state_row(2, 5, "Ilse moved her account to Corvane.", "Ilse", "bank", "Corvane"),
    ]
    asked = datetime(2024, 12, 1, tzinfo=UTC)
    assert answer_of(rows, "Which bank was I with in the first quarter of 2024?", "Ilse", asked) == 1
    assert answer_of(rows, "Which bank was I with in Q3 2024?", "Ilse", asked) == 2
