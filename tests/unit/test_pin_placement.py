"""A temporal plan's states among the ranked evidence (ADR 0063): the answer first, the ranking's
own top right after it, its neighbours kept inside the top k only at its tail."""

from __future__ import annotations

from memforest.retrieval.assemble import place_pins


def _f(i: int) -> tuple[str, int]:
    return ("fact", i)


RANKED = [_f(i) for i in range(1, 13)]  # recall's order: fact 1 first


def test_the_answer_comes_first_and_the_ranking_follows() -> None:
    order = place_pins(RANKED, [_f(7)], top_k=5)
    assert order[:5] == [_f(7), _f(1), _f(2), _f(3), _f(4)]
    assert sorted(order) == sorted(RANKED)


def test_neighbours_ranked_low_take_only_the_tail_of_the_top_k() -> None:
    order = place_pins(RANKED, [_f(9), _f(10), _f(11)], top_k=5)
    assert order[:5] == [_f(9), _f(1), _f(2), _f(10), _f(11)]


def test_neighbours_ranked_high_keep_their_place() -> None:
    order = place_pins(RANKED, [_f(9), _f(2)], top_k=5)
    assert order[:5] == [_f(9), _f(1), _f(2), _f(3), _f(4)]


def test_pins_not_in_the_pool_change_nothing() -> None:
    assert place_pins(RANKED, [_f(99)], top_k=5) == RANKED
