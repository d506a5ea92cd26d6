"""Every Python snippet of the client and integration docs runs against a real ``memforest serve``
(each with a fresh tenant key in ``MEMFOREST_API_KEY``, the server in ``MEMFOREST_URL``)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.live_server import new_tenant_key, serve

DOCS = Path(__file__).resolve().parents[2] / "docs"
PAGES = ("clients.md", "integrations.md")
BLOCK = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)


def _snippets() -> list[tuple[str, str]]:
    found = []
    for page in PAGES:
        for n, match in enumerate(BLOCK.finditer((DOCS / page).read_text(encoding="utf-8")), start=1):
            found.append((f"{page}#{n}", match.group(1)))
    return found


SNIPPETS = _snippets()


def test_the_pages_have_snippets() -> None:
    assert {name.split("#")[0] for name, _ in SNIPPETS} == set(PAGES)


@pytest.fixture(scope="module")
def server(module_db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve(module_db_url, tmp_path_factory.mktemp("docs")) as url:
        yield url


@pytest.mark.parametrize(("name", "code"), SNIPPETS, ids=[name for name, _ in SNIPPETS])
def test_snippet_runs(server: str, name: str, code: str, tmp_path: Path) -> None:
    key = new_tenant_key(server, f"docs-{name.replace('#', '-').replace('.', '-')}")
    script = tmp_path / "snippet.py"
    script.write_text(code, encoding="utf-8")
    env = os.environ | {"MEMFOREST_URL": server, "MEMFOREST_API_KEY": key}
    run = subprocess.run(
        [sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=300, check=False
    )
    assert run.returncode == 0, f"{name} failed:\n{run.stderr[-3000:]}"
