"""Issue 54 item 4 (review M1): one tenant flooding the text thread pool or a model server's slots
does not delay another tenant's small job beyond one job of the flood."""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest

from memforest.backends.http_slots import ClientSlots, default_per_tenant
from memforest.logs import log_context
from memforest.text import offload
from memforest.text.offload import Deadline, run_off_loop
from memforest.text.shares import FairShares

JOB_S = 0.3  # one job of the flood
FLOOD = 12  # jobs in the flood: FIFO, the small job would wait FLOOD / POOL_THREADS jobs


def _busy(_: Deadline) -> None:
    time.sleep(JOB_S)


def _small(_: Deadline) -> str:
    return "done"


async def _small_job_latency(flooders: list[str]) -> float:
    tasks = []
    for tenant in flooders:
        with log_context(tenant_id=tenant):
            tasks += [asyncio.ensure_future(run_off_loop(_busy, what="flood")) for _ in range(FLOOD)]
    await asyncio.sleep(0.05)  # the flood holds the pool and has queued the rest
    t0 = time.perf_counter()
    with log_context(tenant_id="tenant-a"):
        assert await run_off_loop(_small, what="small") == "done"
    latency = time.perf_counter() - t0
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await asyncio.sleep(JOB_S + 0.1)  # the threads finish their last jobs
    return latency


async def test_one_tenant_flooding_the_text_pool_leaves_a_thread_for_another() -> None:
    assert offload.PER_TENANT_THREADS < offload.POOL_THREADS
    latency = await _small_job_latency(["tenant-b"])
    # a thread is free at once; the bound leaves room for a loaded machine, far below one job
    assert latency < JOB_S / 2, f"the small job waited {latency:.2f} s behind the flood"


async def test_two_tenants_flooding_the_text_pool_delay_a_third_by_one_job_at_most() -> None:
    latency = await _small_job_latency(["tenant-b", "tenant-c"])
    # both threads busy: the next one to free goes to the tenant holding none
    assert latency < JOB_S * 1.5, f"the small job waited {latency:.2f} s behind the flood"


async def test_a_freed_place_goes_to_the_waiting_key_holding_fewest() -> None:
    shares = FairShares(2, 2)
    await shares.acquire("b")
    await shares.acquire("b")
    order: list[str] = []

    async def take(key: str) -> None:
        await shares.acquire(key)
        order.append(key)

    waiters = [asyncio.ensure_future(take(k)) for k in ("b", "b", "a")]
    await asyncio.sleep(0)
    shares.release("b")
    await asyncio.sleep(0)
    assert order == ["a"]  # queued last, but holding none
    shares.release("b")
    await asyncio.sleep(0)
    assert order == ["a", "b"]
    assert shares.held("a") == 1 and shares.held("b") == 1
    waiters[1].cancel()  # a cancelled waiter gives up its turn without leaking a place
    await asyncio.gather(*waiters, return_exceptions=True)
    shares.release("a")
    shares.release("b")
    assert shares.held("a") == shares.held("b") == 0
    await asyncio.wait_for(shares.acquire("c"), 1)
    await asyncio.wait_for(shares.acquire("c"), 1)


async def test_per_key_bound_holds_with_places_free() -> None:
    shares = FairShares(4, 1)
    await shares.acquire("b")
    second = asyncio.ensure_future(shares.acquire("b"))
    await asyncio.sleep(0.01)
    assert not second.done()
    await asyncio.wait_for(shares.acquire("a"), 1)
    second.cancel()
    with pytest.raises(asyncio.CancelledError):
        await second


async def test_model_slots_leave_room_for_another_tenant() -> None:
    async def handler(_: httpx.Request) -> httpx.Response:
        return httpx.Response(200)

    transport = httpx.MockTransport(handler)
    size = 4
    slots = ClientSlots(lambda n: httpx.AsyncClient(transport=transport), size, transport=transport)
    assert default_per_tenant(size) == 3
    release = asyncio.Event()
    holding = 0

    async def hold_slot() -> None:
        nonlocal holding
        async with slots.slot():
            holding += 1
            await release.wait()

    with log_context(tenant_id="tenant-b"):
        flood = [asyncio.ensure_future(hold_slot()) for _ in range(20)]
    await asyncio.sleep(0.05)
    assert holding == default_per_tenant(size)
    with log_context(tenant_id="tenant-a"):
        async with asyncio.timeout(1):
            async with slots.slot() as client:
                assert (await client.get("http://127.0.0.1/")).status_code == 200
    release.set()
    await asyncio.gather(*flood)
    assert holding == 20
    await slots.aclose()
