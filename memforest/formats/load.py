"""Read conversation files (native JSON / JSON Lines, LoCoMo, LongMemEval) into ``ForestInput``.

Everything is validated before anything is returned, so a caller that fails here has written
nothing. Every problem is an :class:`~memforest.errors.InputError` whose ``location`` names the
source, the line (JSON Lines only) and the field path, e.g. ``data.jsonl: line 3: turns[2].text``.
"""

from __future__ import annotations

from pathlib import Path

from memforest.domain import ForestInput
from memforest.errors import InputError
from memforest.formats.benchmarks import (
    parse_locomo,
    parse_locomo_datetime,
    parse_longmemeval,
    parse_longmemeval_datetime,
)
from memforest.formats.native import parse_native
from memforest.formats.problems import input_error, load_json
from memforest.schemas.session import Limits, default_limits

__all__ = [
    "DEMO_PATH",
    "FORMATS",
    "detect_format",
    "load_forests",
    "parse_forests",
    "parse_locomo_datetime",
    "parse_longmemeval_datetime",
]

FORMATS: tuple[str, ...] = ("native", "locomo", "longmemeval")

#: The bundled demo conversation (native format, forest "demo").
DEMO_PATH = Path(__file__).resolve().parent.parent / "sample_data" / "demo.json"


# ------------------------------------------------------------------ public entry points


def load_forests(path: Path, fmt: str, *, limits: Limits | None = None) -> list[ForestInput]:
    """Read and validate a file. ``fmt``: ``native``, ``locomo``, ``longmemeval`` or ``auto``."""
    source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise input_error(f"not UTF-8 text ({exc.reason} at byte {exc.start})", source) from None
    except OSError as exc:
        raise input_error(f"cannot read file: {exc.strerror or exc}", source) from None
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
        return [parse_native(text, source, limits)]
    if fmt == "locomo":
        return parse_locomo(load_json(text, source), source, limits)
    return parse_longmemeval(load_json(text, source), source, limits)


def detect_format(path: Path) -> str:
    """Best-effort guess of a file's format from its name and first bytes."""
    p = Path(path)
    if p.suffix.lower() == ".jsonl":
        return "native"
    try:
        with p.open("r", encoding="utf-8-sig", errors="replace") as fh:
            head = fh.read(1 << 20)
    except OSError as exc:
        raise input_error(f"cannot read file: {exc.strerror or exc}", str(p)) from None
    stripped = head.lstrip()
    if stripped.startswith("{"):
        return "native"
    if stripped.startswith("["):
        if '"haystack_sessions"' in head or '"question_id"' in head:
            return "longmemeval"
        if '"conversation"' in head or '"sample_id"' in head:
            return "locomo"
    raise input_error("cannot tell the format; pass it explicitly (native, locomo or longmemeval)", str(p))
