"""Export a forest as versioned, self-describing JSON Lines (ADR 0008).

Line 1 is a header::

    {"format": "memforest-forest", "version": 1, "forest": ..., "exported_at": ...,
     "embedding": {"backend", "model", "dim", "encoding": "base64-f32le"}, "settings": {...},
     "with_derived": bool, "counts": {record type: number of lines}}

then one record per line with a ``type``: ``session``, ``turn``, ``cell``, ``fact``, ``fact_source``,
``entity``, ``entity_fact``, ``scene_cluster`` (persistent state, always), and with derived artifacts
``tree``, ``node``, ``placement`` plus the ``embedding`` of facts and nodes. Records refer to each
other by the ``id`` they carry (the exporting database's ids, meaningful only inside the file);
every reference points to an earlier line (nodes come parents first). Vectors are base64 of
little-endian float32. The export reads one consistent state (one transaction under the forest
lock) and streams it row by row through server-side cursors.
"""

from __future__ import annotations

import base64
import json
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import numpy as np
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection

from memforest.backends.prompts import PROMPT_VERSION
from memforest.db.engine import Database
from memforest.settings import Settings
from memforest.store.sql import as_vector, lock_forest, scalar
from memforest.store.tenants import get_forest

__all__ = [
    "DERIVED_TYPES",
    "FORMAT",
    "PERSISTENT_TYPES",
    "VERSION",
    "decode_vector",
    "embedding_info",
    "encode_vector",
    "export_lines",
]

FORMAT = "memforest-forest"
VERSION = 1
VECTOR_ENCODING = "base64-f32le"
PERSISTENT_TYPES = ("session", "turn", "cell", "fact", "fact_source", "entity", "entity_fact", "scene_cluster")
DERIVED_TYPES = ("tree", "node", "placement")

# record type -> (SQL over one forest, ordered so that references point backwards)
_QUERIES: dict[str, str] = {
    "session": "SELECT session_id AS id, external_id, time, content_hash, metadata, n_turns, created_at FROM sessions "
    "WHERE tenant_id = :t AND forest_id = :f ORDER BY session_id",
    "turn": "SELECT turn_id AS id, session_id AS session, seq, external_id, speaker, role, text, time FROM turns "
    "WHERE tenant_id = :t AND forest_id = :f ORDER BY session_id, seq",
    "cell": "SELECT cell_id AS id, session_id AS session, seq, turn_from, turn_to, text, t_start, t_end, extracted_at, "
    "extract_attempts, extract_error FROM cells WHERE tenant_id = :t AND forest_id = :f ORDER BY session_id, seq",
    "fact": "SELECT fact_id AS id, text, text_hash, kind, entities, topics, speaker, subject, attribute, value, "
    "time_text, valid_from, valid_to, recorded_at, retracted_at, supersedes, superseded_by, source_count{emb} "
    "FROM facts WHERE tenant_id = :t AND forest_id = :f ORDER BY fact_id",
    "fact_source": "SELECT fact_id AS fact, turn_id AS turn, cell_id AS cell, session_id AS session, created_at "
    "FROM fact_sources WHERE tenant_id = :t AND forest_id = :f ORDER BY fact_id, turn_id",
    "entity": "SELECT entity_id AS id, key, label, is_speaker, fact_count, session_count, activated, first_time, "
    "last_time FROM entities WHERE tenant_id = :t AND forest_id = :f ORDER BY entity_id",
    "entity_fact": "SELECT ef.entity_id AS entity, ef.fact_id AS fact, ef.session_id AS session FROM entity_facts ef "
    "WHERE ef.tenant_id = :t AND ef.forest_id = :f ORDER BY ef.entity_id, ef.fact_id",
    # A cluster carries its scope: the label and the member facts of its scene tree, in leaf order.
    "scene_cluster": "SELECT c.cluster_id AS id, c.centroid, c.member_count, c.topic_counts, c.last_time, "
    "c.merged_into, tr.label, coalesce((SELECT array_agg(n.leaf_fact_id ORDER BY n.node_id) FROM nodes n "
    "WHERE n.tenant_id = c.tenant_id AND n.tree_id = tr.tree_id AND n.level = 0 AND n.leaf_fact_id IS NOT NULL), "
    "'{}') AS members FROM scene_clusters c LEFT JOIN trees tr ON tr.tenant_id = c.tenant_id "
    "AND tr.forest_id = c.forest_id AND tr.kind = 'scene' AND tr.key = CAST(c.cluster_id AS text) "
    "WHERE c.tenant_id = :t AND c.forest_id = :f ORDER BY c.cluster_id",
    "tree": "SELECT tree_id AS id, kind, key, label, fanout, root_node_id AS root, height, n_leaves, created_at "
    "FROM trees WHERE tenant_id = :t AND forest_id = :f ORDER BY tree_id",
    "node": "SELECT node_id AS id, tree_id AS tree, level, parent_id AS parent, t_start, t_end, seq, n_children, "
    "summary, summary_hash, version, dirty, embedding, embedded_hash, leaf_fact_id AS leaf_fact, "
    "leaf_cell_id AS leaf_cell FROM nodes WHERE tenant_id = :t AND forest_id = :f "
    "ORDER BY tree_id, level DESC, node_id",
    "placement": "SELECT tree_id AS tree, source_kind, source_id, node_id AS node FROM placements "
    "WHERE tenant_id = :t AND forest_id = :f ORDER BY tree_id, source_kind, source_id",
}

