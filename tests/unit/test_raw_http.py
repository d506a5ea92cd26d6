"""The raw keep-alive connection of the model backends against a scripted HTTP server on 127.0.0.1."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable

import httpx
import pytest
from pydantic import BaseModel

from memforest.backends import raw_http
from memforest.backends.base import UsageLedger
from memforest.backends.openai_http import OpenAIChatModel
from memforest.backends.raw_http import ModelClient, RawConnection
from memforest.settings import LLMSettings


class _Answer(BaseModel):
    answer: str


Answer = Callable[[int, bytes], bytes | None]  # (request number, body) -> raw answer, None: close


def _ok(body: dict[str, object], extra: str = "") -> bytes:
    data = json.dumps(body).encode()
    return (
        f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {len(data)}\r\n{extra}\r\n".encode()
        + data
    )


@contextlib.asynccontextmanager
async def _server(answer: Answer, *, close_after_each: bool = False) -> AsyncIterator[tuple[httpx.URL, list[int]]]:
    """Serve ``answer`` per request; yields the URL and the connection number of each request."""
    seen: list[int] = []
    conns = [0]

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conns[0] += 1
        me = conns[0]
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = next(
                    int(line.split(b":")[1])
                    for line in head.split(b"\r\n")
                    if line.lower().startswith(b"content-length")
                )
                body = await reader.readexactly(length)
                seen.append(me)
                out = answer(len(seen), body)
                if out is None:
                    break
                writer.write(out)
                await writer.drain()
                if close_after_each or b"Connection: close" in out:
                    break
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        yield httpx.URL(f"http://127.0.0.1:{port}/v1/chat/completions"), seen
    finally:
        server.close()
        await server.wait_closed()


def _conn(url: httpx.URL, timeout_s: float = 5.0) -> RawConnection:
    return RawConnection(url, httpx.Headers({"Accept": "application/json", "Authorization": "Bearer k"}), timeout_s)


async def test_keep_alive_reuses_one_connection() -> None:
    async with _server(lambda n, body: _ok({"n": n, "echo": json.loads(body)})) as (url, seen):
        conn = _conn(url)
        for i in range(3):
            response = await conn.post(url, json.dumps({"i": i}).encode(), "application/json")
            assert response.status_code == 200
            assert response.json() == {"n": i + 1, "echo": {"i": i}}
        await conn.aclose()
    assert seen == [1, 1, 1]


async def test_server_closing_an_idle_connection_is_reconnected() -> None:
    async with _server(lambda n, body: _ok({"n": n}), close_after_each=True) as (url, seen):
        conn = _conn(url)
        for i in range(3):
            await asyncio.sleep(0.05)  # let the close arrive: the kept connection is then replaced before the write
            assert (await conn.post(url, b"{}", "application/json")).json() == {"n": i + 1}
        await conn.aclose()
    assert seen == [1, 2, 3]


async def test_chunked_and_connection_close_answers() -> None:
    chunked = (
        b"HTTP/1.1 429 Too Many\r\nRetry-After: 2\r\nTransfer-Encoding: chunked\r\n\r\n"
        b"3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n"
    )
    closing = b"HTTP/1.1 503 Busy\r\nConnection: close\r\n\r\nlater"
    answers = {1: chunked, 2: closing}
    async with _server(lambda n, body: answers.get(n, _ok({"n": n}))) as (url, seen):
        conn = _conn(url)
        first = await conn.post(url, b"{}", "application/json")
        assert (first.status_code, first.text, first.headers["retry-after"]) == (429, "abcde", "2")
        second = await conn.post(url, b"{}", "application/json")
        assert (second.status_code, second.text) == (503, "later")
        third = await conn.post(url, b"{}", "application/json")
        assert third.json() == {"n": 3}
        await conn.aclose()
    assert seen == [1, 1, 2]


async def test_no_answer_on_a_new_connection_is_a_protocol_error() -> None:
    async with _server(lambda n, body: None) as (url, _seen):
        conn = _conn(url)
        with pytest.raises(httpx.RemoteProtocolError):
            await conn.post(url, b"{}", "application/json")


async def test_timeout_and_refused() -> None:
    async def never(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read()  # until the client gives up and closes
        writer.close()

    server = await asyncio.start_server(never, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    url = httpx.URL(f"http://127.0.0.1:{port}/v1/x")
    with pytest.raises(httpx.TimeoutException):
        await _conn(url, timeout_s=0.2).post(url, b"{}", "application/json")
    server.close()
    await server.wait_closed()
    with pytest.raises(httpx.ConnectError):
        await _conn(url).post(url, b"{}", "application/json")


def test_raw_connection_only_where_the_clients_own_pool_serves(monkeypatch: pytest.MonkeyPatch) -> None:
    """A proxy from the environment, https or a test transport keep the client's ``post``; plain
    http uses the raw connection, one per client, shared by its paths."""
    for name in (
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "NO_PROXY",
        "http_proxy",
        "https_proxy",
        "all_proxy",
        "no_proxy",
    ):
        monkeypatch.delenv(name, raising=False)
    plain = ModelClient(raw=True, base_url="http://127.0.0.1:9/v1")
    assert plain.connection is not None
    assert str(plain.url_for("/chat/completions")) == "http://127.0.0.1:9/v1/chat/completions"
    assert ModelClient(raw=True, base_url="https://127.0.0.1:9/v1").connection is None
    fake = httpx.MockTransport(lambda request: httpx.Response(200))
    assert ModelClient(raw=False, base_url="http://127.0.0.1:9/v1", transport=fake).connection is None
    assert ModelClient(raw=True, base_url="http://127.0.0.1:9/v1", transport=fake).connection is None
    monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:3128")
    assert ModelClient(raw=True, base_url="http://10.0.0.1:9/v1").connection is None
    assert ModelClient(raw=True, base_url="http://10.0.0.1:9/v1", trust_env=False).connection is not None
    monkeypatch.setenv("NO_PROXY", "10.0.0.1")
    assert ModelClient(raw=True, base_url="http://10.0.0.1:9/v1").connection is not None


async def test_without_the_raw_connection_calls_go_through_post() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={"ok": True})

    client = ModelClient(raw=False, base_url="http://127.0.0.1:9/v1", transport=httpx.MockTransport(handler))
    response = await client.post_json("/chat/completions", {"a": "é"})
    assert response.json() == {"ok": True}
    assert str(seen[0].url) == "http://127.0.0.1:9/v1/chat/completions"
    assert seen[0].headers["content-type"] == "application/json"
    assert json.loads(seen[0].content) == {"a": "é"}
    await client.aclose()


async def test_kept_connection_closed_after_reading_the_request_is_an_error() -> None:
    """The server reads the second request on the kept connection and closes it unanswered: it may
    have run it, so nothing is re-sent; the error is the caller's (its retry loop counts it), and
    the next call goes on a new connection."""
    async with _server(lambda n, body: None if n == 2 else _ok({"n": n})) as (url, seen):
        conn = _conn(url)
        assert (await conn.post(url, b"{}", "application/json")).json() == {"n": 1}
        with pytest.raises(httpx.RemoteProtocolError, match="without answering"):
            await conn.post(url, b"{}", "application/json")
        assert (await conn.post(url, b"{}", "application/json")).json() == {"n": 3}
        await conn.aclose()
    assert seen == [1, 1, 2]


async def test_kept_connection_failing_the_write_is_sent_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """A write that fails on the kept connection (reset under us: the server read nothing) sends the
    request once more on a new connection."""
    async with _server(lambda n, body: _ok({"n": n})) as (url, seen):
        conn = _conn(url)
        await conn.post(url, b"{}", "application/json")

        def reset(data: bytes) -> None:
            raise ConnectionResetError("reset by peer")

        monkeypatch.setattr(conn._writer, "write", reset)
        assert (await conn.post(url, b"{}", "application/json")).json() == {"n": 2}
        await conn.aclose()
    assert seen == [1, 2]


async def test_an_unanswered_call_is_a_counted_retry_of_the_backend() -> None:
    """Through the chat model: the close after the write reaches the retry loop (one retry)."""
    content = json.dumps({"answer": "yes"})
    chat_answer = _ok({"choices": [{"message": {"content": content}, "finish_reason": "stop"}]})
    async with _server(lambda n, body: None if n == 2 else chat_answer) as (url, seen):
        settings = LLMSettings(
            base_url=str(url).removesuffix("/chat/completions"), backoff_base_s=0.01, backoff_max_s=0.02
        )
        ledger = UsageLedger()
        async with OpenAIChatModel(settings) as chat:
            for _ in range(2):
                await chat.complete_json(system="s", user="u", schema=_Answer, stage="x", ledger=ledger)
        assert ledger.as_dict()["x"]["retries"] == 1
    assert seen == [1, 1, 2]


async def test_oversized_head_or_body_is_a_protocol_error(monkeypatch: pytest.MonkeyPatch) -> None:
    long_head = b"HTTP/1.1 200 OK\r\nX-Big: " + b"a" * (3 * raw_http.MAX_HEAD_BYTES) + b"\r\nContent-Length: 0\r\n\r\n"
    monkeypatch.setattr(raw_http, "MAX_ANSWER_BYTES", 1000)
    big_body = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + b"400\r\n" + b"x" * 1024 + b"\r\n0\r\n\r\n"
    answers = {1: long_head, 2: big_body}
    async with _server(lambda n, body: answers.get(n, _ok({"n": n}))) as (url, seen):
        conn = _conn(url)
        with pytest.raises(httpx.RemoteProtocolError, match=f"answer head over {raw_http.MAX_HEAD_BYTES} bytes"):
            await conn.post(url, b"{}", "application/json")
        with pytest.raises(httpx.RemoteProtocolError, match="answer body over 1000 bytes"):
            await conn.post(url, b"{}", "application/json")
        assert (await conn.post(url, b"{}", "application/json")).json() == {"n": 3}
        await conn.aclose()
    assert seen == [1, 2, 3]  # each failure closed its connection


async def test_malformed_answer_and_bad_configured_header() -> None:
    async with _server(lambda n, body: b"HTTP/1.1 200 OK\r\nBroken header\r\n\r\n") as (url, _seen):
        with pytest.raises(httpx.RemoteProtocolError, match="malformed answer"):
            await _conn(url).post(url, b"{}", "application/json")
    with pytest.raises(httpx.LocalProtocolError, match="invalid configured header Authorization") as caught:
        RawConnection(httpx.URL("http://127.0.0.1:9/x"), httpx.Headers({"Authorization": "Bearer k\r\nX-Evil: 1"}), 1.0)
    assert "Bearer" not in str(caught.value) and "Evil" not in str(caught.value)  # the key is never echoed
    assert caught.value.__cause__ is None and caught.value.__suppress_context__


async def test_a_call_cancelled_mid_answer_leaves_the_connection_usable() -> None:
    """Cancelled after half the answer arrived: the connection is closed, and the next call gets
    its own answer on a new connection (not the tail of the cancelled one)."""
    half = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n" + b'{"n": 1, "pad": "'
    answered = asyncio.Event()

    def answer(n: int, body: bytes) -> bytes:
        answered.set()
        return half if n == 1 else _ok({"n": n})

    async with _server(answer) as (url, seen):
        conn = _conn(url)
        call = asyncio.create_task(conn.post(url, b"{}", "application/json"))
        await answered.wait()
        await asyncio.sleep(0.05)  # the half answer is read; the call waits for the rest
        call.cancel()
        with pytest.raises(asyncio.CancelledError):
            await call
        assert (await conn.post(url, b"{}", "application/json")).json() == {"n": 2}
        assert (await conn.post(url, b"{}", "application/json")).json() == {"n": 3}
        await conn.aclose()
    assert seen == [1, 2, 2]


async def test_interim_answers_before_the_final_one_are_skipped() -> None:
    interim = b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </style.css>\r\n\r\n"
    async with _server(lambda n, body: interim + _ok({"n": n})) as (url, seen):
        conn = _conn(url)
        for i in range(2):
            response = await conn.post(url, b"{}", "application/json")
            assert (response.status_code, response.json()) == (200, {"n": i + 1})
        await conn.aclose()
    assert seen == [1, 1]
