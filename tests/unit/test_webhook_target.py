"""The webhook address and port rules as pure functions (review 2026-11-28, M2). Nothing here
connects anywhere: public addresses are only judged, and host names go to a resolver stub."""

from __future__ import annotations

import asyncio
import ipaddress

import pytest

from memforest.app.webhook_target import (
    NOT_ALLOWED,
    Resolver,
    address_allowed,
    check_target,
    embedded_ipv4,
    port_allowed,
)
from memforest.errors import InputError
from memforest.settings import WebhookSettings

REFUSED = [
    "127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0",
    "224.0.0.1", "240.0.0.1", "255.255.255.255", "::1", "::", "fe80::1", "fc00::1", "ff02::1",
    "::ffff:10.0.0.1",  # IPv4-mapped
    "64:ff9b::7f00:1", "64:ff9b::a00:1", "64:ff9b::a9fe:a9fe",  # NAT64 of 127.0.0.1, 10.0.0.1, 169.254.169.254
    "64:ff9b:1::101:101",  # the local-use NAT64 prefix, whatever it carries
    "2002:7f00:1::", "2002:a00:1::", "2002:c0a8:101::1",  # 6to4 of 127.0.0.1, 10.0.0.1, 192.168.1.1
    "::127.0.0.1", "::10.0.0.1", "::169.254.169.254",  # IPv4-compatible
]  # fmt: skip
# Judged only (never connected to): public addresses, plain and inside the forms that embed one.
ACCEPTED = ["1.1.1.1", "2606:4700::1111", "64:ff9b::101:101", "2002:101:101::", "::ffff:1.1.1.1"]


@pytest.mark.parametrize("address", REFUSED)
def test_private_and_translated_forms_are_refused(address: str) -> None:
    assert not address_allowed(ipaddress.ip_address(address))


@pytest.mark.parametrize("address", ACCEPTED)
def test_public_addresses_are_accepted(address: str) -> None:
    assert address_allowed(ipaddress.ip_address(address))


def test_embedded_ipv4_is_unwrapped() -> None:
    def unwrap(address: str) -> str | None:
        found = embedded_ipv4(ipaddress.IPv6Address(address))
        return None if found is None else str(found)

    assert unwrap("64:ff9b::7f00:1") == "127.0.0.1"
    assert unwrap("2002:a00:1::") == "10.0.0.1"
    assert unwrap("::127.0.0.1") == "127.0.0.1"
    assert unwrap("::ffff:10.0.0.1") == "10.0.0.1"
    assert unwrap("2606:4700::1111") is None


def test_ports_80_443_and_1024_up_by_default() -> None:
    cfg = WebhookSettings()
    assert [p for p in (0, 22, 25, 79, 80, 81, 443, 1023, 1024, 8080, 65_535, 65_536) if port_allowed(p, cfg)] == [
        80, 443, 1024, 8080, 65_535,
    ]  # fmt: skip
    strict = WebhookSettings(ports=[443], min_port=65_536)
    assert [p for p in (80, 443, 8443) if port_allowed(p, strict)] == [443]


def _stub(*answers: str, fail: bool = False) -> Resolver:
    async def resolve(host: str, port: int) -> list[str]:
        if fail:
            raise OSError("Name or service not known")
        return list(answers)

    return resolve


async def test_registration_accepts_a_host_with_only_public_addresses() -> None:
    await check_target("https://hooks.example.test/x", WebhookSettings(), _stub("1.1.1.1", "2606:4700::1111"))


@pytest.mark.parametrize(
    "resolve",
    [_stub("1.1.1.1", "10.1.2.3"), _stub("64:ff9b::a00:1"), _stub(), _stub(fail=True)],
    ids=["one-private-answer", "nat64-private", "no-answer", "unresolvable"],
)
async def test_refusals_all_read_the_same_and_name_no_address(resolve: Resolver) -> None:
    with pytest.raises(InputError) as refused:
        await check_target("https://hooks.example.test/x", WebhookSettings(), resolve)
    assert str(refused.value) == f"url: {NOT_ALLOWED}"  # no resolved address, and unresolvable reads like private


@pytest.mark.parametrize("url", ["http://hooks.example.test:25/x", "http://hooks.example.test:0/x",
                                 "https://hooks.example.test:1023/x"])  # fmt: skip
async def test_ports_are_refused_even_with_allow_private(url: str) -> None:
    with pytest.raises(InputError, match="port not allowed"):
        await check_target(url, WebhookSettings(allow_private=True), _stub("127.0.0.1"))


async def test_allow_private_admits_loopback() -> None:
    await check_target("http://hooks.example.test:8080/x", WebhookSettings(allow_private=True), _stub("127.0.0.1"))
    with pytest.raises(InputError):
        await check_target("http://hooks.example.test:8080/x", WebhookSettings(), _stub("127.0.0.1"))


async def test_a_slow_or_odd_resolver_answer_is_a_refusal() -> None:
    async def hangs(host: str, port: int) -> list[str]:
        await asyncio.sleep(60)
        return ["1.1.1.1"]

    with pytest.raises(InputError, match="not allowed"):
        await check_target("https://hooks.example.test/x", WebhookSettings(timeout_s=0.2), hangs)
    with pytest.raises(InputError, match="not allowed"):
        await check_target("https://hooks.example.test/x", WebhookSettings(), _stub("not-an-address"))