_COUNT_TABLES = {
    "session": "sessions",
    "turn": "turns",
    "cell": "cells",
    "fact": "facts",
    "fact_source": "fact_sources",
    "entity": "entities",
    "entity_fact": "entity_facts",
    "scene_cluster": "scene_clusters",
    "tree": "trees",
    "node": "nodes",
    "placement": "placements",
}


def encode_vector(value: Any) -> str | None:
    """A stored vector as base64 of little-endian float32 (None stays None)."""
    if value is None:
        return None
    return base64.b64encode(as_vector(value).astype("<f4").tobytes()).decode("ascii")


def decode_vector(data: str, dim: int) -> np.ndarray[Any, Any]:
    """The inverse of ``encode_vector``; ValueError when it is not ``dim`` float32 values."""
    raw = base64.b64decode(data.encode("ascii"), validate=True)
    if len(raw) != 4 * dim:
        raise ValueError(f"vector has {len(raw) // 4} values, the header says dim {dim}")
    return np.frombuffer(raw, dtype="<f4").astype(np.float32)


def embedding_info(settings: Settings) -> dict[str, Any]:
    """Which embedding space the vectors live in (compared on import)."""
    emb = settings.embedding
    model = f"hashed-ngram-{emb.dim}" if emb.backend == "hashed" else (emb.local_path or emb.model)
    return {"backend": emb.backend, "model": model, "dim": emb.dim, "encoding": VECTOR_ENCODING}


def _settings_block(settings: Settings) -> dict[str, Any]:
    pipe = settings.pipeline
    return {
        "cell_turns": pipe.cell_turns,
        "fanout": {"session": pipe.fanout_session, "entity": pipe.fanout_entity, "scene": pipe.fanout_scene},
        "entity_min_facts": pipe.entity_min_facts,
        "entity_min_sessions": pipe.entity_min_sessions,
        "scene_assign_threshold": pipe.scene_assign_threshold,
        "scene_merge_threshold": pipe.scene_merge_threshold,
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


_VECTOR_FIELDS = {"embedding", "centroid"}


def _record(kind: str, row: dict[str, Any]) -> str:
    out: dict[str, Any] = {"type": kind}
    for key, value in row.items():
        out[key] = encode_vector(value) if key in _VECTOR_FIELDS else _json_value(value)
    return json.dumps(out, ensure_ascii=False, separators=(",", ":")) + "\n"


async def _counts(conn: AsyncConnection, p: dict[str, Any], types: tuple[str, ...]) -> dict[str, int]:
    return {
        kind: int(
            await scalar(conn, f"SELECT count(*) FROM {_COUNT_TABLES[kind]} WHERE tenant_id = :t AND forest_id = :f", p)
        )
        for kind in types
    }


async def export_lines(
    db: Database, settings: Settings, tenant_id: uuid.UUID, forest_name: str, *, with_derived: bool = False
) -> AsyncIterator[str]:
    """Yield the export of forest ``forest_name`` line by line (each ends with a newline).

    NotFoundError (before the first line) when the forest does not exist."""
    async with db.tenant(tenant_id) as conn:
        forest = await get_forest(conn, tenant_id, forest_name)
        await lock_forest(conn, tenant_id, forest.forest_id)  # one consistent state, no edit in between
        p = {"t": tenant_id, "f": forest.forest_id}
        types = PERSISTENT_TYPES + (DERIVED_TYPES if with_derived else ())
        header = {
            "format": FORMAT,
            "version": VERSION,
            "forest": forest.name,
            "exported_at": datetime.now(UTC).isoformat(),
            "embedding": embedding_info(settings),
            "settings": _settings_block(settings),
            "with_derived": with_derived,
            "counts": await _counts(conn, p, types),
        }
        yield json.dumps(header, ensure_ascii=False, separators=(",", ":")) + "\n"
        for kind in types:
            sql = _QUERIES[kind]
            if kind == "fact":
                sql = sql.format(emb=", embedding" if with_derived else "")
            result = await conn.stream(text(sql), p)
            async for row in result.mappings():
                yield _record(kind, dict(row))
