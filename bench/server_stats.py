"""The model server's OWN accounting of a bench run (not client-side latency).

Two sources, one shape:

* the SIMULATED server (``memforest.testing.simulated_llm``) serves its totals at ``/stats``;
* a real vLLM serves Prometheus counters and gauges at ``/metrics``: token counters are read
  before and after a run, and a sampler integrates ``vllm:num_requests_running`` (sequences being
  served) and ``vllm:num_requests_waiting`` over the run, every ``interval_s``.

Either way a run gets ``busy_s`` (time with at least one request being served), ``busy_overlap``
(mean number of requests served at once while busy), ``queue_wait_s`` (request-seconds spent
waiting for a sequence slot) and the server's prompt / cached / completion token counts.
``POST /reset_prefix_cache`` (vLLM's endpoint; the simulation has it too) empties the prefix
cache between runs, so that no run inherits another's cached prefixes.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx

_METRIC_RE = re.compile(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+([-+0-9.eEinfINFNa]+)$")
_VLLM_COUNTERS = {
    "prompt_tokens": "vllm:prompt_tokens_total",
    "completion_tokens": "vllm:generation_tokens_total",
    "cached_tokens": "vllm:prefix_cache_hits_total",
    "requests": "vllm:request_success_total",
}


def server_root(url: str) -> str:
    """``http://host:port`` of an OpenAI-compatible base URL (``…/v1``)."""
    base = url.rstrip("/")
    return base[: -len("/v1")] if base.endswith("/v1") else base


def parse_prometheus(text: str) -> dict[str, float]:
    """Prometheus text format to ``{metric name: value summed over its label sets}``."""
    out: dict[str, float] = {}
    for line in text.splitlines():
        match = _METRIC_RE.match(line.strip())
        if match and not line.startswith("#"):
            try:
                out[match.group(1)] = out.get(match.group(1), 0.0) + float(match.group(3))
            except ValueError:
                continue
    return out


async def reset_prefix_cache(client: httpx.AsyncClient, url: str) -> bool:
    """Empty the server's prefix cache; False when the server does not offer it."""
    try:
        response = await client.post(f"{server_root(url)}/reset_prefix_cache")
    except httpx.HTTPError:
        return False
    return response.status_code == 200


class ServerMonitor:
    """Reads a server's accounting around one run (see the module docstring)."""

    def __init__(self, url: str, *, interval_s: float = 0.25) -> None:
        self.root = server_root(url)
        self.interval_s = interval_s
        self.kind: str | None = None  # "simulation", "vllm" or None (nothing to read)
        self._client = httpx.AsyncClient(timeout=5)

    async def aclose(self) -> None:
        """Close the HTTP client."""
        await self._client.aclose()

    async def detect(self) -> str | None:
        """Which accounting the server offers."""
        for kind, path in (("simulation", "/stats"), ("vllm", "/metrics")):
            with contextlib.suppress(httpx.HTTPError, ValueError):
                response = await self._client.get(self.root + path)
                if response.status_code == 200 and (kind == "vllm" or response.json().get("simulation")):
                    self.kind = kind
                    return kind
        self.kind = None
        return None

    async def _totals(self) -> dict[str, float]:
        if self.kind == "simulation":
            stats = (await self._client.get(self.root + "/stats")).json()
            t = stats["time"]
            return {
                "busy_s": t["busy_s"],
                "sequence_s": t["sequence_s"],
                "queue_wait_s": t["queue_wait_s"],
                "prefill_s": t["prefill_s"],
                "requests": stats["requests_by_endpoint"].get("chat", 0),
                "prompt_tokens": stats["prompt_tokens"],
                "cached_tokens": stats["cached_tokens"],
                "completion_tokens": stats["completion_tokens"],
            }
        metrics = parse_prometheus((await self._client.get(self.root + "/metrics")).text)
        return {key: metrics.get(name, 0.0) for key, name in _VLLM_COUNTERS.items()}

    async def _gauges(self) -> tuple[float, float]:
        if self.kind == "simulation":
            stats = (await self._client.get(self.root + "/stats")).json()
            return float(stats["in_flight"]), 0.0
        metrics = parse_prometheus((await self._client.get(self.root + "/metrics")).text)
        return metrics.get("vllm:num_requests_running", 0.0), metrics.get("vllm:num_requests_waiting", 0.0)

    @contextlib.asynccontextmanager
    async def measure(self) -> AsyncIterator[dict[str, Any]]:
        """Yields a dict that, after the block, holds the server's accounting of the block."""
        result: dict[str, Any] = {"source": self.kind}
        if self.kind is None:
            yield result
            return
        before = await self._totals()
        sampled = {"busy_s": 0.0, "sequence_s": 0.0, "queue_wait_s": 0.0}
        profile: list[tuple[float, float]] = []
        sampler = asyncio.create_task(self._sample(sampled, profile))
        try:
            yield result
        finally:
            sampler.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sampler
            after = await self._totals()
            delta: dict[str, Any] = {key: after[key] - before.get(key, 0.0) for key in after}
            if self.kind == "vllm":
                delta.update(sampled)
            busy = delta.get("busy_s", 0.0)
            delta["busy_overlap"] = delta["sequence_s"] / busy if busy else 0.0
            # requests being served, every interval: where the run left the server idle
            delta["in_flight_profile"] = [[round(t, 2), n] for t, n in profile]
            result.update(delta)

    async def _sample(self, into: dict[str, float], profile: list[tuple[float, float]]) -> None:
        """Sample the server's gauges every ``interval_s``: integrate them into ``into`` and append
        ``(seconds since the start, requests being served)`` to ``profile``."""
        start = last = time.monotonic()
        while True:
            await asyncio.sleep(self.interval_s)
            with contextlib.suppress(httpx.HTTPError):
                running, waiting = await self._gauges()
                now = time.monotonic()
                step, last = now - last, now
                profile.append((now - start, running))
                if running > 0:
                    into["busy_s"] += step
                into["sequence_s"] += running * step
                into["queue_wait_s"] += waiting * step
