"""The built-in rule-based extractor port (heuristics in ``memforest.text.extractor``, no model)."""

from __future__ import annotations

import time

from memforest.backends.base import UsageLedger
from memforest.domain import Candidate, CellView
from memforest.text.extractor import extract_cell

__all__ = ["RuleBasedExtractor"]


class RuleBasedExtractor:
    """The built-in extractor (rule-based heuristics, not a model); implements ``Extractor``."""

    name = "rule-based"

    async def extract(self, cell: CellView, *, ledger: UsageLedger | None = None) -> list[Candidate]:
        """Return the candidates of ``cell`` (see ``extract_cell``); records one zero-token call."""
        started = time.perf_counter()
        result = extract_cell(cell)
        if ledger is not None:
            ledger.record("extract", latency_s=time.perf_counter() - started)
        return result
