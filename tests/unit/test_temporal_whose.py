"""Whose state a sentence or a question is about (issue 48 item 2): a partner asked about by a kind
of thing that is no partner is the subject, and a relative's state, said by the speaker with their
own name as the relative's owner, is no state of the speaker. Sentences and names of my own (ADR 0073)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from memforest.retrieval.temporal.parse import parse_question
from memforest.retrieval.temporal.plan import ANSWER, plan_answer
from tests.support.fact_rows import fact_row

ME = "Hallvard"
NOW = datetime(2026, 3, 1, tzinfo=UTC)


def test_a_partner_is_the_subject_of_a_question_about_another_kind() -> None:
    tq = parse_question("Which fencing club is my husband in now?", speaker=ME, now=NOW)
    assert tq.names[0] == "Hallvard's husband"
    tq = parse_question("Which rowing club was my girlfriend in before Skerry Oars?", speaker=ME, now=NOW)
    assert tq.names[0] == "Hallvard's girlfriend"


def test_a_partner_who_does_the_verb_asks_for_the_state_the_verb_names() -> None:
    for question, asked in (
        ("Where is my wife working at the moment?", "employer"),
        ("Where did my boyfriend live in 2019?", "residence"),
        ("Where does Sigrun's husband work now?", "employer"),
        ("What does my girlfriend do for a living now?", "employer"),
    ):
        tq = parse_question(question, speaker=ME, now=NOW)
        assert tq.attribute == asked, question
        assert tq.names[0] != ME, question
    # the partner is what is asked when no other word names a state
    assert parse_question("Who is my partner these days?", speaker=ME, now=NOW).attribute == "partner"
    assert parse_question("Who was Sigrun's husband before Ketil?", speaker=ME, now=NOW).attribute == "partner"


def test_a_question_about_the_partner_state_keeps_the_asker() -> None:
    assert parse_question("Who was my girlfriend before Oddny?", speaker=ME, now=NOW).names[0] == ME
    assert parse_question("When did Oddny become my girlfriend?", speaker=ME, now=NOW).names[0] == ME


def _row(
    fid: int, month: int, text: str, attribute: str | None = None, value: str | None = None, *named: str
) -> dict[str, Any]:
    subject = ME.casefold() if attribute else None
    named_values = [*([value] if value else []), *named]
    return fact_row(fid, month, text, ME, subject=subject, attribute=attribute, value=value, entities=named_values)


def test_a_relatives_pet_in_the_speakers_words_is_not_the_speakers() -> None:
    rows = [
        _row(1, 2, "Hallvard adopted a rabbit called Tussock.", "pet", "Tussock"),
        _row(2, 6, "Hallvard's flatmate Ebba rescued a greyhound, Pilot, last weekend.", None, None, "Ebba", "Pilot"),
    ]
    plan = plan_answer(parse_question("Which pet do I have now?", speaker=ME, now=NOW), ME, rows)
    assert plan is not None
    assert next(fid for fid, role in plan.roles.items() if role == ANSWER) == 1
