"""Where a webhook may send (ADR 0020): the address and port rules, and the HTTP client that
enforces them at the moment it connects.

A target host is resolved once per connection; every address it resolves to must be allowed, and
the connection goes to one of those checked addresses (the URL's host stays in the ``Host`` header
and the TLS server name), so a name that answers differently a moment later (DNS rebinding) cannot
redirect it. IPv6 forms that carry an IPv4 address (IPv4-mapped, IPv4-compatible, NAT64, 6to4) are
judged by that IPv4 address. The client reads no proxy or certificate settings from the
environment: a proxy would resolve the host itself, past the check.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import socket
import ssl
from collections.abc import AsyncIterable, AsyncIterator, Awaitable, Callable, Iterable, Iterator
from urllib.parse import urlsplit

import httpcore
import httpx

from memforest.errors import InputError
from memforest.settings import WebhookSettings

__all__ = [
    "NOT_ALLOWED",
    "Resolver",
    "address_allowed",
    "check_target",
    "delivery_client",
    "embedded_ipv4",
    "port_allowed",
    "system_resolver",
]

NOT_ALLOWED = "not allowed: the host must resolve only to public addresses"

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
Resolver = Callable[[str, int], Awaitable[list[str]]]  # (host, port) -> the addresses it resolves to

_NAT64 = ipaddress.ip_network("64:ff9b::/96")  # RFC 6052: the IPv4 address is the last 32 bits
# RFC 8215's local-use translation prefix leads into the operator's own network, and where its
# IPv4 bits sit depends on a prefix length only that network knows: refused whole.
_NAT64_LOCAL = ipaddress.ip_network("64:ff9b:1::/48")
_IPV4_COMPATIBLE = ipaddress.ip_network("::/96")  # deprecated ::a.b.c.d (and :: and ::1)


def embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address carries (IPv4-mapped, IPv4-compatible, NAT64 or 6to4), or None."""
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address in _NAT64 or address in _IPV4_COMPATIBLE:
        return ipaddress.IPv4Address(int(address) & 0xFFFF_FFFF)
    return None


def address_allowed(address: IPAddress) -> bool:
    """Whether a webhook may connect to ``address``: globally reachable unicast, judged by the IPv4
    address an IPv6 form carries."""
    if isinstance(address, ipaddress.IPv6Address):
        if address in _NAT64_LOCAL:
            return False
        address = embedded_ipv4(address) or address
    return address.is_global and not (address.is_multicast or address.is_reserved or address.is_unspecified)


def port_allowed(port: int, cfg: WebhookSettings) -> bool:
    """Whether a webhook may connect to ``port``: one of ``cfg.ports`` or from ``cfg.min_port`` up."""
    return 0 < port <= 65_535 and (port in cfg.ports or port >= cfg.min_port)


def _parse(address: str) -> IPAddress:
    return ipaddress.ip_address(address.split("%", 1)[0])  # a scope (fe80::1%eth0) is not part of the address


def _all_allowed(addresses: Iterable[str], allow_private: bool) -> bool:
    return allow_private or all(address_allowed(_parse(a)) for a in addresses)


async def system_resolver(host: str, port: int) -> list[str]:
    """The addresses ``host`` resolves to for a TCP connection, in the resolver's order."""
    infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


async def _checked_addresses(host: str, port: int, cfg: WebhookSettings, resolve: Resolver) -> list[str]:
    """The addresses of ``host`` a webhook may connect to; empty when any of them (or the port) is not
    allowed or the name does not resolve within ``cfg.timeout_s``. One resolution: the caller
    connects to what this returns."""
    if not port_allowed(port, cfg):
        return []
    try:
        async with asyncio.timeout(cfg.timeout_s):
            addresses = await resolve(host, port)
        allowed = bool(addresses) and _all_allowed(addresses, cfg.allow_private)
    except (OSError, UnicodeError, ValueError):  # TimeoutError is an OSError
        return []
    return addresses if allowed else []


