"""The read path's stage timings: one small recorder, which also opens a tracing span per stage
(:mod:`memforest.tracing`; nothing while tracing is off)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from memforest import tracing

__all__ = ["Stages"]


class Stages:
    """Milliseconds per named stage of one query (a stage run twice adds up), and the total since
    the recorder was made."""

    def __init__(self) -> None:
        self._started = time.perf_counter()
        self._ms: dict[str, float] = {}

    @contextmanager
    def timed(self, name: str) -> Iterator[None]:
        """Time the block as stage ``name``, inside a span of that name when tracing is on."""
        t0 = time.perf_counter()
        try:
            with tracing.span(name, stage=name):
                yield
        finally:
            self._ms[name] = round(self._ms.get(name, 0.0) + (time.perf_counter() - t0) * 1000.0, 3)

    def report(self) -> dict[str, float]:
        """Every stage's milliseconds and ``total``."""
        return self._ms | {"total": round((time.perf_counter() - self._started) * 1000.0, 3)}
