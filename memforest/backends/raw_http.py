"""The model backends' client: :class:`ModelClient` (one per connection slot) and the one
keep-alive HTTP/1.1 connection (:class:`RawConnection`) it POSTs JSON over to a plain ``http://``
model server.

A model call's request and answer are small JSON bodies on a connection that one slot uses for
one call at a time (:mod:`memforest.backends.http_slots`), so the general client stack around the
protocol (httpx's client and transport, httpcore's pool, anyio's streams) is most of the client's
CPU per call. Here the protocol is h11's (the sans-IO HTTP/1.1 library httpcore itself uses): it
builds and validates the request, parses the answer (status line, headers, ``Content-Length`` or
chunked body) and tracks whether the connection can be reused; this module only moves its bytes
over an asyncio stream, one write per request. The answer's head is bounded by
:data:`MAX_HEAD_BYTES` and its body by :data:`MAX_ANSWER_BYTES`.

Errors are httpx's own exceptions, so callers classify them as before: :class:`httpx.ConnectError`,
:class:`httpx.ReadError`, :class:`httpx.WriteError`, :class:`httpx.RemoteProtocolError`,
:class:`httpx.LocalProtocolError` and the timeouts. The answer is an :class:`httpx.Response` (its
body decoded as httpx does). The client's timeout bounds the whole call here (httpx bounds each
phase: connect, write, each read), which for a non-streamed answer is about the same.

A kept connection the server has closed meanwhile (its keep-alive timeout) is replaced by a new
one before the write when the reader has seen its end or an error, and the request is sent once
more on a new connection when the write itself fails on it: in both cases the server read nothing.
An end of stream or a reset after the request was written (the server may have read it, and run
it) is an :class:`httpx.RemoteProtocolError` / :class:`httpx.ReadError` for the caller's retry
loop, which counts it and backs off, as httpcore does; nothing is re-sent here.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import urllib.request
from typing import Any

import h11
import httpx

MAX_HEAD_BYTES = 64 * 1024
"""The most bytes of an answer head (status line and headers) buffered without its end before
failing (h11's ``max_incomplete_event_size``; one read may add up to ``_READ_SIZE`` more)."""

MAX_ANSWER_BYTES = 64 * 1024 * 1024
"""The largest answer body read before failing: far above the largest model answer (an embedding
batch of a few hundred vectors is a few MB of JSON)."""

_READ_SIZE = 64 * 1024
_TOKEN = re.compile(rb"[-!#$%&'*+.^_`|~0-9A-Za-z]+")
_SKIPPED_HEADERS = frozenset({"host", "accept-encoding", "connection", "content-type", "content-length"})


class RawConnection:
    """POSTs to ``host:port`` over one reused connection (not safe for concurrent calls)."""

    def __init__(self, url: httpx.URL, headers: httpx.Headers, timeout_s: float | None) -> None:
        self.host = url.host
        self.port = url.port or 80
        self._fixed = [(b"Host", url.netloc)] + [
            (k, v) for k, v in headers.raw if k.decode("latin-1").lower() not in _SKIPPED_HEADERS
        ]
        _check_headers(self._fixed)
        self.timeout_s = timeout_s
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._h11: h11.Connection | None = None

    async def post(self, url: httpx.URL, body: bytes, content_type: str) -> httpx.Response:
        """POST ``body`` to ``url`` (of this connection's host) and read the whole answer."""
        headers = [
            *self._fixed,
            (b"Content-Type", content_type.encode("latin-1")),
            (b"Content-Length", b"%d" % len(body)),
        ]
        request = h11.Request(method="POST", target=url.raw_path, headers=headers)
        try:
            async with asyncio.timeout(self.timeout_s):
                return await self._exchange(request, body)
        except TimeoutError as exc:
            await self.aclose()
            raise httpx.ReadTimeout(f"no answer within {self.timeout_s} s") from exc
        except BaseException:
            await self.aclose()
            raise

    async def _exchange(self, request: h11.Request, body: bytes) -> httpx.Response:
        kept = self._usable()
        if not kept:
            await self._connect()
        try:
            await self._send(request, body, kept=kept)
        except _ClosedBeforeWrite:  # the kept connection was closed under us: the server read nothing
            await self.aclose()
            await self._connect()
            await self._send(request, body, kept=False)
        return await self._read()

    def _usable(self) -> bool:
        reader, writer, conn = self._reader, self._writer, self._h11
        return (
            reader is not None
            and writer is not None
            and conn is not None
            and conn.our_state is h11.IDLE
            and conn.their_state is h11.IDLE
            and not reader.at_eof()
            and reader.exception() is None
            and not writer.is_closing()
        )

    async def _connect(self) -> None:
        try:
            self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
        except OSError as exc:
            raise httpx.ConnectError(f"{type(exc).__name__}: {exc}") from exc
        self._h11 = h11.Connection(h11.CLIENT, max_incomplete_event_size=MAX_HEAD_BYTES)

    async def _send(self, request: h11.Request, body: bytes, *, kept: bool) -> None:
        """Write the whole request; a reset or broken pipe on a ``kept`` connection is
        :class:`_ClosedBeforeWrite` (the caller sends it once more on a new one)."""
        writer, conn = self._writer, self._h11
        assert writer is not None and conn is not None
        try:
            data = conn.send(request) + conn.send(h11.Data(data=body)) + conn.send(h11.EndOfMessage())
        except h11.LocalProtocolError as exc:
            raise httpx.LocalProtocolError(str(exc)) from exc
        try:
            writer.write(data)
            await writer.drain()
        except (ConnectionResetError, BrokenPipeError) as exc:
            if kept:
                raise _ClosedBeforeWrite from exc
            raise httpx.WriteError(f"{type(exc).__name__}: {exc}") from exc
        except OSError as exc:
            raise httpx.WriteError(f"{type(exc).__name__}: {exc}") from exc

    async def _read(self) -> httpx.Response:
        """Read the answer to the request written; keep the connection when h11 says it may be reused."""
        reader, conn = self._reader, self._h11
        assert reader is not None and conn is not None
        try:
            response = await _read_answer(reader, conn)
        except h11.RemoteProtocolError as exc:
            raise httpx.RemoteProtocolError(_protocol_message(exc)) from exc
        if conn.our_state is h11.DONE and conn.their_state is h11.DONE:
            conn.start_next_cycle()
        else:  # the answer or the server asked to close (Connection: close, HTTP/1.0, read to the end)
            await self.aclose()
        await response.aread()  # decodes a Content-Encoding as httpx does
        return response

    async def aclose(self) -> None:
        """Close the connection (a later call opens a new one)."""
        writer, self._reader, self._writer, self._h11 = self._writer, None, None, None
        if writer is not None:
            writer.close()
            with contextlib.suppress(OSError, ConnectionError):
                await writer.wait_closed()


async def _read_answer(reader: asyncio.StreamReader, conn: h11.Connection) -> httpx.Response:
    """Read one whole answer from ``conn``'s events, feeding it what ``reader`` receives (1xx
    interim answers are skipped)."""
    head: h11.Response | None = None
    chunks: list[bytes] = []
    received = size = 0
    while True:
        event = conn.next_event()
        if event is h11.NEED_DATA:
            data = await _receive(reader)
            if not data and not received:  # as httpcore: a transport error for the caller's retry loop
                raise httpx.RemoteProtocolError("server closed the connection without answering")
            received += len(data)
            conn.receive_data(data)
        elif isinstance(event, h11.Response):
            head = event
        elif isinstance(event, h11.Data):
            size += len(event.data)
            if size > MAX_ANSWER_BYTES:
                raise httpx.RemoteProtocolError(f"answer body over {MAX_ANSWER_BYTES} bytes")
            chunks.append(bytes(event.data))
        elif isinstance(event, h11.EndOfMessage) and head is not None:
            headers = list(head.headers.raw_items())
            return httpx.Response(head.status_code, headers=headers, stream=httpx.ByteStream(b"".join(chunks)))
        elif not isinstance(event, h11.InformationalResponse):  # ConnectionClosed, PAUSED
            raise httpx.RemoteProtocolError(f"unexpected answer event {type(event).__name__}")


async def _receive(reader: asyncio.StreamReader) -> bytes:
    """The next bytes from the server (``b""`` at its end)."""
    try:
        return await reader.read(_READ_SIZE)
    except OSError as exc:
        raise httpx.ReadError(f"{type(exc).__name__}: {exc}") from exc


def _check_headers(headers: list[tuple[bytes, bytes]]) -> None:
    """Let h11 refuse a header name or value that would break the request (CR, LF, NUL); the error
    names the header but never carries its value (an API key)."""
    for name, value in headers:
        host = [] if name.lower() == b"host" else [(b"Host", b"h")]
        try:
            h11.Request(method="POST", target="/", headers=[*host, (name, value)])
        except h11.LocalProtocolError:
            shown = name.decode("latin-1") if _TOKEN.fullmatch(name) else "(unprintable name)"
            raise httpx.LocalProtocolError(f"invalid configured header {shown} (its value is not shown)") from None


def _protocol_message(exc: h11.RemoteProtocolError) -> str:
    if "buffer too long" in str(exc).lower():
        return f"answer head over {MAX_HEAD_BYTES} bytes"
    return f"malformed answer: {exc}"


def _env_proxy_applies(url: httpx.URL) -> bool:
    """Whether a proxy from the environment (which httpx's ``trust_env`` follows) may apply to
    ``url``: any ``http`` or ``all`` proxy the host is not exempted from by ``no_proxy``."""
    proxies = urllib.request.getproxies()
    if not (proxies.get("http") or proxies.get("all")):
        return False
    return not urllib.request.proxy_bypass(url.host)


class ModelClient(httpx.AsyncClient):
    """A slot's client. Model calls (:meth:`post_json`) set no cookie, follow no redirect and run no
    auth flow: to a plain-http server that the client reaches directly (no proxy from the
    environment, no transport, proxy or mounts given) they go over the slot's own
    :class:`RawConnection`, decided once at construction; otherwise through the client's
    ``post``. ``ping`` and anything else use the ordinary client methods."""

    def __init__(self, *, raw: bool, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._urls: dict[str, httpx.URL] = {}
        direct = not any(kwargs.get(k) for k in ("transport", "proxy", "mounts"))
        proxied = self.trust_env and _env_proxy_applies(self.base_url)
        self._connection: RawConnection | None = None
        if raw and direct and self.base_url.scheme == "http" and not proxied:
            self._connection = RawConnection(self.base_url, self.headers, self.timeout.read)

    @property
    def connection(self) -> RawConnection | None:
        """The slot's raw connection, or None where model calls go through ``post``."""
        return self._connection

    def url_for(self, path: str) -> httpx.URL:
        """``base_url`` joined with ``path`` (as the client's own merging does), once per path."""
        url = self._urls.get(path)
        if url is None:
            url = self._urls[path] = httpx.URL(str(self.base_url) + path.lstrip("/"))
        return url

    async def post_json(self, path: str, payload: dict[str, Any]) -> httpx.Response:
        """POST ``payload`` as JSON (encoded as the client's ``json=`` does) with the client's
        headers and timeout; the body is read before returning."""
        body = json.dumps(payload, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()
        if self._connection is not None:
            return await self._connection.post(self.url_for(path), body, "application/json")
        return await self.post(path, content=body, headers={"Content-Type": "application/json"})

    async def aclose(self) -> None:
        """Close the raw connection and the client."""
        if self._connection is not None:
            await self._connection.aclose()
        await super().aclose()


class _ClosedBeforeWrite(Exception):
    """Writing the request found the kept connection reset or closed (nothing of it was read)."""
