"""``memforest serve --host 0.0.0.0`` needs a metrics key (issue 14, hole 6; ADR 0019): the host given
on the command line is the one checked, not only ``api.host`` from the settings."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
from support import ADMIN_KEY, free_port, wait_ready

from memforest.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
METRICS_KEY = "m" * 32


def _env(settings: Settings, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMFOREST_")}
    env.update(
        PYTHONPATH=str(ROOT),
        MEMFOREST_HOME=str(settings.home),
        MEMFOREST_DATABASE_URL=settings.database_url or "",
        MEMFOREST_DATABASE_TENANT_URL=settings.database_tenant_url or "",
        MEMFOREST_ADMIN_KEY=ADMIN_KEY,
        MEMFOREST_EMBEDDING__DIM=str(settings.embedding.dim),
        MEMFOREST_LOG_FORMAT="text",
        **extra,
    )
    return env


def _serve(port: int, host: str = "0.0.0.0") -> list[str]:
    return [sys.executable, "-m", "memforest.cli", "serve", "--host", host, "--port", str(port), "--no-worker"]


def test_serve_on_all_interfaces_without_a_metrics_key_is_refused(settings: Settings) -> None:
    out = subprocess.run(_serve(free_port()), env=_env(settings), capture_output=True, text=True, timeout=120)
    assert out.returncode == 2, out.stdout + out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "MEMFOREST_API__METRICS_KEY" in lines[0] and "0.0.0.0" in lines[0], out.stderr


def test_serve_on_all_interfaces_with_a_metrics_key_starts(settings: Settings) -> None:
    port = free_port()
    env = _env(settings, MEMFOREST_API__METRICS_KEY=METRICS_KEY)
    proc = subprocess.Popen(_serve(port), env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        wait_ready(proc, port)
        assert httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=5).status_code == 401
        auth = {"Authorization": f"Bearer {METRICS_KEY}"}
        assert httpx.get(f"http://127.0.0.1:{port}/metrics", headers=auth, timeout=5).status_code == 200
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
