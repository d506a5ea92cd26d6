"""The connection budget of one HTTP model backend: ``size`` slots, one keep-alive connection each.

httpcore's pool walks every pooled connection (and polls every idle socket) each time a request
is queued or released, so with dozens of connections in one pool the client spends several
milliseconds of CPU per model call, several times what one connection per client costs
(ADR 0017). A slot here is a client of its own with a single connection, handed out last-in
first-out so warm connections are reused; waiting for a free slot is the backend's concurrency
limit.

Slots are shared fairly between tenants (:mod:`memforest.text.shares`): one tenant holds at most
``per_tenant`` of them (three quarters by default), and a freed slot goes to the waiting tenant
holding the fewest, so one tenant's flood of model calls does not queue another tenant's behind it.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Generic, TypeVar

import httpx

from memforest.text.shares import FairShares, current_tenant

C = TypeVar("C", bound=httpx.AsyncClient)


def default_per_tenant(size: int) -> int:
    """The slots one tenant may hold of ``size``: three quarters, at least one."""
    return max(1, size - size // 4)


class ClientSlots(Generic[C]):
    """``size`` single-connection clients made on first use by ``make_client(max_connections)``.

    With a ``transport`` (a test fake) every slot shares one client over that transport. One tenant
    holds at most ``per_tenant`` slots at once (default :func:`default_per_tenant`).
    """

    def __init__(
        self,
        make_client: Callable[[int], C],
        size: int,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        per_tenant: int | None = None,
    ) -> None:
        self._make_client = make_client
        self._available = FairShares(size, per_tenant or default_per_tenant(size))
        self._shared = make_client(size) if transport is not None else None
        self._free: list[C] = []
        self._made: list[C] = []

    @contextlib.asynccontextmanager
    async def slot(self) -> AsyncIterator[C]:
        """Wait for a free slot (within the calling tenant's share); yield its client for one request."""
        async with self._available.hold(current_tenant()):
            if self._shared is not None:
                yield self._shared
                return
            client = self._free.pop() if self._free else self._new()
            try:
                yield client
            finally:
                self._free.append(client)

    def _new(self) -> C:
        client = self._make_client(1)
        self._made.append(client)
        return client

    async def aclose(self) -> None:
        """Close every client made so far."""
        clients = [*self._made, *([self._shared] if self._shared is not None else [])]
        self._made, self._free = [], []
        for client in clients:
            await client.aclose()
