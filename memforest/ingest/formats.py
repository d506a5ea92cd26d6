"""Read conversation files (native JSON / JSON Lines, LoCoMo, LongMemEval) into ``ForestInput``.

Everything is validated before anything is returned, so a caller that fails here has written
nothing. Every problem is an :class:`~memforest.errors.InputError` whose ``location`` names the
source, the line (JSON Lines only) and the field path, e.g. ``data.jsonl: line 3: turns[2].text``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import dateparser
from pydantic import ValidationError

from memforest.domain import ForestInput, SessionInput
from memforest.errors import InputError
from memforest.schemas.session import (
    MAX_ID_CHARS,
    Limits,
    SessionModel,
    as_utc_if_naive,
    default_limits,
    validate_session,
)

FORMATS: tuple[str, ...] = ("native", "locomo", "longmemeval")

#: The bundled demo conversation (native format, forest "demo").
DEMO_PATH = Path(__file__).resolve().parent.parent / "sample_data" / "demo.json"

Loc = tuple[str | int, ...]

# ------------------------------------------------------------------ locations and errors


def format_path(loc: Sequence[str | int]) -> str:
    """Render a field path: ``("turns", 2, "text")`` -> ``turns[2].text``; ``(0, "a")`` -> ``[0].a``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def _location(source: str, line: int | None, loc: Sequence[str | int]) -> str:
    parts = [source]
    if line is not None:
        parts.append(f"line {line}")
    path = format_path(loc)
    if path:
        parts.append(path)
    return ": ".join(parts)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _error(message: str, source: str, loc: Sequence[str | int] = (), line: int | None = None) -> InputError:
    return InputError(_one_line(message), location=_location(source, line, loc))


def _from_validation(
    exc: ValidationError,
    source: str,
    *,
    prefix: Loc = (),
    line: int | None = None,
    remap: Callable[[Loc], Loc] | None = None,
) -> InputError:
    """Turn the first pydantic error into an ``InputError`` (noting how many more there were)."""
    errors = exc.errors(include_url=False)
    first = errors[0]
    loc: Loc = tuple(first["loc"])
    loc = remap(loc) if remap else prefix + loc
    msg = first["msg"]
    if msg.startswith("Value error, "):
        msg = msg[len("Value error, ") :]
    if first["type"] == "extra_forbidden":
        msg = "unknown field"
    elif first["type"] == "missing":
        msg = "required field is missing"
    if len(errors) > 1:
        msg += f" (and {len(errors) - 1} more error{'s' if len(errors) > 2 else ''})"
    return _error(msg, source, loc, line)


def _json_error(exc: json.JSONDecodeError, source: str, line: int | None = None) -> InputError:
    if line is None:
        return _error(f"invalid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})", source)
    return _error(f"invalid JSON: {exc.msg} (column {exc.colno})", source, line=line)


