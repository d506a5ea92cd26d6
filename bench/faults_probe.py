"""An event-loop probe for ``bench.faults``: run a ``memforest`` command (``serve``) in this process
with every asyncio callback timed, and the totals written to a JSON file the bench reads.

    BENCH_LOOP_PROBE_FILE=/tmp/loop.json python -m bench.faults_probe serve --host 127.0.0.1 --port 8421

Each callback the event loop runs (a task step, a timer, an I/O callback: ``asyncio.Handle._run``)
is timed. The file holds, on ``time.monotonic()``'s clock (one clock for every process of the
machine): ``busy``, the seconds the loop spent in callbacks per ``BUCKET_S`` bucket (by the
callback's start); ``cpu``, the CPU seconds of the loop's thread in those callbacks (what the loop
itself computed, without the waits for a CPU or for the GIL that a loaded machine adds); and
``slow``, every callback of ``SLOW_S`` or more as ``[start, seconds]`` (the newest ``MAX_SLOW``).
Time in callbacks is time the loop could serve nothing else. The file is rewritten every
``WRITE_EVERY_S`` by a thread (atomically: written aside, then renamed).
"""

from __future__ import annotations

import asyncio.events
import json
import os
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

BUCKET_S = 0.1
SLOW_S = 0.02
MAX_SLOW = 20_000
WRITE_EVERY_S = 0.25
ENV_FILE = "BENCH_LOOP_PROBE_FILE"


class LoopProbe:
    """The callback timings of this process's event loops."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.busy: dict[int, float] = {}
        self.cpu: dict[int, float] = {}
        self.slow: deque[tuple[float, float]] = deque(maxlen=MAX_SLOW)
        self.lock = threading.Lock()

    def record(self, start: float, seconds: float, cpu: float) -> None:
        """One callback that started at ``start`` and ran ``seconds``, ``cpu`` of them on a CPU."""
        bucket = int(start / BUCKET_S)
        with self.lock:
            self.busy[bucket] = self.busy.get(bucket, 0.0) + seconds
            self.cpu[bucket] = self.cpu.get(bucket, 0.0) + cpu
            if seconds >= SLOW_S:
                self.slow.append((round(start, 4), round(seconds, 4)))

    def snapshot(self) -> dict[str, Any]:
        """What the file holds (see the module's docstring)."""
        with self.lock:
            busy = {str(k): round(v, 6) for k, v in self.busy.items()}
            cpu = {str(k): round(v, 6) for k, v in self.cpu.items()}
            slow = [list(s) for s in self.slow]
        return {"pid": os.getpid(), "bucket_s": BUCKET_S, "slow_s": SLOW_S, "busy": busy, "cpu": cpu, "slow": slow}

    def install(self) -> None:
        """Time every callback of every event loop of this process from now on."""
        run = asyncio.events.Handle._run
        clock, record = self.clock, self.record

        def timed(handle: asyncio.events.Handle) -> None:
            start, cpu = clock(), time.thread_time()
            try:
                run(handle)
            finally:
                record(start, clock() - start, time.thread_time() - cpu)

        asyncio.events.Handle._run = timed  # type: ignore[method-assign,assignment]

    def write_forever(self, path: Path, stop: threading.Event) -> None:
        """Rewrite ``path`` every ``WRITE_EVERY_S`` until ``stop`` is set (once more then)."""
        tmp = path.with_name(path.name + ".tmp")
        while True:
            stopping = stop.wait(WRITE_EVERY_S)
            tmp.write_text(json.dumps(self.snapshot()))
            tmp.replace(path)
            if stopping:
                return


def loop_time(stats: dict[str, Any], start: float, end: float) -> dict[str, float]:
    """From a probe file's ``stats``: the loop's seconds in callbacks that started within
    ``[start, end)`` (whole buckets: up to one bucket more on each side), and the longest single
    callback that started within it."""
    width = float(stats["bucket_s"])
    first, last = int(start / width), int(end / width)
    busy = sum(float(v) for k, v in stats["busy"].items() if first <= int(k) <= last)
    cpu = sum(float(v) for k, v in stats.get("cpu", {}).items() if first <= int(k) <= last)
    longest = max((float(s) for t, s in stats["slow"] if start <= float(t) < end), default=0.0)
    return {"busy_s": round(busy, 4), "cpu_s": round(cpu, 4), "longest_callback_s": round(longest, 4),
            "window_s": round(end - start, 3)}  # fmt: skip


def read_stats(path: Path) -> dict[str, Any]:
    """The probe file's contents (empty totals when it is not written yet)."""
    try:
        data: dict[str, Any] = json.loads(path.read_text())
    except (OSError, ValueError):
        return {"bucket_s": BUCKET_S, "slow_s": SLOW_S, "busy": {}, "cpu": {}, "slow": []}
    return data


def main(argv: Sequence[str] | None = None) -> int:
    """Install the probe, start the writer thread, run ``memforest <argv>`` in this process."""
    target = os.environ.get(ENV_FILE)
    if not target:
        print(f"bench.faults_probe: set {ENV_FILE} to the file to write", file=sys.stderr)
        return 2
    probe = LoopProbe()
    probe.install()
    stop = threading.Event()
    writer = threading.Thread(target=probe.write_forever, args=(Path(target), stop), name="loop-probe", daemon=True)
    writer.start()
    from memforest.cli import main as memforest_main

    try:
        return int(memforest_main(list(argv) if argv is not None else sys.argv[1:]) or 0)
    finally:
        stop.set()
        writer.join(timeout=5)


if __name__ == "__main__":
    sys.exit(main())
