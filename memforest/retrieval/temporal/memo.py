"""Row-local checks kept for the length of one question's temporal step.

The temporal walk tells the states among every fact read so far again after each node read that
adds facts, so the same checks of one fact's text (its mood, whether it names a person or a value,
its cue words) are asked many times in one question. A function wrapped in :func:`per_question`
keeps its results only while :func:`question_memo` is open (``resolve.temporal_plan`` opens one
for each question: :func:`one_question`) and works each call out afresh outside it: nothing of a
fact's text outlives the question that read it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Coroutine, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

# the open question's results: wrapped function -> its arguments -> its result
_MEMO: ContextVar[dict[Callable[..., Any], dict[Hashable, Any]] | None] = ContextVar("temporal_memo", default=None)


@contextmanager
def question_memo() -> Iterator[None]:
    """Keep the results of :func:`per_question` functions until the block ends."""
    token = _MEMO.set({})
    try:
        yield
    finally:
        _MEMO.reset(token)


def per_question(fn: Callable[P, R]) -> Callable[P, R]:
    """``fn`` (a pure function of hashable positional arguments) with its results kept while a
    :func:`question_memo` is open."""

    @functools.wraps(fn)
    def call(*args: P.args, **kwargs: P.kwargs) -> R:
        memo = _MEMO.get()
        if memo is None or kwargs:
            return fn(*args, **kwargs)
        kept = memo.setdefault(fn, {})
        try:
            return kept[args]  # type: ignore[no-any-return]
        except KeyError:
            kept[args] = result = fn(*args, **kwargs)
            return result

    return call


def one_question(fn: Callable[P, Coroutine[Any, Any, R]]) -> Callable[P, Coroutine[Any, Any, R]]:
    """The coroutine function ``fn`` run with a :func:`question_memo` of its own open."""

    @functools.wraps(fn)
    async def call(*args: P.args, **kwargs: P.kwargs) -> R:
        with question_memo():
            return await fn(*args, **kwargs)

    return call
