"""The built-in rule-based extractor port (heuristics in ``memforest.text.extractor``, no model)."""

from __future__ import annotations

import time

from memforest.backends.base import UsageLedger
from memforest.domain import Candidate, CellView
from memforest.text.extractor import extract_cell
from memforest.text.offload import DEFAULT_BUDGET_S, run_off_loop
from memforest.text.processes import run_in_process

__all__ = ["RuleBasedExtractor"]


class RuleBasedExtractor:
    """The built-in extractor (rule-based heuristics, not a model); implements ``Extractor``.

    Extraction runs in ``processes`` worker processes of its own (``memforest.text.processes``),
    or with ``processes`` 0 in the text thread pool (off the event loop, on its GIL), with
    ``budget_s`` seconds per cell; a cell over budget raises ``TextBudgetExceededError`` (a
    ``ModelBackendError``), which the ingest job records as that cell's error.
    """

    name = "rule-based"

    def __init__(self, budget_s: float = DEFAULT_BUDGET_S, *, processes: int = 0) -> None:
        self.budget_s = budget_s
        self.processes = processes

    async def extract(self, cell: CellView, *, ledger: UsageLedger | None = None) -> list[Candidate]:
        """Return the candidates of ``cell`` (see ``extract_cell``); records one zero-token call."""
        started = time.perf_counter()
        what = f"extracting the cell of session {cell.session_external_id!r} (turns {_seqs(cell)})"
        if self.processes:
            result = await run_in_process(
                extract_cell, cell, processes=self.processes, budget_s=self.budget_s, what=what
            )
        else:
            result = await run_off_loop(
                lambda deadline: extract_cell(cell, deadline), budget_s=self.budget_s, what=what
            )
        if ledger is not None:
            ledger.record("extract", latency_s=time.perf_counter() - started)
        return result


def _seqs(cell: CellView) -> str:
    seqs = [t.seq for t in cell.turns]
    return f"{min(seqs)}-{max(seqs)}" if seqs else "none"
