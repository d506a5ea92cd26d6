"""Hostile webhook receivers: plain TCP servers on 127.0.0.1 that read an HTTP request and then
answer however a test says (a status, an endless body, headers dripped a byte at a time, nothing),
counting what they sent and how many connections are open."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field

__all__ = [
    "ENDLESS_STOPS_AT",
    "Answer",
    "Receiver",
    "answer_status",
    "drip_headers",
    "endless_body",
    "raw_receiver",
    "silent",
]

Answer = Callable[[asyncio.StreamWriter, "Receiver"], Awaitable[None]]


@dataclass
class Receiver:
    """What a raw receiver saw: the request heads it read, bytes it sent, connections open now."""

    url: str = ""
    heads: list[bytes] = field(default_factory=list)
    first_bytes: list[bytes] = field(default_factory=list)  # of each connection, before any parsing
    sent: int = 0
    connections: int = 0
    open: int = 0
    closing: asyncio.Event = field(default_factory=asyncio.Event)  # set when the server shuts down


async def _read_request(reader: asyncio.StreamReader, receiver: Receiver) -> bytes:
    """The request head (the body, by Content-Length, is read and dropped)."""
    head = await reader.readuntil(b"\r\n\r\n")
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            await reader.readexactly(int(line.split(b":", 1)[1]))
    return head


def answer_status(status: int) -> Answer:
    async def answer(writer: asyncio.StreamWriter, receiver: Receiver) -> None:
        writer.write(f"HTTP/1.1 {status} X\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".encode())
        await writer.drain()

    return answer


ENDLESS_STOPS_AT = 256 * 2**20  # bytes: where an "endless" body stops, so a client that reads it all survives


async def endless_body(writer: asyncio.StreamWriter, receiver: Receiver) -> None:
    """200, then a chunked body as fast as the client takes it, until the client hangs up (or
    ``ENDLESS_STOPS_AT``, to spare the test machine a client that reads it all)."""
    writer.write(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
    chunk = b"10000\r\n" + b"x" * 0x10000 + b"\r\n"
    while not (writer.is_closing() or receiver.closing.is_set()) and receiver.sent < ENDLESS_STOPS_AT:
        writer.write(chunk)
        receiver.sent += len(chunk)
        await writer.drain()


def drip_headers(every_s: float) -> Answer:
    """A status line, then one header byte every ``every_s`` seconds, never finishing the head."""

    async def answer(writer: asyncio.StreamWriter, receiver: Receiver) -> None:
        writer.write(b"HTTP/1.1 200 OK\r\nX-Drip: ")
        while not (writer.is_closing() or receiver.closing.is_set()):
            await writer.drain()
            await asyncio.sleep(every_s)
            writer.write(b"a")
            receiver.sent += 1

    return answer


async def silent(writer: asyncio.StreamWriter, receiver: Receiver) -> None:
    """Read the request, answer nothing."""
    await receiver.closing.wait()


@contextlib.asynccontextmanager
async def raw_receiver(answer: Answer, *, parse: bool = True, path: str = "/hook") -> AsyncIterator[Receiver]:
    """Serve ``answer`` on 127.0.0.1 (``parse=False``: keep the first bytes of each connection, then
    close it, as for a TLS ClientHello); yield the receiver with its ``url``."""
    receiver = Receiver()
    handlers: set[asyncio.Task[None]] = set()
    writers: set[asyncio.StreamWriter] = set()

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        handlers.add(task)
        writers.add(writer)
        receiver.connections += 1
        receiver.open += 1
        try:
            if not parse:
                receiver.first_bytes.append(await reader.read(4096))
                return
            receiver.heads.append(await _read_request(reader, receiver))
            await answer(writer, receiver)
        except (ConnectionError, asyncio.IncompleteReadError):
            pass  # the client went away
        finally:
            receiver.open -= 1
            writer.close()
            handlers.discard(task)

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    receiver.url = f"http://127.0.0.1:{port}{path}"
    try:
        yield receiver
    finally:
        server.close()
        receiver.closing.set()
        for writer in writers:
            writer.close()  # ends a drain that waits on a client that stopped reading
        await asyncio.wait_for(asyncio.gather(*handlers, return_exceptions=True), timeout=5)
