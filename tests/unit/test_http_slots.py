"""The HTTP backends' connection slots, and the in-process wake-up of sessions waiting to commit."""

from __future__ import annotations

import asyncio
import time
import uuid

import httpx

from memforest.backends.http_slots import ClientSlots
from memforest.pipeline.commit_order import CommitBell


async def test_slots_make_at_most_size_clients_of_one_connection_and_reuse_them() -> None:
    in_flight = 0
    most = 0

    async def handler(request: httpx.Request) -> httpx.Response:
        nonlocal in_flight, most
        in_flight += 1
        most = max(most, in_flight)
        await asyncio.sleep(0.005)
        in_flight -= 1
        return httpx.Response(200, json={"ok": True})

    made: list[int] = []

    def make_client(connections: int) -> httpx.AsyncClient:
        made.append(connections)
        return httpx.AsyncClient(base_url="http://model.test", transport=httpx.MockTransport(handler))

    slots = ClientSlots(make_client, 3)

    async def call() -> int:
        async with slots.slot() as client:
            return (await client.get("/models")).status_code

    assert await asyncio.gather(*(call() for _ in range(20))) == [200] * 20
    assert made == [1, 1, 1]  # three single-connection clients, reused for all twenty calls
    assert most == 3
    await slots.aclose()


async def test_slots_over_a_given_transport_share_one_client() -> None:
    made: list[int] = []
    transport = httpx.MockTransport(lambda request: httpx.Response(204))

    def make_client(connections: int) -> httpx.AsyncClient:
        made.append(connections)
        return httpx.AsyncClient(base_url="http://model.test", transport=transport)

    slots = ClientSlots(make_client, 5, transport=transport)
    for _ in range(3):
        async with slots.slot() as client:
            assert (await client.get("/x")).status_code == 204
    assert made == [5]
    await slots.aclose()


async def test_commit_bell_wakes_waiters_of_its_forest_only() -> None:
    bell = CommitBell()
    mine, other = (uuid.uuid4(), 1), (uuid.uuid4(), 1)
    started = time.monotonic()
    waiter = asyncio.create_task(bell.wait(mine, timeout_s=5.0))
    bystander = asyncio.create_task(bell.wait(other, timeout_s=0.2))
    await asyncio.sleep(0.01)
    bell.ring(mine)
    await waiter
    assert time.monotonic() - started < 1.0  # woken by the ring, not by its 5 s timeout
    assert not bystander.done()
    await bystander  # times out by itself
    assert time.monotonic() - started >= 0.2
