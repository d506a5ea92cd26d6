"""The embedding model's record in ``memforest_meta`` during a re-embedding of every forest (ADR 0042):
the stored model, the target of a move under way and the forests already moved. System connection only."""

from __future__ import annotations

import json

from memforest.db.model_identity import same_model
from memforest.store.sql import Conn, execute, fetch_all

__all__ = ["begin_move", "finish_move", "mark_moved"]

_READ = (
    "SELECT key, value FROM memforest_meta WHERE key IN ('embedding_model_target', 'embedding_model_done') FOR UPDATE"
)
_UPSERT = (
    "INSERT INTO memforest_meta (key, value) VALUES (:k, :v) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value"
)
_DELETE_MOVE = "DELETE FROM memforest_meta WHERE key IN ('embedding_model_target', 'embedding_model_done')"
_ADD_DONE = (
    "UPDATE memforest_meta SET value = CAST(CAST(value AS jsonb) || jsonb_build_array(CAST(:f AS text)) AS text) "
    "WHERE key = 'embedding_model_done' AND NOT CAST(value AS jsonb) ? :f"
)


async def begin_move(conn: Conn, target: str) -> set[str]:
    """Start (or resume) moving every forest's vectors to ``target``: the forests already moved to it
    by an earlier, interrupted run; none when the earlier run aimed at another model."""
    rows = {str(r["key"]): str(r["value"]) for r in await fetch_all(conn, _READ)}
    recorded = rows.get("embedding_model_target")
    if recorded is not None and same_model(recorded, target):
        return set(json.loads(rows.get("embedding_model_done", "[]")))
    await execute(conn, _UPSERT, {"k": "embedding_model_target", "v": target})
    await execute(conn, _UPSERT, {"k": "embedding_model_done", "v": "[]"})
    return set()


async def mark_moved(conn: Conn, forest_key: str) -> None:
    """Record that the forest ``forest_key`` (``tenant_id/forest_id``) now holds the target's vectors."""
    await execute(conn, _ADD_DONE, {"f": forest_key})


async def finish_move(conn: Conn, model: str) -> None:
    """Every forest holds ``model``'s vectors: it becomes the stored model, the move's keys go."""
    await execute(conn, _UPSERT, {"k": "embedding_model", "v": model})
    await execute(conn, _DELETE_MOVE)
