"""Corroboration's support: how many other candidates cite a candidate's most cited turn."""

from __future__ import annotations

from memforest.retrieval.corroborate import MAX_SUPPORTERS, support
from memforest.retrieval.preset import SUPPORT_WITH_A_MODEL, RetrievalPreset


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


def test_support_counts_at_most_max_supporters() -> None:
    """A turn cited by many candidates (a long turn, many facts) adds no more than MAX_SUPPORTERS
    times the weight, below what the rerank gives the current state of a present-tense question."""
    turns = {("fact", i): (10,) for i in range(MAX_SUPPORTERS + 4)}
    assert set(support(turns).values()) == {MAX_SUPPORTERS}
    preset = RetrievalPreset()
    # the rerank's recency bonus, and the same again taken off a superseded item (assemble.rerank)
    assert 2 * preset.recency_bonus > MAX_SUPPORTERS * SUPPORT_WITH_A_MODEL
