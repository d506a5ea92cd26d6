"""Hostile webhook receivers against the running server (review 2026-11-28, H2 and M2), all on
127.0.0.1 with ``allow_private``: an endless body is read to the cap and the delivery completes; a
tenant whose receivers drip delays another tenant's delivery by less than one attempt's deadline;
``last_error`` says only "unreachable", "timeout" or "HTTP <status>"."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import pytest
from support import admin_settings, app_client, free_port, tenant_key
from support.raw_http import ENDLESS_STOPS_AT, answer_status, drip_headers, endless_body, raw_receiver, silent

from memforest.db.engine import Database
from memforest.settings import Settings

MESSAGES = {"messages": [{"role": "user", "content": "I started learning the cello in March."}]}
DEADLINE_S = 1.5


@pytest.fixture
def hostile_settings(settings: Settings) -> Settings:
    return admin_settings(
        settings,
        worker={"poll_interval_s": 0.05},
        webhooks={"allow_private": True, "poll_interval_s": 0.05, "deadline_s": DEADLINE_S, "timeout_s": 1.0,
                  "concurrency": 4, "per_tenant": 2, "backoff_base_s": 0.2, "backoff_max_s": 0.5},
    )  # fmt: skip


async def _until(check: Callable[[], Awaitable[bool] | bool], within_s: float = 20.0) -> None:
    deadline = time.monotonic() + within_s
    while True:
        done = check()
        if not isinstance(done, bool):
            done = await done
        if done:
            return
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.05)


async def _hook(c: httpx.AsyncClient, h: dict[str, str], url: str) -> str:
    r = await c.post("/v1/webhooks", json={"url": url, "events": ["job.succeeded"]}, headers=h)
    assert r.status_code == 201, r.text
    hook_id: str = r.json()["id"]
    return hook_id


async def _job(c: httpx.AsyncClient, h: dict[str, str]) -> None:
    r = await c.post("/v1/forests/f/messages?wait=30", json=MESSAGES, headers=h)
    assert r.status_code == 200 and r.json()["state"] == "succeeded", r.text


async def _deliveries(c: httpx.AsyncClient, h: dict[str, str], hook_id: str) -> list[dict[str, Any]]:
    r = await c.get(f"/v1/webhooks/{hook_id}/deliveries", headers=h)
    assert r.status_code == 200, r.text
    items: list[dict[str, Any]] = r.json()["items"]
    return items


async def test_an_endless_body_is_not_read(hostile_settings: Settings, db: Database) -> None:
    async with raw_receiver(endless_body) as endless, app_client(hostile_settings, db, start_worker=True) as (_, c):
        _, h = await tenant_key(c)
        hook_id = await _hook(c, h, endless.url)
        await _job(c, h)
        started = time.monotonic()

        async def delivered() -> bool:
            return any(d["state"] == "delivered" for d in await _deliveries(c, h, hook_id))

        await _until(delivered, within_s=10)
        assert time.monotonic() - started < DEADLINE_S + 1.0
        assert (await _deliveries(c, h, hook_id))[0]["last_status"] == 200
    assert endless.sent < ENDLESS_STOPS_AT // 8  # the socket buffers' worth, not the body


async def test_a_dripping_tenant_does_not_hold_up_another(hostile_settings: Settings, db: Database) -> None:
    async with (
        raw_receiver(drip_headers(0.2)) as drip,
        raw_receiver(answer_status(200)) as good,
        app_client(hostile_settings, db, start_worker=True) as (_, c),
    ):
        _, slow = await tenant_key(c, "slow")
        _, fast = await tenant_key(c, "fast")
        for _ in range(4):
            await _hook(c, slow, drip.url)
        await _hook(c, fast, good.url)
        for _ in range(2):  # eight dripping deliveries, more than the deliverer runs at once
            await _job(c, slow)
        await _until(lambda: drip.open >= 2, within_s=10)
        await _job(c, fast)
        finished = time.monotonic()
        await _until(lambda: len(good.heads) == 1, within_s=10)
        assert time.monotonic() - finished < DEADLINE_S  # a free turn came at once: no attempt waited out
        assert drip.open <= hostile_settings.webhooks.per_tenant


async def test_last_error_is_coarse(hostile_settings: Settings, db: Database) -> None:
    async with (
        raw_receiver(silent) as mute,
        raw_receiver(answer_status(404)) as missing,
        app_client(hostile_settings, db, start_worker=True) as (_, c),
    ):
        _, h = await tenant_key(c)
        nobody = f"http://127.0.0.1:{free_port()}/hook"  # nothing listens there
        hooks = {await _hook(c, h, nobody): "unreachable", await _hook(c, h, mute.url): "timeout",
                 await _hook(c, h, missing.url): "HTTP 404"}  # fmt: skip
        await _job(c, h)

        async def all_failed_once() -> bool:
            for hook_id in hooks:
                if not [d for d in await _deliveries(c, h, hook_id) if d["attempts"] >= 1]:
                    return False
            return True

        await _until(all_failed_once, within_s=15)
        for hook_id, expected in hooks.items():
            assert {d["last_error"] for d in await _deliveries(c, h, hook_id)} == {expected}
