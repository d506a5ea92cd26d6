"""The raw keep-alive connection of the model backends against a scripted HTTP server on 127.0.0.1."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable

import httpx
import pytest

from memforest.backends.raw_http import ModelClient, RawConnection

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
            await asyncio.sleep(0.05)  # let the close arrive, or not: both paths reconnect
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
        await asyncio.sleep(5)

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
    """A proxy from the environment, https or a test transport keep httpx; plain http uses the raw
    connection, one per client, shared by its paths."""
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    plain = ModelClient(raw=True, base_url="http://127.0.0.1:9/v1")
    chat, embed = plain.route("/chat/completions")[2], plain.route("/embeddings")[2]
    assert chat is not None and chat is embed
    assert str(plain.route("/chat/completions")[0]) == "http://127.0.0.1:9/v1/chat/completions"
    assert ModelClient(raw=True, base_url="https://127.0.0.1:9/v1").route("/chat/completions")[2] is None
    fake = httpx.MockTransport(lambda request: httpx.Response(200))
    assert ModelClient(raw=False, base_url="http://127.0.0.1:9/v1", transport=fake).route("/x")[2] is None
    monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:3128")
    assert ModelClient(raw=True, base_url="http://10.0.0.1:9/v1").route("/chat/completions")[2] is None
