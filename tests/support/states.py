"""The slots the rule-based extractor reads from one sentence of a two-turn cell (state tests)."""

from __future__ import annotations

from datetime import UTC, datetime

from memforest.domain import CellTurn, CellView, FactKind
from memforest.text.extractor import extract_cell
from memforest.text.mood import leaves

SAID_AT = datetime(2023, 5, 10, 12, tzinfo=UTC)
Slot = tuple[str | None, str | None, str | None]


def speaker_slots(text: str, speaker: str = "Mia") -> list[Slot]:
    """(subject, attribute, value) of every candidate ``speaker``'s turn ``text`` yields (Ravi replies)."""
    cell = CellView("s", SAID_AT, (CellTurn(0, speaker, text, SAID_AT), CellTurn(1, "Ravi", "Oh nice.", SAID_AT)))
    return [(c.subject, c.attribute, c.value) for c in extract_cell(cell) if c.speaker == speaker]


def held_slots(text: str, speaker: str = "Mia") -> list[Slot]:
    """The slots of ``speaker``'s turn ``text`` (alone in its cell) that state a state holding, as
    the temporal read path takes them: a value, no plan, no verb of leaving it."""
    cell = CellView("s", SAID_AT, (CellTurn(0, speaker, text, SAID_AT),))
    return [
        (c.subject, c.attribute, c.value)
        for c in extract_cell(cell)
        if c.attribute and c.value and c.kind is not FactKind.PLAN and not leaves(c.text, max(c.text.find(c.value), 0))
    ]
