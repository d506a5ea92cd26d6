"""bench.cpu_meter: CPU seconds of a process tree from /proc, and what a run spent."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from bench.cpu_meter import CpuMeter, database_meter, postmaster_pid, tree_cpu_s

linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


@linux
def test_a_process_tree_counts_the_cpu_it_burns() -> None:
    before = tree_cpu_s(os.getpid())
    end = time.process_time() + 0.2
    while time.process_time() < end:
        pass
    after = tree_cpu_s(os.getpid())
    assert before is not None and after is not None
    assert after - before >= 0.15


def test_a_gone_process_reads_none(tmp_path: Path) -> None:
    assert tree_cpu_s(2**22 + 12345) is None
    assert postmaster_pid(tmp_path) is None
    (tmp_path / "postmaster.pid").write_text("4242\n/data\n", encoding="ascii")
    assert postmaster_pid(tmp_path) == 4242


def test_spent_sums_the_groups_and_divides_by_the_cores() -> None:
    before = {"client_s": 1.0, "server_s": 2.0, "database_s": None}
    after = {"client_s": 3.0, "server_s": 4.0, "database_s": 5.0}
    out = CpuMeter.spent(before, after, wall_s=4.0)
    assert out["client_s"] == 2.0 and out["server_s"] == 2.0 and out["database_s"] is None
    assert out["total_s"] == 4.0
    assert out["cpu_bound_s"] == pytest.approx(4.0 / out["cpus"], abs=1e-3)
    assert out["busy_share"] == pytest.approx(4.0 / (out["cpus"] * 4.0), abs=1e-3)


def test_the_database_meter_reads_the_embedded_servers_pid_and_none_for_an_external_one(tmp_path: Path) -> None:
    (tmp_path / "pgdata").mkdir()
    (tmp_path / "pgdata" / "postmaster.pid").write_text("4242\n/some/dir\n", encoding="ascii")
    assert database_meter(tmp_path, None).database_pid == 4242
    assert database_meter(tmp_path, "postgresql://127.0.0.1/x").database_pid is None
