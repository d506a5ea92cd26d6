"""The event-loop probe of ``bench.faults`` (``bench.faults_probe``): every callback timed, its wall
and CPU seconds summed per bucket, long ones listed; and the window arithmetic the bench reads."""

from __future__ import annotations

import asyncio
import time

import pytest

from bench.faults_probe import BUCKET_S, SLOW_S, LoopProbe, loop_time


def test_a_blocking_callback_is_counted_and_listed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(asyncio.events.Handle, "_run", asyncio.events.Handle._run)  # undone after the test
    probe = LoopProbe()
    probe.install()

    async def main() -> float:
        await asyncio.sleep(0)
        start = time.monotonic()
        end = time.thread_time() + 0.05
        while time.thread_time() < end:  # computes on the loop for 50 ms of CPU, as a slow request would
            pass
        await asyncio.sleep(0)
        return start

    began = time.monotonic()
    asyncio.run(main())
    finished = time.monotonic()
    stats = probe.snapshot()
    window = loop_time(stats, began, finished)
    assert window["busy_s"] >= 0.05 and window["cpu_s"] >= 0.05
    assert window["longest_callback_s"] >= 0.05
    assert any(seconds >= SLOW_S for _, seconds in stats["slow"])


def test_a_window_sums_its_buckets_only() -> None:
    def at(t: float) -> str:
        return str(int(t / BUCKET_S))

    stats = {
        "bucket_s": BUCKET_S,
        "busy": {at(10.0): 0.5, at(20.0): 0.25, at(30.0): 4.0},
        "cpu": {at(10.0): 0.25, at(20.0): 0.125, at(30.0): 2.0},
        "slow": [[10.0, 0.5], [30.0, 4.0]],
    }
    window = loop_time(stats, 9.0, 21.0)
    assert window == {"busy_s": 0.75, "cpu_s": 0.375, "longest_callback_s": 0.5, "window_s": 12.0}
