"""The SIMULATED server's state: sequence slots (queueing), the engine, the fail plan, counters.

``max_num_seqs`` slots are held while a request is served by the :mod:`.engine` (fixed overhead,
prefill of its uncached tokens, decode in the shared batch); excess requests wait for a slot, as on
a vLLM server. A scripted ``fail_plan`` injects 500s, 429s, stalls and broken JSON. Counters of all
of it, with the server's own time accounting, are served at ``/stats``.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse, Response

from memforest.testing.simulated_llm.bound import WorkWindow
from memforest.testing.simulated_llm.config import SimulationConfig
from memforest.testing.simulated_llm.engine import Engine, PrefixCache, ServerClock


class SimulationState:
    """Counters, the fail-plan cursor, the prefix cache and the sequence semaphore."""

    def __init__(self, config: SimulationConfig) -> None:
        self.config = config
        self.plan_cursor = 0
        self.requests: Counter[str] = Counter()
        self.by_status: Counter[str] = Counter()
        self.injected: Counter[str] = Counter()
        self.in_flight = 0
        self.max_concurrent = 0
        self.waiting = 0
        self.max_waiting = 0
        self.cache_queries = 0
        self.cache_hits = 0
        self.prompt_tokens = 0
        self.cached_tokens = 0
        self.completion_tokens = 0
        self.prefix_cache = PrefixCache(config.prefix_block_tokens, config.prefix_cache_blocks)
        self.clock = ServerClock()
        self.engine = Engine(config, self.clock)
        self.window = WorkWindow()  # chat work since the last POST /stats/window
        self._semaphore: asyncio.Semaphore | None = None

    @property
    def semaphore(self) -> asyncio.Semaphore:
        """The ``max_num_seqs`` semaphore, made lazily on the server's event loop."""
        if self._semaphore is None:
            self._semaphore = asyncio.Semaphore(self.config.max_num_seqs)
        return self._semaphore

    def next_action(self) -> str:
        """The next fail-plan entry (chat and embeddings share one cursor), then "ok" forever."""
        if self.plan_cursor < len(self.config.fail_plan):
            action = self.config.fail_plan[self.plan_cursor]
            self.plan_cursor += 1
            return action
        return "ok"

    def prefix_lookup(self, tokens: list[str]) -> int:
        """Cached leading tokens of a prompt (whole blocks); counts the query and any hit."""
        self.cache_queries += 1
        cached = self.prefix_cache.lookup(tokens)
        if cached:
            self.cache_hits += 1
        return cached

    async def serve_chat(self, prompt_tokens: int, cached_tokens: int, completion_tokens: int) -> None:
        """Fixed overhead, prefill of the uncached tokens, decode in the batch (inside a slot)."""
        await asyncio.sleep(self.config.ttft_ms / 1000.0)
        await self.engine.prefill(prompt_tokens - cached_tokens)
        await self.engine.decode(completion_tokens)

    @contextlib.asynccontextmanager
    async def sequence_slot(self) -> AsyncIterator[None]:
        """Hold one of ``max_num_seqs`` slots; requests beyond that wait (queue) here."""
        self.waiting += 1
        self.max_waiting = max(self.max_waiting, self.waiting)
        asked = time.monotonic()
        try:
            await self.semaphore.acquire()
        finally:
            self.waiting -= 1
            self.clock.queue_wait_s += time.monotonic() - asked
        self.in_flight += 1
        self.max_concurrent = max(self.max_concurrent, self.in_flight)
        self.clock.enter()
        try:
            yield
        finally:
            self.clock.leave()
            self.in_flight -= 1
            self.semaphore.release()

    def finish(self, endpoint: str, response: Response) -> Response:
        """Count a finished request by endpoint and status; return the response unchanged."""
        self.requests[endpoint] += 1
        self.by_status[str(response.status_code)] += 1
        return response

    def snapshot(self) -> dict[str, Any]:
        """The counters as served at ``/stats`` (always marked ``simulation: true``)."""
        return {
            "simulation": True,
            "requests": sum(self.requests.values()),
            "requests_by_endpoint": dict(self.requests),
            "by_status": dict(self.by_status),
            "injected_failures": dict(self.injected),
            "fail_plan_remaining": len(self.config.fail_plan) - self.plan_cursor,
            "in_flight": self.in_flight,
            "max_concurrent_seen": self.max_concurrent,
            "max_waiting_seen": self.max_waiting,
            "max_decode_batch_seen": self.engine.max_batch,
            "prefix_cache": {"queries": self.cache_queries, "hits": self.cache_hits},
            "prompt_tokens": self.prompt_tokens,
            "cached_tokens": self.cached_tokens,
            "completion_tokens": self.completion_tokens,
            "time": self.clock.snapshot(),
        }

    async def inject_failure(self, request: Request, action: str) -> Response | None:
        """The failure answer scripted by ``action`` ("500", "429", "timeout"), else None."""
        config = self.config
        if action == "500":
            self.injected[action] += 1
            return error_response(500, "simulated internal server error")
        if action == "429":
            self.injected[action] += 1
            headers = {"Retry-After": f"{config.retry_after_s:g}"} if config.retry_after_s is not None else None
            return error_response(429, "simulated rate limit", headers)
        if action == "timeout":
            self.injected[action] += 1
            await stall(request, config.timeout_sleep_s)
            return error_response(504, "simulated stall ended")
        return None


def error_response(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    """An OpenAI-style error body, marked as a simulated error."""
    body = {"object": "error", "message": message, "type": "SimulatedError", "code": status}
    return JSONResponse(body, status_code=status, headers=headers)


async def stall(request: Request, seconds: float) -> None:
    """Sleep ``seconds``, or less if the client hangs up first."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if await request.is_disconnected():
            return
        await asyncio.sleep(min(0.05, max(0.0, deadline - time.monotonic())))
