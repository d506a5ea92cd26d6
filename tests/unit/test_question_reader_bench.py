"""``bench.question_reader`` scores labelled questions field by field: a question is right only when
its operator, time, subject, kind and anchor are all read as labelled (questions of my own)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bench.question_reader import main, score


def _q(i: int, question: str, operator: str, subject: str, kind: str, **labels: Any) -> dict[str, Any]:
    base = {"anchor": None, "window": None, "during": None}
    return {"id": f"q{i}", "speaker": "Oriel", "now": "2025-04-20", "question": question,
            "operator": operator, "subject": subject, "kind": kind, **base, **labels}  # fmt: skip


def test_each_labelled_field_must_be_read_for_a_question_to_count() -> None:
    scores, misses = score(
        [
            _q(
                1,
                "Which climbing wall did I go to in June 2023?",
                "as_of",
                "Oriel",
                "climbing wall",
                window=["2023-06-01", "2023-06-30"],
            ),
            # (the wrong year labelled: the time is missed)
            _q(
                2,
                "Which climbing wall did I go to in June 2023?",
                "as_of",
                "Oriel",
                "climbing wall",
                window=["2022-06-01", "2022-06-30"],
            ),
            _q(3, "Where did my cousin Tadeo live before Varnholm?", "before", "Tadeo", "home", anchor="Varnholm"),
            _q(4, "Who is my accountant now?", "before", "Oriel", "accountant"),  # (wrong operator labelled)
        ]
    )
    assert scores["all"] == {"n": 4, "right": 2, "rate": 0.5}
    assert scores["field: time"] == {"n": 2, "right": 1, "rate": 0.5}
    assert scores["field: operator"]["right"] == 3
    assert scores["field: kind"]["n"] == 3  # (q3 names its anchor: its chain is the value's)
    assert {m["id"]: m["wrong"] for m in misses} == {"q2": ["time"], "q4": ["operator"]}


def test_a_relative_asked_by_relation_is_the_subject_and_the_speaker_is_not() -> None:
    by_relation = _q(1, "Which choir was my aunt in back when she lived in Brisk?", "during", "Oriel's aunt", "choir",
                     during="Brisk")  # fmt: skip
    as_speaker = {**by_relation, "id": "q2", "subject": "Oriel"}
    scores, misses = score([by_relation, as_speaker])
    assert scores["field: subject"]["right"] == 1
    assert [m["id"] for m in misses] == ["q2"]


def test_a_held_out_run_writes_aggregates_only_and_counts_its_look(tmp_path: Path) -> None:
    questions = tmp_path / "q.json"
    asked = _q(1, "How long was I with Pellow Gym?", "how_long", "Oriel", "gym", anchor="Pellow Gym")
    questions.write_text(json.dumps({"held_out": True, "questions": [asked]}))
    for _ in range(2):
        assert main(["--questions", str(questions), "--name", "t", "--held-out", "--out", str(tmp_path)]) == 0
    result = json.loads((tmp_path / "question_reader_t.json").read_text())
    assert "misses" not in result and len(result["history"]) == 2
    assert result["scores"]["all"]["right"] == 1


def test_an_unreadable_file_is_a_one_line_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["--questions", str(bad), "--name", "t", "--out", str(tmp_path)]) == 2
