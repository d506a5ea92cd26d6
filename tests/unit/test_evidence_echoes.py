"""A cell that only echoes a fact ranked above it (its other turns an assistant's) leaves the evidence."""

from __future__ import annotations

from dataclasses import dataclass

from memforest.retrieval.echoes import without_echoes


@dataclass(frozen=True)
class _It:
    kind: str
    source_id: int
    turn_ids: tuple[str, ...]
    roles: tuple[str, ...] = ()


def _fact(n: int, *turns: str) -> _It:
    return _It("fact", n, turns)


def _cell(n: int, *turns_roles: tuple[str, str]) -> _It:
    return _It("cell", n, tuple(t for t, _ in turns_roles), tuple(r for _, r in turns_roles))


def _keys(items: list[_It]) -> list[tuple[str, int]]:
    return [(it.kind, it.source_id) for it in items]


def test_a_cell_of_a_cited_turn_and_the_assistants_reply_is_left_out() -> None:
    ranked = [_fact(1, "t7"), _cell(9, ("t7", "user"), ("t8", "assistant")), _fact(2, "t3")]
    assert _keys(without_echoes(ranked)) == [("fact", 1), ("fact", 2)]


def test_a_cell_above_its_fact_stays() -> None:
    ranked = [_cell(9, ("t7", "user"), ("t8", "assistant")), _fact(1, "t7")]
    assert _keys(without_echoes(ranked)) == [("cell", 9), ("fact", 1)]


def test_a_cell_with_another_speakers_uncited_turn_stays() -> None:
    # two people talking (no assistant): the second turn is news no fact above cites
    ranked = [_fact(1, "d1"), _cell(4, ("d1", "Wren"), ("d2", "Osk"))]
    assert _keys(without_echoes(ranked)) == [("fact", 1), ("cell", 4)]
    # a role missing ("") is no assistant's either
    assert _keys(without_echoes([_fact(1, "d1"), _cell(4, ("d1", "user"), ("d2", ""))])) == [("fact", 1), ("cell", 4)]


def test_a_cell_every_turn_of_which_facts_above_cite_is_left_out() -> None:
    ranked = [_fact(1, "d1"), _fact(2, "d2"), _cell(4, ("d1", "user"), ("d2", "user"))]
    assert _keys(without_echoes(ranked)) == [("fact", 1), ("fact", 2)]


def test_a_cell_no_fact_cites_stays_and_a_pinned_echo_stays() -> None:
    lone = [_fact(1, "t1"), _cell(5, ("t5", "user"), ("t6", "assistant"))]
    assert _keys(without_echoes(lone)) == [("fact", 1), ("cell", 5)]
    echo = [_fact(1, "t5"), _cell(5, ("t5", "user"), ("t6", "assistant"))]
    assert _keys(without_echoes(echo, pinned={("cell", 5)})) == [("fact", 1), ("cell", 5)]


def test_roles_not_read_keep_the_cell() -> None:
    unread = _It("cell", 5, ("t5", "t6"))  # (no roles: provenance not read for it)
    assert _keys(without_echoes([_fact(1, "t5"), unread])) == [("fact", 1), ("cell", 5)]
