"""The follow-on's placing of the cell said after the first item: at its rank, the rest moved down
one, the list cut to its length; an item already kept moves up only."""

from __future__ import annotations

from dataclasses import dataclass

from memforest.retrieval.follow_on import place


@dataclass
class _Item:
    kind: str
    source_id: int
    score: float


def _kept(n: int) -> list[_Item]:
    return [_Item("fact", i, 1.0 - i / 10) for i in range(n)]


def _keys(items: list[_Item]) -> list[tuple[str, int]]:
    return [(it.kind, it.source_id) for it in items]


def test_the_cell_takes_its_rank_and_the_score_of_the_item_it_goes_before() -> None:
    out = place(_kept(5), _Item("cell", 9, 0.0), 3, 5)
    assert _keys(out) == [("fact", 0), ("fact", 1), ("cell", 9), ("fact", 2), ("fact", 3)]
    assert out[2].score == out[3].score == 0.8
    assert [it.score for it in out] == sorted((it.score for it in out), reverse=True)


def test_a_short_list_grows_by_one_and_a_rank_past_its_end_is_last() -> None:
    assert _keys(place(_kept(2), _Item("cell", 9, 0.0), 3, 10)) == [("fact", 0), ("fact", 1), ("cell", 9)]
    one = place(_kept(1), _Item("cell", 9, 0.0), 3, 10)
    assert _keys(one) == [("fact", 0), ("cell", 9)] and one[1].score == one[0].score


def test_a_kept_item_moves_up_but_never_down() -> None:
    kept = [*_kept(4), _Item("cell", 9, 0.2)]
    assert _keys(place(kept, _Item("cell", 9, 0.0), 2, 5)) == [
        ("fact", 0), ("cell", 9), ("fact", 1), ("fact", 2), ("fact", 3),
    ]  # fmt: skip
    first = [_Item("cell", 9, 2.0), *_kept(3)]
    assert place(first, _Item("cell", 9, 0.0), 2, 4) == first
