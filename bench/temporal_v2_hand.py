"""Hand-written worlds for ``bench.temporal_v2 --hand FILE``: conversations and questions a person
wrote from issue #48's text alone, without seeing the generator's templates, so they test what no
template was tuned on.

The file is JSON (kept outside the repository until it has been scored; see ``docs/benchmarks.md``):

    {"author": "A", "held_out": true,
     "forests": [{"name": "a1", "user": "Ines",
                  "sessions": [{"id": "a1-s1", "time": "2022-02-14T19:30:00Z",
                                "turns": [{"id": "a1-s1-t1", "speaker": "Ines", "text": "..."},
                                          {"id": "a1-s1-t2", "speaker": "assistant", "text": "..."}]}],
                  "questions": [{"id": "a1-q1", "text": "Who's my dentist these days?",
                                 "now": "2024-05-02T12:00:00Z", "as_of": null, "operator": "now",
                                 "subject": "self", "form": "first_person", "attribute": "dentist",
                                 "gold": "a1-s3-t1", "mood_distractor": false, "indirect": false}]}]}

A turn whose speaker is the forest's ``user`` has the role ``user``; every other turn ``assistant``.
``held_out`` (default true) keeps per-question output out of the result file, as for the eval split.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

from bench.temporal_v2_data import ForestData, Probe
from bench.temporal_v2_spec import NAMED_ATTRIBUTES, OPERATORS
from memforest.domain import SessionInput, TurnInput

SUBJECTS = ("self", "other")
FORMS = ("first_person", "named", "relation")


class HandWorldError(ValueError):
    """A hand-written world file that does not follow the format (the message says where)."""


def _time(value: Any, where: str) -> datetime:
    try:
        parsed = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        raise HandWorldError(f"{where}: not an ISO time: {value!r}") from None
    if parsed.tzinfo is None:
        raise HandWorldError(f"{where}: the time {value!r} has no time zone")
    return parsed


def _choice(value: Any, allowed: tuple[str, ...], where: str) -> str:
    if value not in allowed:
        raise HandWorldError(f"{where}: {value!r} is not one of {', '.join(allowed)}")
    return str(value)


def _sessions(raw: dict[str, Any], user: str, turn_time: dict[str, datetime]) -> list[SessionInput]:
    sessions: list[SessionInput] = []
    for s in raw["sessions"]:
        when = _time(s["time"], f"session {s['id']}")
        turns = []
        for t in s["turns"]:
            if t["id"] in turn_time:
                raise HandWorldError(f"turn id {t['id']!r} is used twice")
            turn_time[t["id"]] = when
            role = "user" if t["speaker"] == user else "assistant"
            turns.append(TurnInput(speaker=t["speaker"], text=t["text"], role=role, external_id=t["id"]))
        sessions.append(SessionInput(external_id=s["id"], time=when, turns=tuple(turns)))
    return sorted(sessions, key=lambda s: s.time)


def _probe(q: dict[str, Any], forest: str, user: str, turn_time: dict[str, datetime]) -> Probe:
    where = f"question {q['id']}"
    gold = q["gold"]
    if gold not in turn_time:
        raise HandWorldError(f"{where}: its gold turn {gold!r} is not in forest {forest}")
    now = _time(q["now"], where)
    if now <= turn_time[gold]:
        raise HandWorldError(f"{where}: its now is not after its gold turn's session")
    attribute = str(q.get("attribute", ""))
    return Probe(
        qid=q["id"], forest=forest, operator=_choice(q["operator"], OPERATORS, where), text=q["text"],
        speaker=user, now=now, as_of=_time(q["as_of"], where) if q.get("as_of") else None, window=None,
        subject=user if q["subject"] == "self" else "", subject_kind=_choice(q["subject"], SUBJECTS, where),
        form=_choice(q["form"], FORMS, where), attribute=attribute,
        attribute_kind="named" if attribute in NAMED_ATTRIBUTES else "open", gold_turn=gold, gold_value="",
        end_turn=None, other_turns=(), mood_distractor=bool(q.get("mood_distractor")),
        gold_indirect=bool(q.get("indirect")),
    )  # fmt: skip


def load_hand(path: Path) -> tuple[list[ForestData], dict[str, Any]]:
    """The forests of a hand-written world file and its header (``author``, ``held_out``)."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise HandWorldError(f"{path}: {e}") from None
    forests: list[ForestData] = []
    try:
        for f in raw["forests"]:
            turn_time: dict[str, datetime] = {}
            forest = ForestData(name=str(f["name"]), user=str(f["user"]), others={})
            forest.sessions = _sessions(f, forest.user, turn_time)
            forest.probes = [_probe(q, forest.name, forest.user, turn_time) for q in f["questions"]]
            forest.now = max(p.now for p in forest.probes) if forest.probes else forest.now
            forests.append(forest)
    except (KeyError, TypeError) as e:
        raise HandWorldError(f"{path}: missing or malformed field {e}") from None
    header = {"author": str(raw.get("author", path.stem)), "held_out": bool(raw.get("held_out", True))}
    return forests, header
