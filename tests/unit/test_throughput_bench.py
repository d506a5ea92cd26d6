"""bench.throughput's parts that need no database: the simulated server's lower bound and work
window, the Mem0 models' prompt sizes and answer schemas, the users sweep, the summary and the gate."""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # `bench` lives at the repo root, not installed

from bench.sequential_memory import MEM0_WORDS, instruction, message_pairs, update_schema
from bench.throughput_arms import users_of
from bench.throughput_history import append, read, typical
from bench.throughput_summary import FLOORS, gate, summarise
from memforest.domain import ForestInput, SessionInput, TurnInput
from memforest.testing.simulated_llm import SimulationConfig, run_server_in_thread
from memforest.testing.simulated_llm.bound import lower_bound


def test_lower_bound_is_the_slot_bound_when_decode_dominates() -> None:
    config = SimulationConfig(
        ttft_ms=10, tpot_ms=5, max_num_seqs=4, prefill_ms_per_token=0.1, decode_slowdown_per_seq=0.5
    )
    got = lower_bound(config, requests=8, uncached_tokens=100, completion_tokens=400)
    prefill = 100 * 0.1 / 1000
    decode = 400 * 5 * (1 + 0.5 * 3) / 1000  # every token decoded in a full batch of 4
    assert got["prefill_bound_s"] == pytest.approx(prefill)
    assert got["slot_bound_s"] == pytest.approx((8 * 0.010 + prefill + decode) / 4)
    assert got["lower_bound_s"] == pytest.approx(got["slot_bound_s"])


def test_lower_bound_is_the_prefill_unit_when_prompts_dominate() -> None:
    config = SimulationConfig(ttft_ms=0, tpot_ms=1, max_num_seqs=256, prefill_ms_per_token=1.0)
    got = lower_bound(config, requests=1, uncached_tokens=10_000, completion_tokens=10)
    assert got["lower_bound_s"] == pytest.approx(10.0) == pytest.approx(got["prefill_bound_s"])


def _chat(text: str) -> dict[str, Any]:
    return {"model": "m", "messages": [{"role": "system", "content": "be brief"}, {"role": "user", "content": text}]}


async def test_the_work_window_counts_chat_calls_only_and_reopens() -> None:
    config = SimulationConfig(ttft_ms=1, tpot_ms=0.01, embed_dim=8, prefix_block_tokens=1)
    with run_server_in_thread(config) as url:
        root = url.removesuffix("/v1")
        async with httpx.AsyncClient(base_url=url, timeout=10) as client:
            await client.post(root + "/stats/window")  # whatever came before
            first = (await client.post("/chat/completions", json=_chat("Alice moved to Paris in May."))).json()
            second = (await client.post("/chat/completions", json=_chat("Alice moved to Paris in May."))).json()
            await client.post("/embeddings", json={"model": "m", "input": ["not chat work"]})
            window = (await client.post(root + "/stats/window")).json()
            empty = (await client.post(root + "/stats/window")).json()
    usages = [first["usage"], second["usage"]]
    assert window["requests"] == 2
    assert window["prompt_tokens"] == sum(u["prompt_tokens"] for u in usages)
    assert window["cached_tokens"] == sum(u["prompt_tokens_details"]["cached_tokens"] for u in usages) > 0
    assert window["completion_tokens"] == sum(u["completion_tokens"] for u in usages)
    assert window["uncached_tokens"] == window["prompt_tokens"] - window["cached_tokens"]
    expected = lower_bound(config, 2, window["uncached_tokens"], window["completion_tokens"])
    assert window["lower_bound_s"] == pytest.approx(expected["lower_bound_s"])
    assert empty["requests"] == 0 and empty["lower_bound_s"] == 0.0


def test_mem0_prompts_have_mem0s_sizes_in_words() -> None:
    for words in MEM0_WORDS.values():
        assert len(instruction("one two three", words).split()) == words
    assert MEM0_WORDS["v2_extract_system"] > 5 * MEM0_WORDS["v1_extract_system"]  # v2's one prompt is long


def test_mem0_v1_update_answer_has_one_entry_per_memory_and_fact() -> None:
    schema = update_schema(7)
    item = {"id": 0, "text": "x", "event": "NONE"}
    assert schema.model_json_schema()["properties"]["memory"]["minItems"] == 7
    schema.model_validate({"memory": [item] * 7})
    with pytest.raises(ValueError):
        schema.model_validate({"memory": [item] * 6})
    assert update_schema(7) is schema  # one model per size


def _session(speakers: tuple[str, str], turns: int) -> SessionInput:
    when = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    lines = tuple(TurnInput(speaker=speakers[i % 2], text=f"line {i}.") for i in range(turns))
    return SessionInput(external_id="s1", time=when, turns=lines)


def test_message_pairs_are_role_lines_two_by_two() -> None:
    pairs = message_pairs(_session(("Caroline", "Melanie"), 5))
    assert pairs == [
        ["user: Caroline: line 0.", "assistant: Melanie: line 1."],
        ["user: Caroline: line 2.", "assistant: Melanie: line 3."],
        ["user: Caroline: line 4."],
    ]


def test_users_past_the_conversations_are_renamed_copies() -> None:
    conversations = [
        ForestInput(name="a", sessions=(_session(("Ann", "Bob"), 2), _session(("Ann", "Bob"), 2))),
        ForestInput(name="b", sessions=(_session(("Cid", "Dee"), 2),)),
    ]
    users = users_of(conversations, 5, sessions_limit=1)
    assert [u.name for u in users] == ["a-u0", "b-u1", "a-u2", "b-u3", "a-u4"]
    assert all(len(u.sessions) == 1 for u in users)
    speakers = [u.sessions[0].turns[0].speaker for u in users]
    assert speakers == ["Ann", "Cid", "Ann 2", "Cid 2", "Ann 3"]  # no two users send the same prompts


