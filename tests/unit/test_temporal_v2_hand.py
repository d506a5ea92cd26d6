"""``bench.temporal_v2 --hand FILE`` reads a hand-written world: sessions in time order, each turn's
role from the forest's user, probes with their gold turn, and a one-line error for a file that does
not follow the format."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bench import temporal_v2
from bench.temporal_v2_hand import HandWorldError, load_hand


def _world(**question: Any) -> dict[str, Any]:
    q = {
        "id": "w-q1", "text": "Which pottery studio do I go to now?", "now": "2024-01-05T10:00:00Z",
        "as_of": None, "operator": "now", "subject": "self", "form": "first_person", "attribute": "studio",
        "gold": "w-s2-t1", "mood_distractor": False, "indirect": False,
    }  # fmt: skip
    q.update(question)
    return {
        "author": "T",
        "held_out": False,
        "forests": [{
            "name": "w", "user": "Odile",
            "sessions": [  # written out of order: the loader sorts them by time
                {"id": "w-s2", "time": "2023-06-01T09:00:00Z", "turns": [
                    {"id": "w-s2-t1", "speaker": "Odile", "text": "I moved my wheel time to Kilnworks this month."},
                    {"id": "w-s2-t2", "speaker": "assistant", "text": "Nice, how is it?"}]},
                {"id": "w-s1", "time": "2023-01-10T09:00:00Z", "turns": [
                    {"id": "w-s1-t1", "speaker": "Odile", "text": "I throw pots at Mudroom Studio on Tuesdays."},
                    {"id": "w-s1-t2", "speaker": "assistant", "text": "Sounds relaxing."}]},
            ],
            "questions": [q],
        }],
    }  # fmt: skip


def _write(tmp_path: Path, world: dict[str, Any]) -> Path:
    path = tmp_path / "world.json"
    path.write_text(json.dumps(world), encoding="utf-8")
    return path


def test_a_hand_written_world_loads_in_time_order_with_roles_and_probes(tmp_path: Path) -> None:
    forests, header = load_hand(_write(tmp_path, _world()))
    assert header == {"author": "T", "held_out": False}
    (forest,) = forests
    assert [s.external_id for s in forest.sessions] == ["w-s1", "w-s2"]
    assert [t.role for s in forest.sessions for t in s.turns] == ["user", "assistant", "user", "assistant"]
    (probe,) = forest.probes
    assert (probe.gold_turn, probe.speaker, probe.operator, probe.attribute_kind) == ("w-s2-t1", "Odile", "now", "open")
    assert probe.now.tzinfo is not None and forest.now == probe.now


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"gold": "w-s9-t1"}, "gold turn 'w-s9-t1' is not in forest w"),
        ({"operator": "sometime"}, "'sometime' is not one of"),
        ({"now": "2023-05-01T00:00:00Z"}, "its now is not after its gold turn's session"),
        ({"as_of": "2023-05-01"}, "has no time zone"),
    ],
)
def test_a_malformed_world_is_refused_with_what_is_wrong(tmp_path: Path, change: dict[str, Any], message: str) -> None:
    with pytest.raises(HandWorldError, match=message):
        load_hand(_write(tmp_path, _world(**change)))


def test_the_bench_refuses_a_malformed_world_before_it_starts_a_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, _world(gold="nowhere"))
    with pytest.raises(SystemExit) as exit_:
        temporal_v2.main(["--hand", str(path), "--out", str(tmp_path / "out"), "--no-progress"])
    assert exit_.value.code == 2
    assert "gold turn 'nowhere'" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()
