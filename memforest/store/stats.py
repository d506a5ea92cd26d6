"""Deterministic counts of a forest (no timestamps, no ids)."""

from __future__ import annotations

import uuid
from typing import Any

from memforest.store.sql import Conn, fetch_all, scalar

_COUNTS = {
    "sessions": "SELECT count(*) FROM sessions WHERE tenant_id = :t AND forest_id = :f",
    "turns": "SELECT count(*) FROM turns WHERE tenant_id = :t AND forest_id = :f",
    "cells": "SELECT count(*) FROM cells WHERE tenant_id = :t AND forest_id = :f",
    "cells_pending": "SELECT count(*) FROM cells WHERE tenant_id = :t AND forest_id = :f AND extracted_at IS NULL",
    "facts": "SELECT count(*) FROM facts WHERE tenant_id = :t AND forest_id = :f",
    "facts_current": "SELECT count(*) FROM facts WHERE tenant_id = :t AND forest_id = :f AND superseded_by IS NULL "
    "AND retracted_at IS NULL",
    "facts_superseded": "SELECT count(*) FROM facts WHERE tenant_id = :t AND forest_id = :f "
    "AND superseded_by IS NOT NULL",
    "fact_sources": "SELECT count(*) FROM fact_sources WHERE tenant_id = :t AND forest_id = :f",
    "entities": "SELECT count(*) FROM entities WHERE tenant_id = :t AND forest_id = :f",
    "entities_with_tree": "SELECT count(*) FROM entities WHERE tenant_id = :t AND forest_id = :f AND activated",
    "scene_clusters": "SELECT count(*) FROM scene_clusters WHERE tenant_id = :t AND forest_id = :f "
    "AND merged_into IS NULL",
    "nodes": "SELECT count(*) FROM nodes WHERE tenant_id = :t AND forest_id = :f",
    "leaves": "SELECT count(*) FROM nodes WHERE tenant_id = :t AND forest_id = :f AND level = 0",
    "dirty_nodes": "SELECT count(*) FROM dirty_nodes WHERE tenant_id = :t AND forest_id = :f",
    "placements": "SELECT count(*) FROM placements WHERE tenant_id = :t AND forest_id = :f",
}
_TREES_BY_KIND = (
    "SELECT kind, count(*) AS n, coalesce(max(height), 0) AS h FROM trees WHERE tenant_id = :t AND forest_id = :f "
    "GROUP BY kind ORDER BY kind"
)
_NODES_BY_LEVEL = (
    "SELECT level, count(*) AS n FROM nodes WHERE tenant_id = :t AND forest_id = :f GROUP BY level ORDER BY level"
)


async def forest_stats(conn: Conn, tenant_id: uuid.UUID, forest_id: int) -> dict[str, Any]:
    """Counts of every kind of row in the forest, plus trees by kind and nodes by level."""
    p = {"t": tenant_id, "f": forest_id}
    out: dict[str, Any] = {name: int(await scalar(conn, sql, p)) for name, sql in _COUNTS.items()}
    trees = await fetch_all(conn, _TREES_BY_KIND, p)
    out["trees_by_kind"] = {str(r["kind"]): int(r["n"]) for r in trees}
    out["max_height_by_kind"] = {str(r["kind"]): int(r["h"]) for r in trees}
    levels = await fetch_all(conn, _NODES_BY_LEVEL, p)
    out["nodes_by_level"] = {str(r["level"]): int(r["n"]) for r in levels}
    return out