async def check_target(url: str, cfg: WebhookSettings, resolve: Resolver = system_resolver) -> None:
    """InputError unless ``url`` is http(s) with an allowed port and a host that resolves only to
    allowed addresses. The message never names what the host resolved to."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InputError("url must be an http or https URL with a host", location="url")
    try:
        port = parts.port
    except ValueError:
        raise InputError("url has an invalid port", location="url") from None
    port = (443 if parts.scheme == "https" else 80) if port is None else port
    if not port_allowed(port, cfg):
        listed = ", ".join(str(p) for p in sorted(cfg.ports))
        raise InputError(f"port not allowed: use {listed} or {cfg.min_port} and up", location="url")
    if not await _checked_addresses(parts.hostname, port, cfg, resolve):
        raise InputError(NOT_ALLOWED, location="url")


class _CheckedBackend(httpcore.AsyncNetworkBackend):
    """Connects only to addresses it has just resolved and checked, never to the name itself."""

    def __init__(self, cfg: WebhookSettings, resolve: Resolver) -> None:
        self._cfg = cfg
        self._resolve = resolve
        self._inner = httpcore.AnyIOBackend()

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,  # noqa: ASYNC109 (httpcore's backend interface)
        local_address: str | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        addresses = await _checked_addresses(host, port, self._cfg, self._resolve)
        if not addresses:
            raise httpcore.ConnectError("target not allowed")
        failure: Exception = httpcore.ConnectError("no address answered")
        for address in addresses:
            try:
                return await self._inner.connect_tcp(address, port, timeout, local_address, socket_options)
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
                failure = exc
        raise failure

    async def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,  # noqa: ASYNC109 (httpcore's backend interface)
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        raise httpcore.ConnectError("webhooks connect over TCP only")

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)


class _CheckedTransport(httpx.AsyncBaseTransport):
    """httpx's transport interface over httpcore's connection pool, whose every connection goes
    through :class:`_CheckedBackend` (httpx's own transport takes no network backend). httpcore's
    errors become the httpx errors they stand for, as with httpx's transport."""

    def __init__(self, cfg: WebhookSettings, resolve: Resolver, tls: ssl.SSLContext) -> None:
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=tls,
            max_connections=cfg.concurrency,
            max_keepalive_connections=cfg.concurrency,
            network_backend=_CheckedBackend(cfg, resolve),
        )

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        assert isinstance(request.stream, httpx.AsyncByteStream)
        url = request.url
        core = httpcore.Request(
            method=request.method,
            url=httpcore.URL(scheme=url.raw_scheme, host=url.raw_host, port=url.port, target=url.raw_path),
            headers=request.headers.raw,
            content=request.stream,
            extensions=request.extensions,  # the timeouts
        )
        with _httpx_errors():
            answer = await self._pool.handle_async_request(core)
        assert isinstance(answer.stream, AsyncIterable)
        return httpx.Response(
            answer.status, headers=answer.headers, stream=_AnswerStream(answer.stream), extensions=answer.extensions
        )

    async def aclose(self) -> None:
        await self._pool.aclose()


class _AnswerStream(httpx.AsyncByteStream):
    """An answer body from httpcore, its errors as httpx's."""

    def __init__(self, stream: AsyncIterable[bytes]) -> None:
        self._stream = stream

    async def __aiter__(self) -> AsyncIterator[bytes]:
        with _httpx_errors():
            async for part in self._stream:
                yield part

    async def aclose(self) -> None:
        close = getattr(self._stream, "aclose", None)
        if close is not None:
            with _httpx_errors():
                await close()


_ERRORS: tuple[tuple[type[Exception], type[httpx.TransportError]], ...] = (  # most specific first
    (httpcore.ConnectTimeout, httpx.ConnectTimeout),
    (httpcore.ReadTimeout, httpx.ReadTimeout),
    (httpcore.WriteTimeout, httpx.WriteTimeout),
    (httpcore.PoolTimeout, httpx.PoolTimeout),
    (httpcore.TimeoutException, httpx.TimeoutException),
    (httpcore.ConnectError, httpx.ConnectError),
    (httpcore.ReadError, httpx.ReadError),
    (httpcore.WriteError, httpx.WriteError),
    (httpcore.NetworkError, httpx.NetworkError),
    (httpcore.UnsupportedProtocol, httpx.UnsupportedProtocol),
    (httpcore.RemoteProtocolError, httpx.RemoteProtocolError),
    (httpcore.LocalProtocolError, httpx.LocalProtocolError),
    (httpcore.ProtocolError, httpx.ProtocolError),
    (httpcore.ProxyError, httpx.ProxyError),
)


@contextlib.contextmanager
def _httpx_errors() -> Iterator[None]:
    try:
        yield
    except Exception as exc:
        for core, mapped in _ERRORS:
            if isinstance(exc, core):
                raise mapped(str(exc)) from exc
        raise


def delivery_client(cfg: WebhookSettings, resolve: Resolver = system_resolver) -> httpx.AsyncClient:
    """The client webhook attempts go through: checked connections, no redirects, no proxies or
    other settings from the environment, ``cfg.timeout_s`` for each connect, write and read."""
    tls = httpx.create_ssl_context(trust_env=False)
    return httpx.AsyncClient(
        transport=_CheckedTransport(cfg, resolve, tls),
        trust_env=False,
        follow_redirects=False,
        timeout=cfg.timeout_s,
    )
