"""Smoke test of ``bench.load``: a real ``memforest serve`` subprocess on this test's database,
2 clients for 3 seconds; the JSON has every operation with sane numbers, the PNG is written."""

from __future__ import annotations

import json
from pathlib import Path

from bench import load

TEST_DIM = 64  # the dimension conftest migrates the test databases with


def test_load_smoke(db_env: str, tmp_path: Path) -> None:
    argv = ["--clients", "2", "--duration", "3", "--seed-sessions", "3", "--query-ratio", "0.7"]
    argv += ["--database-url", db_env, "--embed-dim", str(TEST_DIM), "--out", str(tmp_path), "--no-progress"]
    assert load.main(argv) == 0
    result = json.loads((tmp_path / "load.json").read_text())
    assert (tmp_path / "load.png").stat().st_size > 0
    assert result["pass"] is True and result["errors"] == 0
    assert result["config"]["clients"] == 2 and 3 <= result["elapsed_s"] < 60
    for op in ("query", "ingest"):
        s = result["ops"][op]
        assert s["count"] > 0 and s["errors"] == 0
        assert 0 < s["p50_ms"] <= s["p95_ms"] <= s["p99_ms"] <= s["max_ms"]
        assert len(s["percentiles_ms"]) == 101
    jobs = result["jobs"]
    assert jobs["seeded"] == jobs["seed_succeeded"] == 3
    assert jobs["submitted"] == result["ops"]["ingest"]["count"] == jobs["succeeded"]
    assert jobs["failed"] == jobs["pending"] == 0
    assert result["forest_after"]["sessions"] == 3 + jobs["submitted"]
    assert result["forest_after"]["facts"] > result["forest_before"]["facts"] > 0
    assert result["evidence_per_query"] > 0


def test_load_refuses_bad_arguments(tmp_path: Path) -> None:
    assert load.main(["--clients", "0", "--out", str(tmp_path)]) == 2
    assert load.main(["--query-ratio", "1.5", "--out", str(tmp_path)]) == 2
    assert not list(tmp_path.iterdir())
