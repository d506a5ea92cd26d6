"""The two drivers of the client's operations (:mod:`memforest.client.steps`): one over
``httpx.AsyncClient``, one over ``httpx.Client``. Both send a request the same way, map an error
answer to the same exception, and retry a 429 or 503 by the same :class:`RetryPolicy`."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Self, TypeVar

import httpx

from memforest.client.errors import RequestTimeoutError, TransportError, error_from_response, retry_after_seconds
from memforest.client.steps import Call, Finished, PageFetch, Pause, Steps, advance, next_cursor
from memforest.errors import MemForestError

R = TypeVar("R")
T = TypeVar("T")

DEFAULT_URL = "http://127.0.0.1:8420"
RETRIED_STATUSES = frozenset({429, 503})


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How a 429 (rate or quota limit) or 503 (busy, not ready) answer is retried.

    ``retries`` extra attempts at most (0 turns retrying off); the wait is the answer's
    ``Retry-After`` when it has one, else ``backoff_s`` doubled per attempt with jitter; an answer
    asking for more than ``max_wait_s`` is not retried (its error is raised at once).
    """

    retries: int = 3
    backoff_s: float = 0.5
    max_wait_s: float = 30.0

    def delay(self, response: httpx.Response, attempt: int) -> float | None:
        """Seconds to wait before retrying ``response`` (the ``attempt``-th retry, from 0), or None."""
        if response.status_code not in RETRIED_STATUSES or attempt >= self.retries:
            return None
        asked = retry_after_seconds(response.headers.get("Retry-After"))
        if asked is None:
            return min(self.max_wait_s, self.backoff_s * 2.0**attempt * random.uniform(0.5, 1.0))
        return asked if asked <= self.max_wait_s else None


def _setup(
    base_url: str, api_key: str | None, timeout: float, max_connections: int, retry: RetryPolicy | None
) -> tuple[str, RetryPolicy, dict[str, Any]]:
    """The runner's base URL, retry policy and the options of its httpx client."""
    headers = {"Accept": "application/json", "User-Agent": "memforest-client/0.1"}
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    root = base_url.rstrip("/")
    options = {
        "base_url": root,
        "headers": headers,
        "timeout": timeout,
        "limits": httpx.Limits(max_connections=max_connections, max_keepalive_connections=max_connections),
    }
    return root, retry if retry is not None else RetryPolicy(), options


def _request_options(call: Call) -> dict[str, Any]:
    clean = {k: v for k, v in (call.params or {}).items() if v is not None}
    return {
        "json": call.json_body,
        "params": clean or None,
        "content": call.content,
        "headers": dict(call.headers) if call.headers else None,
    }


def _transport_error(call: Call, base_url: str, exc: httpx.HTTPError) -> TransportError:
    if isinstance(exc, httpx.TimeoutException):
        return RequestTimeoutError(f"{call.method} {call.path}: no answer from {base_url} in time")
    reason = str(exc) or type(exc).__name__
    return TransportError(f"{call.method} {call.path}: cannot reach {base_url}: {reason}")


class AsyncRunner:
    """Runs operations over ``httpx.AsyncClient``. ``transport`` replaces the network (e.g.
    ``httpx.ASGITransport(app=app)`` in tests); ``retry`` is the 429/503 policy
    (``RetryPolicy(retries=0)``: never retry)."""

    def __init__(
        self,
        base_url: str = DEFAULT_URL,
        api_key: str | None = None,
        *,
        timeout: float = 30.0,
        transport: httpx.AsyncBaseTransport | None = None,
        max_connections: int = 20,
        retry: RetryPolicy | None = None,
    ) -> None:
        self.base_url, self.retry, options = _setup(base_url, api_key, timeout, max_connections, retry)
        self._http = httpx.AsyncClient(transport=transport, **options)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the connection pool."""
        await self._http.aclose()

    async def send(self, call: Call) -> httpx.Response:
        """The response to ``call`` after the retries its policy allows; an error answer is raised."""
        attempt = 0
        while True:
            try:
                response = await self._http.request(call.method, call.path, **_request_options(call))
            except httpx.HTTPError as exc:
                raise _transport_error(call, self.base_url, exc) from exc
            if response.status_code < 400:
                return response
            wait = self.retry.delay(response, attempt)
            if wait is None:
                raise error_from_response(response)
            attempt += 1
            await asyncio.sleep(wait)

    async def run(self, steps: Steps[R]) -> R:
        """Drive one operation to its result."""
        outcome: Any = None
        failure: MemForestError | None = None
        while not isinstance(step := advance(steps, outcome, failure), Finished):
            outcome, failure = None, None
            if isinstance(step, Pause):
                await asyncio.sleep(step.seconds)
                continue
            try:
                outcome = await self.send(step)
            except MemForestError as exc:
                failure = exc
        return step.value

    async def iterate(self, fetch: PageFetch[T]) -> AsyncIterator[T]:
        """Every item of every page, fetching the next page when the last one is used up."""
        cursor: str | None = None
        while True:
            page = await self.run(fetch(cursor))
            for item in page.items:
                yield item
            cursor = next_cursor(page, cursor)
            if cursor is None:
                return


class SyncRunner:
    """Runs operations over ``httpx.Client`` (blocking). ``transport`` replaces the network;
    ``retry`` is the 429/503 policy (``RetryPolicy(retries=0)``: never retry)."""

    def __init__(
        self,
        base_url: str = DEFAULT_URL,
        api_key: str | None = None,
        *,
        timeout: float = 30.0,
        transport: httpx.BaseTransport | None = None,
        max_connections: int = 20,
        retry: RetryPolicy | None = None,
    ) -> None:
        self.base_url, self.retry, options = _setup(base_url, api_key, timeout, max_connections, retry)
        self._http = httpx.Client(transport=transport, **options)
        # what an async twin of this client is made with (its own network, the same key and policy)
        self.twin_settings: dict[str, Any] = {
            "base_url": self.base_url,
            "api_key": api_key,
            "timeout": timeout,
            "max_connections": max_connections,
            "retry": self.retry,
        }

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection pool."""
        self._http.close()

    def send(self, call: Call) -> httpx.Response:
        """The response to ``call`` after the retries its policy allows; an error answer is raised."""
        attempt = 0
        while True:
            try:
                response = self._http.request(call.method, call.path, **_request_options(call))
            except httpx.HTTPError as exc:
                raise _transport_error(call, self.base_url, exc) from exc
            if response.status_code < 400:
                return response
            wait = self.retry.delay(response, attempt)
            if wait is None:
                raise error_from_response(response)
            attempt += 1
            time.sleep(wait)

    def run(self, steps: Steps[R]) -> R:
        """Drive one operation to its result."""
        outcome: Any = None
        failure: MemForestError | None = None
        while not isinstance(step := advance(steps, outcome, failure), Finished):
            outcome, failure = None, None
            if isinstance(step, Pause):
                time.sleep(step.seconds)
                continue
            try:
                outcome = self.send(step)
            except MemForestError as exc:
                failure = exc
        return step.value

    def iterate(self, fetch: PageFetch[T]) -> Iterator[T]:
        """Every item of every page, fetching the next page when the last one is used up."""
        cursor: str | None = None
        while True:
            page = self.run(fetch(cursor))
            yield from page.items
            cursor = next_cursor(page, cursor)
            if cursor is None:
                return
