"""Smoke test of ``bench.temporal_v2`` on the tune split (never the eval split: each eval run is a
look): the quick run writes aggregates per slice for both systems, per-question rows, a history
entry per run (two runs, two entries) and a PNG."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from bench import temporal_v2
from memforest.testing.simulated_llm import SimulationConfig
from memforest.testing.simulated_llm.server import run_server_in_thread

TEST_DIM = 64


def test_temporal_v2_quick_tune(db_env: str, tmp_path: Path) -> None:
    argv = ["--quick", "--split", "tune", "--no-progress", "--database-url", db_env, "--embed-dim", str(TEST_DIM),
            "--out", str(tmp_path)]  # fmt: skip
    assert temporal_v2.main(argv) == 0
    assert temporal_v2.main(argv) == 0
    result = json.loads((tmp_path / "temporal_v2_tune_quick.json").read_text())
    assert (tmp_path / "temporal_v2_tune_quick.png").stat().st_size > 0
    assert result["split"] == "tune" and result["provenance"]["git"]["commit"]
    assert [h["split"] for h in result["history"]] == ["tune", "tune"]
    assert result["history"][-1]["scores"] == result["scores"]
    assert set(result["scores"]) == {"all", *temporal_v2.SLICES}
    cells = [result["scores"]["all"], *(c for name in temporal_v2.SLICES for c in result["scores"][name].values())]
    for c in cells:
        assert c["n"] > 0
        for s in temporal_v2.SYSTEMS:
            assert 0.0 <= c[s]["right_time_first"] <= c[s]["found@5"] <= 1.0
    assert len(result["per_question"]) == result["scores"]["all"]["n"] == result["world"]["questions"]
    assert result["scores"]["operator"]["when"]["bm25-turns"]["found@5"] > 0.5  # the value is named


def test_temporal_v2_hand_world_held_out(db_env: str, tmp_path: Path) -> None:
    """A hand-written world (held out unless its file says otherwise) is scored under its author's
    name, with aggregates and a history entry but no per-question rows."""
    world = {"author": "T", "forests": [{
        "name": "h", "user": "Odile",
        "sessions": [
            {"id": "h-s1", "time": "2023-01-10T09:00:00Z", "turns": [
                {"id": "h-s1-t1", "speaker": "Odile", "text": "I throw pots at Mudroom Studio on Tuesdays."},
                {"id": "h-s1-t2", "speaker": "assistant", "text": "Sounds relaxing."}]},
            {"id": "h-s2", "time": "2023-06-01T09:00:00Z", "turns": [
                {"id": "h-s2-t1", "speaker": "Odile", "text": "I moved my wheel time over to Kilnworks."},
                {"id": "h-s2-t2", "speaker": "assistant", "text": "How do you like it?"}]}],
        "questions": [{"id": "h-q1", "text": "When did I start throwing pots at Mudroom Studio?",
                       "now": "2024-01-05T10:00:00Z", "as_of": None, "operator": "when", "subject": "self",
                       "form": "first_person", "attribute": "studio", "gold": "h-s1-t1"}]}]}  # fmt: skip
    path = tmp_path / "world.json"
    path.write_text(json.dumps(world))
    argv = ["--hand", str(path), "--no-progress", "--database-url", db_env, "--embed-dim", str(TEST_DIM),
            "--out", str(tmp_path)]  # fmt: skip
    assert temporal_v2.main(argv) == 0
    result = json.loads((tmp_path / "temporal_v2_hand_T.json").read_text())
    assert result["split"] == "hand_T" and result["world"]["hand"] == str(path)
    assert [h["look_of_split"] for h in result["history"]] == [1]
    assert result["scores"]["all"]["n"] == 1 and "per_question" not in result
    assert result["scores"]["all"]["bm25-turns"]["found@5"] == 1.0


def test_temporal_v2_reads_through_a_served_model(db_env: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The learned reader's run (``scripts/gpu_throughput.sh --runs temporal``): with
    ``MEMFOREST_LLM__BASE_URL`` set the write path extracts and summarises through the chat model,
    here the simulated server (answers copied from the prompt, no model quality), and the bench runs
    to its file, which names the model in its settings and keeps the address out."""
    with run_server_in_thread(SimulationConfig(ttft_ms=0, tpot_ms=0, embed_dim=TEST_DIM)) as url:
        monkeypatch.setenv("MEMFOREST_LLM__BASE_URL", url)
        monkeypatch.setenv("MEMFOREST_LLM__MODEL", "memforest-chat")
        argv = ["--quick", "--split", "tune", "--no-progress", "--database-url", db_env, "--embed-dim",
                str(TEST_DIM), "--out", str(tmp_path)]  # fmt: skip
        assert temporal_v2.main(argv) == 0
        served = httpx.post(url.removesuffix("/v1") + "/stats/window").json()
    assert served["requests"] > 0  # the turns were read by the served model
    result = json.loads((tmp_path / "temporal_v2_tune_quick.json").read_text())
    env = result["provenance"]["settings_env"]
    assert env["MEMFOREST_LLM__MODEL"] == "memforest-chat" and env["MEMFOREST_LLM__BASE_URL"] == "(set)"
    assert result["scores"]["all"]["n"] == result["world"]["questions"] > 0


def test_temporal_v2_gold_states_runs_to_a_file_of_its_own(db_env: str, tmp_path: Path) -> None:
    """``--reader gold-states`` (its reading is tested in ``tests/unit/test_gold_states.py``) runs
    through the write path and writes its own file beside the rule reader's, naming its reader."""
    base = ["--quick", "--split", "tune", "--no-progress", "--database-url", db_env, "--embed-dim", str(TEST_DIM),
            "--out", str(tmp_path)]  # fmt: skip
    assert temporal_v2.main([*base, "--reader", "gold-states"]) == 0
    assert temporal_v2.main(base) == 0
    gold = json.loads((tmp_path / "temporal_v2_tune_quick_gold-states.json").read_text())
    rules = json.loads((tmp_path / "temporal_v2_tune_quick.json").read_text())
    assert [h["reader"] for h in gold["history"]] == ["gold-states"]
    assert [h["reader"] for h in rules["history"]] == ["rules"]
    assert gold["scores"]["all"]["n"] == rules["scores"]["all"]["n"] > 0


def test_temporal_v2_refuses_gold_states_on_a_hand_world(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exit_:
        temporal_v2.main(["--hand", str(tmp_path / "w.json"), "--reader", "gold-states", "--out", str(tmp_path)])
    assert exit_.value.code == 2
