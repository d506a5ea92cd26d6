"""The temporal step's per-question memo: results are kept while a question's memo is open, and
nothing is kept outside it or after it."""

from __future__ import annotations

import asyncio

from memforest.retrieval.temporal import memo
from memforest.retrieval.temporal.memo import per_question, question_memo

calls: list[str] = []


@per_question
def _shout(text: str) -> str | None:
    calls.append(text)
    return None if text == "quiet" else text.upper()


def test_results_are_kept_only_while_the_question_is_open() -> None:
    calls.clear()
    _shout("a"), _shout("a")
    assert calls == ["a", "a"]  # no question open: worked out each time
    with question_memo():
        assert [_shout("a"), _shout("a"), _shout("quiet"), _shout("quiet")] == ["A", "A", None, None]
        assert calls == ["a", "a", "a", "quiet"]  # (a None result is kept too)
    assert memo._MEMO.get() is None
    with question_memo():
        _shout("a")
    assert calls == ["a", "a", "a", "quiet", "a"]  # a new question keeps nothing of the last


def test_concurrent_questions_keep_their_own_results() -> None:
    calls.clear()

    async def question(text: str) -> list[str | None]:
        with question_memo():
            first = _shout(text)
            await asyncio.sleep(0)
            return [first, _shout(text)]

    async def both() -> list[list[str | None]]:
        return list(await asyncio.gather(question("b"), question("b")))

    assert asyncio.run(both()) == [["B", "B"], ["B", "B"]]
    assert calls == ["b", "b"]  # each question worked "b" out once, in its own memo


def test_one_question_opens_a_memo_of_its_own() -> None:
    calls.clear()

    @memo.one_question
    async def plan(text: str) -> str | None:
        return [_shout(text), _shout(text)][1]

    assert asyncio.run(plan("c")) == "C" and asyncio.run(plan("c")) == "C"
    assert calls == ["c", "c"]  # once a question, and nothing kept between them
