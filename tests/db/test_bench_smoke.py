"""Smoke tests of the benchmarks: each main() runs with --quick on tiny synthetic data
against this test's database and writes a JSON (with the expected keys and sane numbers) and a PNG."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # `bench` lives at the repo root, not installed

from support.sessions import noon_utc
from test_retrieval import FactSpec, build_forest

from bench import ingest_throughput, query_latency, throughput, write_scaling
from bench.synthetic import SyntheticConversations
from memforest.backends.hashed import HashedEmbedder
from memforest.db.engine import Database
from memforest.retrieval import RetrievalPreset
from memforest.settings import Settings
from memforest.store.sql import fetch_all, scalar

REPO_ROOT = Path(__file__).resolve().parents[2]
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


def test_write_scaling_quick(db_env: str, tmp_path: Path) -> None:
    assert write_scaling.main(_common(db_env, tmp_path)) == 0
    result = json.loads((tmp_path / "write_scaling_quick.json").read_text())
    assert (tmp_path / "write_scaling_quick.png").stat().st_size > 0
    assert {"checkpoints", "ratios_last_over_first", "pass", "eager_vs_lazy", "final_forest"} <= set(result)
    points = result["checkpoints"]
    assert len(points) == 2
    assert points[0]["forest_before"]["facts"] >= 40
    assert points[1]["forest_before"]["facts"] >= 120 > points[0]["forest_before"]["facts"]
    ratios = result["ratios_last_over_first"]
    for key in ("wall_ms_per_leaf", "summary_calls_per_leaf", "nodes_touched_per_leaf"):
        assert ratios[key] == pytest.approx(points[1][key] / points[0][key])  # reported per leaf ...
    assert result["pass"] == (result["pass_per_session"] and result["pass_per_leaf"])  # ... and gated both ways
    # a quick run grows far short of the gate's 50K facts: the bench's verdict is kept beside a gate
    # that says it gates nothing
    assert result["gate_computed_by_bench"] == ("pass" if result["pass"] else "fail")
    assert result["gate"] == "not applicable"
    assert result["pass_per_leaf"] == all(ratios[k] <= 1.5 for k in result["gated"]["per_leaf"])
    # after each probe a reference forest of the first checkpoint's size does the same work every
    # time (the same forest, the same probe sessions): its last/first is the machine's drift, which
    # the wall-time ratios are also reported divided by, gating pass_drift_corrected
    refs = [p["reference"] for p in points]
    assert refs[0]["forest_before"] == refs[1]["forest_before"] and refs[0]["forest_before"]["facts"] >= 40
    assert all(r["delete_s"] >= 0 for r in refs)  # each is deleted after its probe (forget)
    for key in ("leaves_per_session", "facts_new_per_session", "candidates_per_session", "summary_calls_per_session"):
        assert refs[0][key] == refs[1][key] > 0
    drift = result["drift_last_over_first"]
    assert drift["wall_ms_per_leaf"] == pytest.approx(refs[1]["wall_ms_per_leaf"] / refs[0]["wall_ms_per_leaf"])
    corrected = result["ratios_drift_corrected"]
    assert corrected["wall_ms_per_leaf"] == pytest.approx(ratios["wall_ms_per_leaf"] / drift["wall_ms_per_leaf"])
    assert corrected["summary_calls_per_leaf"] == ratios["summary_calls_per_leaf"]
    gated = [*result["gated"]["per_session"], *result["gated"]["per_leaf"]]
    assert result["pass_drift_corrected"] == all(corrected[k] <= 1.5 for k in gated)
    assert ratios["cpu_ms_per_leaf"] == pytest.approx(points[1]["cpu_ms_per_leaf"] / points[0]["cpu_ms_per_leaf"])
    assert "cpu_ms_per_leaf" not in gated  # reported, not gated
    assert result["provenance"]["args"]["quick"] is True
    for p in points:
        assert p["sessions"] == 2
        assert p["wall_ms_per_leaf"] > 0 and p["summary_calls_per_leaf"] > 0
        assert p["wall_ms_per_leaf"] == pytest.approx(
            1000 * p["wall_s_per_session_mean"] / p["leaves_per_session"], rel=1e-6
        )
        assert 0 < p["wall_s_per_session_median"] < 30
        # the probe's CPU beside its wall (this process; the database server's only when embedded)
        assert p["cpu_ms_per_leaf"] > 0 and p["cpu_s_per_session"]["client_s"] > 0
        assert p["cpu_s_per_session"]["database_s"] is None  # an external database: its CPU is not read
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


def test_ingest_throughput_quick(db_env: str, tmp_path: Path) -> None:
    data = _tiny_locomo(tmp_path / "tiny_locomo.json")
    argv = [*_common(db_env, tmp_path), "--data", str(data), "--limit", "2"]
    # the default: both forests at once, served by one worker at the shipped concurrency
    assert ingest_throughput.main([*argv, "--against", "hashed"]) == 0
    result = json.loads((tmp_path / "ingest_throughput_quick.json").read_text())
    assert result["config"]["forest_concurrency"] is None and result["total"]["mode"].startswith("one worker")
    assert result["config"]["job_concurrency"] == Settings().worker.concurrency
    assert [r["forest"] for r in result["forests"]] == ["tiny-0", "tiny-1"]
    for r in result["forests"]:
        assert r["sessions"] == 2 and r["turns"] >= 16
        assert r["facts"] > 0 and r["nodes"] > r["facts"] and r["trees"]["session"] == 2
        assert r["turns_per_s"] > 0 and r["check"] == "ok" and r["jobs_failed"] == 0
        assert set(r["stage_s"]) == {"accept", "extract", "embed", "commit", "refresh"}
        assert all(v >= 0 for v in r["stage_s"].values())
        assert r["db"]["per_ingest_job"]["statements"]["n"] == 2  # each forest's jobs counted apart
        jobs_sent = sum(  # the statements of its jobs; its accepts are counted under it as well
            r["db"][kind]["statements"]["mean"] * r["db"][kind]["statements"]["n"]
            for kind in ("per_ingest_job", "per_refresh_job")
        )
        assert r["db"]["all"]["statements"] > round(jobs_sent)
    total = result["total"]
    assert total["sessions"] == 4 and total["all_checks_ok"]
    assert total["turns_per_s"] == pytest.approx(total["turns"] / total["wall_s"])
    # the ingest's CPU: this process always; an external database's is not this machine's to read
    assert total["cpu"]["client_s"] > 0 and total["cpu"]["database_s"] is None
    assert total["cpu_ms_per_turn"] == pytest.approx(1000 * total["cpu"]["total_s"] / total["turns"], rel=0.01)
    assert all(r["cpu"]["client_s"] > 0 for r in result["runs"])
    # --against: every run paired with a run of the other embedder, the ratio of medians gated
    paired = result["against"]
    assert paired["label"] == "hashed" and len(paired["wall_s_runs"]) == len(paired["against_wall_s_runs"]) == 1
    assert paired["against_checks_ok"] and len(paired["load_avg"]) == 1 and len(paired["load_avg"][0]) == 3
    walls = paired["wall_s_runs"][0], paired["against_wall_s_runs"][0]
    assert paired["ratio_of_medians"] == pytest.approx(walls[0] / walls[1], 1e-2)
    assert "wall_le_2x_hashed" in result["gates"]
    # lanes: a chosen --forest-concurrency is written beside the default run's file, never over it
    # (the database is the test's, so its sessions are already in: this run changes nothing)
    assert ingest_throughput.main([*argv, "--forest-concurrency", "2"]) == 0
    lanes = json.loads((tmp_path / "ingest_throughput_quick_forests2.json").read_text())
    assert lanes["config"]["forest_concurrency"] == 2 and lanes["total"]["mode"].startswith("lanes")
    assert lanes["config"]["job_concurrency"] == ingest_throughput.LANE_JOBS
    assert (tmp_path / "ingest_throughput_quick_forests2.png").stat().st_size > 0


def test_throughput_simulated_quick(db_env: str, tmp_path: Path) -> None:
    data = _tiny_locomo(tmp_path / "tiny_locomo.json", samples=2, sessions=2)
    argv = [
        *_common(db_env, tmp_path),
        "--data",
        str(data),
        "--simulate",
        "--users",
        "1,3",
        "--sessions-limit",
        "2",
        "--repeat",
        "2",
        "--tpot-ms",
        "0.2",
        "--ttft-ms",
        "2",
    ]
    argv.remove("--quick")  # one and three users (the third a renamed copy), two sessions each, two repetitions
    assert throughput.main(argv) == 0
    result = json.loads((tmp_path / "throughput_simulated.json").read_text())
    assert (tmp_path / "throughput_simulated.png").stat().st_size > 0
    assert result["simulated"] is True and result["config"]["simulation"]["preset"] == "4b"
    assert result["provenance"]["args"]["repeat"] == 2 and len(result["provenance"]["git"]["commit"]) == 40
    # at most half the pool (the bench's pool at three users is 20 + 10 overflow, so 15 jobs), of
    # which the worker admits as many as the chat budget (the server's 256 slots) keeps busy
    assert result["config"]["memforest_settings"]["worker_concurrency"] == 15
    assert result["config"]["memforest_settings"]["admitted_by_chat_budget"] is True
    arms = ("memforest", "serial_pipeline", "mem0_v1", "mem0_v2")
    runs = result["runs"]
    assert len(runs) == 4 * 2 * 2
    assert {r["system"] for r in runs} == set(arms) and {r["users"] for r in runs} == {1, 3}
    for r in runs:
        assert r["sessions"] == 2 * r["users"] and r["wall_s"] > 0 and r["prefix_cache_reset"] is True
        assert 0 < r["queryable_p50_s"] <= r["queryable_p95_s"] <= r["wall_s"] + 1e-6
        assert r["model_calls"] > 0 and r["prompt_tokens"] > 0 and r["completion_tokens"] > 0
        server, bound = r["server"], r["bound"]
        assert server["source"] == "simulation"
        assert r["cpu"]["client_s"] > 0 and r["cpu"]["server_s"] is not None  # bench.cpu_meter
        assert server["requests"] == r["model_calls"] == bound["requests"]  # every chat call, counted by the server
        assert server["prompt_tokens"] == r["prompt_tokens"] == bound["prompt_tokens"]
        assert server["cached_tokens"] == r["cached_prompt_tokens"] == bound["cached_tokens"]
        assert 0 < server["busy_s"] <= r["wall_s"] + 0.05 and server["busy_overlap"] >= 1.0
        assert 0 < bound["lower_bound_s"] < r["wall_s"]
        assert r["efficiency"] == pytest.approx(bound["lower_bound_s"] / r["wall_s"])
    for r in runs:
        usage = r["model_usage"]
        if r["system"] == "mem0_v1":  # one extraction per add, one update per add that extracted facts
            assert usage["extract"]["calls"] == r["adds"] and 0 < usage["update"]["calls"] <= r["adds"]
        if r["system"] == "mem0_v2":  # a single call per add
            assert usage["extract"]["calls"] == r["adds"] and set(usage) <= {"extract", "embed"}
    for users in ("1", "3"):
        block = result["summary"]["by_users"][users]
        for arm in arms:
            walls = sorted(r["wall_s"] for r in runs if r["system"] == arm and r["users"] == int(users))
            assert block[arm]["wall_s"] == pytest.approx(sum(walls) / 2)  # the median of two
        for other in ("mem0_v1", "mem0_v2", "serial_pipeline"):
            assert block[f"speedup_vs_{other}"] == pytest.approx(block[other]["wall_s"] / block["memforest"]["wall_s"])
    assert result["gate"] == "not applicable"  # no 20-user setting in this run


def test_bench_out_must_be_a_folder(tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        throughput.main(["--simulate", "--out", str(tmp_path / "result.json")])


BENCHES = (
    "cross_tenant", "faults", "ingest_throughput", "load", "locomo_recall", "merge", "query_latency", "retract",
    "temporal", "throughput", "write_scaling",
)  # fmt: skip


@pytest.mark.parametrize("name", BENCHES)
def test_every_bench_takes_the_shared_options(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    module = importlib.import_module(f"bench.{name}")
    with pytest.raises(SystemExit) as done:
        module.main(["--help"])
    assert done.value.code == 0
    usage = capsys.readouterr().out
    for option in ("--out DIR", "--home", "--repeat", "--no-progress"):
        assert option in usage, f"bench.{name} lacks {option}"


def test_locomo_recall_measures_the_default_top_k_too(tmp_path: Path) -> None:
    """Asked for 20 items a question, the benchmark also asks for the default 10 (whose candidate
    budgets are smaller) and reports its recall apart. Its own embedded database lives in a
    temporary home that is gone when the process ends."""
    data = _tiny_locomo(tmp_path / "tiny_locomo.json", samples=1, sessions=2)
    conv = json.loads(data.read_text())[0]["conversation"]
    qrels = [
        {"sample_id": "tiny-0", "qa_index": i, "category": 4 if i % 2 else 2, "question": turn["text"],
         "evidence_turns": [turn["dia_id"]], "scorable": True}
        for i, turn in enumerate(conv["session_1"][:4])
    ]  # fmt: skip
    (tmp_path / "qrels.jsonl").write_text("".join(json.dumps(q) + "\n" for q in qrels))
    argv = ["--no-progress", "--out", str(tmp_path), "--data", str(data), "--qrels", str(tmp_path / "qrels.jsonl")]
    temp = tmp_path / "temp"
    temp.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMFOREST_")} | {"TMPDIR": str(temp)}
    run = subprocess.run(
        [sys.executable, "-m", "bench.locomo_recall", *argv, "--top-k", "20"],
        cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:]
    assert not list(temp.glob("memforest-*")), "the temporary MEMFOREST_HOME was left behind"
    report = json.loads((tmp_path / "locomo_recall.json").read_text())
    assert report["n_questions"]["headline"] == 4
    default = report["default_top_k"]
    assert default["top_k"] == 10 and default["system"] == "memforest-emb"
    assert set(default["recall"]["headline"]) == {"5", "10"}  # no recall past the items asked for
    assert all(0.0 <= v <= 1.0 for v in default["recall"]["headline"].values())
    assert default["recall"]["headline"]["10"] > 0  # a turn's own words find it
    assert "memforest-emb asked for the default 10 items: R@5" in (tmp_path / "locomo_recall.md").read_text()
    assert report["latency_ms"]["emb (top 10)"]["n"] == report["latency_ms"]["emb"]["n"] == 4


def test_query_latency_reports_every_overlap() -> None:
    entry = {"hnsw_overlap": 0.96, "hnsw_overlap_read": 0.97, "hnsw_overlap_cells": 0.9, "hnsw_overlap_cells_read": 0.8}
    roots = {"hnsw_overlap_roots": 0.7, "hnsw_overlap_roots_read": 0.6}
    assert query_latency._overlap(entry | roots) == "0.96 / 0.97 / 0.9 / 0.8 / 0.7 / 0.6"
    assert query_latency._overlap({"hnsw_overlap": 0.96}) == "0.96 / - / - / - / - / -"
    assert query_latency._overlap({"strategy": "exact"}) == "-"


def test_query_latency_quick(db_env: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the two single-forest scenarios (300 and 600 facts here) get their own HNSW indexes, the
    # 1,000-forest one's (200 facts each) are scanned: both strategies and their overlaps run
    monkeypatch.setenv("MEMFOREST_RETRIEVAL__EXACT_SCAN_MAX_ROWS", "250")
    argv = _common(db_env, tmp_path)
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
        # the flat baseline's trips are the read path's own minimum: its transaction entered with the
        # HNSW settings (as a query's is), the top-k, COMMIT; the forest's indexes are known already
        assert s["flat"]["round_trips"] == 3
        # the full-text channels beside (side pool) in a forest with its own indexes, and the
        # comparison arm without them; a known forest read exactly reads them in its own statement
        beside = s["memforest"]["side_round_trips"]
        assert (beside > 0 if s["strategy"] == "hnsw" else beside == 0) and "side_round_trips" not in s["flat"]
        one = s["memforest_one_transaction"]
        assert 0 < one["p50_ms"] <= one["p95_ms"] and one["n"] == s["memforest"]["n"]
        # full text joins the vector channels' statement, so a forest read exactly makes the same
        # trips; one with its own indexes keeps parameter plans for its descent, which reads
        # assembly's candidates apart (one trip more, ADR 0056), and a temporal question's subject
        # probe, read beside recall there, is a statement of the query's own transaction here (one
        # trip more, ADR 0071)
        extra = 2 if s["strategy"] == "hnsw" else 0
        assert s["memforest"]["round_trips"] <= one["round_trips"] <= s["memforest"]["round_trips"] + extra
        assert set(s["memforest"]["stages_p50_ms"]) >= {"embed", "recall", "browse", "assemble"}
        if s["strategy"] == "hnsw":  # every graph measured is in the overlap goal
            overlaps = [s[k] for k in query_latency.OVERLAP_KEYS]
            assert all(0 < o <= 1 for o in overlaps)
            assert s["goals_met"]["overlap"] == (min(overlaps) >= query_latency.GOAL_OVERLAP)
    assert [s["strategy"] for s in report["scenarios"]] == ["hnsw", "hnsw", "exact"]
    # the report says whether its goals were met on the medians (the gate's rule: test_bench_query_latency_repeat)
    assert report["gate"] in ("pass", "fail") and report["gate"] == query_latency.gate_of(report["scenarios"])["gate"]
    http = report["scenarios"][1]["http"]  # the 100K forest asked through a real `memforest serve`
    assert http["n"] == 6 and 0 < http["p50_ms"] <= http["p95_ms"]
    assert "http" not in report["scenarios"][0]
    assert (tmp_path / "query_latency.png").is_file() and (tmp_path / "query_latency.md").is_file()
    # the budgets the queries read with: half of the preset's for the default 10 items
    # and half of the HNSW candidate list, but not below its floor (ADR 0034)
    budgets = {"top_k": 10, "facts": 30, "cells": 20, "full_text": 30, "leaves_per_tree": 4, "hnsw_ef_search": 96}
    assert report["read_budgets"] == budgets


async def _garden(db: Database) -> tuple[Any, int]:
    """A small forest (tenant, forest id) whose four facts make cell leaves and several trees."""
    days = [noon_utc(2022, 1, i + 1) for i in range(4)]
    facts = [FactSpec(f"Ann planted {w} seedlings in the garden.", day, day)
             for w, day in zip(("tomato", "pepper", "basil", "mint"), days, strict=True)]  # fmt: skip
    tenant_id = await build_forest(db, "t", "garden", facts)
    async with db.tenant(tenant_id) as conn:
        forest_id = int(await scalar(conn, "SELECT forest_id FROM forests WHERE name = 'garden'"))
    return tenant_id, forest_id


async def test_query_latency_flat_baseline_searches_with_the_read_paths_own_candidate_list(
    db: Database, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The flat baseline's top 10 of a forest with its own graphs searches with the candidate list
    MemForest's own query for 10 items uses (its share of ``hnsw_ef_search``, ADR 0034), read back
    from the server in the baseline's transaction."""
    tenant_id, forest_id = await _garden(db)
    seen: list[str] = []
    nearest = query_latency.nearest_facts

    async def indexed(conn: Any, forest: int) -> bool:
        return True  # (as a forest past the exact-scan size: its graphs are searched)

    async def reading(conn: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(str(await scalar(conn, "SELECT current_setting('hnsw.ef_search')")))
        return await nearest(conn, *args, **kwargs)

    monkeypatch.setattr(query_latency, "forest_indexed", indexed)
    monkeypatch.setattr(query_latency, "nearest_facts", reading)
    preset = RetrievalPreset.from_settings(settings.retrieval)
    emb = HashedEmbedder(settings.embedding.dim)
    assert await query_latency.flat_topk(db, emb, tenant_id, forest_id, "tomato seedlings", preset)
    read_ef = preset.for_top_k(preset.top_k).hnsw_ef_search
    assert read_ef < preset.hnsw_ef_search and seen == [str(read_ef)]


@pytest.mark.parametrize(("channel", "budget"), [("cells", 3), ("roots", 2)])
async def test_query_latency_overlap_reads_each_graph_at_its_budget(
    channel: str, budget: int, db: Database, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cell channel's overlap compares cell leaves, the roots' the forest's tree roots (nodes
    without a parent), each at its preset budget (here a forest without its own indexes: both
    reads are exact, so they agree)."""
    tenant_id, forest_id = await _garden(db)
    emb = HashedEmbedder(settings.embedding.dim)
    preset = RetrievalPreset(cell_candidates=3, root_candidates=2)
    read: list[tuple[Any, int]] = []
    nearest = query_latency._NEAREST[channel]

    async def spy(conn: Any, t: Any, f: int, q: Any, k: int, *, exact: bool) -> list[tuple[int, float]]:
        got = await nearest(conn, t, f, q, k, exact=exact)
        read.append((got, k))
        return got

    monkeypatch.setitem(query_latency._NEAREST, channel, spy)
    got = await query_latency.hnsw_agreement(db, emb, tenant_id, forest_id, ["tomato seedlings"], preset, channel)
    assert got == (1.0, 1.0)
    assert [k for _, k in read] == [budget, budget]  # the exact read and the index read
    assert all(len(rows) == budget for rows, _ in read)  # the forest has more of each
    if channel == "roots":
        async with db.tenant(tenant_id) as conn:
            rows = await fetch_all(conn, "SELECT node_id FROM nodes WHERE forest_id = :f AND parent_id IS NULL",
                                   {"f": forest_id})  # fmt: skip
        assert all({n for n, _ in got_rows} <= {int(r["node_id"]) for r in rows} for got_rows, _ in read)
    with pytest.raises(KeyError):
        await query_latency.hnsw_agreement(db, emb, tenant_id, forest_id, ["x"], preset, "nodes")


async def test_query_latency_counts_a_tied_row_as_found_by_distance_only(
    db: Database, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A row with the exact k-th's similarity but another id (equal vectors: the exact scan kept
    one of the tie by id) is a miss by ids and found by distance; a less similar row is a miss both
    ways."""
    tenant_id, forest_id = await _garden(db)
    exact_rows = [(1, 0.9), (2, 0.8)]
    answers = {"tie": [(1, 0.9), (3, 0.8)], "worse": [(1, 0.9), (4, 0.7)]}
    case = ["tie"]

    async def fake(conn: Any, t: Any, f: int, q: Any, k: int, *, exact: bool) -> list[tuple[int, float]]:
        return exact_rows if exact else answers[case[0]]

    monkeypatch.setitem(query_latency._NEAREST, "facts", fake)
    emb = HashedEmbedder(settings.embedding.dim)
    preset = RetrievalPreset(fact_candidates=2)
    assert await query_latency.hnsw_agreement(db, emb, tenant_id, forest_id, ["q"], preset) == (0.5, 1.0)
    case[0] = "worse"
    assert await query_latency.hnsw_agreement(db, emb, tenant_id, forest_id, ["q"], preset) == (0.5, 0.5)
    report = {"scenarios": [{"name": "one-10k", "hnsw_overlap": 0.5, "hnsw_overlap_by_distance": 1.0}]}
    assert query_latency._overlap(report["scenarios"][0], "_by_distance") == "1.0 / - / - / - / - / -"
