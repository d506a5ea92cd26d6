"""docs/mcp.md's Python example, run as written (its URL and key replaced) against a real server
on 127.0.0.1 with the MCP SDK this environment has: it must find the memory it stored with
``wait``. ``MEMFOREST_MCP_DOCS_PYTHON`` names another interpreter to run it with (a virtual
environment holding another release of the SDK, e.g. ``pip install mcp``)."""

from __future__ import annotations

import asyncio
import os
import re
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from support import admin_settings, serve_app

from memforest.app.tenants import create_key
from memforest.db.engine import Database
from memforest.servers import create_app
from memforest.settings import Settings
from memforest.store.tenants import create_tenant

DOC = Path(__file__).resolve().parents[2] / "docs" / "mcp.md"
MARK = "<!-- tests/db/test_mcp_docs.py runs this block"


def example() -> str:
    """The Python block that follows the test's marker in docs/mcp.md."""
    text = DOC.read_text()
    block = re.search(r"```python\n(.*?)```", text[text.index(MARK) :], re.S)
    assert block is not None
    return block.group(1)


@pytest.fixture
async def server(settings: Settings, db: Database) -> AsyncIterator[tuple[str, str]]:
    s = admin_settings(settings, worker={"poll_interval_s": 0.05})
    tid = await create_tenant(db, "docs")
    _, key, _ = await create_key(db, tid, ["read", "write"])
    async with serve_app(create_app(s, db=db, start_worker=True)) as url:
        yield f"{url}/mcp", key


async def test_the_documented_python_example_runs(server: tuple[str, str], tmp_path: Path) -> None:
    url, key = server
    code = example()
    assert 'URL = "http://127.0.0.1:8420/mcp"' in code and 'KEY = "mf_..."' in code
    script = tmp_path / "example.py"
    script.write_text(code.replace("http://127.0.0.1:8420/mcp", url).replace("mf_...", key))
    proc = await asyncio.create_subprocess_exec(
        os.environ.get("MEMFOREST_MCP_DOCS_PYTHON", sys.executable),
        str(script),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), timeout=120)
    assert proc.returncode == 0, err.decode()
    lines = out.decode().splitlines()
    assert lines[0] == "Memories from forest 'alice' (times UTC, oldest first):", out.decode()
    assert any("Porto" in line for line in lines[1:]), out.decode()
