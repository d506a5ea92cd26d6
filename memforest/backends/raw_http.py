"""The model backends' client: :class:`ModelClient` (one per connection slot) and the one
keep-alive HTTP/1.1 connection (:class:`RawConnection`) it POSTs JSON over to a plain ``http://``
model server.

A model call's request and answer are small JSON bodies on a connection that one slot uses for
one call at a time (:mod:`memforest.backends.http_slots`), so the general client stack (httpx,
httpcore, h11 and anyio: streams, pool bookkeeping, event objects) is most of the client's CPU
per call. Here a call is one write of the request and a read of the status line, headers and body
(``Content-Length``, chunked, or up to the close). Errors are httpx's own exceptions, so callers
classify them as before: :class:`httpx.ConnectError`, :class:`httpx.ReadError`,
:class:`httpx.RemoteProtocolError`, and the timeouts. The answer is an :class:`httpx.Response`
(its body decoded as httpx does). The client's timeout bounds the whole call here (httpx bounds
each phase: connect, write, each read), which for a non-streamed answer is about the same.

A kept connection the server has closed meanwhile (its keep-alive timeout) is found either before
the write (the reader saw the end) or as an end of stream before any byte of the answer: the
request is then sent once more on a new connection, since the server never read it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

import httpx


class RawConnection:
    """POSTs to ``host:port`` over one reused connection (not safe for concurrent calls)."""

    def __init__(self, url: httpx.URL, headers: httpx.Headers, timeout_s: float | None) -> None:
        self.host = url.host
        self.port = url.port or 80
        host = url.netloc.decode("ascii")
        fixed = [f"Host: {host}"] + [
            f"{k}: {v}" for k, v in headers.multi_items() if k.lower() not in ("host", "accept-encoding", "connection")
        ]
        self._fixed = ("\r\n".join(fixed) + "\r\n").encode("latin-1")
        self.timeout_s = timeout_s
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def post(self, url: httpx.URL, body: bytes, content_type: str) -> httpx.Response:
        """POST ``body`` to ``url`` (of this connection's host) and read the whole answer."""
        head = (
            f"POST {url.raw_path.decode('ascii')} HTTP/1.1\r\n".encode("ascii")
            + self._fixed
            + f"Content-Type: {content_type}\r\nContent-Length: {len(body)}\r\n\r\n".encode("ascii")
        )
        try:
            async with asyncio.timeout(self.timeout_s):
                return await self._exchange(head + body)
        except TimeoutError as exc:
            await self.aclose()
            raise httpx.ReadTimeout(f"no answer within {self.timeout_s} s") from exc
        except BaseException:
            await self.aclose()
            raise

    async def _exchange(self, data: bytes) -> httpx.Response:
        reused = self._usable()
        if not reused:
            await self._connect()
        try:
            return await self._send_and_read(data)
        except _ClosedBeforeAnswer:
            if not reused:
                raise httpx.RemoteProtocolError("server closed the connection without answering") from None
        await self.aclose()
        await self._connect()
        try:
            return await self._send_and_read(data)
        except _ClosedBeforeAnswer:
            raise httpx.RemoteProtocolError("server closed the connection without answering") from None

    def _usable(self) -> bool:
        reader, writer = self._reader, self._writer
        return reader is not None and writer is not None and not reader.at_eof() and not writer.is_closing()

    async def _connect(self) -> None:
        try:
            self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
        except OSError as exc:
            raise httpx.ConnectError(f"{type(exc).__name__}: {exc}") from exc

    async def _send_and_read(self, data: bytes) -> httpx.Response:
        reader, writer = self._reader, self._writer
        assert reader is not None and writer is not None
        try:
            writer.write(data)
            await writer.drain()
            head = await reader.readuntil(b"\r\n\r\n")
        except asyncio.IncompleteReadError as exc:
            if not exc.partial:
                raise _ClosedBeforeAnswer from exc
            raise httpx.RemoteProtocolError("server closed the connection mid-answer") from exc
        except asyncio.LimitOverrunError as exc:
            raise httpx.RemoteProtocolError("answer headers too long") from exc
        except (ConnectionResetError, BrokenPipeError) as exc:
            raise _ClosedBeforeAnswer from exc
        except OSError as exc:
            raise httpx.WriteError(f"{type(exc).__name__}: {exc}") from exc
        status, headers, keep = _parse_head(head)
        try:
            body = await _read_body(reader, headers, keep)
        except OSError as exc:
            raise httpx.ReadError(f"{type(exc).__name__}: {exc}") from exc
        if not keep:
            await self.aclose()
        response = httpx.Response(status, headers=headers, stream=httpx.ByteStream(body))
        await response.aread()  # decodes a Content-Encoding as httpx does
        return response

    async def aclose(self) -> None:
        """Close the connection (a later call opens a new one)."""
        writer, self._reader, self._writer = self._writer, None, None
        if writer is not None:
            writer.close()
            with contextlib.suppress(OSError, ConnectionError):
                await writer.wait_closed()


class ModelClient(httpx.AsyncClient):
    """A slot's client. Model calls (:meth:`post_json`) set no cookie, follow no redirect and run no
    auth flow, so the client's layer around them (URL merging and parsing, cookie extraction) is
    CPU spent on nothing: they go to a plain-http server over the slot's own raw connection
    (:mod:`memforest.backends.raw_http`), and otherwise straight to the transport the client picks
    for their URL (a proxy's from the environment, https, a test transport). ``ping`` and
    anything else use the ordinary client methods."""

    def __init__(self, *, raw: bool, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._routes: dict[str, tuple[httpx.URL, httpx.AsyncBaseTransport, RawConnection | None]] = {}
        self._raw = raw
        self._connection: RawConnection | None = None

    def route(self, path: str) -> tuple[httpx.URL, httpx.AsyncBaseTransport, RawConnection | None]:
        """``base_url`` joined with ``path`` (as the client's own merging does), the transport for
        it, and, for a plain-http URL the client's own pool would serve (no proxy, no test
        transport), the slot's raw connection; resolved once per path."""
        route = self._routes.get(path)
        if route is None:
            url = httpx.URL(str(self.base_url) + path.lstrip("/"))
            transport = self._transport_for_url(url)
            raw = None
            if self._raw and url.scheme == "http" and transport is self._transport:
                if self._connection is None:
                    self._connection = RawConnection(url, self.headers, self.timeout.read)
                raw = self._connection
            route = self._routes[path] = (url, transport, raw)
        return route

    async def post_json(self, path: str, payload: dict[str, Any]) -> httpx.Response:
        """POST ``payload`` as JSON (encoded as the client's ``json=`` does) with the client's
        headers and timeout; the body is read before returning."""
        url, transport, raw = self.route(path)
        body = json.dumps(payload, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()
        if raw is not None:
            return await raw.post(url, body, "application/json")
        headers = self.headers.copy()
        headers["Content-Type"] = "application/json"
        request = httpx.Request(
            "POST", url, headers=headers, content=body, extensions={"timeout": self.timeout.as_dict()}
        )
        response = await transport.handle_async_request(request)
        response.request = request
        try:
            await response.aread()
        finally:
            await response.aclose()
        return response

    async def aclose(self) -> None:
        """Close the raw connection and the client."""
        if self._connection is not None:
            await self._connection.aclose()
        await super().aclose()


class _ClosedBeforeAnswer(Exception):
    """The connection ended before any byte of the answer."""


def _parse_head(head: bytes) -> tuple[int, list[tuple[str, str]], bool]:
    """Status, headers and whether the connection stays open, from the answer's head."""
    lines = head[:-4].decode("latin-1").split("\r\n")
    parts = lines[0].split(" ", 2)
    if len(parts) < 2 or not parts[0].startswith("HTTP/1.") or not parts[1].isdigit():
        raise httpx.RemoteProtocolError(f"malformed status line {lines[0][:80]!r}")
    headers = []
    for line in lines[1:]:
        name, sep, value = line.partition(":")
        if not sep:
            raise httpx.RemoteProtocolError(f"malformed header line {line[:80]!r}")
        headers.append((name.strip(), value.strip()))
    connection = ",".join(v for k, v in headers if k.lower() == "connection").lower()
    keep = "close" not in connection and (parts[0] != "HTTP/1.0" or "keep-alive" in connection)
    return int(parts[1]), headers, keep


async def _read_body(reader: asyncio.StreamReader, headers: list[tuple[str, str]], keep: bool) -> bytes:
    """The body: by Content-Length, chunked, or (a closing connection without either) to the end."""
    fields = {k.lower(): v for k, v in headers}
    try:
        if "chunked" in fields.get("transfer-encoding", "").lower():
            return await _read_chunked(reader)
        if "content-length" in fields:
            return await reader.readexactly(int(fields["content-length"]))
    except asyncio.IncompleteReadError as exc:
        raise httpx.RemoteProtocolError("server closed the connection mid-body") from exc
    except ValueError as exc:
        raise httpx.RemoteProtocolError("malformed Content-Length or chunk size") from exc
    if keep:
        raise httpx.RemoteProtocolError("answer without a length on a kept connection")
    return await reader.read()


async def _read_chunked(reader: asyncio.StreamReader) -> bytes:
    chunks: list[bytes] = []
    while True:
        size = int((await reader.readuntil(b"\r\n")).split(b";", 1)[0].strip(), 16)
        if size == 0:
            while (await reader.readuntil(b"\r\n")) != b"\r\n":  # trailers
                pass
            return b"".join(chunks)
        chunks.append(await reader.readexactly(size))
        await reader.readexactly(2)