def _load_json(text: str, source: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise _json_error(exc, source) from None


def _type_name(value: object) -> str:
    if value is None:
        return "null"
    return {
        dict: "object",
        list: "array",
        str: "string",
        bool: "boolean",
        int: "number",
        float: "number",
    }.get(type(value), type(value).__name__)


def _expect(value: object, kind: type, what: str, source: str, loc: Loc) -> None:
    if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
        raise _error(f"expected {what}, got {_type_name(value)}", source, loc)


# ------------------------------------------------------------------ public entry points


def load_forests(path: Path, fmt: str, *, limits: Limits | None = None) -> list[ForestInput]:
    """Read and validate a file. ``fmt``: ``native``, ``locomo``, ``longmemeval`` or ``auto``."""
    source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise _error(f"not UTF-8 text ({exc.reason} at byte {exc.start})", source) from None
    except OSError as exc:
        raise _error(f"cannot read file: {exc.strerror or exc}", source) from None
    if fmt == "auto":
        fmt = detect_format(path)
    return parse_forests(text, fmt, source=source, limits=limits)


def parse_forests(text: str, fmt: str, *, source: str = "<input>", limits: Limits | None = None) -> list[ForestInput]:
    """Parse and validate ``text`` in the given format into forests (nothing partial on error)."""
    if fmt not in FORMATS:
        raise InputError(f"unknown format {fmt!r}; expected one of: {', '.join(FORMATS)}", location=source)
    limits = limits or default_limits()
    text = text.removeprefix("\ufeff")
    if fmt == "native":
        return [_parse_native(text, source, limits)]
    if fmt == "locomo":
        return _parse_locomo(_load_json(text, source), source, limits)
    return _parse_longmemeval(_load_json(text, source), source, limits)


def detect_format(path: Path) -> str:
    """Best-effort guess of a file's format from its name and first bytes."""
    p = Path(path)
    if p.suffix.lower() == ".jsonl":
        return "native"
    try:
        with p.open("r", encoding="utf-8-sig", errors="replace") as fh:
            head = fh.read(1 << 20)
    except OSError as exc:
        raise _error(f"cannot read file: {exc.strerror or exc}", str(p)) from None
    stripped = head.lstrip()
    if stripped.startswith("{"):
        return "native"
    if stripped.startswith("["):
        if '"haystack_sessions"' in head or '"question_id"' in head:
            return "longmemeval"
        if '"conversation"' in head or '"sample_id"' in head:
            return "locomo"
    raise _error("cannot tell the format; pass it explicitly (native, locomo or longmemeval)", str(p))


# ------------------------------------------------------------------ native


_CONTAINER_KEYS = {"sessions", "forest"}


def _parse_native(text: str, source: str, limits: Limits) -> ForestInput:
    """Either ``{"sessions": [...], "forest": name}`` or JSON Lines with one session per line."""
    if not text.strip():
        raise _error("empty input: no sessions", source)
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        if exc.msg == "Extra data" or _first_line_is_json(text):
            return _parse_native_lines(text, source, limits)
        raise _json_error(exc, source) from None
    if isinstance(doc, dict) and "sessions" in doc:
        return _parse_native_container(doc, source, limits)
    if isinstance(doc, dict) and len([ln for ln in text.splitlines() if ln.strip()]) == 1:
        return _parse_native_lines(text, source, limits)
    if isinstance(doc, dict):
        raise _error(
            'expected an object with a "sessions" list, or JSON Lines with one session per line',
            source,
            ("sessions",),
        )
    raise _error(f'expected an object with a "sessions" list, or JSON Lines; got a JSON {_type_name(doc)}', source)


def _first_line_is_json(text: str) -> bool:
    for raw in text.splitlines():
        if raw.strip():
            try:
                json.loads(raw)
            except json.JSONDecodeError:
                return False
            return True
    return False


def _parse_native_container(doc: dict[str, Any], source: str, limits: Limits) -> ForestInput:
    for key in doc:
        if key not in _CONTAINER_KEYS:
            raise _error("unknown field", source, (key,))
    name = doc.get("forest")
    if name is not None:
        _expect(name, str, "a string", source, ("forest",))
        name = name.strip()
        if not name or len(name) > MAX_ID_CHARS:
            raise _error(f"forest name must have 1 to {MAX_ID_CHARS} characters", source, ("forest",))
    raw_sessions = doc["sessions"]
    _expect(raw_sessions, list, "a list of sessions", source, ("sessions",))
    if not raw_sessions:
        raise _error("no sessions", source, ("sessions",))
    sessions: list[SessionInput] = []
    first_index: dict[str, int] = {}
    for i, raw in enumerate(raw_sessions):
        loc: Loc = ("sessions", i)
        _expect(raw, dict, "a session object", source, loc)
        try:
            model = validate_session(raw, limits)
        except ValidationError as exc:
            raise _from_validation(exc, source, prefix=loc) from None
        if model.id in first_index:
            raise _error(
                f"duplicate session id '{model.id}' (first used at sessions[{first_index[model.id]}])",
                source,
                (*loc, "id"),
            )
        first_index[model.id] = i
        sessions.append(model.to_domain())
    return ForestInput(name=name, sessions=tuple(sessions))


def _parse_native_lines(text: str, source: str, limits: Limits) -> ForestInput:
    sessions: list[SessionInput] = []
    first_line: dict[str, int] = {}
    for lineno, raw_line in enumerate(text.splitlines(), start=1):
        if not raw_line.strip():
            continue
        try:
            raw = json.loads(raw_line)
        except json.JSONDecodeError as exc:
            raise _json_error(exc, source, line=lineno) from None
        if not isinstance(raw, dict):
            raise _error(f"expected a session object, got {_type_name(raw)}", source, line=lineno)
        try:
            model = validate_session(raw, limits)
        except ValidationError as exc:
            raise _from_validation(exc, source, line=lineno) from None
        if model.id in first_line:
            raise _error(
                f"duplicate session id '{model.id}' (first used on line {first_line[model.id]})",
                source,
                ("id",),
                line=lineno,
            )
        first_line[model.id] = lineno
        sessions.append(model.to_domain())
    if not sessions:
        raise _error("empty input: no sessions", source)
    return ForestInput(name=None, sessions=tuple(sessions))


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
        raise _from_validation(exc, source, remap=remap) from None


def _sample_name(value: object, source: str, loc: Loc) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str) or not value.strip():
        raise _error("expected a non-empty string", source, loc)
    if len(value.strip()) > MAX_ID_CHARS:
        raise _error(f"must have at most {MAX_ID_CHARS} characters", source, loc)
    return value.strip()


