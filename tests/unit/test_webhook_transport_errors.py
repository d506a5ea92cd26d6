"""The webhook client's transport turns httpcore's errors into the httpx errors they stand for, as
httpx's own transport does (``webhook_target._CheckedTransport``), so the deliverer's ``post_once``
reads them and records the attempt as failed ("unreachable" or "timeout"). No database: the
deliverer records what ``post_once`` returns. Every receiver is a scripted server on 127.0.0.1."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import struct
from collections.abc import AsyncIterator, Awaitable, Callable

import httpcore
import httpx
import pytest

from memforest.app import webhook_delivery, webhook_target
from memforest.app.webhook_delivery import Outcome, post_once
from memforest.app.webhook_target import delivery_client
from memforest.settings import WebhookSettings

Receiver = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]
# receivers that answer (garbage, a hang-up, a reset) do so at once: a long timeout keeps a stalled
# CI runner from turning their error into a timeout; only the silent receiver needs a short one
CFG = WebhookSettings(allow_private=True, timeout_s=10, deadline_s=30)
SHORT = WebhookSettings(allow_private=True, timeout_s=0.5, deadline_s=10)


@contextlib.asynccontextmanager
async def _receiver(handle: Receiver) -> AsyncIterator[str]:
    """A server on 127.0.0.1 that answers every connection with ``handle``; its URL."""
    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}/hook"
    finally:
        server.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(server.wait_closed(), 2)


async def _request_read(reader: asyncio.StreamReader) -> None:
    await reader.readuntil(b"\r\n\r\n")
    await reader.readexactly(2)  # the body: b"{}"


async def _silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    await _request_read(reader)
    await asyncio.sleep(5)  # never answers
    writer.close()


def _answering(raw: bytes) -> Receiver:
    """A receiver that reads the request, sends ``raw`` and closes."""

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await _request_read(reader)
        writer.write(raw)
        await writer.drain()
        writer.close()

    return answer


_garbage = _answering(b"SPAM SPAM SPAM\r\n\r\n")
_cut_body = _answering(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly ten b")


async def _hangs_up(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    await _request_read(reader)
    writer.close()  # closes without a word of answer


async def _resets(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    await _request_read(reader)
    sock = writer.get_extra_info("socket")
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # close as a reset
    writer.close()


def _closed_port() -> int:
    """A port on 127.0.0.1 nothing listens on (bound, then let go)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def _sent(
    url: str, caplog: pytest.LogCaptureFixture, cfg: WebhookSettings = CFG
) -> tuple[type[BaseException], Outcome, str]:
    """What a POST to ``url`` raises, what the deliverer's attempt made of it, and what it logged."""
    async with delivery_client(cfg) as client:
        with pytest.raises(httpx.HTTPError) as raised:
            await client.post(url, content=b"{}")
        with caplog.at_level(logging.INFO, logger=webhook_delivery.__name__):
            outcome = await post_once(client, cfg, url, {"Content-Type": "application/json"}, b"{}")
    logged = " ".join(r.getMessage() for r in caplog.records if r.name == webhook_delivery.__name__)
    return raised.type, outcome, logged


async def test_connection_refused_is_a_connect_error(caplog: pytest.LogCaptureFixture) -> None:
    error, outcome, logged = await _sent(f"http://127.0.0.1:{_closed_port()}/hook", caplog)
    assert error is httpx.ConnectError
    assert outcome == Outcome(None, "unreachable") and "cut short: ConnectError" in logged


async def test_a_target_not_allowed_is_a_connect_error() -> None:
    async with _receiver(_silent) as url, delivery_client(WebhookSettings(timeout_s=0.5)) as client:
        with pytest.raises(httpx.ConnectError, match="target not allowed"):  # (loopback is not allowed)
            await client.post(url, content=b"{}")


async def test_a_receiver_that_never_answers_is_a_read_timeout(caplog: pytest.LogCaptureFixture) -> None:
    async with _receiver(_silent) as url:
        error, outcome, logged = await _sent(url, caplog, SHORT)
    assert error is httpx.ReadTimeout
    assert outcome == Outcome(None, "timeout") and "cut short" not in logged


async def test_garbage_for_an_answer_is_a_remote_protocol_error(caplog: pytest.LogCaptureFixture) -> None:
    async with _receiver(_garbage) as url:
        error, outcome, logged = await _sent(url, caplog)
    assert error is httpx.RemoteProtocolError
    assert outcome == Outcome(None, "unreachable") and "cut short: RemoteProtocolError" in logged


async def test_a_connection_closed_unanswered_is_a_remote_protocol_error(caplog: pytest.LogCaptureFixture) -> None:
    async with _receiver(_hangs_up) as url:
        error, outcome, logged = await _sent(url, caplog)
    assert error is httpx.RemoteProtocolError
    assert outcome == Outcome(None, "unreachable") and "cut short: RemoteProtocolError" in logged


async def test_a_connection_reset_unanswered_is_a_read_error(caplog: pytest.LogCaptureFixture) -> None:
    async with _receiver(_resets) as url:
        error, outcome, logged = await _sent(url, caplog)
    assert error is httpx.ReadError  # (the request was read whole, then the connection reset)
    assert outcome == Outcome(None, "unreachable") and "cut short: ReadError" in logged


async def test_a_body_cut_short_raises_an_httpx_error_from_the_answer_stream() -> None:
    async with _receiver(_cut_body) as url, delivery_client(CFG) as client:
        with pytest.raises(httpx.RemoteProtocolError):
            await client.post(url, content=b"{}")
        # the status came back, so the attempt counts as answered (``post_once``)
        assert await post_once(client, CFG, url, {}, b"{}") == Outcome(200, "")


# httpcore's errors but the pool's own (a connection not available is retried inside the pool)
CORE_ERRORS = [
    n
    for n in httpcore.__all__
    if isinstance(getattr(httpcore, n), type) and issubclass(getattr(httpcore, n), Exception)
    and n != "ConnectionNotAvailable"
]  # fmt: skip


@pytest.mark.parametrize("name", CORE_ERRORS)
def test_every_httpcore_error_becomes_the_httpx_error_of_its_name(name: str) -> None:
    core = getattr(httpcore, name)
    with pytest.raises(httpx.TransportError) as raised, webhook_target._httpx_errors():
        raise core("what the connection said")
    assert type(raised.value) is getattr(httpx, name) and isinstance(raised.value.__cause__, core)
    assert str(raised.value) == "what the connection said"
