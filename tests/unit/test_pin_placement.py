"""A temporal plan's states among the ranked evidence (ADR 0063): the answer first, the ranking's
own top right after it, its neighbours kept inside the top k only at its tail."""

from __future__ import annotations

from datetime import UTC, datetime

from memforest.retrieval.assemble import AssembleOptions, _fitting, _Item, _pinned_order, place_pins


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


def _items(long: frozenset[int] = frozenset()) -> list[_Item]:
    """Items 1..12 in recall's order, each text costing 10 tokens (those in ``long``: 20)."""
    when = datetime(2024, 5, 1, tzinfo=UTC)
    return [
        _Item("fact", i, ("x" * 79 if i in long else "x" * 39) + str(i % 10), when, None, None, None, None, (), 0.0, ())
        for i in range(1, 13)
    ]


def _kept(items: list[_Item], pins: list[tuple[str, int]], opts: AssembleOptions) -> list[int]:
    order = _pinned_order(items, pins, opts)
    return [it.source_id for it in order[: _fitting(order, opts)]]


def test_without_a_budget_the_pins_are_placed_in_the_top_k() -> None:
    opts = AssembleOptions(top_k=8)
    assert _kept(_items(), [_f(9), _f(10), _f(11)], opts) == [9, 1, 2, 3, 4, 5, 10, 11]


def test_a_token_budget_keeps_the_neighbours_inside_what_it_keeps() -> None:
    """A budget of five texts keeps five of the top eight: the neighbours take the tail of those
    five, not of the eight (where the budget would cut them)."""
    opts = AssembleOptions(top_k=8, token_budget=50)
    assert _kept(_items(), [_f(9), _f(10), _f(11)], opts) == [9, 1, 2, 10, 11]
    # neighbours with longer texts: the count is read again after they move up
    assert _kept(_items(frozenset({10, 11})), [_f(9), _f(10), _f(11)], opts) == [9, 10, 11]


def test_a_budget_below_the_first_text_still_keeps_it_and_its_pin() -> None:
    opts = AssembleOptions(top_k=8, token_budget=5)
    assert _kept(_items(), [_f(9), _f(10)], opts) == [9]
    assert _fitting(_items(), AssembleOptions(top_k=20)) == 12
    assert _pinned_order([], [_f(9)], opts) == []
