"""File formats: the native session schema, conversation files (native, LoCoMo, LongMemEval) and cells."""

from __future__ import annotations

from memforest.formats.cells import chunk_turns, session_content_hash
from memforest.formats.load import (
    DEMO_PATH,
    FORMATS,
    detect_format,
    load_forests,
    parse_forests,
    parse_locomo_datetime,
    parse_longmemeval_datetime,
)
from memforest.schemas.session import Limits, SessionModel, TurnModel, validate_session

__all__ = [
    "DEMO_PATH",
    "FORMATS",
    "Limits",
    "SessionModel",
    "TurnModel",
    "chunk_turns",
    "detect_format",
    "load_forests",
    "parse_forests",
    "parse_locomo_datetime",
    "parse_longmemeval_datetime",
    "session_content_hash",
    "validate_session",
]
