"""The native format: one session object, ``{"sessions": [...]}``, or JSON Lines of sessions."""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError

from memforest.domain import ForestInput, SessionInput
from memforest.formats.problems import Loc, expect, from_validation, input_error, json_error, type_name
from memforest.schemas.session import MAX_ID_CHARS, Limits, validate_session

_CONTAINER_KEYS = {"sessions", "forest"}


def parse_native(text: str, source: str, limits: Limits) -> ForestInput:
    """Either ``{"sessions": [...], "forest": name}`` or JSON Lines with one session per line."""
    if not text.strip():
        raise input_error("empty input: no sessions", source)
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        if exc.msg == "Extra data" or _first_line_is_json(text):
            return _parse_native_lines(text, source, limits)
        raise json_error(exc, source) from None
    if isinstance(doc, dict) and "sessions" in doc:
        return _parse_native_container(doc, source, limits)
    if isinstance(doc, dict) and len([ln for ln in text.splitlines() if ln.strip()]) == 1:
        return _parse_native_lines(text, source, limits)
    if isinstance(doc, dict):
        raise input_error(
            'expected an object with a "sessions" list, or JSON Lines with one session per line',
            source,
            ("sessions",),
        )
    raise input_error(f'expected an object with a "sessions" list, or JSON Lines; got a JSON {type_name(doc)}', source)


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
            raise input_error("unknown field", source, (key,))
    name = doc.get("forest")
    if name is not None:
        expect(name, str, "a string", source, ("forest",))
        name = name.strip()
        if not name or len(name) > MAX_ID_CHARS:
            raise input_error(f"forest name must have 1 to {MAX_ID_CHARS} characters", source, ("forest",))
    raw_sessions = doc["sessions"]
    expect(raw_sessions, list, "a list of sessions", source, ("sessions",))
    if not raw_sessions:
        raise input_error("no sessions", source, ("sessions",))
    sessions: list[SessionInput] = []
    first_index: dict[str, int] = {}
    for i, raw in enumerate(raw_sessions):
        loc: Loc = ("sessions", i)
        expect(raw, dict, "a session object", source, loc)
        try:
            model = validate_session(raw, limits)
        except ValidationError as exc:
            raise from_validation(exc, source, prefix=loc) from None
        if model.id in first_index:
            raise input_error(
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
            raise json_error(exc, source, line=lineno) from None
        if not isinstance(raw, dict):
            raise input_error(f"expected a session object, got {type_name(raw)}", source, line=lineno)
        try:
            model = validate_session(raw, limits)
        except ValidationError as exc:
            raise from_validation(exc, source, line=lineno) from None
        if model.id in first_line:
            raise input_error(
                f"duplicate session id '{model.id}' (first used on line {first_line[model.id]})",
                source,
                ("id",),
                line=lineno,
            )
        first_line[model.id] = lineno
        sessions.append(model.to_domain())
    if not sessions:
        raise input_error("empty input: no sessions", source)
    return ForestInput(name=None, sessions=tuple(sessions))
