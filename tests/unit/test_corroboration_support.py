"""Corroboration's support: how many other candidates cite a candidate's most cited turn."""

from __future__ import annotations

from memforest.retrieval.corroborate import support


def test_support_counts_the_other_candidates_citing_the_most_cited_turn() -> None:
    turns = {
        ("fact", 1): (10,),  # turn 10: two facts and the cell holding it
        ("fact", 2): (10,),
        ("cell", 7): (10, 11),
        ("fact", 3): (11, 11),  # a turn cited twice by one candidate counts once
        ("cell", 8): (20, 21),  # nobody else
        ("fact", 4): (),
    }
    assert support(turns) == {
        ("fact", 1): 2,
        ("fact", 2): 2,
        ("cell", 7): 2,
        ("fact", 3): 1,
        ("cell", 8): 0,
        ("fact", 4): 0,
    }
    assert support({}) == {}
