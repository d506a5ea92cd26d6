"""Smoke tests of the benchmarks: each main() runs with --quick on tiny synthetic data
against this test's database and writes a JSON (with the expected keys and sane numbers) and a PNG."""

from __future__ import annotations

import json
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # `bench` lives at the repo root, not installed

from bench import ingest_throughput, query_latency, throughput, write_scaling
from bench.synthetic import SyntheticConversations

TEST_DIM = 64  # the dimension conftest migrates the test databases with


def _locomo_time(t: datetime) -> str:
    hour = t.hour % 12 or 12
    return f"{hour}:{t.minute:02d} {'am' if t.hour < 12 else 'pm'} on {t.day} {t.strftime('%B')}, {t.year}"


def _tiny_locomo(path: Path, samples: int = 2, sessions: int = 2) -> Path:
    doc: list[dict[str, Any]] = []
    for i in range(samples):
        gen = SyntheticConversations(seed=100 + i, prefix=f"x{i}-")
        conv: dict[str, Any] = {}
        for n in range(1, sessions + 1):
            s = gen.session()
            conv[f"session_{n}_date_time"] = _locomo_time(s.time)
            conv[f"session_{n}"] = [
                {"speaker": t.speaker, "dia_id": f"D{n}:{j + 1}", "text": t.text} for j, t in enumerate(s.turns)
            ]
        conv["speaker_a"], conv["speaker_b"] = conv["session_1"][0]["speaker"], conv["session_1"][1]["speaker"]
        doc.append({"sample_id": f"tiny-{i}", "conversation": conv})
    path.write_text(json.dumps(doc))
    return path


def _common(db_url: str, out: Path) -> list[str]:
    return ["--quick", "--no-progress", "--database-url", db_url, "--embed-dim", str(TEST_DIM), "--out", str(out)]


def test_write_scaling_quick(db_url: str, tmp_path: Path) -> None:
    assert write_scaling.main(_common(db_url, tmp_path)) == 0
    result = json.loads((tmp_path / "write_scaling_quick.json").read_text())
    assert (tmp_path / "write_scaling_quick.png").stat().st_size > 0
    assert {"checkpoints", "ratios_last_over_first", "pass", "eager_vs_lazy", "final_forest"} <= set(result)
    points = result["checkpoints"]
    assert len(points) == 2
    assert points[0]["forest_before"]["facts"] >= 40
    assert points[1]["forest_before"]["facts"] >= 120 > points[0]["forest_before"]["facts"]
    for p in points:
        assert p["sessions"] == 2
        assert 0 < p["wall_s_per_session_median"] < 30
        assert p["summary_calls_per_session"] > 0 and p["nodes_touched_per_session"] > 0
    assert result["final_forest"]["facts"] > 120
    assert result["final_forest"]["superseded"] > 0  # the synthetic speakers move, change jobs and favourites
    cmp = result["eager_vs_lazy"]
    modes = cmp["modes"]
    assert set(modes) == {"eager_per_fact", "eager_per_cell", "lazy_per_session", "lazy_coalesced", "lazy_batch"}
    facts = {m["facts_new"] for m in modes.values()}
    assert len(facts) == 1 and facts.pop() > 0  # the same sessions give the same facts in every mode
    # refreshing after every insert costs more summary calls than lazy batched refresh
    assert modes["eager_per_fact"]["summary_calls"] >= modes["eager_per_cell"]["summary_calls"]
    assert modes["eager_per_cell"]["summary_calls"] > modes["lazy_per_session"]["summary_calls"]
    assert modes["eager_per_fact"]["refreshes"] > modes["eager_per_cell"]["refreshes"] > 0
    assert modes["lazy_coalesced"]["summary_calls"] <= modes["lazy_per_session"]["summary_calls"]
    assert result["config"]["refresh_coalesce_commits"] == 16  # the service default is what is measured
    for p in points:  # every probe ends flushed: its refresh jobs are in its totals
        assert p["refresh_jobs"] >= 1


