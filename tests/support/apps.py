"""The API app under test: an ASGI client (with the app's lifespan), tenants and keys, a real server."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import subprocess
import time
from collections.abc import AsyncIterator, Sequence
from typing import NamedTuple

import httpx
import uvicorn
from fastapi import FastAPI

from memforest.db.engine import Database
from memforest.servers import create_app
from memforest.settings import Settings
from support.auth import ADMIN_AUTH, bearer


class AppClient(NamedTuple):
    """An app and an ASGI client talking to it."""

    app: FastAPI
    client: httpx.AsyncClient


@contextlib.asynccontextmanager
async def open_client(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    """Run ``app``'s lifespan and yield an ASGI client on ``http://test``."""
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test") as client,
    ):
        yield client


@contextlib.asynccontextmanager
async def app_client(settings: Settings, db: Database, *, start_worker: bool = False) -> AsyncIterator[AppClient]:
    """Build the app on ``db`` (no in-process worker unless asked) and yield it with a client."""
    app = create_app(settings, db=db, start_worker=start_worker)
    async with open_client(app) as client:
        yield AppClient(app, client)


async def new_tenant(
    client: httpx.AsyncClient, name: str = "acme", scopes: Sequence[str] = ("read", "write")
) -> tuple[str, str]:
    """Create tenant ``name`` and a key with ``scopes`` (as the admin); return its id and the key."""
    r = await client.post("/v1/tenants", json={"name": name}, headers=ADMIN_AUTH)
    assert r.status_code == 201, r.text
    tid: str = r.json()["id"]
    r = await client.post(f"/v1/tenants/{tid}/keys", json={"scopes": list(scopes)}, headers=ADMIN_AUTH)
    assert r.status_code == 201, r.text
    key: str = r.json()["key"]
    return tid, key


async def tenant_key(
    client: httpx.AsyncClient, name: str = "acme", scopes: Sequence[str] = ("read", "write")
) -> tuple[str, dict[str, str]]:
    """Like :func:`new_tenant`, with the key as an ``Authorization`` header."""
    tid, key = await new_tenant(client, name, scopes)
    return tid, bearer(key)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago (nothing listens on it)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


@contextlib.asynccontextmanager
async def serve_app(app: FastAPI) -> AsyncIterator[str]:
    """Serve ``app`` with uvicorn (lifespan on) in this event loop; yield ``http://127.0.0.1:PORT``."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    task = asyncio.create_task(server.serve(sockets=[sock]))
    for _ in range(200):
        if server.started or task.done():
            break
        await asyncio.sleep(0.05)
    assert server.started, "uvicorn did not start"
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, timeout=30)
        sock.close()


def wait_ready(proc: subprocess.Popen[bytes], port: int, timeout_s: float = 120) -> None:
    """Wait until the ``memforest serve`` process ``proc`` answers ``/readyz`` 200 on ``port``;
    AssertionError (with its output) if it exits first or takes longer than ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.stdout.read().decode() if proc.stdout else ""
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=2).status_code == 200:
                return
        time.sleep(0.3)
    raise AssertionError("serve did not become ready")
