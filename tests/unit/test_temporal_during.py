"""A "back when ..." clause in a question (issue 48 item 4): what the question asks about is named
outside the clause, the clause's own words name the kind of the state whose time is the as-of time,
and a place first named by its consequences holds from that mention until the next state of that
kind (item 5), ADR 0073. A "while ..." clause may name another person's state, whose time it takes
from their facts, and a main clause asking what changed then ("which club did I join") asks for the
change made while that state held (ADR 0108). The "back when I lived in X" clause is the grammar under test (the tune
split's anchor phrase has that shape too); the statements, the rest of the questions, the names and
the places are mine, none a benchmark template's."""

from __future__ import annotations

from datetime import UTC, datetime

from memforest.retrieval.question import Question
from memforest.retrieval.temporal.loose import loose_plan
from memforest.retrieval.temporal.parse import parse_question
from memforest.retrieval.temporal.plan import plan_answer
from tests.support.fact_rows import fact_row, own_state_row
from tests.support.temporal_answers import answer_of, answered

ME = "Ysolde"
NOW = datetime(2026, 3, 1, tzinfo=UTC)


def _row(fid: int, month: int, text: str, attribute: str | None = None, value: str | None = None) -> dict[str, object]:
    return own_state_row(fid, month, text, ME, attribute, value)


def _answer(rows: list[dict[str, object]], question: str) -> int | None:
    return answer_of(rows, question, ME, NOW)


def test_the_asked_kind_is_named_outside_the_clause() -> None:
    tq = parse_question("Who taught me the oboe back when I lived in Carrowmere?", speaker=ME, now=NOW)
    assert (tq.operator, tq.during, tq.during_kind) == ("as_of", "Carrowmere", "residence")
    assert tq.attribute != "residence"  # no question about a home
    tq = parse_question("Where did I live back when I worked at Pellucid Foundry?", speaker=ME, now=NOW)
    assert (tq.attribute, tq.during, tq.during_kind) == ("residence", "Pellucid Foundry", "employer")


RUNS = [
    _row(1, 1, "Ysolde signed up with Brackwater Striders for the Tuesday runs.", "membership", "Brackwater Striders"),
    _row(2, 3, "Ysolde's balcony in Vellmoor looks over the fish market.", None, None),
    _row(3, 5, "Ysolde now trains with Tolland Pacers instead of Brackwater Striders.", "membership", "Tolland Pacers"),
    _row(4, 9, "Ysolde unpacked the last crate in her flat in Dunmere.", "residence", "Dunmere"),
]


def test_a_home_named_by_its_consequences_holds_until_the_next_home() -> None:
    """Vellmoor is named only by "Ysolde's balcony in Vellmoor" (March); the move to Dunmere (September)
    ends it, so the running club of that time is the one joined in May, not the one of March."""
    assert _answer(RUNS, "Which running club was I in back when I lived in Vellmoor?") == 3


def test_a_wish_naming_the_place_first_is_no_start() -> None:
    """The first club ran January to August, the second August to November, and Vellmoor is lived in
    from July: the second club held most of that time. A January sentence that names Vellmoor as a
    home would make it January to November (the first club's); a January wish does not."""
    runs = [
        _row(
            1, 1, "Ysolde signed up with Brackwater Striders for the Tuesday runs.", "membership", "Brackwater Striders"
        ),
        _row(3, 7, "Ysolde's balcony in Vellmoor looks over the fish market."),
        _row(
            4,
            8,
            "Ysolde now trains with Tolland Pacers instead of Brackwater Striders.",
            "membership",
            "Tolland Pacers",
        ),
        _row(5, 11, "Ysolde unpacked the last crate in her flat in Dunmere.", "residence", "Dunmere"),
    ]
    asked = "Which running club was I in back when I lived in Vellmoor?"
    wish = _row(2, 1, "Ysolde hopes to rent a place in Vellmoor someday.")
    assert _answer([runs[0], wish, *runs[1:]], asked) == 4
    home = _row(2, 1, "Ysolde's kitchen in Vellmoor gets the morning sun.")
    assert _answer([runs[0], home, *runs[1:]], asked) == 1  # (the same place said as a home: the start moves)


def test_a_while_clause_names_its_holder_and_a_question_of_change() -> None:
    tq = parse_question("While Tomasz was working at Hollowell Forge, which choir did I join?", speaker=ME, now=NOW)
    assert (tq.during, tq.during_holder, tq.during_change) == ("Hollowell Forge", "Tomasz", True)
    assert tq.names[:2] == (ME, "Tomasz")  # ("While" opens the clause; it is no part of a name)
    assert tq.only_says_when("Tomasz") and not tq.only_says_when(ME)
    tq = parse_question("Which choir was I in back when I lived in Carrowmere?", speaker=ME, now=NOW)
    assert (tq.during, tq.during_change, tq.only_says_when(ME)) == ("Carrowmere", False, False)  # (the asker's own)
    tq = parse_question("Which choir did Tomasz join while I lived in Carrowmere?", speaker=ME, now=NOW)
    assert (tq.names[0], tq.during_holder, tq.only_says_when(ME)) == ("Tomasz", ME, True)


