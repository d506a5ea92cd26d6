"""One webhook attempt against hostile receivers on 127.0.0.1 (review 2026-11-28, H2 and M2): the
body is read to a cap and the attempt ends by its deadline; the connection goes to the address the
check saw (one resolution, the name kept for Host and TLS); no proxy from the environment; the
recorded error is coarse. Host names go to a resolver stub that answers 127.0.0.1 only."""

from __future__ import annotations

import time
import tracemalloc

import pytest
from support.raw_http import ENDLESS_STOPS_AT, Answer, answer_status, drip_headers, endless_body, raw_receiver, silent

from memforest.app.webhook_delivery import Outcome, post_once
from memforest.app.webhook_target import Resolver, delivery_client
from memforest.settings import WebhookSettings

CFG = WebhookSettings(allow_private=True, deadline_s=1.5, timeout_s=1.0)
BODY = b'{"id":"e1"}'


async def _post(url: str, cfg: WebhookSettings = CFG, resolve: Resolver | None = None) -> Outcome:
    client = delivery_client(cfg) if resolve is None else delivery_client(cfg, resolve)
    async with client:
        return await post_once(client, cfg, url, {"Content-Type": "application/json"}, BODY)


def _loopback_stub(calls: list[str]) -> Resolver:
    async def resolve(host: str, port: int) -> list[str]:
        calls.append(host)
        return ["127.0.0.1"]

    return resolve


async def test_an_endless_body_is_read_to_the_cap_only() -> None:
    async with raw_receiver(endless_body) as rec:
        tracemalloc.start()
        try:
            started = time.monotonic()
            outcome = await _post(rec.url)
            elapsed = time.monotonic() - started
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert outcome == Outcome(200, "")
    assert elapsed < CFG.deadline_s  # it stopped reading; it did not wait for the deadline
    assert peak < 2_000_000, peak  # the cap plus one socket read, not the stream
    assert rec.sent < ENDLESS_STOPS_AT // 8, rec.sent  # what the socket buffers took before the hang-up


async def test_a_dripping_receiver_is_cut_at_the_deadline() -> None:
    async with raw_receiver(drip_headers(0.2)) as rec:
        started = time.monotonic()
        outcome = await _post(rec.url)
        elapsed = time.monotonic() - started
    assert outcome == Outcome(None, "timeout")  # each read came within timeout_s; the deadline ended it
    assert CFG.deadline_s <= elapsed < CFG.deadline_s + 0.5


@pytest.mark.parametrize(
    ("answer", "expected"),
    [(answer_status(404), Outcome(404, "HTTP 404")), (answer_status(204), Outcome(204, "")),
     (silent, Outcome(None, "timeout"))],
    ids=["404", "204", "silent"],
)  # fmt: skip
async def test_errors_are_coarse(answer: Answer, expected: Outcome) -> None:
    async with raw_receiver(answer) as rec:
        assert await _post(rec.url) == expected


async def test_a_closed_port_is_unreachable() -> None:
    async with raw_receiver(silent) as rec:
        url = rec.url
    assert await _post(url) == Outcome(None, "unreachable")  # nothing listens there now


async def test_the_connection_goes_to_the_checked_address_with_the_name_as_host() -> None:
    calls: list[str] = []
    async with raw_receiver(answer_status(200)) as rec:
        port = rec.url.split(":")[2].split("/")[0]
        outcome = await _post(f"http://hook.rebind.test:{port}/hook", resolve=_loopback_stub(calls))
    assert outcome == Outcome(200, "")
    assert calls == ["hook.rebind.test"]  # resolved once, by the check; .test names resolve nowhere else
    assert f"host: hook.rebind.test:{port}".encode() in rec.heads[0].lower()


async def test_a_refused_answer_is_never_connected_to() -> None:
    calls: list[str] = []
    async with raw_receiver(answer_status(200)) as rec:
        port = rec.url.split(":")[2].split("/")[0]
        strict = CFG.model_copy(update={"allow_private": False})
        outcome = await _post(f"http://hook.rebind.test:{port}/hook", strict, _loopback_stub(calls))
    assert outcome == Outcome(None, "unreachable")
    assert calls == ["hook.rebind.test"] and rec.connections == 0


async def test_tls_names_the_host_not_the_address() -> None:
    calls: list[str] = []
    async with raw_receiver(silent, parse=False) as rec:
        port = rec.url.split(":")[2].split("/")[0]
        outcome = await _post(f"https://hook.rebind.test:{port}/hook", resolve=_loopback_stub(calls))
    assert outcome == Outcome(None, "unreachable")  # the receiver hung up after the ClientHello
    assert b"hook.rebind.test" in rec.first_bytes[0]  # the server name (SNI) went to 127.0.0.1


async def test_proxies_from_the_environment_are_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    async with raw_receiver(answer_status(200)) as proxy, raw_receiver(answer_status(200)) as rec:
        for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
            monkeypatch.setenv(name, proxy.url.removesuffix("/hook"))
        for name in ("NO_PROXY", "no_proxy"):
            monkeypatch.delenv(name, raising=False)
        assert await _post(rec.url) == Outcome(200, "")
    assert rec.connections == 1 and proxy.connections == 0
