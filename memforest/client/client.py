"""The Python clients of the MemForest HTTP API: ``MemForestClient`` (async) and
``MemForestSyncClient`` (blocking), with the same methods, typed results (the wire models of
:mod:`memforest.schemas`) and one exception tree::

    async with MemForestClient("http://127.0.0.1:8420", api_key) as mf:
        accepted = await mf.add_session("notes", {"id": "s1", "time": "2024-05-01T10:00:00Z", "turns": [...]})
        await mf.wait_job(accepted.job_id)
        result = await mf.query("notes", "Where did Alice move?")

    with MemForestSyncClient("http://127.0.0.1:8420", api_key) as mf:
        result = mf.query("notes", "Where did Alice move?")

Each operation is written once (:mod:`memforest.client.operations`); the two clients differ only
in how they send requests and sleep (:mod:`memforest.client.runners`). Both retry a 429 or 503 as
their ``retry`` policy says (honouring ``Retry-After``). Every failure is a
:class:`~memforest.errors.MemForestError` (see :mod:`memforest.client.errors`); an answer that does
not match its model is an :class:`UnexpectedResponseError`. No ``httpx`` exception leaves the client.
"""

from __future__ import annotations

from memforest.client.operations import Operations
from memforest.client.runners import DEFAULT_URL, AsyncRunner, RetryPolicy, SyncRunner

__all__ = ["DEFAULT_URL", "MemForestClient", "MemForestSyncClient", "RetryPolicy"]


class MemForestClient(AsyncRunner, Operations):
    """Async client for the MemForest API.

    ``api_key`` is a tenant key for tenant endpoints, or the server's admin key for the tenant and
    key endpoints. ``transport`` replaces the network (e.g. ``httpx.ASGITransport(app=app)`` in
    tests). Use it as ``async with MemForestClient(...) as mf:`` or call :meth:`aclose`.
    """


class MemForestSyncClient(SyncRunner, Operations):
    """Blocking client for the MemForest API, with the methods of :class:`MemForestClient`.

    Use it as ``with MemForestSyncClient(...) as mf:`` or call :meth:`close`. It is safe to share
    between threads (``httpx.Client`` is).
    """

    def async_twin(self) -> MemForestClient:
        """An async client of the same server, key, timeout and retry policy (its own connections;
        close it with ``async with`` or ``aclose``)."""
        return MemForestClient(**self.twin_settings)
