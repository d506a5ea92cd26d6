"""Every process that starts the embedded database stops it when told to stop (SIGTERM or SIGINT):
``memforest serve`` (issue 14, hole 9), the other commands such as ``memforest worker``, and a
benchmark's throwaway server from ``bench/env.py`` (issue 54 item 8)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
from support import ADMIN_KEY, free_port, wait_ready

ROOT = Path(__file__).resolve().parents[2]


def _sigint_at_default() -> None:
    """Start the child with SIGINT at its default, as a terminal does: a runner that started
    pytest in the background (a non-interactive shell's ``&``) has SIGINT ignored, and the child
    would inherit that and rightly go on ignoring it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _postmaster_pid(pgdata: Path) -> int | None:
    """The postmaster's pid from its pid file; None while the file is missing or still being
    written (PostgreSQL creates it empty and fills it in steps)."""
    pid_file = pgdata / "postmaster.pid"
    try:
        first = pid_file.read_text().partition("\n")[0].strip()
    except FileNotFoundError:
        return None
    return int(first) if first.isdigit() else None


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_stops_serve_and_its_embedded_postgres(sig: signal.Signals) -> None:
    # not pytest's tmp_path: as root the server runs as the 'pgserver' user, which cannot enter it
    tmp_path = Path(tempfile.mkdtemp(prefix="memforest-serve-"))
    port = free_port()
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "MEMFOREST_HOME": str(tmp_path / "home"),
        "MEMFOREST_ADMIN_KEY": ADMIN_KEY,
        "MEMFOREST_EMBEDDING__DIM": "64",
        "MEMFOREST_LOG_FORMAT": "text",
    }
    env.pop("MEMFOREST_DATABASE_URL", None)
    env.pop("MEMFOREST_DATABASE_TENANT_URL", None)
    cmd = [sys.executable, "-m", "memforest.cli", "serve", "--port", str(port), "--no-worker"]
    proc = subprocess.Popen(
        cmd, env=env, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, preexec_fn=_sigint_at_default
    )
    try:
        wait_ready(proc, port)
        pid = _postmaster_pid(tmp_path / "home" / "pgdata")
        assert pid is not None and psutil.pid_exists(pid)
        postmaster = psutil.Process(pid)

        proc.send_signal(sig)
        proc.communicate(timeout=60)  # reads the pipe while waiting, so a full pipe cannot block the exit
        gone, _alive = psutil.wait_procs([postmaster], timeout=30)
        assert gone, f"the embedded PostgreSQL (pid {pid}) outlived `memforest serve` after {sig.name}"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        leftover = _postmaster_pid(tmp_path / "home" / "pgdata")
        if leftover is not None and psutil.pid_exists(leftover):
            psutil.Process(leftover).terminate()
        shutil.rmtree(tmp_path, ignore_errors=True)


def _env(home: Path) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "MEMFOREST_HOME": str(home), "MEMFOREST_EMBEDDING__DIM": "64"}
    env.pop("MEMFOREST_DATABASE_URL", None)
    env.pop("MEMFOREST_DATABASE_TENANT_URL", None)
    return env


@pytest.fixture
def scratch() -> Iterator[Path]:
    # not pytest's tmp_path: as root the server runs as the 'pgserver' user, which cannot enter it
    path = Path(tempfile.mkdtemp(prefix="memforest-signals-"))
    try:
        yield path
    finally:
        for pid_file in path.rglob("postmaster.pid"):  # a server the test left behind
            leftover = _postmaster_pid(pid_file.parent)
            if leftover is not None and psutil.pid_exists(leftover):
                psutil.Process(leftover).terminate()
        shutil.rmtree(path, ignore_errors=True)


def _wait_for_tenant_connection(proc: subprocess.Popen[bytes], pgdata: Path, timeout_s: float = 180) -> psutil.Process:
    """The postmaster under ``pgdata`` once it serves a connection of the tenant login: the process
    opened its database (migrated, the row-level security check done) and is past start-up."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.stdout.read().decode() if proc.stdout else ""
        pid = _postmaster_pid(pgdata)
        if pid is not None and psutil.pid_exists(pid):
            postmaster = psutil.Process(pid)
            titles = []
            for child in postmaster.children():
                try:
                    titles.append(" ".join(child.cmdline()))
                except psutil.Error:
                    continue
            if any("memforest_tenant" in title for title in titles):
                return postmaster
        time.sleep(0.2)
    raise AssertionError("the process never opened its embedded database")


def _stop_and_check(proc: subprocess.Popen[bytes], postmaster: psutil.Process, sig: signal.Signals, what: str) -> str:
    proc.send_signal(sig)
    # read while waiting: a process whose output fills the pipe blocks on its next write, and never exits
    out, _ = proc.communicate(timeout=60)
    gone, _alive = psutil.wait_procs([postmaster], timeout=30)
    output = out.decode() if out else ""
    assert gone, f"the embedded PostgreSQL (pid {postmaster.pid}) outlived {what} after {sig.name}: {output}"
    return output


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_stops_a_worker_and_its_embedded_postgres(scratch: Path, sig: signal.Signals) -> None:
    cmd = [sys.executable, "-m", "memforest.cli", "worker", "--concurrency", "1"]
    proc = subprocess.Popen(
        cmd,
        env=_env(scratch / "home"),
        cwd=scratch,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        preexec_fn=_sigint_at_default,
    )
    try:
        postmaster = _wait_for_tenant_connection(proc, scratch / "home" / "pgdata")
        output = _stop_and_check(proc, postmaster, sig, "`memforest worker`")
        assert "Traceback" not in output, output
        # SIGTERM as Ctrl-C: "interrupted" (130), or 0 when asyncio's own SIGINT handling let it finish
        assert proc.returncode in (130, 0), proc.returncode
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


_BENCH = """
import asyncio, sys
from bench.env import bench_env

async def main():
    async with bench_env() as env:
        print(env.settings.home, flush=True)
        await asyncio.sleep(3600)

asyncio.run(main())
"""


def test_sigterm_stops_a_benchmarks_throwaway_postgres(scratch: Path) -> None:
    env = {**_env(scratch / "unused"), "TMPDIR": str(scratch)}  # the bench's own home goes in here
    proc = subprocess.Popen(
        [sys.executable, "-c", _BENCH],
        env=env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        preexec_fn=_sigint_at_default,
    )
    try:
        assert proc.stdout is not None
        home = Path(proc.stdout.readline().decode().strip())
        assert home.is_dir() and home.parent == scratch, home
        postmaster = _wait_for_tenant_connection(proc, home / "pgdata")
        _stop_and_check(proc, postmaster, signal.SIGTERM, "a benchmark")
        assert not home.exists()  # the throwaway home went with it
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
