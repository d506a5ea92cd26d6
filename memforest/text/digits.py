"""Reading a client's decimal numbers (ids, cursors, turn numbers) out of text."""

from __future__ import annotations

BIGINT_MAX = 2**63 - 1  # PostgreSQL bigint (ids)
INT_MAX = 2**31 - 1  # PostgreSQL integer (turn numbers)


def decimal_int(text: str, max_value: int = BIGINT_MAX) -> int | None:
    """``text`` as a non-negative integer when it is ASCII digits only and at most ``max_value``,
    else None. (``str.isdigit`` also accepts superscripts such as "²", which ``int`` refuses, and
    other scripts' digits, which ``int`` reads: neither is an id a client was given.)"""
    if not text or len(text) > len(str(max_value)) or not text.isascii() or not text.isdigit():
        return None
    value = int(text)
    return value if value <= max_value else None
