"""The README's "First five minutes" runs as written (issue 52 item 6): its first block starts
``memforest serve --bootstrap`` on 127.0.0.1 with the embedded database under a fresh
MEMFOREST_HOME, and its second, with the key that serve printed, stores a conversation over curl
and recalls it over curl and the CLI.

Only three things are the test's own: ``make`` does nothing (the test runs in the installed
``.venv`` already), the port is a free one instead of 8420, and ``mf_...`` is the printed key."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import psutil
import pytest
from support import free_port

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
KEY = re.compile(r"^\s+(mf_[A-Za-z0-9_-]+)\s*$", re.MULTILINE)

pytestmark = pytest.mark.skipif(shutil.which("curl") is None, reason="the README's blocks use curl")


def _blocks() -> list[str]:
    text = README.read_text(encoding="utf-8")
    section = text.split("\n## First five minutes\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```bash\n(.*?)```", section, re.DOTALL)


def _postmasters(home: Path) -> list[psutil.Process]:
    found = []
    for pid_file in home.rglob("postmaster.pid"):
        pid = int(pid_file.read_text().splitlines()[0])
        if psutil.pid_exists(pid):
            found.append(psutil.Process(pid))
    return found


@pytest.fixture
def scratch() -> Iterator[Path]:
    # not pytest's tmp_path: as root the server runs as the 'pgserver' user, which cannot enter it
    path = Path(tempfile.mkdtemp(prefix="memforest-five-"))
    try:
        yield path
    finally:
        for postmaster in _postmasters(path):  # a server the test left behind
            postmaster.terminate()
        shutil.rmtree(path, ignore_errors=True)


def _env(home: Path, port: int) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMFOREST_")}
    return {**env, "MEMFOREST_HOME": str(home), "MEMFOREST_API__PORT": str(port), "MEMFOREST_LOG_FORMAT": "text"}


def _wait_for_key_and_ready(proc: subprocess.Popen[bytes], out: Path, port: int, timeout_s: float = 180) -> str:
    deadline = time.monotonic() + timeout_s
    key: str | None = None
    while time.monotonic() < deadline:
        assert proc.poll() is None, out.read_text()
        if key is None and (m := KEY.search(out.read_text())):
            key = m.group(1)
        if key is not None:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=2).status_code == 200:
                    return key
            except httpx.HTTPError:
                pass
        time.sleep(0.3)
    raise AssertionError(f"serve --bootstrap printed no key or never became ready: {out.read_text()}")


def test_the_readme_first_five_minutes_run_as_written(scratch: Path) -> None:
    server_block, agent_block = _blocks()
    assert "memforest serve --bootstrap" in server_block
    assert "mf_..." in agent_block and "localhost:8420" in agent_block
    port = free_port()
    env = _env(scratch / "home", port)
    out = scratch / "serve.out"
    with out.open("wb") as sink:
        server = subprocess.Popen(
            ["bash", "-c", "make() { :; }\nset -e\n" + server_block],
            cwd=ROOT,
            env=env,
            stdout=sink,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: bash and serve get the signal
        )
    try:
        key = _wait_for_key_and_ready(server, out, port)
        script = agent_block.replace("mf_...", key).replace("localhost:8420", f"127.0.0.1:{port}")
        agent = subprocess.run(
            ["bash", "-c", "set -eo pipefail\n" + script],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=180,
        )
        assert agent.returncode == 0, agent.stdout + agent.stderr
        lines = agent.stdout.splitlines()
        assert lines[0] == "succeeded", agent.stdout  # the messages are recallable once the call answers
        question = lines.index(next(line for line in lines if line.startswith("What is the dog called?")))
        assert any("Rufus" in line for line in lines[1:question]), agent.stdout  # the context block
        assert any("Rufus" in line for line in lines[question + 1 :]), agent.stdout  # the CLI's answer
        assert "Traceback" not in agent.stderr, agent.stderr

        assert "tenants exist already" not in out.read_text()
    finally:
        postmasters = _postmasters(scratch / "home")
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=60)
        _gone, alive = psutil.wait_procs(postmasters, timeout=30)
        assert not alive, "the embedded PostgreSQL outlived serve"
    assert len(KEY.findall(out.read_text())) == 1  # the key was printed once


def test_bootstrap_prints_no_key_when_a_tenant_exists(scratch: Path) -> None:
    port = free_port()
    env = {**_env(scratch / "home", port), "MEMFOREST_ADMIN_KEY": "Zq7-" + "x1Y2z3W4v5U6t7S8r9Q0p" * 2}
    cli = [sys.executable, "-m", "memforest.cli"]
    made = subprocess.run([*cli, "tenant", "create", "acme"], env=env, capture_output=True, text=True, timeout=180)
    assert made.returncode == 0, made.stderr
    out = scratch / "serve.out"
    with out.open("wb") as sink:
        server = subprocess.Popen(
            [*cli, "serve", "--bootstrap", "--no-worker"], env=env, stdout=sink, stderr=subprocess.STDOUT
        )
    try:
        deadline = time.monotonic() + 180
        while "tenants exist already" not in out.read_text() and time.monotonic() < deadline:
            assert server.poll() is None, out.read_text()
            time.sleep(0.3)
        assert "tenants exist already" in out.read_text()
        assert not KEY.search(out.read_text())
    finally:
        postmasters = _postmasters(scratch / "home")
        if server.poll() is None:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=60)
        psutil.wait_procs(postmasters, timeout=30)
