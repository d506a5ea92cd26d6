"""Which states answer a temporal question, read from the subject's facts alone (``plan_answer``
over rows shaped as the store returns them), in sentences of my own: a state that names the value
it replaced follows it, and the anchor's state filed only under a verb class joins the chain of the
kind the question asks about."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from support.temporal_answers import answered

from memforest.retrieval.temporal.lexicon import cue_scores
from memforest.retrieval.temporal.parse import TemporalQuestion
from memforest.retrieval.temporal.plan import plan_answer
from tests.support.fact_rows import named_row


def _row(fid: int, year: int, month: int, text: str, attribute: str | None, value: str | None) -> dict[str, Any]:
    return named_row(fid, datetime(year, month, 1, tzinfo=UTC), text, "Petra", attribute, value)


def _answer(tq: TemporalQuestion, rows: list[dict[str, Any]]) -> int | None:
    plan = plan_answer(tq, "Petra", rows)
    return answered(plan)


def test_a_state_that_names_the_value_it_replaced_follows_it() -> None:
    rows = [
        _row(1, 2021, 3, "Petra adopted a hamster called Crumb.", "pet", "Crumb"),
        _row(2, 2022, 5, "After Toffee ran away, Petra got a rabbit named Juniper.", "pet", "Juniper"),
    ]
    # Toffee is in no state of its own: the state that replaced it is what came after it
    assert _answer(TemporalQuestion("after", "pet", ("Petra", "Toffee"), "Toffee"), rows) == 2
    # a value that has a state of its own is still followed by the next state
    assert _answer(TemporalQuestion("after", "pet", ("Petra", "Crumb"), "Crumb"), rows) == 2
    assert _answer(TemporalQuestion("before", "pet", ("Petra", "Toffee"), "Toffee"), rows) == 1


def test_the_anchor_filed_under_a_verb_class_joins_the_asked_chain() -> None:
    rows = [
        _row(1, 2021, 2, "Dr. Halvorsen checked Petra's molars at the check-up.", "patronage", "Dr. Halvorsen"),
        _row(2, 2021, 9, "Petra joined Copperbeck Rowers.", "membership", "Copperbeck Rowers"),
        _row(3, 2022, 4, "Petra started going to Dr. Ibsen, her new dentist.", "dentist", "Dr. Ibsen"),
        _row(4, 2022, 8, "Petra joined the Fellside Harriers.", "membership", "Fellside Harriers"),
    ]
    tq = TemporalQuestion("after", "dentist", ("Petra", "Dr. Halvorsen"), "Dr. Halvorsen", noun="dentist")
    assert _answer(tq, rows) == 3
    # a kind a verb class cannot hold keeps the anchor's own chain (a club is joined, never a patron's)
    club = TemporalQuestion("after", "rowing_club", ("Petra", "Copperbeck Rowers"), "Copperbeck Rowers")
    assert _answer(club, rows) == 4


def test_a_chain_too_short_to_tell_is_read_with_the_verb_class_that_can_hold_it() -> None:
    rows = [
        _row(1, 2020, 4, "Petra bought a Vantor Ridge.", "possession", "Vantor Ridge"),
        _row(2, 2021, 6, "Petra joined Copperbeck Rowers.", "membership", "Copperbeck Rowers"),
        _row(3, 2021, 7, "Petra traded the Vantor Ridge for a Calder Sprint.", "possession", "Calder Sprint"),
        _row(4, 2022, 9, "Got a puncture on Petra's new Oxley Tourer bike.", "vehicle", "Oxley Tourer"),
    ]
    # the bike chain holds one state: what came before it is in the chain of things got
    assert _answer(TemporalQuestion("before", "vehicle", ("Petra", "Oxley Tourer"), "Oxley Tourer"), rows) == 3
    # never in a chain that cannot hold a bike: clubs joined are no bikes
    clubs = [r for r in rows if r["attribute"] != "possession"]
    clubs.append(_row(5, 2020, 1, "Petra joined Saltgate Cyclists.", "membership", "Saltgate Cyclists"))
    assert _answer(TemporalQuestion("before", "vehicle", ("Petra", "Oxley Tourer"), "Oxley Tourer"), clubs) is None


def test_a_provider_never_falls_back_to_things_got_or_places_gone() -> None:
    rows = [
        _row(1, 2023, 1, "Petra picked up a Marlow Gravel 3 from the bike shop.", "possession", "Marlow Gravel 3"),
        _row(2, 2023, 3, "Petra took the night ferry to Bergen.", "possession", "Bergen"),
        _row(3, 2023, 6, "Petra signed on with Dr. Okafor, a new dentist near work.", "dentist", "Dr. Okafor"),
    ]
    for op in ("before", "after"):
        tq = TemporalQuestion(op, "dentist", ("Petra", "Dr. Okafor"), "Dr. Okafor", noun="dentist")
        assert _answer(tq, rows) is None, op
        assert _answer(tq, rows[:1] + rows[2:]) is None, op
    # a place gone to is no dentist either, unless its statement calls it one
    rows.append(_row(4, 2022, 8, "Lars Brennan told Petra about the party.", "patronage", "Lars Brennan"))
    tq = TemporalQuestion("before", "dentist", ("Petra", "Dr. Okafor"), "Dr. Okafor", noun="dentist")
    assert _answer(tq, rows) is None
    rows.append(
        _row(5, 2022, 2, "Petra had a crown fitted by Dr. Quennell, her dentist then.", "patronage", "Dr. Quennell")
    )
    assert _answer(tq, rows) == 5


def test_an_open_kind_takes_from_things_got_only_what_names_it() -> None:
    rows = [
        _row(1, 2022, 2, "Petra bought a Gallow standing desk.", "possession", "Gallow"),
        _row(2, 2022, 7, "Petra got a Rennick cello from a dealer in Leeds.", "possession", "Rennick"),
        _row(3, 2023, 4, "Petra now plays a Dunmore cello.", "cello", "Dunmore"),
    ]
    tq = TemporalQuestion("before", "cello", ("Petra", "Dunmore"), "Dunmore", noun="cello")
    assert _answer(tq, rows) == 2
    assert _answer(tq, [rows[0], rows[2]]) is None


def test_a_word_that_is_also_a_car_make_is_no_cue_of_a_vehicle() -> None:
    assert "vehicle" not in cue_scores("Petra rolled the dice and took a seat at the Mini Bakehouse.")
    assert "vehicle" in cue_scores("Petra drove her new hatchback home.")


def test_a_value_named_by_another_word_of_the_kind_answers_for_it() -> None:
    rows = [
        _row(1, 2021, 5, "Petra joined the Skelwith Rowing Club.", "membership", "Skelwith Rowing Club"),
        _row(2, 2022, 3, "Petra moved her number over to Orrel Mobile.", "number", "Orrel Mobile"),
    ]
    now = TemporalQuestion("now", "mobile_network", ("Petra",), None)
    assert _answer(now, rows) == 2
