"""pipeline.arrivals: the feed that keeps a one-shot worker's idle loops waiting while sessions are
still being accepted (ADR 0029)."""

from __future__ import annotations

import asyncio

import pytest

from memforest.pipeline.arrivals import Arrivals


async def _pending(task: asyncio.Task[None]) -> bool:
    await asyncio.sleep(0.01)
    return not task.done()


async def test_a_signal_wakes_one_waiter_and_is_kept_when_none_waits() -> None:
    feed = Arrivals()
    feed.arrived()  # nobody waits yet: kept for the next waiter
    await asyncio.wait_for(feed.wait(), 1)
    first, second = asyncio.create_task(feed.wait()), asyncio.create_task(feed.wait())
    assert await _pending(first) and await _pending(second)
    feed.arrived()
    await asyncio.sleep(0.01)
    assert [first.done(), second.done()].count(True) == 1  # one signal, one loop looks again
    feed.close()
    await asyncio.wait_for(asyncio.gather(first, second), 1)


async def test_close_wakes_every_waiter_and_later_waits_return_at_once() -> None:
    feed = Arrivals()
    waiters = [asyncio.create_task(feed.wait()) for _ in range(3)]
    assert all([await _pending(w) for w in waiters])
    feed.close()
    await asyncio.wait_for(asyncio.gather(*waiters), 1)
    assert feed.closed
    await asyncio.wait_for(feed.wait(), 1)


async def test_a_cancelled_waiter_leaves_no_task_behind() -> None:
    feed = Arrivals()
    before = len(asyncio.all_tasks())
    waiter = asyncio.create_task(feed.wait())
    assert await _pending(waiter)
    waiter.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiter
    await asyncio.sleep(0)
    assert len(asyncio.all_tasks()) == before
    feed.arrived()  # the signal is not swallowed by the cancelled wait
    await asyncio.wait_for(feed.wait(), 1)