def _run(arm: str, users: int, rep: int, wall: float, efficiency: float | None = None) -> dict[str, Any]:
    return {
        "system": arm, "users": users, "repetition": rep, "wall_s": wall, "queryable_p50_s": wall / 2,
        "queryable_p95_s": wall, "efficiency": efficiency, "model_calls": 10, "prompt_tokens": 100,
        "cached_prompt_tokens": 50, "completion_tokens": 20, "server": {"source": None},
        "bound": {"lower_bound_s": (efficiency or 0) * wall} if efficiency else None,
    }  # fmt: skip


def _runs(memforest: list[float], v1: list[float], serial: list[float], eff: float) -> list[dict[str, Any]]:
    runs = []
    for rep in range(3):
        runs.append(_run("memforest", 20, rep, memforest[rep], eff))
        runs.append(_run("mem0_v1", 20, rep, v1[rep], 0.05))
        runs.append(_run("mem0_v2", 20, rep, v1[rep] / 2, 0.05))
        runs.append(_run("serial_pipeline", 20, rep, serial[rep], 0.1))
    return runs


def test_summary_holds_medians_spreads_and_ratios_of_medians() -> None:
    arms = ("memforest", "mem0_v1", "mem0_v2", "serial_pipeline")
    summary = summarise(_runs([10, 12, 30], [40, 60, 50], [25, 20, 30], 0.7), arms, [20])
    block = summary["by_users"]["20"]
    assert block["memforest"]["wall_s"] == 12 and block["memforest"]["wall_s_spread"] == {
        "median": 12,
        "min": 10,
        "max": 30,
    }
    assert block["speedup_vs_mem0_v1"] == pytest.approx(50 / 12)  # a ratio of medians, not a median of ratios
    assert block["speedup_vs_mem0_v1_spread"]["min"] == pytest.approx(50 / 30)
    assert block["speedup_vs_serial_pipeline"] == pytest.approx(25 / 12)
    assert block["memforest"]["efficiency"] == pytest.approx(0.7)
    assert gate(summary, preset="4b")["gate"] == "pass"
    assert gate(summary, preset="30b-a3b")["gate"] == "not applicable"


def test_summary_holds_the_median_cpu_of_runs_that_measured_it() -> None:
    runs = _runs([10, 12, 30], [40, 60, 50], [25, 20, 30], 0.7)
    mine = [r for r in runs if r["system"] == "memforest"]
    for r, bound in zip(mine, (15.0, 16.0, 30.0), strict=True):
        r["cpu"] = {"client_s": 2 * bound - 1, "server_s": 1.0, "database_s": None, "cpu_bound_s": bound}
    block = summarise(runs, ("memforest", "mem0_v1"), [20])["by_users"]["20"]
    assert block["memforest"]["cpu_cpu_bound_s"] == 16.0 and block["memforest"]["cpu_client_s"] == 31.0
    assert block["memforest"]["cpu_database_s"] is None  # (no database measured: an external one)
    assert block["mem0_v1"]["cpu_cpu_bound_s"] is None


@pytest.mark.parametrize(
    ("memforest", "eff", "failed"),
    [([20, 20, 20], 0.7, ["speedup_vs_mem0_v1"]), ([10, 10, 10], 0.5, ["efficiency"])],
)
def test_gate_fails_and_names_the_floor(memforest: list[float], eff: float, failed: list[str]) -> None:
    arms = ("memforest", "mem0_v1", "mem0_v2", "serial_pipeline")
    verdict = gate(summarise(_runs(memforest, [50, 50, 50], [45, 45, 45], eff), arms, [20]), preset="4b")
    assert verdict["gate"] == "fail" and verdict["failed"] == failed
    assert set(verdict["floors"]) == set(FLOORS)


def _result(commit: str, preset: str, speedup: float, gate_value: str) -> dict[str, Any]:
    block: dict[str, Any] = {"memforest": {"wall_s": 10.0, "efficiency": 0.5}, "mem0_v1": {"wall_s": 10.0 * speedup}}
    block |= {"speedup_vs_mem0_v1": speedup, "speedup_vs_mem0_v2": None, "speedup_vs_serial_pipeline": 2.0}
    return {
        "config": {"simulation": {"preset": preset}, "repeat": 3},
        "summary": {"by_users": {"20": block}},
        "provenance": {"git": {"commit": commit, "dirty": False}, "argv": ["--simulate"]},
        "simulated": True,
        "gate": gate_value,
    }


def test_history_quotes_the_median_and_range_of_the_last_regenerations(tmp_path: Path) -> None:
    history = tmp_path / "h.jsonl"
    for i, speedup in enumerate([9.0, 3.0, 4.0, 5.0]):
        path = tmp_path / f"r{i}.json"
        path.write_text(json.dumps(_result(f"c{i}", "4b", speedup, "fail")))
        append(path, history)
    other = tmp_path / "other.json"
    other.write_text(json.dumps(_result("x", "30b-a3b", 100.0, "not applicable")))
    append(other, history)
    lines = read(history)
    assert len(lines) == 5 and lines[0]["users"]["20"]["wall_s"] == {"memforest": 10.0, "mem0_v1": 90.0}
    got = typical(lines, preset="4b", last=3)  # the 30b-a3b line and the oldest 4b line left out
    assert got["regenerations"] == 3 and got["commits"] == ["c1", "c2", "c3"]
    assert got["20"]["speedup_vs_mem0_v1"] == {"median": 4.0, "min": 3.0, "max": 5.0, "n": 3}
    assert "speedup_vs_mem0_v2" not in got["20"]  # no values, no figure
    assert got["20"]["memforest_efficiency"]["median"] == 0.5
