"""How long a tenant transaction waits for a lock (a forest's lock held by a long merge, a row that
another transaction updates).

The API sets :data:`TENANT_LOCK_TIMEOUT_MS` for each request (``database.request_lock_timeout_ms``),
and :meth:`memforest.db.engine.Database.tenant` sets the transaction's ``lock_timeout`` from it in
the statement that enters the tenant (no round trip of its own). Unset (worker jobs, commands), the
server's own ``lock_timeout`` applies. A wait past it fails with SQLSTATE 55P03, which the API
answers 503 with ``Retry-After``.
"""

from __future__ import annotations

from contextvars import ContextVar

__all__ = ["LOCK_NOT_AVAILABLE", "TENANT_LOCK_TIMEOUT_MS", "lock_timeout_param"]

# milliseconds; None leaves the server's lock_timeout
TENANT_LOCK_TIMEOUT_MS: ContextVar[int | None] = ContextVar("memforest_tenant_lock_timeout_ms", default=None)
LOCK_NOT_AVAILABLE = "55P03"  # the SQLSTATE of a lock wait past lock_timeout


def lock_timeout_param() -> str | None:
    """The ``lock_timeout`` value for a tenant transaction opened now (None: the server's)."""
    ms = TENANT_LOCK_TIMEOUT_MS.get()
    return None if ms is None else str(ms)
