"""Operations written once for both clients: each is a generator of steps.

An operation (``get_fact``, ``wait_job``, ...) is a generator that yields :class:`Call` (send this
request, hand me the response) and :class:`Pause` (sleep this long) and returns its result. It does
no input or output itself: :class:`~memforest.client.runners.AsyncRunner` drives it with
``httpx.AsyncClient`` and ``asyncio.sleep``, :class:`~memforest.client.runners.SyncRunner` with
``httpx.Client`` and ``time.sleep``. The :func:`operation` and :func:`pages` decorators turn such a
generator into a method that is a coroutine on the async client and a plain call on the sync one,
with the generator's own signature for type checkers.

A failed request is raised *into* the operation at its ``yield`` (``ensure_forest`` catches a
conflict that way), so an operation reads like straight-line code.
"""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator, Callable, Coroutine, Generator, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Concatenate, Generic, ParamSpec, TypeAlias, TypeVar, overload

import httpx

from memforest.client.errors import UnexpectedResponseError
from memforest.schemas import Page

if TYPE_CHECKING:
    from memforest.client.runners import AsyncRunner, SyncRunner

P = ParamSpec("P")
R = TypeVar("R")
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Call:
    """One HTTP request of an operation; absent (None) parameters are left out of the query string."""

    method: str
    path: str
    json_body: Any = None
    params: Mapping[str, Any] | None = None
    content: bytes | None = None
    headers: Mapping[str, str] | None = None


@dataclass(frozen=True, slots=True)
class Pause:
    """Sleep ``seconds`` before the next step (polling a job)."""

    seconds: float


Step: TypeAlias = Call | Pause
# What an operation is: a generator of steps that receives each Call's response and returns R.
Steps: TypeAlias = Generator[Step, Any, R]
# A page fetcher: given a cursor (None for the first page), the steps that read that page.
PageFetch: TypeAlias = Callable[[str | None], Steps[Page[T]]]


def request(
    method: str,
    path: str,
    *,
    json_body: Any = None,
    params: Mapping[str, Any] | None = None,
    content: bytes | None = None,
    headers: Mapping[str, str] | None = None,
) -> Steps[httpx.Response]:
    """The response to one request (a 4xx/5xx is raised at this point by the runner)."""
    response: httpx.Response = yield Call(method, path, json_body, params, content, headers)
    return response


def request_json(
    method: str,
    path: str,
    *,
    json_body: Any = None,
    params: Mapping[str, Any] | None = None,
    content: bytes | None = None,
    headers: Mapping[str, str] | None = None,
) -> Steps[Any]:
    """The decoded JSON body of one request's response."""
    response = yield from request(method, path, json_body=json_body, params=params, content=content, headers=headers)
    return decode_json(response, method, path)


def decode_json(response: httpx.Response, method: str, path: str) -> Any:
    """``response.json()``, or UnexpectedResponseError when the body is not JSON."""
    try:
        return response.json()
    except ValueError:
        raise UnexpectedResponseError(f"{method} {path}: the answer is not JSON") from None


class operation(Generic[P, R]):
    """A method written as a generator of steps: a coroutine function on the async client, a plain
    function on the sync client. ``Class.method.steps(self, ...)`` is the generator itself, for
    operations built from other operations."""

    def __init__(self, steps: Callable[Concatenate[Any, P], Steps[R]]) -> None:
        self.steps = steps
        self.__doc__ = steps.__doc__

    @overload
    def __get__(self, runner: None, owner: type[Any]) -> operation[P, R]: ...
    @overload
    def __get__(self, runner: AsyncRunner, owner: type[Any] | None = None) -> Callable[P, Coroutine[Any, Any, R]]: ...
    @overload
    def __get__(self, runner: SyncRunner, owner: type[Any] | None = None) -> Callable[P, R]: ...
    def __get__(self, runner: Any, owner: type[Any] | None = None) -> Any:
        return self if runner is None else _bind(self.steps, runner, runner.run)


class pages(Generic[P, T]):
    """A method that returns a page fetcher, exposed as an iterator over every item of every page:
    an async iterator on the async client, a plain iterator on the sync client."""

    def __init__(self, fetcher: Callable[Concatenate[Any, P], PageFetch[T]]) -> None:
        self.fetcher = fetcher
        self.__doc__ = fetcher.__doc__

    @overload
    def __get__(self, runner: None, owner: type[Any]) -> pages[P, T]: ...
    @overload
    def __get__(self, runner: AsyncRunner, owner: type[Any] | None = None) -> Callable[P, AsyncIterator[T]]: ...
    @overload
    def __get__(self, runner: SyncRunner, owner: type[Any] | None = None) -> Callable[P, Iterator[T]]: ...
    def __get__(self, runner: Any, owner: type[Any] | None = None) -> Any:
        return self if runner is None else _bind(self.fetcher, runner, runner.iterate)


def _bind(method: Callable[..., Any], runner: Any, drive: Callable[[Any], Any]) -> Callable[..., Any]:
    """``method`` bound to ``runner``, its result (steps or a page fetcher) handed to ``drive``."""

    @functools.wraps(method)
    def bound(*args: Any, **kwargs: Any) -> Any:
        return drive(method(runner, *args, **kwargs))

    return bound


@dataclass(frozen=True, slots=True)
class Finished(Generic[R]):
    """An operation's result: it has no step left."""

    value: R


def advance(steps: Steps[R], outcome: Any, failure: BaseException | None) -> Step | Finished[R]:
    """The operation's next step after handing it ``outcome`` (or raising ``failure`` into it)."""
    try:
        return steps.throw(failure) if failure is not None else steps.send(outcome)
    except StopIteration as done:
        return Finished(done.value)


def next_cursor(page: Page[Any], cursor: str | None) -> str | None:
    """The cursor of the page after ``page`` (None at the end, or when the server repeats itself)."""
    if page.next_cursor is None or page.next_cursor == cursor:
        return None
    return page.next_cursor
