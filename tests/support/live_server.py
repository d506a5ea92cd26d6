"""A real ``memforest serve`` subprocess on a free 127.0.0.1 port against a test's database, for
tests of what talks to the server over the network (the blocking client, the integrations)."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from pathlib import Path

import httpx

from support.db import tenant_url

ADMIN_KEY = "Adm1n-" + "Lv7Qe2Rk9Tz4Wm8Np3Hx6Bj5"


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


@contextlib.contextmanager
def serve(db_url: str, home: Path, env: Mapping[str, str] | None = None, timeout_s: float = 120) -> Iterator[str]:
    """Run ``memforest serve`` (worker included) until the block ends; yield its base URL. The
    admin key is :data:`ADMIN_KEY`; ``env`` adds or overrides settings."""
    port = free_port()
    home.mkdir(parents=True, exist_ok=True)
    settings = {
        "MEMFOREST_ADMIN_KEY": ADMIN_KEY,
        "MEMFOREST_DATABASE_URL": db_url,
        "MEMFOREST_DATABASE_TENANT_URL": tenant_url(db_url),
        "MEMFOREST_EMBEDDING__DIM": "64",
        "MEMFOREST_HOME": str(home),
        "MEMFOREST_WORKER__POLL_INTERVAL_S": "0.05",
    }
    process_env = {k: v for k, v in os.environ.items() if k != "MEMFOREST_API_KEY"} | settings | dict(env or {})
    log_path = home / "serve.log"
    with log_path.open("w") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "memforest.cli", "serve", "--port", str(port)],
            env=process_env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        url = f"http://127.0.0.1:{port}"
        try:
            _wait_ready(proc, url, log_path, timeout_s)
            yield url
        finally:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:  # pragma: no cover - a stuck server
                proc.kill()
                proc.wait()


def _wait_ready(proc: subprocess.Popen[bytes], url: str, log_path: Path, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        assert proc.poll() is None, log_path.read_text()
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{url}/readyz", timeout=2).status_code == 200:
                return
        time.sleep(0.2)
    raise AssertionError(f"memforest serve did not become ready: {log_path.read_text()[-2000:]}")


def new_tenant_key(url: str, name: str, scopes: tuple[str, ...] = ("read", "write")) -> str:
    """A new tenant on the server at ``url`` and a key of it with ``scopes`` (admin API, blocking)."""
    admin = {"Authorization": f"Bearer {ADMIN_KEY}"}
    tenant = httpx.post(f"{url}/v1/tenants", json={"name": name}, headers=admin, timeout=30)
    tenant.raise_for_status()
    key = httpx.post(
        f"{url}/v1/tenants/{tenant.json()['id']}/keys", json={"scopes": list(scopes)}, headers=admin, timeout=30
    )
    key.raise_for_status()
    secret: str = key.json()["key"]
    return secret
