"""``bench.statement_reader`` scores a labelled file: a state is read when a candidate files it for
its holder, a non-state when nothing is filed (sentences of my own)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.statement_reader import main, score


def _turn(i: int, text: str, states: list[dict[str, object]], non_state: str | None = None) -> dict[str, object]:
    return {"id": f"s{i}", "speaker": "Brannagh", "text": text, "states": states, "non_state": non_state}


def _state(holder: str, kind: str, value: str, event: str = "start") -> dict[str, object]:
    return {"holder": holder, "kind": kind, "value": value, "event": event, "previous": None}


def test_states_are_read_by_holder_and_value_and_non_states_by_silence() -> None:
    scores, misses = score(
        [
            _turn(1, "I joined the Quarrow Harriers last week.", [_state("self", "running club", "Quarrow Harriers")]),
            _turn(2, "My cousin Fenn moved to Aldwick.", [_state("Fenn", "residence", "Aldwick")]),
            _turn(3, "My cousin Fenn moved to Aldwick.", [_state("self", "residence", "Aldwick")]),  # wrong holder
            _turn(4, "I'm going to join Pellow Gym next month.", [], "plan"),
            _turn(5, "I quit Pellow Gym.", [_state("self", "gym", "Pellow Gym", "stop")]),  # an end: no state
        ]
    )
    assert scores["state: all"] == {"n": 3, "right": 2, "rate": 0.6667}
    assert scores["non-state: all"] == {"n": 2, "right": 2, "rate": 1.0}
    assert [m["id"] for m in misses] == ["s3"]


def test_a_holder_labelled_by_the_speakers_relation_is_the_relative_read() -> None:
    turn = _turn(1, "My uncle moved to Cressby last spring.", [_state("my uncle", "residence", "Cressby")])
    scores, _ = score([turn])
    assert scores["state: all"]["right"] == 1


def test_a_slot_beside_a_mood_in_another_clause_is_read_as_the_read_path_takes_it() -> None:
    text = "I started at Corriel Maps on Monday and I want to say hi to the team."
    scores, _ = score([_turn(1, text, [_state("self", "employer", "Corriel Maps")])])
    assert scores["state: all"]["right"] == 1


def test_an_unreadable_file_is_a_one_line_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    assert main(["--statements", str(bad), "--name", "x", "--out", str(tmp_path), "--no-progress"]) == 2
    assert "cannot read" in capsys.readouterr().err
