"""Smoke test of ``bench.temporal``: the quick run writes its JSON (scores per operator for every
system, arguments and commit) and PNG; the two phrasing sets of the generator stay disjoint."""

from __future__ import annotations

import json
from pathlib import Path

from bench import temporal
from bench.temporal_data import OPERATORS, STATEMENTS, WorldSpec, all_turn_ids, generate, template_overlap

TEST_DIM = 64


def test_template_sets_are_disjoint_and_gold_turns_exist() -> None:
    assert template_overlap() == []
    for attribute, phrasings in STATEMENTS["tune"].items():
        tune_words = {w for p in phrasings for w in p.lower().split()}
        eval_words = {w for p in STATEMENTS["eval"][attribute] for w in p.lower().split()}
        assert tune_words != eval_words
    spec = WorldSpec(forests=2, people=3, states=5)
    world = generate(3, "eval", spec)
    ids = all_turn_ids(world)
    for forest in world:
        assert {q.operator for q in forest.questions} == set(OPERATORS)
        for q in forest.questions:
            assert q.gold_turn in ids and q.gold_turn not in q.other_turns
            assert len(q.other_turns) == spec.states - 1
        changes = {(s.person, s.attribute) for s in forest.states if s.index >= 4}
        assert len(changes) == spec.people * len(spec.attributes)  # 4+ changes for every chain
    assert generate(3, "eval", spec)[0].questions == world[0].questions  # deterministic


def test_temporal_quick(db_env: str, tmp_path: Path) -> None:
    argv = ["--quick", "--no-progress", "--database-url", db_env, "--embed-dim", str(TEST_DIM), "--out", str(tmp_path)]
    assert temporal.main(argv) == 0
    result = json.loads((tmp_path / "temporal_eval_quick.json").read_text())
    assert (tmp_path / "temporal_eval_quick.png").stat().st_size > 0
    assert result["args"]["templates"] == "eval" and result["provenance"]["git"]["commit"]
    assert set(result["systems"]) == set(temporal.SYSTEMS)
    assert set(result["scores"]) == {*OPERATORS, "all"}
    for row in result["scores"].values():
        assert row["n"] > 0
        for s in result["systems"]:
            assert 0.0 <= row[s]["right_time_first"] <= row[s]["found@5"] <= 1.0
    assert result["scores"]["when"]["bm25-turns"]["found@5"] > 0.5  # the value is named: lexical search finds it
