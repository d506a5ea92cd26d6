"""The rule-based extractor's worker processes (ADR 0141): same candidates as in this process,
errors and overruns come back as errors, a dead or stuck worker is replaced, tenants share fairly."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import psutil
import pytest
from support import text_work

from memforest.backends.rule_based import RuleBasedExtractor
from memforest.domain import Candidate, CellTurn, CellView
from memforest.logs import log_context
from memforest.text import processes
from memforest.text.offload import TextBudgetExceededError
from memforest.text.processes import TextProcessError, run_in_process

WHEN = datetime(2024, 3, 5, 9, 30, tzinfo=UTC)
# a pool of its own for these tests (pools are per size): the ones they end do not touch others'
SIZE = 3
GATES_SIZE = 4


def _cell() -> CellView:
    return CellView(
        "t-s1",
        WHEN,
        (
            CellTurn(0, "Ines", "I moved to Porto last month and started at Quillfeather Labs.", WHEN),
            CellTurn(1, "Rafa", "My sister Lotte just adopted a beagle called Pip!", WHEN),
        ),
    )


def test_candidates_from_a_worker_process_equal_those_of_the_text_threads() -> None:
    async def both() -> tuple[list[Candidate], list[Candidate]]:
        cell = _cell()
        return await RuleBasedExtractor(processes=1).extract(cell), await RuleBasedExtractor().extract(cell)

    in_process, in_threads = asyncio.run(both())
    assert in_process == in_threads
    assert any(c.attribute for c in in_threads)  # (a cell with states, not an empty comparison)


def test_a_worker_starts_with_the_readers_literal_gates_read() -> None:
    # (the fork server reads them once, memforest.text.warm; a worker never parses them at its first
    # sentence. A pool of a size no test reads text with: its workers have read nothing)
    gates = asyncio.run(run_in_process(text_work.gates_read, processes=GATES_SIZE, budget_s=5, what="gates"))
    assert gates == [1, 1, 1]


def test_an_error_of_the_work_comes_back_as_raised() -> None:
    with pytest.raises(ValueError, match="no such thing"):
        asyncio.run(run_in_process(text_work.fail, "no such thing", processes=SIZE, budget_s=5, what="failing"))


def test_work_checking_its_deadline_stops_itself_and_the_pool_stays() -> None:
    async def run() -> tuple[int, int]:
        before = await run_in_process(text_work.pid, processes=1, budget_s=5, what="pid")
        with pytest.raises(TextBudgetExceededError):
            await run_in_process(text_work.sleep_checking, 5.0, processes=1, budget_s=0.2, what="checking")
        return before, await run_in_process(text_work.pid, processes=1, budget_s=5, what="pid")

    before, after = asyncio.run(run())
    assert before == after  # the worker raised in time: nothing was ended


def test_work_that_overruns_without_checking_ends_its_pool_and_the_next_call_gets_a_new_one() -> None:
    async def run() -> tuple[set[int], int, float]:
        workers = {await run_in_process(text_work.pid, processes=SIZE, budget_s=5, what="pid") for _ in range(6)}
        t0 = time.perf_counter()
        with pytest.raises(TextBudgetExceededError, match="stuck"):
            await run_in_process(text_work.sleep, 60.0, processes=SIZE, budget_s=0.2, what="stuck")
        waited = time.perf_counter() - t0
        return workers, await run_in_process(text_work.pid, processes=SIZE, budget_s=5, what="pid"), waited

    workers, fresh, waited = asyncio.run(run())
    assert fresh not in workers
    assert waited < 2 * 0.2 + processes.GRACE_S + 1.0  # (not the 60 s the work would have taken)


def test_work_queued_behind_an_overrun_is_handed_to_the_new_pool() -> None:
    async def run() -> tuple[str, str]:
        stuck = asyncio.ensure_future(run_in_process(text_work.sleep, 60.0, processes=1, budget_s=0.2, what="stuck"))
        await asyncio.sleep(0.1)  # (the stuck task holds the worker; the next one waits in its queue)
        queued = await run_in_process(text_work.sleep, 0.0, processes=1, budget_s=5, what="queued")
        with pytest.raises(TextBudgetExceededError):
            await stuck
        return queued, await run_in_process(text_work.sleep, 0.0, processes=1, budget_s=5, what="after")

    assert asyncio.run(run()) == ("slept", "slept")


def test_a_worker_that_dies_fails_its_work_and_is_replaced() -> None:
    async def run() -> str:
        with pytest.raises(TextProcessError):
            await run_in_process(text_work.die, processes=SIZE, budget_s=5, what="dying")
        return await run_in_process(text_work.sleep, 0.0, processes=SIZE, budget_s=5, what="after")

    assert asyncio.run(run()) == "slept"


def test_a_tenant_flooding_the_workers_delays_another_by_about_two_tasks() -> None:
    task_s, flood = 0.3, 10  # FIFO, the other tenant's task would wait the whole flood (3 s)

    async def run() -> float:
        await run_in_process(text_work.pid, processes=1, budget_s=5, what="warm")
        with log_context(tenant_id="tenant-b"):
            tasks = [
                asyncio.ensure_future(run_in_process(text_work.sleep, task_s, processes=1, budget_s=5, what="flood"))
                for _ in range(flood)
            ]
        await asyncio.sleep(0.05)
        t0 = time.perf_counter()
        with log_context(tenant_id="tenant-a"):
            await run_in_process(text_work.sleep, 0.0, processes=1, budget_s=5, what="small")
        latency = time.perf_counter() - t0
        await asyncio.gather(*tasks)
        return latency

    assert asyncio.run(run()) < 3 * task_s  # one running and one queued of the flood, then its own


def test_the_worker_processes_are_listed_for_cpu_accounting() -> None:
    async def run() -> int:
        return await run_in_process(text_work.pid, processes=1, budget_s=5, what="pid")

    worker = asyncio.run(run())
    assert worker in processes.pids()
    parent = int(Path(f"/proc/{worker}/stat").read_text().rsplit(")", 1)[1].split()[1])
    assert worker in processes.accounting_pids() or parent in processes.accounting_pids()


def test_a_timeout_error_of_the_work_comes_back_as_raised_and_ends_nothing() -> None:
    async def run() -> tuple[int, int]:
        before = await run_in_process(text_work.pid, processes=SIZE, budget_s=5, what="pid")
        with pytest.raises(TimeoutError, match="its own"):
            await run_in_process(text_work.time_out, "its own", processes=SIZE, budget_s=5, what="timing out")
        return before, await run_in_process(text_work.pid, processes=SIZE, budget_s=5, what="pid")

    before, after = asyncio.run(run())
    assert after in processes.pids() and before in processes.pids()


def test_starting_a_pool_never_blocks_the_caller() -> None:
    t0 = time.perf_counter()
    ready = processes.start(5)  # (a size no other test uses: a pool started from nothing)
    returned = time.perf_counter() - t0
    ready.result(timeout=30)
    assert returned < 0.1


# a process that owns a pool, prints its workers' pids, then ends by a signal (no exit hook runs)
_OWNER = """
import os, signal
from memforest.text import processes
processes.start(2).result()
print(*processes.pids(), flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_the_workers_end_with_the_process_that_owns_their_pool_and_let_go_of_its_output() -> None:
    owner = subprocess.Popen(
        [sys.executable, "-c", _OWNER], stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    )
    try:
        # (reads to the end of the output: a worker or fork server left holding it would stall this)
        output, _ = owner.communicate(timeout=60)
    finally:  # (a failure leaves nothing behind: the owner's session is its pool's processes too)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(owner.pid, signal.SIGKILL)
    workers = [int(pid) for pid in output.split()]
    assert owner.returncode == -signal.SIGKILL and len(workers) == 2
    _, alive = psutil.wait_procs([p for p in map(_process, workers) if p is not None], timeout=10)
    assert not alive


def _process(pid: int) -> psutil.Process | None:
    try:
        return psutil.Process(pid)
    except psutil.NoSuchProcess:
        return None
