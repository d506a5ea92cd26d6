"""A TCP relay to the test's PostgreSQL that can "restart" it: a real outage at the wire.

``down()`` closes every open connection (as a fast shutdown does) and, while down, answers new
connections the way a stopping server does (FATAL 57P03 "the database system is shutting down")
or refuses them outright. ``cut_at()`` restarts it at an exact point of a transaction: when a
statement passes, or when the server's answer to a later one (such as COMMIT) comes back."""

from __future__ import annotations

import asyncio
import contextlib
import struct
from dataclasses import dataclass


def fatal(sqlstate: str, message: str) -> bytes:
    """A FATAL ErrorResponse as PostgreSQL sends it."""
    fields = b"SFATAL\x00VFATAL\x00C" + sqlstate.encode() + b"\x00M" + message.encode() + b"\x00\x00"
    return b"E" + struct.pack("!i", 4 + len(fields)) + fields


def shutting_down() -> bytes:
    """The ErrorResponse a stopping PostgreSQL sends a new connection."""
    return fatal("57P03", "the database system is shutting down")


@dataclass(slots=True)
class Cut:
    """Restart when ``marker`` goes to the server (then, with ``reply``, only once the server's
    answer holding ``reply`` comes back on that connection: dropped, so the client never sees
    it), staying down ``down_for_s`` seconds. One shot."""

    marker: bytes
    reply: bytes | None
    down_for_s: float
    fired: bool = False


class Relay:
    """TCP on 127.0.0.1 to the server's unix socket, with a switch: ``down()`` closes every open
    connection and answers new ones with 57P03 (or refuses them: ``refuse=True``); ``up()``."""

    def __init__(self, unix_path: str) -> None:
        self.unix_path = unix_path
        self.is_up = True
        self.refuse = False
        self.port = 0
        self._server: asyncio.Server | None = None
        self._open: set[asyncio.StreamWriter] = set()
        self._clients: set[asyncio.StreamWriter] = set()
        self._cut: Cut | None = None

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    def url(self, database: str, user: str = "postgres") -> str:
        return f"postgresql+asyncpg://{user}@127.0.0.1:{self.port}/{database}?ssl=disable"

    async def down(self, *, refuse: bool = False) -> None:
        self.is_up, self.refuse = False, refuse
        for w in list(self._open):
            w.transport.abort()
        self._open.clear()

    def up(self) -> None:
        self.is_up = True

    def cut_at(self, marker: bytes, *, reply: bytes | None = None, down_for_s: float = 0.5) -> Cut:
        """Arm a one-shot restart in the middle of a transaction (see :class:`Cut`)."""
        self._cut = Cut(marker, reply, down_for_s)
        return self._cut

    async def terminate_sent(self) -> None:
        """What a fast shutdown first does to every backend: FATAL 57P01 to its client. The
        sockets stay open here (the server closes them a moment later)."""
        for w in list(self._clients):
            w.write(fatal("57P01", "terminating connection due to administrator command"))
            await w.drain()

    async def close(self) -> None:
        await self.down()
        if self._server is not None:
            self._server.close()

    async def _restart(self, down_for_s: float) -> None:
        await self.down()
        asyncio.get_running_loop().call_later(down_for_s, self.up)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if not self.is_up:
            with contextlib.suppress(Exception):
                if not self.refuse:
                    size = struct.unpack("!i", await reader.readexactly(4))[0]
                    await reader.readexactly(size - 4)  # the startup message
                    writer.write(shutting_down())
                    await writer.drain()
            writer.transport.abort()
            return
        up_reader, up_writer = await asyncio.open_unix_connection(self.unix_path)
        self._open |= {writer, up_writer}
        self._clients.add(writer)
        armed: list[Cut] = []  # this connection sent the marker of a cut that waits for a reply

        def cut_now(data: bytes, *, to_server: bool) -> Cut | None:
            cut = self._cut
            if cut is None or cut.fired:
                return None
            if to_server and cut.marker in data:
                if cut.reply is None:
                    cut.fired = True
                    return cut
                armed.append(cut)
            elif not to_server and armed and cut.reply is not None and cut.reply in data:
                cut.fired = True
                return cut
            return None

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter, *, to_server: bool) -> None:
            with contextlib.suppress(Exception):
                while data := await src.read(65536):
                    cut = cut_now(data, to_server=to_server)
                    if cut is not None:
                        await self._restart(cut.down_for_s)
                        break
                    dst.write(data)
                    await dst.drain()
            dst.transport.abort()

        await asyncio.gather(pipe(reader, up_writer, to_server=True), pipe(up_reader, writer, to_server=False))
        self._open -= {writer, up_writer}
        self._clients.discard(writer)
