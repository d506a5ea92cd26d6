"""Work still arriving for a one-shot worker run: its idle loops wait for the next arrival instead of
stopping, so jobs start while later sessions are still being accepted (as a served deployment's
workers start a session's extraction as soon as it is accepted)."""

from __future__ import annotations

import asyncio

__all__ = ["Arrivals"]


class Arrivals:
    """Signals "a job was queued", each waking one idle loop, until :meth:`close`. A loop that found
    no work while the feed was open waits here, then looks again; one that found none after the
    close stops. (A signal given while no loop waits is kept for the next one.)"""

    def __init__(self) -> None:
        self._queued = asyncio.Semaphore(0)
        self._closed = asyncio.Event()

    @property
    def closed(self) -> bool:
        """No more arrivals."""
        return self._closed.is_set()

    def arrived(self) -> None:
        """A job was queued: wake one waiting loop (or the next to wait)."""
        self._queued.release()

    def close(self) -> None:
        """No more jobs will arrive: every waiting loop looks once more, then stops when idle."""
        self._closed.set()

    async def wait(self) -> None:
        """Until the next arrival or the close."""
        if self.closed:
            return
        waits = {asyncio.ensure_future(self._queued.acquire()), asyncio.ensure_future(self._closed.wait())}
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:  # the other one, or both when the waiter itself is cancelled
            for task in waits:
                task.cancel()