# ------------------------------------------------------------------ LoCoMo

_SESSION_KEY = re.compile(r"^session_(\d+)$")


def _parse_locomo(doc: Any, source: str, limits: Limits) -> list[ForestInput]:
    _expect(doc, list, "a JSON list of LoCoMo samples", source, ())
    forests: list[ForestInput] = []
    seen: dict[str, int] = {}
    for i, sample in enumerate(doc):
        _expect(sample, dict, "a sample object", source, (i,))
        if "sample_id" not in sample:
            raise _error("required field is missing", source, (i, "sample_id"))
        name = _sample_name(sample["sample_id"], source, (i, "sample_id"))
        if name in seen:
            raise _error(f"duplicate sample_id '{name}' (first at [{seen[name]}])", source, (i, "sample_id"))
        seen[name] = i
        if "conversation" not in sample:
            raise _error("required field is missing", source, (i, "conversation"))
        conv = sample["conversation"]
        _expect(conv, dict, "an object", source, (i, "conversation"))
        numbered = sorted((int(m.group(1)), key) for key in conv if (m := _SESSION_KEY.match(key)) is not None)
        sessions: list[SessionInput] = []
        for _, key in numbered:
            session = _locomo_session(conv, key, (i, "conversation"), source, limits)
            if session is not None:
                sessions.append(session)
        if not sessions:
            raise _error("sample has no non-empty session_N lists", source, (i, "conversation"))
        forests.append(ForestInput(name=name, sessions=tuple(sessions)))
    if not forests:
        raise _error("no samples", source)
    return forests


def _locomo_session(conv: dict[str, Any], key: str, conv_loc: Loc, source: str, limits: Limits) -> SessionInput | None:
    raw_turns = conv[key]
    loc: Loc = (*conv_loc, key)
    _expect(raw_turns, list, "a list of turns", source, loc)
    turns: list[dict[str, Any]] = []
    turn_locs: list[Loc] = []
    for j, raw in enumerate(raw_turns):
        tloc: Loc = (*loc, j)
        _expect(raw, dict, "a turn object", source, tloc)
        for field in ("speaker", "text"):
            if field not in raw and not (field == "text" and raw.get("blip_caption")):
                raise _error("required field is missing", source, (*tloc, field))
        text = raw.get("text", "")
        _expect(text, str, "a string", source, (*tloc, "text"))
        caption = raw.get("blip_caption")
        if caption is not None:
            _expect(caption, str, "a string", source, (*tloc, "blip_caption"))
            if caption.strip():
                text = f"{text.strip()} [image: {caption.strip()}]".strip()
        if not text.strip():
            continue  # nothing said and nothing shown: not a turn worth storing
        dia_id = raw.get("dia_id")
        if dia_id is not None:
            _expect(dia_id, str, "a string", source, (*tloc, "dia_id"))
        turns.append({"speaker": raw["speaker"], "text": text, "id": dia_id})
        turn_locs.append(tloc)
    if not turns:
        return None
    date_key = f"{key}_date_time"
    date_loc: Loc = (*conv_loc, date_key)
    if date_key not in conv:
        raise _error(f"missing session time for {key}", source, date_loc)
    raw_date = conv[date_key]
    _expect(raw_date, str, "a date string", source, date_loc)
    when = parse_locomo_datetime(raw_date)
    if when is None:
        raise _error(f"cannot parse session time {raw_date!r}", source, date_loc)
    built = {"id": key, "time": when, "turns": turns}
    model = _validate_built(built, turn_locs, loc, source, limits, {"id": "dia_id"})
    return model.to_domain()


