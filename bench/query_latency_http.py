"""The read path behind the HTTP API: ``POST /v1/forests/{forest}/query`` against a running
``memforest serve`` on this machine, on a forest ``bench.query_latency`` loaded.

One client asks the questions one after another over a keep-alive connection (the server's
in-process worker idles: nothing is queued), so the figure is the read path plus the HTTP stack
(routing, auth, validation, JSON), comparable with the in-process figure of the same forest.
"""

from __future__ import annotations

import statistics
import time
import uuid
from typing import Any

import httpx

from bench.load import serve
from memforest.app import tenants
from memforest.db.engine import Database


def pct(values: list[float], q: float) -> float:
    """Nearest-rank percentile (0 for no values)."""
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q / 100.0 * len(s) + 0.5) - 1))] if s else 0.0


async def read_key(db: Database, tenant_id: uuid.UUID) -> str:
    """A new read-only API key of the tenant that holds the loaded forests."""
    _, key, _ = await tenants.create_key(db, tenant_id, ["read"])
    return key


def http_latency(
    db: Database, key: str, forest: str, questions: list[str], rounds: int, *, embed_dim: int, warmup: int = 5
) -> dict[str, Any]:
    """Start ``memforest serve`` on ``db``'s database; time every question ``rounds`` times over HTTP."""
    extra = {"MEMFOREST_DATABASE_TENANT_URL": db.tenant_url}
    with serve(database_url=db.url, embed_dim=embed_dim, env=extra) as server:
        headers = {"Authorization": f"Bearer {key}"}
        with httpx.Client(base_url=server.url, headers=headers, timeout=120) as client:
            path = f"/v1/forests/{forest}/query"

            def ask(q: str) -> float:
                t0 = time.perf_counter()
                response = client.post(path, json={"query": q, "mode": "emb"})
                elapsed = (time.perf_counter() - t0) * 1000.0
                response.raise_for_status()
                return elapsed

            for q in questions[:warmup]:
                ask(q)
            lat = [ask(q) for _ in range(rounds) for q in questions]
    return {
        "endpoint": "POST /v1/forests/{forest}/query",
        "p50_ms": round(pct(lat, 50), 2),
        "p95_ms": round(pct(lat, 95), 2),
        "mean_ms": round(statistics.fmean(lat), 2),
        "n": len(lat),
    }
