"""The clients' 429/503 retry (one RetryPolicy for both), against a real HTTP server on 127.0.0.1
that refuses a set number of times before it answers."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest

from memforest.client import (
    ApiRateLimitedError,
    ApiServerError,
    MemForestClient,
    MemForestSyncClient,
    RetryPolicy,
)
from memforest.client.errors import retry_after_seconds

MakeServer = Callable[[list[tuple[int, str | None]]], "Refusing"]
FAST = RetryPolicy(retries=3, backoff_s=0.01, max_wait_s=5.0)


class Refusing:
    """A server answering ``/healthz`` with ``refusals`` errors (status, Retry-After), then the job."""

    def __init__(self, refusals: list[tuple[int, str | None]]) -> None:
        self.refusals = list(refusals)
        self.arrivals: list[float] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                outer.arrivals.append(time.monotonic())
                if outer.refusals:
                    status, retry_after = outer.refusals.pop(0)
                    body = json.dumps({"type": "https://memforest.dev/problems/x", "title": "no", "detail": "later"})
                    self.send_response(status)
                    if retry_after is not None:
                        self.send_header("Retry-After", retry_after)
                else:
                    body = json.dumps({"status": "ok"})
                    self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body.encode())

            def log_message(self, format: str, *args: object) -> None:
                return

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def refusing() -> Iterator[MakeServer]:
    made: list[Refusing] = []

    def make(refusals: list[tuple[int, str | None]]) -> Refusing:
        server = Refusing(refusals)
        made.append(server)
        return server

    yield make
    for server in made:
        server.close()


def test_sync_client_retries_429_and_503_then_answers(refusing: MakeServer) -> None:
    server = refusing([(429, "1"), (503, None)])
    with MemForestSyncClient(server.url, "k", retry=FAST) as mf:
        health = mf.health()
    assert health == {"status": "ok"}
    assert len(server.arrivals) == 3
    assert server.arrivals[1] - server.arrivals[0] >= 0.9, "Retry-After: 1 was not honoured"


def test_async_client_retries_by_the_same_policy(refusing: MakeServer) -> None:
    server = refusing([(503, "0"), (429, "0")])

    async def run() -> dict[str, object]:
        async with MemForestClient(server.url, "k", retry=FAST) as mf:
            return await mf.health()

    assert asyncio.run(run()) == {"status": "ok"}
    assert len(server.arrivals) == 3


def test_retries_end_with_the_error_and_its_retry_after(refusing: MakeServer) -> None:
    server = refusing([(429, "0")] * 5)
    with MemForestSyncClient(server.url, "k", retry=FAST) as mf, pytest.raises(ApiRateLimitedError) as caught:
        mf.health()
    assert len(server.arrivals) == 4  # the first try and three retries
    assert caught.value.status == 429
    assert caught.value.retry_after == 0.0


def test_retry_off_and_long_waits_raise_at_once(refusing: MakeServer) -> None:
    server = refusing([(503, None)])
    with MemForestSyncClient(server.url, "k", retry=RetryPolicy(retries=0)) as mf, pytest.raises(ApiServerError):
        mf.health()
    assert len(server.arrivals) == 1
    server = refusing([(429, "3600")])
    with MemForestSyncClient(server.url, "k", retry=FAST) as mf, pytest.raises(ApiRateLimitedError) as caught:
        mf.health()
    assert len(server.arrivals) == 1
    assert caught.value.retry_after == 3600.0


def test_other_errors_are_not_retried(refusing: MakeServer) -> None:
    server = refusing([(500, "0"), (500, "0")])
    with MemForestSyncClient(server.url, "k", retry=FAST) as mf, pytest.raises(ApiServerError):
        mf.health()
    assert len(server.arrivals) == 1


def test_retry_after_reads_seconds_and_http_dates() -> None:
    assert retry_after_seconds("7") == 7.0
    assert retry_after_seconds(None) is None
    assert retry_after_seconds("soon") is None
    later = format_datetime(datetime.now(UTC) + timedelta(seconds=30), usegmt=True)
    assert 25 <= (retry_after_seconds(later) or 0) <= 30
    response = httpx.Response(429, headers={"Retry-After": "2"})
    assert RetryPolicy().delay(response, 0) == 2.0
    assert RetryPolicy().delay(response, 3) is None
    assert RetryPolicy().delay(httpx.Response(500), 0) is None
    backoff = RetryPolicy(backoff_s=1.0).delay(httpx.Response(503), 2)
    assert backoff is not None and 2.0 <= backoff <= 4.0
