"""What a retraction reports (``RetractReport``) and the state its steps share (``RetractWork``)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

from memforest.backends.base import UsageLedger
from memforest.memtree.model import DeleteStats, TreeRef
from memforest.store.sql import Conn, Row

__all__ = ["RetractReport", "RetractWork"]


@dataclass(slots=True)
class RetractReport:
    """What one retract removed, detached and refreshed."""

    forest: str
    session: str
    turn: str | None = None
    sessions: int = 0  # session rows removed (a turn retract removes its session with its last turn)
    turns: int = 0  # turn rows removed
    cells: int = 0  # cells removed
    cells_rewritten: int = 0  # cells re-created for the remaining turns of a partly retracted cell
    facts_removed: int = 0
    facts_detached: int = 0  # lost a source but kept (other sources remain)
    facts_restored: int = 0  # superseded only by a removed fact: current again
    leaves_removed: int = 0
    trees_removed: int = 0
    entities_removed: int = 0
    scenes_removed: int = 0
    nodes_refreshed: int = 0
    summaries_changed: int = 0
    model_calls: int = 0
    summary_calls: int = 0
    rebalance: DeleteStats = field(default_factory=DeleteStats)
    usage: UsageLedger = field(default_factory=UsageLedger)
    structural_wall_s: float = 0.0
    refresh_wall_s: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON."""
        skip = {"rebalance", "usage", "structural_wall_s", "refresh_wall_s"}
        out: dict[str, Any] = {k: getattr(self, k) for k in self.__dataclass_fields__ if k not in skip}
        out["rebalance"] = self.rebalance.as_dict()
        out["model_usage"] = self.usage.as_dict()
        out["wall_s"] = {"structural": round(self.structural_wall_s, 4), "refresh": round(self.refresh_wall_s, 4)}
        return out


@dataclass(slots=True)
class RetractWork:
    """State shared by the steps of one retract (inside its transaction, under the forest lock)."""

    conn: Conn
    tenant_id: uuid.UUID
    forest_id: int
    report: RetractReport
    trees: dict[int, TreeRef] = field(default_factory=dict)  # tree rows cached across leaf removals
    touched_entities: set[int] = field(default_factory=set)
    touched_scenes: dict[int, list[Row]] = field(default_factory=dict)  # cluster id -> removed facts
    restored: set[int] = field(default_factory=set)  # facts a removal made current again (slot re-threading)
    superseded_here: set[int] = field(default_factory=set)  # facts current before, superseded by re-threading
