"""The MCP server over stdio for one local agent: the local tenant, full scopes, one default forest.

Standard output carries the protocol only: before anything else runs, file descriptor 1 is
duplicated for the protocol and then pointed at standard error, so stray prints (ours, a
library's, or a child process's such as the embedded PostgreSQL) land on stderr.
"""

from __future__ import annotations

import contextlib
import io
import os
from collections.abc import Iterator

import anyio
from mcp.server.stdio import stdio_server

from memforest import tracing
from memforest.app.auth import local_principal
from memforest.app.jobs import running_worker
from memforest.app.tenants import local_forest
from memforest.backends.factory import build_backends
from memforest.db.runtime import open_database
from memforest.mcp.server import LocalBinding, build_server
from memforest.mcp.tools import Services
from memforest.mcp.traces import trace_tool_calls
from memforest.settings import Settings


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
    tracing.configure()  # OTEL_TRACES_EXPORTER, read once per process (the console exporter writes to stderr)
    with protocol_stdout() as out:
        backends = build_backends(settings)
        try:
            async with open_database(settings) as db:
                tenant_id = (await local_forest(db, tenant, forest)).tenant_id
                principal = local_principal(tenant_id)
                binding = LocalBinding(Services(db, settings, backends), principal, default_forest=forest)
                server = trace_tool_calls(build_server(binding), tenant_id=tenant_id)
                async with (
                    running_worker(db, settings, backends, tenant_id=tenant_id, enabled=worker),
                    stdio_server(stdout=anyio.wrap_file(out)) as (read_stream, write_stream),
                ):
                    low = server._mcp_server  # FastMCP.run_stdio_async offers no way to pass the streams
                    await low.run(read_stream, write_stream, low.create_initialization_options())
        finally:
            await backends.aclose()
