"""The read path's stage timings: one small recorder, the place tracing spans will hook into."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["Stages"]


class Stages:
    """Milliseconds per named stage of one query (a stage run twice adds up), and the total since
    the recorder was made."""

    def __init__(self) -> None:
        self._started = time.perf_counter()
        self._ms: dict[str, float] = {}

    @contextmanager
    def timed(self, name: str) -> Iterator[None]:
        """Time the block as stage ``name``."""
        t0 = time.perf_counter()
        try:
            yield
        finally:
            self._ms[name] = round(self._ms.get(name, 0.0) + (time.perf_counter() - t0) * 1000.0, 3)

    def report(self) -> dict[str, float]:
        """Every stage's milliseconds and ``total``."""
        return self._ms | {"total": round((time.perf_counter() - self._started) * 1000.0, 3)}
