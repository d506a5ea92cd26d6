"""What a merge reports: the counts of A's rows and what became of them in B, and its stages."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["STAGES", "MergeReport", "Progress", "notify"]

Progress = Callable[[str, int, int], Awaitable[None] | None]
"""``progress(stage, done, total)``; may be a coroutine function (the job writes progress rows)."""

STAGES = ("snapshot", "sessions", "facts", "scopes", "trees", "leaves", "refresh")


@dataclass(slots=True)
class MergeReport:
    """What a merge did (counts of A's rows and what became of them in B)."""

    src_forest: str = ""
    dst_forest: str = ""
    cross_tenant: bool = False
    sessions_copied: int = 0
    sessions_renamed: int = 0
    sessions_shared: int = 0
    turns: int = 0
    cells: int = 0
    facts_new: int = 0
    facts_exact: int = 0
    facts_near: int = 0
    sources_added: int = 0
    supersession_links: int = 0
    entities_new: int = 0
    entities_matched: int = 0
    entities_activated: int = 0
    entity_links: int = 0
    clusters_new: int = 0
    clusters_matched: int = 0
    trees_matched: int = 0
    trees_copied: int = 0
    trees_rebuilt: int = 0
    trees_created: int = 0
    nodes_copied: int = 0
    leaves_removed: int = 0
    leaves_inserted: int = 0
    splits: int = 0
    nodes_refreshed: int = 0
    summaries_changed: int = 0
    embedded: int = 0
    model_calls: dict[str, int] = field(default_factory=dict)
    stage_wall_s: dict[str, float] = field(default_factory=dict)
    wall_s: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON (job results, ``--json``)."""
        out: dict[str, Any] = {}
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            if name == "stage_wall_s":
                value = {k: round(v, 4) for k, v in value.items()}
            elif name == "wall_s":
                value = round(value, 4)
            elif isinstance(value, dict):
                value = dict(sorted(value.items()))
            out[name] = value
        return out


async def notify(progress: Progress | None, stage: str, done: int, total: int) -> None:
    """Call ``progress`` (sync or async) when given."""
    if progress is None:
        return
    result = progress(stage, done, total)
    if inspect.isawaitable(result):
        await result
