"""Locations and one-line errors shared by the file-format parsers: every problem is an
:class:`~memforest.errors.InputError` naming the source, the line and the field path."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import ValidationError

from memforest.errors import InputError

Loc = tuple[str | int, ...]


def format_path(loc: Sequence[str | int]) -> str:
    """Render a field path: ``("turns", 2, "text")`` -> ``turns[2].text``; ``(0, "a")`` -> ``[0].a``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def location(source: str, line: int | None, loc: Sequence[str | int]) -> str:
    parts = [source]
    if line is not None:
        parts.append(f"line {line}")
    path = format_path(loc)
    if path:
        parts.append(path)
    return ": ".join(parts)


def one_line(text: str) -> str:
    return " ".join(text.split())


def input_error(message: str, source: str, loc: Sequence[str | int] = (), line: int | None = None) -> InputError:
    return InputError(one_line(message), location=location(source, line, loc))


def from_validation(
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
    return input_error(msg, source, loc, line)


def json_error(exc: json.JSONDecodeError, source: str, line: int | None = None) -> InputError:
    if line is None:
        return input_error(f"invalid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})", source)
    return input_error(f"invalid JSON: {exc.msg} (column {exc.colno})", source, line=line)


def load_json(text: str, source: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise json_error(exc, source) from None


def type_name(value: object) -> str:
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


def expect(value: object, kind: type, what: str, source: str, loc: Loc) -> None:
    if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
        raise input_error(f"expected {what}, got {type_name(value)}", source, loc)
