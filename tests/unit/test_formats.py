"""File formats: native JSON / JSON Lines, LoCoMo, LongMemEval; error locations."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from memforest.errors import InputError
from memforest.formats.load import (
    DEMO_PATH,
    detect_format,
    load_forests,
    parse_forests,
    parse_locomo_datetime,
    parse_longmemeval_datetime,
)
from memforest.schemas import session as schema
from memforest.schemas.session import Limits, SessionModel

LOCOMO_DEV = Path("/work/shared/data/locomo/locomo_dev5.json")


def _session(sid: str = "s1", **over: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "id": sid,
        "time": "2024-03-01T10:00:00Z",
        "turns": [
            {"speaker": "Alice", "role": "user", "text": "I adopted a cat.", "id": f"{sid}:1"},
            {"speaker": "Bob", "text": "What is its name?", "id": f"{sid}:2"},
            {"speaker": "Alice", "text": "Miso.", "time": "2024-03-01T10:05:00"},
        ],
    }
    doc.update(over)
    return doc


def _jsonl(*sessions: dict[str, Any]) -> str:
    return "\n".join(json.dumps(s) for s in sessions) + "\n"


def _err(text: str, fmt: str = "native", source: str = "data.jsonl") -> InputError:
    with pytest.raises(InputError) as info:
        parse_forests(text, fmt, source=source)
    err = info.value
    assert "\n" not in str(err)
    return err


# ------------------------------------------------------------------ native happy paths


def test_native_object() -> None:
    text = json.dumps({"forest": "f1", "sessions": [_session("a"), _session("b", metadata={"k": 1})]})
    [forest] = parse_forests(text, "native", source="data.json")
    assert forest.name == "f1"
    assert [s.external_id for s in forest.sessions] == ["a", "b"]
    s = forest.sessions[0]
    assert s.time == datetime(2024, 3, 1, 10, tzinfo=UTC)
    assert s.time.tzinfo is not None
    assert [t.external_id for t in s.turns] == ["a:1", "a:2", None]
    assert s.turns[0].role == "user" and s.turns[1].role is None
    assert s.turns[1].time is None
    assert s.turns[2].time == datetime(2024, 3, 1, 10, 5, tzinfo=UTC)  # naive -> UTC
    assert forest.sessions[1].metadata == {"k": 1}


def test_native_jsonl_with_blank_lines() -> None:
    text = json.dumps(_session("a")) + "\n\n   \n" + json.dumps(_session("b")) + "\n"
    [forest] = parse_forests(text, "native")
    assert forest.name is None
    assert [s.external_id for s in forest.sessions] == ["a", "b"]


def test_native_single_line_jsonl() -> None:
    [forest] = parse_forests(json.dumps(_session("only")), "native")
    assert [s.external_id for s in forest.sessions] == ["only"]


def test_native_keeps_offsets_and_strips() -> None:
    doc = _session("a", time="2024-03-01T10:00:00+02:00")
    doc["turns"][0]["speaker"] = "  Alice "
    doc["turns"][0]["text"] = "  hello  "
    [forest] = parse_forests(_jsonl(doc), "native")
    s = forest.sessions[0]
    assert s.time.utcoffset() == timedelta(hours=2)
    assert s.turns[0].speaker == "Alice" and s.turns[0].text == "hello"


def test_load_forests_from_file(tmp_path: Path) -> None:
    p = tmp_path / "data.jsonl"
    p.write_text(_jsonl(_session("a"), _session("b")), encoding="utf-8")
    [forest] = load_forests(p, "native")
    assert len(forest.sessions) == 2
    assert detect_format(p) == "native"
    assert load_forests(p, "auto") == [forest]


# ------------------------------------------------------------------ native error paths


def test_missing_text_names_line_and_field() -> None:
    bad = _session("b")
    del bad["turns"][2]["text"]
    err = _err(_jsonl(_session("a"), _session("c"), bad))
    assert err.location == "data.jsonl: line 3: turns[2].text"
    assert "missing" in str(err)


def test_blank_text_is_an_error() -> None:
    bad = _session("b")
    bad["turns"][1]["text"] = "   "
    err = _err(_jsonl(bad))
    assert err.location == "data.jsonl: line 1: turns[1].text"


def test_empty_turns() -> None:
    err = _err(_jsonl(_session("a"), _session("b", turns=[])))
    assert err.location == "data.jsonl: line 2: turns"
    assert "at least one turn" in str(err)


def test_bad_session_time() -> None:
    err = _err(_jsonl(_session("a", time="not a date")))
    assert err.location == "data.jsonl: line 1: time"


def test_missing_session_time() -> None:
    doc = _session("a")
    del doc["time"]
    assert _err(_jsonl(doc)).location == "data.jsonl: line 1: time"


def test_bad_turn_time() -> None:
    doc = _session("a")
    doc["turns"][1]["time"] = "tomorrow-ish"
    assert _err(_jsonl(doc)).location == "data.jsonl: line 1: turns[1].time"


def test_duplicate_session_id_jsonl() -> None:
    err = _err(_jsonl(_session("a"), _session("b"), _session("a")))
    assert err.location == "data.jsonl: line 3: id"
    assert "'a'" in str(err) and "line 1" in str(err)


def test_duplicate_session_id_object() -> None:
    text = json.dumps({"sessions": [_session("a"), _session("a")]}, indent=2)
    err = _err(text, source="data.json")
    assert err.location == "data.json: sessions[1].id"


def test_duplicate_turn_id() -> None:
    doc = _session("a")
    doc["turns"][1]["id"] = "a:1"
    err = _err(_jsonl(doc))
    assert err.location == "data.jsonl: line 1: turns"
    assert "'a:1'" in str(err)


def test_unknown_field_in_turn() -> None:
    doc = _session("a")
    doc["turns"][0]["txt"] = "typo"
    err = _err(_jsonl(doc))
    assert err.location == "data.jsonl: line 1: turns[0].txt"
    assert "unknown field" in str(err)


def test_unknown_field_in_session_and_container() -> None:
    assert _err(_jsonl(_session("a", meta={}))).location == "data.jsonl: line 1: meta"
    text = json.dumps({"sessions": [_session("a")], "forrest": "x"})
    assert _err(text, source="d.json").location == "d.json: forrest"


def test_invalid_json_line() -> None:
    text = _jsonl(_session("a")) + '{"id": "b", "time": \n'
    err = _err(text)
    assert err.location == "data.jsonl: line 2"
    assert "invalid JSON" in str(err)


def test_invalid_json_document() -> None:
    text = '{\n  "sessions": [\n    {"id": "a",,}\n  ]\n}\n'
    err = _err(text, source="data.json")
    assert err.location == "data.json"
    assert "line 3" in str(err) and "column" in str(err)


def test_wrong_types() -> None:
    assert _err(_jsonl(_session("a", time=True))).location == "data.jsonl: line 1: time"
    assert _err(_jsonl(_session("a", turns="hi"))).location == "data.jsonl: line 1: turns"
    doc = _session("a")
    doc["turns"][0]["speaker"] = 7
    assert _err(_jsonl(doc)).location == "data.jsonl: line 1: turns[0].speaker"
    err = _err("[1, 2]\n")
    assert err.location == "data.jsonl" and "array" in str(err)
    assert _err(json.dumps(_session("a")) + "\n[1]\n").location == "data.jsonl: line 2"
    assert _err("").location == "data.jsonl"


def test_limits_apply(monkeypatch: pytest.MonkeyPatch) -> None:
    doc = _session("a")
    doc["turns"][0]["text"] = "x" * 50
    with pytest.raises(InputError) as info:
        parse_forests(_jsonl(doc), "native", limits=Limits(max_text_chars=10))
    assert info.value.location == "<input>: line 1: turns[0].text"
    with pytest.raises(InputError):
        parse_forests(_jsonl(doc), "native", limits=Limits(max_turns_per_session=2))
    monkeypatch.setattr(schema, "MAX_TEXT_CHARS", 10)
    with pytest.raises(InputError):
        parse_forests(_jsonl(doc), "native")


def test_unknown_format() -> None:
    with pytest.raises(InputError):
        parse_forests("{}", "csv")


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(InputError) as info:
        load_forests(tmp_path / "nope.json", "native")
    assert info.value.location == str(tmp_path / "nope.json")


def test_session_model_errors_are_pydantic_for_the_api() -> None:
    m = SessionModel.model_validate(_session("a"))
    assert m.to_domain().turns[0].external_id == "a:1"
    assert "turns" in SessionModel.model_json_schema()["properties"]


# ------------------------------------------------------------------ LoCoMo


def _locomo_sample() -> list[dict[str, Any]]:
    def turns(n: int, k: int) -> list[dict[str, Any]]:
        spk = ["Ann", "Ben"]
        return [{"speaker": spk[j % 2], "dia_id": f"D{n}:{j + 1}", "text": f"s{n} t{j + 1}"} for j in range(k)]

    s2 = turns(2, 2)
    s2[1].update(
        {
            "img_url": ["http://example.invalid/x.jpg"],
            "blip_caption": "a photo of a red kite",
            "query": "kite",
        }
    )
    conv: dict[str, Any] = {
        "speaker_a": "Ann",
        "speaker_b": "Ben",
        "session_10": turns(10, 3),
        "session_10_date_time": "9:05 am on 1 January, 2024",
        "session_1": turns(1, 2),
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_2": s2,
        "session_2_date_time": "12:00 am on 25 December, 2023",
        "session_3": [],
        "session_11_date_time": "10:00 am on 2 January, 2024",
    }
    return [
        {
            "sample_id": "conv-x",
            "conversation": conv,
            "qa": [{"question": "q", "answer": "a", "evidence": ["D1:1"], "category": 1}],
            "event_summary": {},
            "observation": {},
            "session_summary": {},
        }
    ]


def test_locomo_hand_made() -> None:
    [forest] = parse_forests(json.dumps(_locomo_sample()), "locomo", source="locomo.json")
    assert forest.name == "conv-x"
    assert [s.external_id for s in forest.sessions] == ["session_1", "session_2", "session_10"]
    s1, s2, s10 = forest.sessions
    assert s1.time == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert s2.time == datetime(2023, 12, 25, 0, 0, tzinfo=UTC)
    assert s10.time == datetime(2024, 1, 1, 9, 5, tzinfo=UTC)
    assert [t.external_id for t in s1.turns] == ["D1:1", "D1:2"]
    assert s1.turns[0].speaker == "Ann" and s1.turns[0].text == "s1 t1"
    assert s2.turns[1].text == "s2 t2 [image: a photo of a red kite]"
    assert s2.turns[0].text == "s2 t1"


def test_locomo_missing_and_bad_dates() -> None:
    doc = _locomo_sample()
    del doc[0]["conversation"]["session_2_date_time"]
    err = _err(json.dumps(doc), "locomo", source="locomo.json")
    assert err.location == "locomo.json: [0].conversation.session_2_date_time"
    doc = _locomo_sample()
    doc[0]["conversation"]["session_10_date_time"] = "sometime in spring"
    err = _err(json.dumps(doc), "locomo", source="locomo.json")
    assert err.location == "locomo.json: [0].conversation.session_10_date_time"


def test_locomo_turn_errors() -> None:
    doc = _locomo_sample()
    del doc[0]["conversation"]["session_10"][1]["speaker"]
    err = _err(json.dumps(doc), "locomo", source="locomo.json")
    assert err.location == "locomo.json: [0].conversation.session_10[1].speaker"
    doc = _locomo_sample()
    doc[0]["conversation"]["session_1"][1]["text"] = "x" * (schema.MAX_TEXT_CHARS + 1)
    err = _err(json.dumps(doc), "locomo", source="locomo.json")
    assert err.location == "locomo.json: [0].conversation.session_1[1].text"
    assert _err("{}", "locomo", source="l.json").location == "l.json"


def test_locomo_datetime_parser() -> None:
    assert parse_locomo_datetime("1:56 pm on 8 May, 2023") == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert parse_locomo_datetime("12:30 pm on 1 June, 2023") == datetime(2023, 6, 1, 12, 30, tzinfo=UTC)
    assert parse_locomo_datetime("12:30 am on 1 June, 2023") == datetime(2023, 6, 1, 0, 30, tzinfo=UTC)
    assert parse_locomo_datetime("10:04 AM on 20 Jan 2023") == datetime(2023, 1, 20, 10, 4, tzinfo=UTC)
    # fallback handles other absolute shapes but never relative words
    assert parse_locomo_datetime("May 8, 2023 1:56 PM") == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert parse_locomo_datetime("yesterday") is None
    assert parse_locomo_datetime("1:56 pm on 31 February, 2023") is None


@pytest.mark.skipif(not LOCOMO_DEV.exists(), reason="LoCoMo dev file not available")
def test_locomo_dev5_file() -> None:
    forests = load_forests(LOCOMO_DEV, "locomo")
    assert len(forests) == 5
    assert detect_format(LOCOMO_DEV) == "locomo"
    raw = json.loads(LOCOMO_DEV.read_text(encoding="utf-8"))
    for forest, sample in zip(forests, raw, strict=True):
        assert forest.name == sample["sample_id"]
        assert 10 <= len(forest.sessions) <= 40
        n_turns = sum(len(s.turns) for s in forest.sessions)
        assert 200 <= n_turns <= 1000
        times = [s.time for s in forest.sessions]
        assert all(t.tzinfo is not None for t in times)
        nums = [int(s.external_id.split("_")[1]) for s in forest.sessions]
        assert nums == sorted(nums)
        for s in forest.sessions:
            for t in s.turns:
                assert t.external_id is not None and t.external_id.startswith(f"D{s.external_id[8:]}:")


# ------------------------------------------------------------------ LongMemEval


def _lme_items() -> list[dict[str, Any]]:
    return [
        {
            "question_id": "q1",
            "question_type": "temporal-reasoning",
            "question": "When did I buy the bike?",
            "answer": "May",
            "question_date": "2023/06/01 (Thu) 10:00",
            "haystack_session_ids": ["sess_b", "sess_a"],
            "haystack_dates": ["2023/05/20 (Sat) 02:21", "2023/05/21 (Sun) 14:05"],
            "haystack_sessions": [
                [
                    {"role": "user", "content": "I bought a bike today.", "has_answer": True},
                    {"role": "assistant", "content": "Nice! What kind?"},
                ],
                [
                    {"role": "user", "content": "Recommend a helmet."},
                    {"role": "assistant", "content": ""},
                    {"role": "assistant", "content": "Try a MIPS helmet."},
                ],
            ],
            "answer_session_ids": ["sess_b"],
        },
        {
            "question_id": "q2",
            "haystack_session_ids": ["s"],
            "haystack_dates": ["2024/01/02 (Tue) 09:00"],
            "haystack_sessions": [[{"role": "user", "content": "hello"}]],
        },
    ]


def test_longmemeval_hand_made() -> None:
    forests = parse_forests(json.dumps(_lme_items()), "longmemeval", source="lme.json")
    assert [f.name for f in forests] == ["q1", "q2"]
    s_b, s_a = forests[0].sessions
    assert (s_b.external_id, s_a.external_id) == ("sess_b", "sess_a")
    assert s_b.time == datetime(2023, 5, 20, 2, 21, tzinfo=UTC)
    assert s_a.time == datetime(2023, 5, 21, 14, 5, tzinfo=UTC)
    assert [t.external_id for t in s_b.turns] == ["sess_b_1", "sess_b_2"]
    assert [(t.speaker, t.role) for t in s_b.turns] == [("user", "user"), ("assistant", "assistant")]
    # the empty turn is dropped but numbering follows the original position
    assert [t.external_id for t in s_a.turns] == ["sess_a_1", "sess_a_3"]


def test_longmemeval_errors() -> None:
    items = _lme_items()
    items[0]["haystack_dates"][1] = "someday"
    err = _err(json.dumps(items), "longmemeval", source="lme.json")
    assert err.location == "lme.json: [0].haystack_dates[1]"
    items = _lme_items()
    items[1]["haystack_dates"].append("2024/01/03 (Wed) 09:00")
    assert _err(json.dumps(items), "longmemeval", source="lme.json").location == "lme.json: [1]"
    items = _lme_items()
    del items[0]["haystack_sessions"][0][1]["content"]
    err = _err(json.dumps(items), "longmemeval", source="lme.json")
    assert err.location == "lme.json: [0].haystack_sessions[0][1].content"
    items = _lme_items()
    items[0]["haystack_session_ids"][1] = "sess_b"
    err = _err(json.dumps(items), "longmemeval", source="lme.json")
    assert err.location == "lme.json: [0].haystack_session_ids[1]"


def test_longmemeval_datetime_parser() -> None:
    assert parse_longmemeval_datetime("2023/05/20 (Sat) 02:21") == datetime(2023, 5, 20, 2, 21, tzinfo=UTC)
    assert parse_longmemeval_datetime("2023/05/20 02:21") == datetime(2023, 5, 20, 2, 21, tzinfo=UTC)
    got = parse_longmemeval_datetime("2023-05-20T02:21:00+02:00")
    assert got is not None and got == datetime(2023, 5, 20, 2, 21, tzinfo=timezone(timedelta(hours=2)))
    assert parse_longmemeval_datetime("2023/02/30 (Thu) 10:00") is None
    assert parse_longmemeval_datetime("last week") is None


def test_detect_format(tmp_path: Path) -> None:
    p = tmp_path / "x.json"
    p.write_text(json.dumps(_lme_items()), encoding="utf-8")
    assert detect_format(p) == "longmemeval"
    p.write_text(json.dumps(_locomo_sample()), encoding="utf-8")
    assert detect_format(p) == "locomo"


# ------------------------------------------------------------------ demo data


def test_demo_json_parses() -> None:
    [forest] = load_forests(DEMO_PATH, "native")
    assert forest.name == "demo"
    assert len(forest.sessions) == 5
    assert all(8 <= len(s.turns) <= 14 for s in forest.sessions)
    years = {s.time.year for s in forest.sessions}
    assert years == {2023, 2024}
    texts = " ".join(t.text for s in forest.sessions for t in s.turns)
    assert "I moved to Davis last month" in texts
    assert "Miami" in texts and "[image:" in texts
    assert forest.sessions[0].turns[0].external_id == "D1:1"
