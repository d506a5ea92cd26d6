"""A question about a relative the user names only by the relation (issue 48 item 2, ADR 0084):
"Since when has Nutmeg been my uncle's gecko?" asks about the uncle, and the user ("my" read as
their name) only says whose uncle he is: the user is never the value asked about. The question
shapes ("since when has ... been", "which year did ... turn into", "for how many years did ...
stay", "in what month did ... start being"), names and nouns are mine, none a benchmark template's."""

from __future__ import annotations

import pytest

from memforest.retrieval.temporal.parse import parse_question, value_name


@pytest.mark.parametrize(
    ("question", "operator", "value"),
    [
        ("Since when has Nutmeg been my uncle's gecko?", "when", "Nutmeg"),
        ("How many years has Larkspur Rowers been my flatmate's club?", "how_long", "Larkspur Rowers"),
        ("Which year did Fennick Baths turn into Idris's sister's pool?", "when", "Fennick Baths"),
        ("For how many years did Kelsby stay my aunt's town?", "how_long", "Kelsby"),
        ("In what month did Nutmeg start being my uncle's gecko?", "when", "Nutmeg"),
    ],
)
def test_the_owner_of_a_relative_is_no_value(question: str, operator: str, value: str) -> None:
    tq = parse_question(question, speaker="Wenna")
    relative = next(n for n in tq.names if "'s " in n)
    assert tq.operator == operator and value_name(tq, relative) == value, tq