# ------------------------------------------------------------------ LongMemEval


def _parse_longmemeval(doc: Any, source: str, limits: Limits) -> list[ForestInput]:
    _expect(doc, list, "a JSON list of LongMemEval items", source, ())
    forests: list[ForestInput] = []
    seen: dict[str, int] = {}
    for i, item in enumerate(doc):
        _expect(item, dict, "an item object", source, (i,))
        for field in ("question_id", "haystack_session_ids", "haystack_dates", "haystack_sessions"):
            if field not in item:
                raise _error("required field is missing", source, (i, field))
        name = _sample_name(item["question_id"], source, (i, "question_id"))
        if name in seen:
            raise _error(f"duplicate question_id '{name}' (first at [{seen[name]}])", source, (i, "question_id"))
        seen[name] = i
        forests.append(ForestInput(name=name, sessions=_lme_sessions(item, (i,), source, limits)))
    if not forests:
        raise _error("no items", source)
    return forests


def _lme_sessions(item: dict[str, Any], iloc: Loc, source: str, limits: Limits) -> tuple[SessionInput, ...]:
    ids, dates, sessions = item["haystack_session_ids"], item["haystack_dates"], item["haystack_sessions"]
    for field, value in (
        ("haystack_session_ids", ids),
        ("haystack_dates", dates),
        ("haystack_sessions", sessions),
    ):
        _expect(value, list, "a list", source, (*iloc, field))
    if not len(ids) == len(dates) == len(sessions):
        raise _error(
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
            raise _error(f"duplicate session id '{sid}' (first at haystack_session_ids[{first[sid]}])", source, id_loc)
        first[sid] = k
        sloc: Loc = (*iloc, "haystack_sessions", k)
        _expect(raw_turns, list, "a list of turns", source, sloc)
        turns: list[dict[str, Any]] = []
        turn_locs: list[Loc] = []
        for n, raw in enumerate(raw_turns, start=1):
            tloc: Loc = (*sloc, n - 1)
            _expect(raw, dict, "a turn object", source, tloc)
            for field in ("role", "content"):
                if field not in raw:
                    raise _error("required field is missing", source, (*tloc, field))
            role, content = raw["role"], raw["content"]
            _expect(role, str, "a string", source, (*tloc, "role"))
            _expect(content, str, "a string", source, (*tloc, "content"))
            if not content.strip():
                continue  # empty utterance; numbering still follows the original position
            turns.append({"speaker": role, "role": role, "text": content, "id": f"{sid}_{n}"})
            turn_locs.append(tloc)
        if not turns:
            continue
        date_loc: Loc = (*iloc, "haystack_dates", k)
        _expect(raw_date, str, "a date string", source, date_loc)
        when = parse_longmemeval_datetime(raw_date)
        if when is None:
            raise _error(f"cannot parse session date {raw_date!r}", source, date_loc)
        built = {"id": sid, "time": when, "turns": turns}
        names = {"text": "content", "speaker": "role"}
        out.append(_validate_built(built, turn_locs, sloc, source, limits, names).to_domain())
    if not out:
        raise _error("item has no non-empty haystack sessions", source, (*iloc, "haystack_sessions"))
    return tuple(out)
