"""CPU seconds spent by the processes of a bench run: the bench's own process (the client under
test), its rule-based extractor's worker processes (``memforest.text.processes``), the simulated
model server's process, and the embedded database server (its postmaster and every backend),
read from ``/proc`` (Linux; elsewhere nothing is read and the figures are None).

A run whose processes together used nearly ``cpus x wall`` seconds was bound by the machine's CPU,
not by its schedule or the model server; ``cpu_bound_s`` (their CPU seconds over the machine's
cores) is then the shortest wall that machine allows for that work.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memforest.text import processes as text_processes

_TICK_S = 1.0 / os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 0.01


def _stat_fields(pid: int) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after the command name, or None when it cannot be read."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    return text[text.rfind(")") + 2 :].split()


def tree_cpu_s(root: int) -> float | None:
    """CPU seconds (user + system) of ``root`` and its live descendants, with the children it has
    reaped (a backend that exited is counted by its postmaster). None when ``root`` is gone."""
    own = _stat_fields(root)
    if own is None:
        return None
    children: dict[int, list[int]] = {}
    cpu: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        fields = _stat_fields(int(entry.name))
        if fields is None:
            continue
        # fields[1] is the parent pid; [11], [12] user and system ticks; [13], [14] reaped children's
        children.setdefault(int(fields[1]), []).append(int(entry.name))
        cpu[int(entry.name)] = sum(int(f) for f in fields[11:15]) * _TICK_S
    total, stack = 0.0, [root]
    while stack:
        pid = stack.pop()
        total += cpu.get(pid, 0.0)
        stack.extend(children.get(pid, ()))
    return total


def postmaster_pid(pgdata: Path) -> int | None:
    """The pid in ``pgdata/postmaster.pid`` (its first line), or None."""
    try:
        return int((pgdata / "postmaster.pid").read_text(encoding="ascii").split()[0])
    except (OSError, ValueError, IndexError):
        return None


def database_meter(home: Path, database_url: str | None) -> CpuMeter:
    """A meter of this process and the embedded database server under ``home`` (none for an
    external database at ``database_url``, whose CPU this machine may not see)."""
    return CpuMeter(None, postmaster_pid(home / "pgdata") if database_url is None else None)


def simulator_pid() -> int | None:
    """The pid of this process's simulated model server child (``simulated_llm.process``), or None."""
    for child in multiprocessing.active_children():
        if child.name == "simulated-llm":
            return child.pid
    return None


@dataclass(slots=True)
class CpuMeter:
    """CPU seconds of the client, the simulated server and the database over one run."""

    server_pid: int | None
    database_pid: int | None

    def snapshot(self) -> dict[str, float | None]:
        """Cumulative CPU seconds of each process (group) now."""
        workers = text_processes.accounting_pids()
        return {
            "client_s": time.process_time(),
            "text_processes_s": sum(tree_cpu_s(pid) or 0.0 for pid in workers) if workers else None,
            "server_s": tree_cpu_s(self.server_pid) if self.server_pid else None,
            "database_s": tree_cpu_s(self.database_pid) if self.database_pid else None,
        }

    @staticmethod
    def spent(before: dict[str, float | None], after: dict[str, float | None], wall_s: float) -> dict[str, Any]:
        """What the run spent between two snapshots: per group, their sum, the machine's cores and
        ``cpu_bound_s`` (the sum over the cores: no schedule on this machine beats it), and
        ``busy_share`` (the sum over cores x wall; near 1, the run waited on the CPU)."""
        out: dict[str, Any] = {}
        for key, start in before.items():
            end = after.get(key)
            out[key] = round(end - start, 3) if start is not None and end is not None else None
        total = sum(v for v in out.values() if v is not None)
        cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
        out.update(total_s=round(total, 3), cpus=cpus, cpu_bound_s=round(total / cpus, 3))
        out["busy_share"] = round(total / (cpus * wall_s), 3) if wall_s > 0 else None
        return out
