"""A question about a relative the user names only by the relation (issue 48 item 2, ADR 0084):
"When did Pip become my aunt's lizard?" asks about the aunt, and the user ("my" read as their
name) only says whose aunt she is: the user is never the value asked about. Names of my own."""

from __future__ import annotations

import pytest

from memforest.retrieval.temporal.parse import parse_question, value_name


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("When did Quillon become my uncle's tortoise?", "Quillon"),
        ("How long was Marrowby Fencers my flatmate's club?", "Marrowby Fencers"),
        ("When did Tessaly Pool become Brannoch's sister's pool?", "Tessaly Pool"),
        ("How long was Kelsby my aunt's home city?", "Kelsby"),
    ],
)
def test_the_owner_of_a_relative_is_no_value(question: str, value: str) -> None:
    tq = parse_question(question, speaker="Wenna")
    relative = next(n for n in tq.names if "'s " in n)
    assert value_name(tq, relative) == value, tq
