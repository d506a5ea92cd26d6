"""``bench.faults --quick``: a real ``memforest serve``, separate workers SIGKILLed while sessions are
ingested, a PostgreSQL restart, a model failing 20% of its calls and hostile inputs. The run is done
once per module; the invariants are asserted one by one."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # `bench` lives at the repo root, not installed

from bench import faults
from bench.faults_load import nested_json, slow_text
from bench.simulated_llm import random_fail_plan


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    out = tmp_path_factory.mktemp("faults")
    rc = faults.main(["--quick", "--out", str(out)])
    result = json.loads((out / "faults_quick.json").read_text())
    assert (out / "faults_quick.png").stat().st_size > 0
    assert rc == (0 if result["pass"] else 1)
    yield result


def test_the_faults_were_injected(quick: dict[str, Any]) -> None:
    assert quick["kills"] == 2 and quick["db_restarts"] == 1
    assert sum(quick["model_server"]["injected_failures"].values()) > 0
    assert quick["sessions"]["accepted"] >= 10 and quick["healthz"]["n"] > 50
    assert quick["requests"].get("nested-json 400", 0) + quick["requests"].get("nested-json 422", 0) > 0
    assert quick["requests"].get("oversized 413", 0) > 0
    assert quick["git_commit"] and quick["args"]["quick"] is True


def test_no_session_is_lost_or_duplicated(quick: dict[str, Any]) -> None:
    s = quick["sessions"]
    assert s["lost"] == [] and s["duplicated"] == []
    assert s["in_db"] >= s["accepted"] and s["facts_sourced"] > 0
    assert set(quick["checks"].values()) == {"ok"}


def test_no_job_is_stuck_and_every_failure_has_a_reason(quick: dict[str, Any]) -> None:
    assert quick["jobs"]["stuck"] == [] and quick["jobs"]["failed_without_reason"] == []
    assert quick["jobs"]["total"] >= quick["sessions"]["accepted"]


def _outages(result: dict[str, Any]) -> list[tuple[float, float]]:
    begins = [e["t"] for e in result["events"] if e["kind"] == "db_restart_begin"]
    ends = [e["t"] for e in result["events"] if e["kind"] == "db_restart_end"]
    return list(zip(begins, ends, strict=False))


def test_every_5xx_is_one_of_the_known_holes(quick: dict[str, Any]) -> None:
    """Zero 5xx is the goal (the run's ``pass`` counts them as violations). Read use cases and
    session accepts now run once more when a restart cuts their transaction (``app/retry.py``), and
    one quick and one full run gave zero; until more runs confirm it, a 503 + database-unavailable
    during a restart is still tolerated here (a second cut within one request could give one)."""
    outages = _outages(quick)
    unknown = [
        e
        for e in quick["server_error_samples"]
        if not any(b - 0.5 <= e["t"] <= end + 3.0 for b, end in outages) and e["kind"] != "adversarial-query"
    ]
    assert unknown == []
    # during a restart: never a 500; a request whose connection the restart cut answers 503 +
    # database-unavailable (opening a transaction waits for the database, so few remain)
    during = [e for e in quick["server_error_samples"] if e["kind"] != "adversarial-query"]
    assert all(e["status"] == 503 and "database-unavailable" in e["body"] for e in during), during
    stuck = [x for w in quick["process_logs"].values() for x in w["exceptions"] if "cannot switch to state" in x]
    assert stuck == []
    assert quick["server_errors"] == 0 or not quick["pass"]


def test_healthz_is_measured_under_load(quick: dict[str, Any]) -> None:
    """Measured and reported, not asserted: on a shared 2-core machine the 250 ms p99 target is not
    reliable, and until CPU-bound text work leaves the event loop (issue 14) the slow turns freeze it."""
    h = quick["healthz"]
    assert h["n"] > 50 and h["p99_ms"] > 0 and h["max_ms"] >= h["p99_ms"], h
    assert quick["healthz_ok"] == (h["p99_ms"] < faults.HEALTHZ_P99_TARGET_MS and h["failed"] == 0)


def test_the_hostile_inputs_are_what_they_claim() -> None:
    assert all(len(slow_text(i)) == 20_000 for i in range(4))
    assert nested_json(5).count(b"[[[[[]]]]]") == 1
    plan = random_fail_plan(0.2, ["500", "429"], 10_000, seed=1)
    assert 0.17 < sum(k != "ok" for k in plan) / len(plan) < 0.23 and set(plan) == {"ok", "500", "429"}
