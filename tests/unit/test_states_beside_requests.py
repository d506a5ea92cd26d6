"""States an agent's user tells on the way to asking for something (issue 48): a wish or need after
"and" leaves the state before it stated, and its time in the past; a verb of leaving in another
clause, or one the value follows as what came instead, leaves no value; a practitioner or a group
named at a provider; a year or class of a school; an interjection names no one. The sentences are
mine, none a benchmark template's."""

from __future__ import annotations

from datetime import datetime

import pytest
from support.states import SAID_AT, speaker_slots

from memforest.domain import CellTurn, CellView, FactKind
from memforest.text.clauses import mood_tail
from memforest.text.dates import resolve_time_expressions
from memforest.text.extractor import extract_cell
from memforest.text.mood import leaves


def _only(text: str, speaker: str = "Mia") -> tuple[FactKind, tuple[str | None, str | None, str | None], datetime]:
    view = CellView("s", SAID_AT, (CellTurn(0, speaker, text, SAID_AT),))
    (c,) = extract_cell(view)
    return c.kind, (c.subject, c.attribute, c.value), c.valid_from


def test_a_wish_after_and_leaves_the_state_before_it_stated() -> None:
    kind, slot, since = _only("I just started at Corbel Surveys on Monday and want to ask about the car park.")
    assert kind is FactKind.EVENT and slot == ("Mia", "employer", "Corbel Surveys")
    assert since.date().isoformat() == "2023-05-08"  # the Monday before, not the one after


@pytest.mark.parametrize(
    ("sentence", "cut"),
    [
        ("I moved to Harrowgate in May and need a plumber", "I moved to Harrowgate in May"),
        ("I'm with Nettle Mobile but thinking of leaving them", "I'm with Nettle Mobile"),
        ("We adopted a whippet, and really hope to train her", "We adopted a whippet"),
    ],
)
def test_where_a_state_runs_on_into_a_wish(sentence: str, cut: str) -> None:
    at = mood_tail(sentence)
    assert at is not None and sentence[:at] == cut


@pytest.mark.parametrize("sentence", ["I want to move to Harrowgate", "Go and want it", "I went to Leeds and Oslo"])
def test_no_wish_after_a_statement(sentence: str) -> None:
    assert mood_tail(sentence) is None


@pytest.mark.parametrize(
    ("text", "told", "expected"),
    [
        ("I started at Corbel on Friday and want to say hello.", "Friday", "2023-05-05"),
        ("I'll move to Harrowgate on Friday, I've decided.", "Friday", "2023-05-12"),
        ("On Friday, I started at Corbel.", "Friday", "2023-05-05"),
    ],
)
def test_a_weekday_takes_the_tense_of_its_clause(text: str, told: str, expected: str) -> None:
    # (said on Wednesday 10 May 2023)
    (mention,) = [m for m in resolve_time_expressions(text, SAID_AT) if told in m.text]
    assert mention.start.date().isoformat() == expected


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Mia moved out of the old town to Brackwater.", "Brackwater"),
        ("Mia quit Tolley Print and joined Arkwright Press.", "Arkwright Press"),
        ("Mia left the Redhill choir for the Orla Singers.", "Orla Singers"),
        ("Mia left Pennock Bank after they shut the branch, and she banks with Hollis Mutual now.", "Hollis Mutual"),
        ("Mia retired from the council in March and she has joined the Vale bowls club.", "Vale bowls club"),
    ],
)
def test_what_came_instead_is_not_left(text: str, value: str) -> None:
    assert not leaves(text, text.index(value))


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Mia moved out of Brackwater in June.", "Brackwater"),
        ("Mia quit Tolley Print last week.", "Tolley Print"),
        ("The lease on Mia's flat on Ottery Lane ended.", "Ottery Lane"),
        ("The Vexa kept crashing, so Mia binned it.", "Vexa"),
    ],
)
def test_what_was_left_is_still_left(text: str, value: str) -> None:
    assert leaves(text, text.index(value))


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("My GP at Harlow Lane Surgery wants a blood test.", ("Mia", "doctor", "Harlow Lane Surgery")),
        ("My book club at Quill & Ink picked a thriller again.", ("Mia", "book_club", "Quill & Ink")),
        ("My dad's choir at St Bede's sang on Sunday.", ("Mia's dad", "choir", "St Bede's")),
        # a former group, or one that has ended, is no one's now
        ("My old book club at Quill & Ink was fun.", (None, None, None)),
        ("My pottery class at Claywell Studio finished in May.", (None, None, None)),
    ],
)
def test_a_practitioner_or_a_group_at_a_provider(text: str, slot: tuple[str | None, str | None, str | None]) -> None:
    assert speaker_slots(text) == [slot]


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("I'm a second year at Drummond Polytechnic.", ("Mia", "school", "Drummond Polytechnic")),
        ("My son Teo is in Year 4 at Larkfield Primary.", ("Teo", "school", "Larkfield Primary")),
        ("Teo is a pupil at Fenwick Academy.", ("Teo", "school", "Fenwick Academy")),
    ],
)
def test_a_year_of_a_school(text: str, slot: tuple[str, str, str]) -> None:
    assert speaker_slots(text) == [slot]


def test_an_interjection_names_no_one() -> None:
    assert speaker_slots("Yo just signed with Harlow Town for the season.") == [("Mia", "employer", "Harlow Town")]


def test_no_joiner_is_left_on_a_name_after_its_clause_is_cut() -> None:
    assert speaker_slots("I'm a porter at Fenwick Infirmary and I need new shoes.") == [
        ("Mia", "employer", "Fenwick Infirmary"),
        ("Mia", "job", "porter"),
    ]
