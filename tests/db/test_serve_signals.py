"""``memforest serve`` on the embedded database stops that database when told to stop (issue 14, hole 9)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import psutil
import pytest
from support import ADMIN_KEY, free_port, wait_ready

ROOT = Path(__file__).resolve().parents[2]


def _postmaster_pid(pgdata: Path) -> int | None:
    pid_file = pgdata / "postmaster.pid"
    if not pid_file.exists():
        return None
    return int(pid_file.read_text().splitlines()[0])


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
    proc = subprocess.Popen(cmd, env=env, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        wait_ready(proc, port)
        pid = _postmaster_pid(tmp_path / "home" / "pgdata")
        assert pid is not None and psutil.pid_exists(pid)
        postmaster = psutil.Process(pid)

        proc.send_signal(sig)
        proc.wait(timeout=60)
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