CHOIRS = [
    _row(1, 1, "Ysolde sings with the Brackwater Singers on Thursdays.", "membership", "Brackwater Singers"),
    _row(2, 3, "Ysolde signed up at Pellucid Gym near the station.", "gym", "Pellucid Gym"),
    _row(3, 11, "Ysolde joined the Tolland Chorale instead of the Brackwater.", "membership", "Tolland Chorale"),
    _row(4, 12, "Ysolde moved her membership to Quarry Fitness.", "gym", "Quarry Fitness"),
]


def test_a_change_asked_while_a_state_held_is_the_change_made_then() -> None:
    """Pellucid Gym held March to December; the choir held in its middle is the first one, but the
    question asks which was joined then: the November one."""
    assert _answer(CHOIRS, "While I was going to Pellucid Gym, which choir did I join?") == 3
    assert _answer(CHOIRS, "Which choir was I in while I was going to Pellucid Gym?") == 1


def test_a_while_clause_of_another_person_takes_its_time_from_their_state() -> None:
    """Tomasz worked at Hollowell Forge from February to September (his facts, not the asker's):
    the network switched to then is August's, not January's (held in the middle of his time)."""
    phones = [
        _row(1, 1, "Ysolde's phone runs on Fernhill Mobile.", "mobile_network", "Fernhill Mobile"),
        _row(2, 8, "Ysolde switched to Larkspur Mobile for the cheaper data.", "mobile_network", "Larkspur Mobile"),
        _row(3, 11, "Ysolde switched again, to Corvid Telecom.", "mobile_network", "Corvid Telecom"),
    ]
    tomasz = [
        fact_row(11, 2, "Tomasz started at Hollowell Forge.", ME, subject="tomasz", attribute="employer",
                 value="Hollowell Forge", entities=["Tomasz", "Hollowell Forge"]),
        fact_row(12, 9, "Tomasz left for Quayside Glass.", ME, subject="tomasz", attribute="employer",
                 value="Quayside Glass", entities=["Tomasz", "Quayside Glass"]),
    ]  # fmt: skip
    question = "While Tomasz was working at Hollowell Forge, which mobile network did I switch to?"
    tq = Question.parse(question, now=NOW, has_as_of=False, speaker=ME).temporal
    assert answered(plan_answer(tq, ME, phones, during_rows=tomasz)) == 2
    assert plan_answer(tq, ME, phones) is None  # (the asker's own facts never name the forge)


def test_a_habit_asked_while_a_state_held_asks_no_change() -> None:
    tq = parse_question("Where did I get my hair cut while I lived in Carrowmere?", speaker=ME, now=NOW)
    assert not tq.during_change
    tq = parse_question("Which phone did I get while I lived in Carrowmere?", speaker=ME, now=NOW)
    assert tq.during_change


def test_a_value_only_talked_of_holds_while_it_is_talked_of() -> None:
    """Pellucid Gym has no state, only mentions in March and April: a phone bought in November is
    no change made while it held (the phone held then, January's, answers)."""
    rows = [
        _row(1, 1, "Ysolde's phone is a Corvel 3.", "device", "Corvel 3"),
        _row(2, 3, "Ysolde did a spin class at Pellucid Gym, brutal."),
        _row(3, 4, "Pellucid Gym has a new sauna, Ysolde loves it."),
        _row(4, 11, "Ysolde bought a Corvel 5 phone on Friday.", "device", "Corvel 5"),
    ]
    assert _answer(rows, "Which phone did I buy while I was going to Pellucid Gym?") == 1


def test_a_clause_naming_a_place_by_a_common_noun_asks_as_of_the_time_it_is_told() -> None:
    tq = parse_question("While I was still at the tannery, who was my farrier?", speaker=ME, now=NOW)
    assert (tq.during, tq.during_holder) == ("tannery", ME)
    tq = parse_question("Back when I worked at my last job, who was my farrier?", speaker=ME, now=NOW)
    assert tq.during == "job"
    # a clause naming only a person stays as it was read ("while Tom was away")
    assert parse_question("While Brannoc was away, who fed Ysolde's cat?", now=NOW).during == "Brannoc"


def test_the_loose_plan_answers_as_of_the_time_of_a_clause() -> None:
    rows = [
        fact_row(1, 1, "Ysolde works nights at Quarrel Tannery, the old tannery by the weir.", ME),
        fact_row(2, 1, "On Fridays Ysolde has her horse shod by Hollis Vane.", ME),
        fact_row(3, 7, "Ysolde left the tannery for an office job at Brisk Ledger.", ME),
        fact_row(4, 9, "Ysolde's horse is shod by Merrit Dunstan these days.", ME),
    ]
    tq = parse_question("While I was still at the tannery, who shod my horse?", speaker=ME, now=NOW)
    assert answered(loose_plan(tq, ME, rows, None, {})) == 2


def test_a_clause_with_a_relative_names_no_place() -> None:
    assert parse_question("While I was with my sister, who was my farrier?", speaker=ME, now=NOW).during != "sister"
