"""Export a forest as versioned, self-describing JSON Lines (ADR 0008; the format is in
``transfer_format``). The export reads one consistent state (one transaction under the forest
lock) and streams it row by row through server-side cursors. ``spooled_export_lines`` first
writes the whole export to a spool (memory up to a bound, then a temporary file) and closes the
transaction, so a slow reader holds no connection, transaction or forest lock (ADR 0019).
"""

from __future__ import annotations

import asyncio
import json
import tempfile
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

from memforest.backends.prompts import PROMPT_VERSION
from memforest.db.catalogue import TRANSFER_TABLES
from memforest.db.engine import Database
from memforest.lifecycle.transfer_format import (
    DERIVED_TYPES,
    FORMAT,
    PERSISTENT_TYPES,
    VERSION,
    decode_vector,
    embedding_info,
    encode_vector,
)
from memforest.settings import Settings
from memforest.store.sql import lock_forest
from memforest.store.tenants import get_forest
from memforest.store.transfer.export import count_records, stream_records

__all__ = [
    "DERIVED_TYPES",
    "FORMAT",
    "PERSISTENT_TYPES",
    "VERSION",
    "decode_vector",
    "embedding_info",
    "encode_vector",
    "export_lines",
    "spooled_export_lines",
]

SPOOL_BATCH_CHARS = 1 << 16

# Field names that hold a vector (written as base64), from the catalogue's vector columns.
_VECTOR_FIELDS = frozenset(s.field(c) for s in TRANSFER_TABLES for c in s.vectors)


def _settings_block(settings: Settings) -> dict[str, Any]:
    pipe = settings.pipeline
    return {
        "cell_turns": pipe.cell_turns,
        "fanout": {"session": pipe.fanout_session, "entity": pipe.fanout_entity, "scene": pipe.fanout_scene},
        "entity_min_facts": pipe.entity_min_facts,
        "entity_min_sessions": pipe.entity_min_sessions,
        "scene_assign_threshold": pipe.scene_assign_threshold,
        "near_duplicate_threshold": pipe.near_duplicate_threshold,
        "summary_prompt_version": PROMPT_VERSION,
        "summarizer": "llm" if settings.llm.base_url else "extractive",
    }


def _json_value(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, (list, tuple)):
        return [_json_value(v) for v in value]
    return value


def _record(kind: str, row: dict[str, Any]) -> str:
    out: dict[str, Any] = {"type": kind}
    for key, value in row.items():
        out[key] = encode_vector(value) if key in _VECTOR_FIELDS else _json_value(value)
    return json.dumps(out, ensure_ascii=False, separators=(",", ":")) + "\n"


async def export_lines(
    db: Database, settings: Settings, tenant_id: uuid.UUID, forest_name: str, *, with_derived: bool = False
) -> AsyncIterator[str]:
    """Yield the export of forest ``forest_name`` line by line (each ends with a newline).

    NotFoundError (before the first line) when the forest does not exist."""
    async with db.tenant(tenant_id) as conn:
        forest = await get_forest(conn, tenant_id, forest_name)
        await lock_forest(conn, tenant_id, forest.forest_id)  # one consistent state, no edit in between
        types = PERSISTENT_TYPES + (DERIVED_TYPES if with_derived else ())
        header = {
            "format": FORMAT,
            "version": VERSION,
            "forest": forest.name,
            "exported_at": datetime.now(UTC).isoformat(),
            "embedding": embedding_info(settings),
            "settings": _settings_block(settings),
            "with_derived": with_derived,
            "counts": await count_records(conn, tenant_id, forest.forest_id, types),
        }
        yield json.dumps(header, ensure_ascii=False, separators=(",", ":")) + "\n"
        for kind in types:
            async for row in stream_records(conn, tenant_id, forest.forest_id, kind, with_derived=with_derived):
                yield _record(kind, row)


async def spooled_export_lines(
    db: Database,
    settings: Settings,
    tenant_id: uuid.UUID,
    forest_name: str,
    *,
    with_derived: bool = False,
    max_memory_bytes: int,
) -> AsyncIterator[str]:
    """:func:`export_lines`, read in full into a spool (in memory up to ``max_memory_bytes``, then a
    temporary file) before the first line is yielded: the transaction and its pooled connection are
    closed by then, whatever pace the lines are read at. The spool goes when the iterator ends or
    is closed. 0 spools to disk from the start."""
    memory = max(1, max_memory_bytes)  # SpooledTemporaryFile reads 0 as "never roll over"
    with tempfile.SpooledTemporaryFile(max_size=memory, mode="w+", encoding="utf-8", newline="") as spool:
        batch: list[str] = []
        size = 0
        async for line in export_lines(db, settings, tenant_id, forest_name, with_derived=with_derived):
            batch.append(line)
            size += len(line)
            if size >= SPOOL_BATCH_CHARS:
                await asyncio.to_thread(spool.write, "".join(batch))
                batch, size = [], 0
        spool.write("".join(batch))
        spool.seek(0)
        while lines := await asyncio.to_thread(spool.readlines, SPOOL_BATCH_CHARS):
            for line in lines:
                yield line
