"""The slots the rule-based extractor reads from one sentence of a two-turn cell (state tests)."""

from __future__ import annotations

from datetime import UTC, datetime

from memforest.domain import CellTurn, CellView
from memforest.text.extractor import extract_cell

SAID_AT = datetime(2023, 5, 10, 12, tzinfo=UTC)
Slot = tuple[str | None, str | None, str | None]


def speaker_slots(text: str, speaker: str = "Mia") -> list[Slot]:
    """(subject, attribute, value) of every candidate ``speaker``'s turn ``text`` yields (Ravi replies)."""
    cell = CellView("s", SAID_AT, (CellTurn(0, speaker, text, SAID_AT), CellTurn(1, "Ravi", "Oh nice.", SAID_AT)))
    return [(c.subject, c.attribute, c.value) for c in extract_cell(cell) if c.speaker == speaker]
