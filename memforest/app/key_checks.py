"""Unknown keys are cheap: what the request path does before authentication with a bearer key that
is not a known tenant key.

- One key lookup per request: a key the limiter has not cached is looked up once, with its tenant's
  limits, and the result (:class:`~memforest.app.auth.KeyCheck`) is handed to authentication,
  which does not look it up again.
- A short negative cache: an unknown or revoked key is remembered for ``unknown_key_cache_s``
  (bounded), so repeating it costs no database work. A new key is random, so it cannot be among
  the remembered ones, and a revoked key stays revoked.
- A token bucket per client address (``client_rate_per_s``, ``client_burst``) for requests whose
  key is not a known tenant key: a flood of made-up keys costs at most that many lookups a second
  per address. A known tenant key is charged to its tenant instead (``memforest.app.limits``), and
  a key found valid before (remembered, bounded) is looked up even while its address is refused, so
  a flood from a shared address (a proxy, a NAT) does not lock out the tenants already using it.
  Limits are per process (ADR 0019).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

from memforest.app.auth import KeyCheck, lookup_key
from memforest.app.limits import MAX_CACHED_KEYS, Refusal, TenantLimits, effective_limits
from memforest.app.retry import retry_if_cut
from memforest.db.engine import Database
from memforest.settings import LimitSettings
from memforest.store import limits as store

__all__ = ["MAX_CLIENTS", "KeyChecks"]

#: client addresses whose buckets a process keeps at most (the least recently seen go first)
MAX_CLIENTS = 10_000


@dataclass(slots=True)
class _ClientBucket:
    tokens: float
    stamp: float


def _put(cache: dict[Any, Any], key: Any, value: Any, limit: int) -> None:
    """``cache[key] = value`` as its newest entry, dropping the oldest when the cache is full."""
    cache.pop(key, None)
    if len(cache) >= limit:
        cache.pop(next(iter(cache)))
    cache[key] = value


@dataclass(slots=True)
class KeyChecks:
    """The negative key cache and the per-client buckets of one process."""

    defaults: LimitSettings
    clock: Any = time.monotonic
    _unknown: dict[str, float] = field(default_factory=dict)
    _known: dict[str, None] = field(default_factory=dict)
    _clients: dict[str, _ClientBucket] = field(default_factory=dict)

    def is_unknown(self, key_hash: str) -> bool:
        """Whether the key was found unknown or revoked less than ``unknown_key_cache_s`` ago."""
        expiry = self._unknown.get(key_hash)
        if expiry is None:
            return False
        if expiry > self.clock():
            return True
        del self._unknown[key_hash]
        return False

    def was_valid(self, key_hash: str) -> bool:
        """Whether the key was a live tenant key when last looked up here."""
        return key_hash in self._known

    @retry_if_cut
    async def look_up(self, db: Database, key_hash: str) -> tuple[KeyCheck, TenantLimits | None]:
        """The key's principal (None: unknown or revoked, then remembered as such) and its tenant's
        limits, in one system transaction."""
        async with db.system() as conn:
            principal = await lookup_key(conn, key_hash)
            row = None
            if principal is not None and principal.tenant_id is not None:
                row = await store.tenant_limits(conn, principal.tenant_id)
        if principal is None or row is None:
            self._known.pop(key_hash, None)
            _put(self._unknown, key_hash, self.clock() + self.defaults.unknown_key_cache_s, MAX_CACHED_KEYS)
            return KeyCheck(key_hash, None), None
        _put(self._known, key_hash, None, MAX_CACHED_KEYS)
        return KeyCheck(key_hash, principal), effective_limits(row, self.defaults)

    def charge_client(self, client: str, *, take: bool = True) -> Refusal | None:
        """Take one token of the client address's bucket (``take`` False: only check that one is
        left), or say why not (429 with ``Retry-After``). 0 ``client_rate_per_s``: no limit."""
        rate = self.defaults.client_rate_per_s
        if not rate:
            return None
        now = self.clock()
        capacity = float(max(self.defaults.client_burst, 1))
        bucket = self._clients.get(client)
        if bucket is None:
            bucket = _ClientBucket(tokens=capacity, stamp=now)
        bucket.tokens = min(capacity, bucket.tokens + (now - bucket.stamp) * rate)
        bucket.stamp = now
        _put(self._clients, client, bucket, MAX_CLIENTS)
        if bucket.tokens < 1.0:
            wait = math.ceil((1.0 - bucket.tokens) / rate)
            return Refusal(f"too many requests without a valid API key from this address ({rate:g}/s)", max(1, wait))
        if take:
            bucket.tokens -= 1.0
        return None
