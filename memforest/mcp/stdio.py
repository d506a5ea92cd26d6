"""The MCP server over stdio for one local agent: the local tenant, full scopes, one default forest.

Standard output carries the protocol only: before anything else runs, file descriptor 1 is
duplicated for the protocol and then pointed at standard error, so stray prints (ours, a
library's, or a child process's such as the embedded PostgreSQL) land on stderr.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import os
from collections.abc import Iterator

import anyio
from mcp.server.stdio import stdio_server

from memforest.api.auth import SCOPES, Principal
from memforest.backends.factory import build_backends
from memforest.db.runtime import open_database
from memforest.mcp.server import LocalBinding, build_server
from memforest.mcp.tools import Services
from memforest.pipeline.worker import run_worker
from memforest.settings import Settings
from memforest.store.tenants import ensure_forest, ensure_tenant

log = logging.getLogger(__name__)


@contextlib.contextmanager
def protocol_stdout() -> Iterator[io.TextIOWrapper]:
    """A text stream on the original stdout, while fd 1 (and so ``print``) goes to stderr."""
    saved = os.dup(1)
    os.dup2(2, 1)
    stream = io.TextIOWrapper(os.fdopen(saved, "wb"), encoding="utf-8", newline="\n")
    try:
        yield stream
    finally:
        with contextlib.suppress(OSError, ValueError):
            stream.close()


async def serve_stdio(settings: Settings, *, tenant: str, forest: str, worker: bool = True) -> None:
    """Serve MCP on stdin/stdout until the client closes stdin."""
    with protocol_stdout() as out:
        backends = build_backends(settings)
        try:
            async with open_database(settings) as db:
                tenant_id = await ensure_tenant(db, tenant)
                async with db.tenant(tenant_id) as conn:
                    await ensure_forest(conn, tenant_id, forest)
                principal = Principal(tenant_id=tenant_id, scopes=frozenset(SCOPES))
                server = build_server(LocalBinding(Services(db, settings, backends), principal, default_forest=forest))
                stop = asyncio.Event()
                task = (
                    asyncio.create_task(run_worker(db, settings, backends, stop=stop, tenant_id=tenant_id))
                    if worker
                    else None
                )
                try:
                    async with stdio_server(stdout=anyio.wrap_file(out)) as (read_stream, write_stream):
                        low = server._mcp_server  # FastMCP.run_stdio_async offers no way to pass the streams
                        await low.run(read_stream, write_stream, low.create_initialization_options())
                finally:
                    stop.set()
                    if task is not None:
                        try:
                            await asyncio.wait_for(task, timeout=10)
                        except (TimeoutError, asyncio.CancelledError):
                            task.cancel()
                        except Exception:
                            log.exception("in-process worker failed")
        finally:
            await backends.aclose()
