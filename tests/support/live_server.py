"""A real ``memforest serve`` subprocess on a free 127.0.0.1 port, against a test's database or
its own embedded one: the one server fixture of the tests of what talks to the server over the
network (the clients, the CLI's ``--url``, the integrations, the browser)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

import httpx

from support.apps import free_port, wait_ready
from support.db import tenant_url

ADMIN_KEY = "Adm1n-" + "Lv7Qe2Rk9Tz4Wm8Np3Hx6Bj5"


# inherited settings a test server must not take from the test process (a test's own database
# URLs among them, set by tests/db/conftest.py): it gets exactly what ``serve`` gives it
_DROPPED_ENV = ("MEMFOREST_", "OTEL_")


@contextlib.contextmanager
def serve(
    db_url: str | None, home: Path, env: Mapping[str, str] | None = None, timeout_s: float = 120
) -> Iterator[str]:
    """Run ``memforest serve`` (worker included) on a free 127.0.0.1 port until the block ends;
    yield its base URL. ``db_url``: a test's database (its tenant login and the tests' embedding
    size); None: the server starts its own embedded PostgreSQL under ``home``. The admin key is
    :data:`ADMIN_KEY`; ``env`` adds or overrides settings. The server runs in a process group of
    its own, stopped with SIGINT (as Ctrl-C, which also stops an embedded database it started),
    and the whole group killed if it has not exited within a minute."""
    port = free_port()
    home.mkdir(parents=True, exist_ok=True)
    settings = {
        "MEMFOREST_ADMIN_KEY": ADMIN_KEY,
        "MEMFOREST_HOME": str(home),
        "MEMFOREST_WORKER__POLL_INTERVAL_S": "0.05",
    }
    if db_url is not None:
        settings |= {
            "MEMFOREST_DATABASE_URL": db_url,
            "MEMFOREST_DATABASE_TENANT_URL": tenant_url(db_url),
            "MEMFOREST_EMBEDDING__DIM": "64",
        }
    inherited = {k: v for k, v in os.environ.items() if not k.startswith(_DROPPED_ENV)}
    log_path = home / "serve.log"
    with log_path.open("w") as log:  # (a file: a pipe nobody reads fills up and stalls the server)
        proc = subprocess.Popen(
            [sys.executable, "-m", "memforest.cli", "serve", "--port", str(port)],
            env=inherited | settings | dict(env or {}),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            _wait_ready(proc, port, log_path, timeout_s)
            yield f"http://127.0.0.1:{port}"
        finally:
            _stop(proc)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGINT, then SIGKILL to the process group after a minute (a stuck server and its children)."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:  # pragma: no cover - a stuck server
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def _wait_ready(proc: subprocess.Popen[bytes], port: int, log_path: Path, timeout_s: float) -> None:
    """:func:`support.apps.wait_ready`, with the server's log in the failure."""
    try:
        wait_ready(proc, port, timeout_s=timeout_s)
    except AssertionError as exc:
        raise AssertionError(f"memforest serve did not become ready ({exc}): {log_path.read_text()[-2000:]}") from None


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