def test_ingest_throughput_quick(db_url: str, tmp_path: Path) -> None:
    data = _tiny_locomo(tmp_path / "tiny_locomo.json")
    assert ingest_throughput.main([*_common(db_url, tmp_path), "--data", str(data), "--limit", "2"]) == 0
    result = json.loads((tmp_path / "ingest_throughput_quick.json").read_text())
    assert (tmp_path / "ingest_throughput_quick.png").stat().st_size > 0
    assert [r["forest"] for r in result["forests"]] == ["tiny-0", "tiny-1"]
    for r in result["forests"]:
        assert r["sessions"] == 2 and r["turns"] >= 16
        assert r["facts"] > 0 and r["nodes"] > r["facts"] and r["trees"]["session"] == 2
        assert r["turns_per_s"] > 0 and r["check"] == "ok" and r["jobs_failed"] == 0
        assert set(r["stage_s"]) == {"accept", "extract", "embed", "commit", "refresh"}
        assert all(v >= 0 for v in r["stage_s"].values())
    total = result["total"]
    assert total["sessions"] == 4 and total["all_checks_ok"]
    assert total["turns_per_s"] == pytest.approx(total["turns"] / total["wall_s"])


def test_throughput_simulated_quick(db_url: str, tmp_path: Path) -> None:
    data = _tiny_locomo(tmp_path / "tiny_locomo.json", samples=1, sessions=1)
    argv = [*_common(db_url, tmp_path), "--data", str(data), "--simulate", "--ttft-ms", "2", "--tpot-ms", "0.2"]
    assert throughput.main(argv) == 0
    result = json.loads((tmp_path / "throughput_quick.json").read_text())
    assert (tmp_path / "throughput_quick.png").stat().st_size > 0
    assert result["simulated"] is True
    par, seq = result["parallel"], result["baseline"]
    for r in (par, seq):
        assert r["sessions"] == 1 and r["turns"] >= 8
        assert r["model_usage"]["extract"]["calls"] > 0 and r["model_usage"]["summarize"]["calls"] > 0
        assert r["prompt_tokens"] > 0 and r["completion_tokens"] > 0
        assert 0 <= r["prefix_cache_hit_rate"] <= 1
        assert r["parallelism"] > 0 and r["wall_s"] > 0
    assert par["model_usage"]["extract"]["calls"] == seq["model_usage"]["extract"]["calls"]
    assert seq["refreshes"] >= seq["model_usage"]["extract"]["calls"]  # a refresh after every cell
    assert par["server"]["requests"] >= par["model_calls"] - par["model_usage"].get("embed", {}).get("calls", 0)
    assert result["speedup"] == pytest.approx(seq["wall_s"] / par["wall_s"])


def test_query_latency_quick(db_url: str, tmp_path: Path) -> None:
    argv = ["--quick", "--no-progress", "--database-url", db_url, "--embed-dim", str(TEST_DIM), "--out", str(tmp_path)]
    assert query_latency.main(argv) == 0
    report = json.loads((tmp_path / "query_latency.json").read_text())
    assert report["commit"] and report["args"]["quick"] is True
    names = [s["name"] for s in report["scenarios"]]
    assert names == ["one-10k", "one-100k", "many-1k"]
    for s in report["scenarios"]:
        assert s["forests"] >= 1 and s["facts_per_forest"] > 0
        for side in ("memforest", "flat"):
            assert 0 < s[side]["p50_ms"] <= s[side]["p95_ms"]
            assert s[side]["round_trips"] > 0
        assert s["memforest"]["round_trips"] > s["flat"]["round_trips"]
        assert set(s["memforest"]["stages_p50_ms"]) >= {"embed", "recall", "browse", "assemble"}
    assert (tmp_path / "query_latency.png").is_file() and (tmp_path / "query_latency.md").is_file()
