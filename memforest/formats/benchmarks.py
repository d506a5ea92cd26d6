"""Benchmark formats: LoCoMo (sessions per conversation, dates as text) and LongMemEval (haystack sessions)."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import dateparser
from pydantic import ValidationError

from memforest.domain import ForestInput, SessionInput
from memforest.formats.problems import Loc, expect, from_validation, input_error
from memforest.schemas.session import MAX_ID_CHARS, Limits, SessionModel, as_utc_if_naive, validate_session

# ------------------------------------------------------------------ dates

_MONTHS = {
    name: i
    for i, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ],
        start=1,
    )
    for name in names
}

_LOCOMO_DATE = re.compile(
    r"^\s*(?P<h>\d{1,2}):(?P<m>\d{2})\s*(?P<ampm>[ap])\.?m\.?\s+on\s+"
    r"(?P<d>\d{1,2})\s+(?P<mon>[A-Za-z]+)\.?,?\s+(?P<y>\d{4})\s*$",
    re.IGNORECASE,
)
_LME_DATE = re.compile(
    r"^\s*(?P<y>\d{4})/(?P<mo>\d{1,2})/(?P<d>\d{1,2})\s*(?:\([A-Za-z]{2,9}\))?\s*"
    r"(?P<h>\d{1,2}):(?P<m>\d{2})(?::(?P<s>\d{2}))?\s*$"
)

_DATEPARSER_SETTINGS: dict[str, Any] = {
    "TIMEZONE": "UTC",
    "TO_TIMEZONE": "UTC",
    "RETURN_AS_TIMEZONE_AWARE": True,
    "STRICT_PARSING": True,
    "PARSERS": ["absolute-time"],  # never "yesterday" relative to the wall clock
}


def _fallback_date(text: str) -> datetime | None:
    parsed = dateparser.parse(text, languages=["en"], settings=_DATEPARSER_SETTINGS)
    return None if parsed is None else as_utc_if_naive(parsed)


def parse_locomo_datetime(text: str) -> datetime | None:
    """Parse a LoCoMo session time like ``1:56 pm on 8 May, 2023`` (UTC); None if unparseable."""
    m = _LOCOMO_DATE.match(text)
    if m:
        hour, minute = int(m["h"]), int(m["m"])
        month = _MONTHS.get(m["mon"].lower())
        if month is not None and 1 <= hour <= 12:
            hour = hour % 12 + (12 if m["ampm"].lower() == "p" else 0)
            try:
                return datetime(int(m["y"]), month, int(m["d"]), hour, minute, tzinfo=UTC)
            except ValueError:
                return None
    return _fallback_date(text)


def parse_longmemeval_datetime(text: str) -> datetime | None:
    """Parse a LongMemEval date like ``2023/05/20 (Sat) 02:21`` (UTC); None if unparseable.

    The weekday in parentheses is ignored (the date is authoritative).
    """
    m = _LME_DATE.match(text)
    if m:
        try:
            return datetime(
                int(m["y"]), int(m["mo"]), int(m["d"]), int(m["h"]), int(m["m"]), int(m["s"] or 0), tzinfo=UTC
            )
        except ValueError:
            return None
    return _fallback_date(text)


# ------------------------------------------------------------------ benchmark helpers


def _validate_built(
    built: dict[str, Any],
    turn_locs: list[Loc],
    session_loc: Loc,
    source: str,
    limits: Limits,
    field_names: dict[str, str],
) -> SessionModel:
    """Validate a session assembled from a benchmark file; map error paths back to the file."""

    def remap(loc: Loc) -> Loc:
        if len(loc) >= 2 and loc[0] == "turns" and isinstance(loc[1], int) and loc[1] < len(turn_locs):
            rest = tuple(field_names.get(str(p), p) if isinstance(p, str) else p for p in loc[2:])
            return turn_locs[loc[1]] + rest
        return session_loc

    try:
        return validate_session(built, limits)
    except ValidationError as exc:
        raise from_validation(exc, source, remap=remap) from None


def _sample_name(value: object, source: str, loc: Loc) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str) or not value.strip():
        raise input_error("expected a non-empty string", source, loc)
    if len(value.strip()) > MAX_ID_CHARS:
        raise input_error(f"must have at most {MAX_ID_CHARS} characters", source, loc)
    return value.strip()


# ------------------------------------------------------------------ LoCoMo

_SESSION_KEY = re.compile(r"^session_(\d+)$")


def parse_locomo(doc: Any, source: str, limits: Limits) -> list[ForestInput]:
    expect(doc, list, "a JSON list of LoCoMo samples", source, ())
    forests: list[ForestInput] = []
    seen: dict[str, int] = {}
    for i, sample in enumerate(doc):
        expect(sample, dict, "a sample object", source, (i,))
        if "sample_id" not in sample:
            raise input_error("required field is missing", source, (i, "sample_id"))
        name = _sample_name(sample["sample_id"], source, (i, "sample_id"))
        if name in seen:
            raise input_error(f"duplicate sample_id '{name}' (first at [{seen[name]}])", source, (i, "sample_id"))
        seen[name] = i
        if "conversation" not in sample:
            raise input_error("required field is missing", source, (i, "conversation"))
        conv = sample["conversation"]
        expect(conv, dict, "an object", source, (i, "conversation"))
        numbered = sorted((int(m.group(1)), key) for key in conv if (m := _SESSION_KEY.match(key)) is not None)
        sessions: list[SessionInput] = []
        for _, key in numbered:
            session = _locomo_session(conv, key, (i, "conversation"), source, limits)
            if session is not None:
                sessions.append(session)
        if not sessions:
            raise input_error("sample has no non-empty session_N lists", source, (i, "conversation"))
        forests.append(ForestInput(name=name, sessions=tuple(sessions)))
    if not forests:
        raise input_error("no samples", source)
    return forests


def _locomo_session(conv: dict[str, Any], key: str, conv_loc: Loc, source: str, limits: Limits) -> SessionInput | None:
    raw_turns = conv[key]
    loc: Loc = (*conv_loc, key)
    expect(raw_turns, list, "a list of turns", source, loc)
    turns: list[dict[str, Any]] = []
    turn_locs: list[Loc] = []
    for j, raw in enumerate(raw_turns):
        tloc: Loc = (*loc, j)
        expect(raw, dict, "a turn object", source, tloc)
        for field in ("speaker", "text"):
            if field not in raw and not (field == "text" and raw.get("blip_caption")):
                raise input_error("required field is missing", source, (*tloc, field))
        text = raw.get("text", "")
        expect(text, str, "a string", source, (*tloc, "text"))
        caption = raw.get("blip_caption")
        if caption is not None:
            expect(caption, str, "a string", source, (*tloc, "blip_caption"))
            if caption.strip():
                text = f"{text.strip()} [image: {caption.strip()}]".strip()
        if not text.strip():
            continue  # nothing said and nothing shown: not a turn worth storing
        dia_id = raw.get("dia_id")
        if dia_id is not None:
            expect(dia_id, str, "a string", source, (*tloc, "dia_id"))
        turns.append({"speaker": raw["speaker"], "text": text, "id": dia_id})
        turn_locs.append(tloc)
    if not turns:
        return None
    date_key = f"{key}_date_time"
    date_loc: Loc = (*conv_loc, date_key)
    if date_key not in conv:
        raise input_error(f"missing session time for {key}", source, date_loc)
    raw_date = conv[date_key]
    expect(raw_date, str, "a date string", source, date_loc)
    when = parse_locomo_datetime(raw_date)
    if when is None:
        raise input_error(f"cannot parse session time {raw_date!r}", source, date_loc)
    built = {"id": key, "time": when, "turns": turns}
    model = _validate_built(built, turn_locs, loc, source, limits, {"id": "dia_id"})
    return model.to_domain()


# ------------------------------------------------------------------ LongMemEval


def parse_longmemeval(doc: Any, source: str, limits: Limits) -> list[ForestInput]:
    expect(doc, list, "a JSON list of LongMemEval items", source, ())
    forests: list[ForestInput] = []
    seen: dict[str, int] = {}
    for i, item in enumerate(doc):
        expect(item, dict, "an item object", source, (i,))
        for field in ("question_id", "haystack_session_ids", "haystack_dates", "haystack_sessions"):
            if field not in item:
                raise input_error("required field is missing", source, (i, field))
        name = _sample_name(item["question_id"], source, (i, "question_id"))
        if name in seen:
            raise input_error(f"duplicate question_id '{name}' (first at [{seen[name]}])", source, (i, "question_id"))
        seen[name] = i
        forests.append(ForestInput(name=name, sessions=_lme_sessions(item, (i,), source, limits)))
    if not forests:
        raise input_error("no items", source)
    return forests


def _lme_sessions(item: dict[str, Any], iloc: Loc, source: str, limits: Limits) -> tuple[SessionInput, ...]:
    ids, dates, sessions = item["haystack_session_ids"], item["haystack_dates"], item["haystack_sessions"]
    for field, value in (
        ("haystack_session_ids", ids),
        ("haystack_dates", dates),
        ("haystack_sessions", sessions),
    ):
        expect(value, list, "a list", source, (*iloc, field))
    if not len(ids) == len(dates) == len(sessions):
        raise input_error(
            f"haystack lists differ in length: {len(ids)} session ids, {len(dates)} dates, {len(sessions)} sessions",
            source,
            iloc,
        )
    out: list[SessionInput] = []
    first: dict[str, int] = {}
    for k, (sid, raw_date, raw_turns) in enumerate(zip(ids, dates, sessions, strict=True)):
        id_loc: Loc = (*iloc, "haystack_session_ids", k)
        sid = _sample_name(sid, source, id_loc)
        if sid in first:
            raise input_error(
                f"duplicate session id '{sid}' (first at haystack_session_ids[{first[sid]}])", source, id_loc
            )
        first[sid] = k
        sloc: Loc = (*iloc, "haystack_sessions", k)
        expect(raw_turns, list, "a list of turns", source, sloc)
        turns: list[dict[str, Any]] = []
        turn_locs: list[Loc] = []
        for n, raw in enumerate(raw_turns, start=1):
            tloc: Loc = (*sloc, n - 1)
            expect(raw, dict, "a turn object", source, tloc)
            for field in ("role", "content"):
                if field not in raw:
                    raise input_error("required field is missing", source, (*tloc, field))
            role, content = raw["role"], raw["content"]
            expect(role, str, "a string", source, (*tloc, "role"))
            expect(content, str, "a string", source, (*tloc, "content"))
            if not content.strip():
                continue  # empty utterance; numbering still follows the original position
            turns.append({"speaker": role, "role": role, "text": content, "id": f"{sid}_{n}"})
            turn_locs.append(tloc)
        if not turns:
            continue
        date_loc: Loc = (*iloc, "haystack_dates", k)
        expect(raw_date, str, "a date string", source, date_loc)
        when = parse_longmemeval_datetime(raw_date)
        if when is None:
            raise input_error(f"cannot parse session date {raw_date!r}", source, date_loc)
        built = {"id": sid, "time": when, "turns": turns}
        names = {"text": "content", "speaker": "role"}
        out.append(_validate_built(built, turn_locs, sloc, source, limits, names).to_domain())
    if not out:
        raise input_error("item has no non-empty haystack sessions", source, (*iloc, "haystack_sessions"))
    return tuple(out)
