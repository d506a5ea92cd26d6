"""Functions the text worker process tests hand to :func:`memforest.text.processes.run_in_process`
(module-level, so a worker process imports them by name)."""

from __future__ import annotations

import os
import signal
import time

from memforest.text.offload import Deadline

__all__ = ["die", "fail", "gates_read", "pid", "sleep", "sleep_checking", "time_out"]


def pid(_: Deadline) -> int:
    """The worker's process id."""
    return os.getpid()


def gates_read(_: Deadline) -> list[int]:
    """How many of the reader's literal gate families the worker holds already read (0 or 1 each).
    Named here rather than taken from ``memforest.text.warm``, whose import would read them."""
    from memforest.text.changes import generic_gates, named_gates
    from memforest.text.states import cue_gates

    return [f.cache_info().currsize for f in (named_gates, generic_gates, cue_gates)]


def fail(message: str, _: Deadline) -> None:
    """Raise ValueError(message) in the worker."""
    raise ValueError(message)


def time_out(message: str, _: Deadline) -> None:
    """Raise TimeoutError(message) in the worker (the work's own, no budget's)."""
    raise TimeoutError(message)


def sleep(seconds: float, _: Deadline) -> str:
    """Sleep without looking at the deadline (work that never checks it)."""
    time.sleep(seconds)
    return "slept"


def sleep_checking(seconds: float, deadline: Deadline) -> str:
    """Sleep in small steps, checking the deadline between them (as the extractor does)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        deadline.check()
        time.sleep(0.01)
    return "slept"


def die(_: Deadline) -> None:
    """End the worker process at once (as the kernel's out-of-memory killer would)."""
    os.kill(os.getpid(), signal.SIGKILL)
