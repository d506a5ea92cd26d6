"""Liveness (``/healthz``) and readiness (``/readyz``): database, migrations, row-level security
and model backends. The database is pinged through the pool; migrations and RLS are read once
they pass (ADR 0018), so an unauthenticated probe never makes the database start a backend.

Model backends with a ``ping()`` (the OpenAI-compatible HTTP chat model and embedder) are
probed with a short timeout, concurrently, and the answers are cached for a few seconds per app
so that frequent readiness probes stay cheap and do not hammer the model server. Built-in
backends (rule-based extractor, hashed embedder, local model) are always ready. Checks never
print base URLs or keys: ``/readyz`` is unauthenticated.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from memforest.api.openapi import problems
from memforest.app.ops import OK, database_checks, database_ready
from memforest.app.problems import problem_response
from memforest.backends.factory import Backends
from memforest.db.engine import Database
from memforest.schemas import Health, Readiness

PING_TIMEOUT_S = 2.0
PING_CACHE_S = 5.0
BUILT_IN = "ok (built-in)"

health_router = APIRouter(tags=["operations"])


async def _ping(ping: Callable[[], Awaitable[bool]], timeout_s: float) -> str:
    try:
        ok = await asyncio.wait_for(ping(), timeout=timeout_s)
    except TimeoutError:
        return f"unreachable: no answer within {timeout_s:g} s"
    except Exception as exc:  # a probe must never fail the probe endpoint itself
        return f"unreachable: {type(exc).__name__}"
    return OK if ok else "unreachable: GET /models did not answer 2xx"


@dataclass(slots=True)
class ModelProbe:
    """Pings the backends that have a ``ping()``; remembers the answer for ``ttl_s`` seconds."""

    timeout_s: float = PING_TIMEOUT_S
    ttl_s: float = PING_CACHE_S
    clock: Callable[[], float] = time.monotonic
    _cached: tuple[float, dict[str, str]] | None = field(default=None, init=False)
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock, init=False)

    async def check(self, backends: Backends) -> dict[str, str]:
        """``{"chat_model": ..., "embedder": ...}``: ``ok``, ``ok (built-in)``, ``not configured`` or why not."""
        async with self._lock:  # concurrent probes share one round of pings
            now = self.clock()
            if self._cached is not None and now - self._cached[0] < self.ttl_s:
                return dict(self._cached[1])
            result = await self._ping_all(backends)
            self._cached = (self.clock(), result)
            return dict(result)

    async def _ping_all(self, backends: Backends) -> dict[str, str]:
        names = ("chat_model", "embedder")
        targets = (backends.chat, backends.embedder)
        results: dict[str, str] = {}
        pending: dict[str, Awaitable[str]] = {}
        for name, backend in zip(names, targets, strict=True):
            ping = getattr(backend, "ping", None)
            if backend is None:
                results[name] = "not configured (rule-based)"
            elif ping is None:
                results[name] = BUILT_IN
            else:
                pending[name] = _ping(ping, self.timeout_s)
        answers = await asyncio.gather(*pending.values())
        results.update(zip(pending.keys(), answers, strict=True))
        return {name: results[name] for name in names}


def model_checks_ok(checks: dict[str, str]) -> bool:
    """Every model check is ``ok``, built in, or not configured."""
    return all(v in (OK, BUILT_IN) or v.startswith("not configured") for v in checks.values())


def _probe(request: Request) -> ModelProbe:
    probe: ModelProbe | None = getattr(request.app.state, "model_probe", None)
    if probe is None:
        probe = ModelProbe()
        request.app.state.model_probe = probe
    return probe


@health_router.get("/healthz", response_model=Health)
async def healthz() -> dict[str, str]:
    """Liveness: the process answers."""
    return {"status": "ok"}


@health_router.get("/readyz", response_model=Readiness, responses=problems(503))
async def readyz(request: Request) -> Response:
    """Readiness: database reachable, migrated to head, RLS in force, model servers (if any) answering."""
    database: Database = request.app.state.db
    backends: Backends = request.app.state.backends
    db_checks, model_checks = await asyncio.gather(database_checks(database), _probe(request).check(backends))
    checks: dict[str, Any] = {**db_checks, **model_checks, "backends": backends.describe()}
    ready = database_ready(db_checks) and model_checks_ok(model_checks)
    if not ready:
        return problem_response(503, "unavailable", "not ready", extra={"checks": checks})
    return JSONResponse({"status": "ready", "checks": checks})
