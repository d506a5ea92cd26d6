"""The write path's process-local waits (ADR 0040): commit order among the sessions of this process,
and the queue of this process's refreshes of a forest."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from memforest.pipeline.commit_order import COMMITS, LOCAL_SESSIONS, OlderPending, commit_in_order
from memforest.pipeline.refresh import LocalQueue

T = uuid.UUID(int=7)


def test_a_session_sees_older_pending_sessions_of_its_forest_only() -> None:
    with LOCAL_SESSIONS.pending((T, 1), 5) as done:
        assert LOCAL_SESSIONS.older((T, 1), 6)
        assert not LOCAL_SESSIONS.older((T, 1), 5)
        assert not LOCAL_SESSIONS.older((T, 2), 6)
        done()
        assert not LOCAL_SESSIONS.older((T, 1), 6)
    with LOCAL_SESSIONS.pending((T, 1), 5):
        pass
    assert not LOCAL_SESSIONS.older((T, 1), 6)  # left at the block's end


async def test_a_commit_waits_for_an_older_local_session_without_attempting() -> None:
    calls: list[bool] = []

    async def attempt(check: bool) -> str:
        calls.append(check)
        return "committed"

    with LOCAL_SESSIONS.pending((T, 3), 1) as older_done:
        task = asyncio.create_task(commit_in_order(T, 3, 2, 30.0, attempt))
        await asyncio.sleep(0.05)
        assert calls == [] and not task.done()
        older_done()
        COMMITS.ring((T, 3))
        assert await asyncio.wait_for(task, 5) == "committed"
    assert calls == [True]


async def test_an_attempt_that_finds_an_older_session_pending_is_retried_and_the_last_does_not_check() -> None:
    calls: list[bool] = []

    async def attempt(check: bool) -> int:
        calls.append(check)
        if check:
            raise OlderPending(2)
        return len(calls)

    got = await asyncio.wait_for(commit_in_order(T, 4, 2, 0.2, attempt, poll_s=0.05), 5)
    assert calls[0] and not calls[-1] and all(calls[:-1]) and got == len(calls) >= 2


async def test_ordering_off_attempts_once_without_checking() -> None:
    calls: list[bool] = []

    async def attempt(check: bool) -> None:
        calls.append(check)

    await commit_in_order(T, 5, 2, 0.0, attempt)
    assert calls == [False]


async def test_refreshes_of_a_forest_queue_one_at_a_time_and_the_queue_is_dropped_when_empty() -> None:
    queue = LocalQueue()
    order: list[str] = []
    assert not queue.busy((T, 1))

    async def refresh(name: str) -> None:
        async with queue.hold((T, 1)):
            order.append(f"{name}+")
            await asyncio.sleep(0.02)
            order.append(f"{name}-")

    first = asyncio.create_task(refresh("a"))
    await asyncio.sleep(0)
    assert queue.busy((T, 1)) and not queue.busy((T, 2))
    await asyncio.gather(first, refresh("b"))
    assert order == ["a+", "a-", "b+", "b-"]
    assert not queue.busy((T, 1))


@pytest.fixture(autouse=True)
def _no_leftovers() -> None:
    assert not LOCAL_SESSIONS.older((T, 1), 10**9)
