"""Import's writes: a hidden staging forest loaded with a file's rows under fresh ids, its vectors
completed, and its removal once merged."""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from memforest.db.catalogue import TRANSFER_TABLES, spec
from memforest.store.sql import Conn, Row, execute, fetch_all, scalar
from memforest.store.transfer.batch import execute_many
from memforest.store.transfer.columns import insert_values

__all__ = [
    "allocate_ids",
    "create_staging_forest",
    "drop_staging_forest",
    "facts_without_vector",
    "finish_vectors",
    "insert_rows",
    "recount_sources",
    "set_fact_links",
    "set_fact_vectors",
]

_CREATE_FOREST = "INSERT INTO forests (tenant_id, name) VALUES (:t, :n) RETURNING forest_id"

_ALLOCATE = "SELECT nextval(CAST(pg_get_serial_sequence(:tb, :col) AS regclass)) AS id FROM generate_series(1, :n)"

# Link tables may meet a row twice (a file is validated, a staging forest is fresh: harmless).
_ON_CONFLICT = {"fact_sources": " ON CONFLICT DO NOTHING", "entity_facts": " ON CONFLICT DO NOTHING"}
_INSERT = {s.name: insert_values(s.name, _ON_CONFLICT.get(s.name, "")) for s in TRANSFER_TABLES}

_SET_LINKS = "UPDATE facts SET supersedes = :s, superseded_by = :b WHERE tenant_id = :t AND fact_id = :id"

_RECOUNT_SOURCES = (
    "UPDATE facts x SET source_count = c.n FROM (SELECT fact_id, count(*) AS n FROM fact_sources "
    "WHERE tenant_id = :t AND forest_id = :f GROUP BY fact_id) c "
    "WHERE x.tenant_id = :t AND x.fact_id = c.fact_id"
)

_DROP_STAGING = "DELETE FROM forests WHERE tenant_id = :t AND forest_id = :f AND name LIKE :prefix"

_FACTS_WITHOUT_VECTOR = (
    "SELECT fact_id, text FROM facts WHERE tenant_id = :t AND forest_id = :f AND embedding IS NULL "
    "AND fact_id > :last ORDER BY fact_id LIMIT :n"
)
_SET_VECTOR = "UPDATE facts SET embedding = :e WHERE tenant_id = :t AND fact_id = :id"

# Fact leaves take their fact's new vector (born clean, as on the write path).
_LEAF_VECTORS = (
    "UPDATE nodes n SET embedding = x.embedding, embedded_hash = n.summary_hash, dirty = false FROM facts x "
    "WHERE n.tenant_id = :t AND n.forest_id = :f AND n.level = 0 AND n.embedding IS NULL "
    "AND x.tenant_id = n.tenant_id AND x.fact_id = n.leaf_fact_id AND x.embedding IS NOT NULL "
    "AND x.text = n.summary"
)
# Unusable (zero) centroids become the normalised sum of their members.
_CENTROIDS = (
    "UPDATE scene_clusters c SET centroid = l2_normalize(m.s) FROM (SELECT tr.key, sum(x.embedding) AS s "
    "FROM placements pl JOIN trees tr ON tr.tenant_id = pl.tenant_id AND tr.tree_id = pl.tree_id "
    "JOIN facts x ON x.tenant_id = pl.tenant_id AND x.fact_id = pl.source_id WHERE pl.tenant_id = :t "
    "AND pl.forest_id = :f AND pl.source_kind = 'fact' AND tr.kind = 'scene' AND x.embedding IS NOT NULL "
    "GROUP BY tr.key) m WHERE c.tenant_id = :t AND c.forest_id = :f AND CAST(c.cluster_id AS text) = m.key "
    "AND vector_norm(c.centroid) = 0"
)


async def create_staging_forest(conn: Conn, tenant_id: uuid.UUID, name: str) -> int:
    """A new forest named ``name``; returns its id."""
    return int(await scalar(conn, _CREATE_FOREST, {"t": tenant_id, "n": name}))


async def allocate_ids(conn: Conn, tenant_id: uuid.UUID, table: str, old_ids: Sequence[int]) -> dict[int, int]:
    """Fresh ids from ``table``'s identity sequence for ``old_ids``, in their order (old -> new)."""
    if not old_ids:
        return {}
    rows = await fetch_all(conn, _ALLOCATE, {"tb": table, "col": spec(table).id_column, "n": len(old_ids)})
    return dict(zip(old_ids, (int(r["id"]) for r in rows), strict=True))


async def insert_rows(conn: Conn, tenant_id: uuid.UUID, table: str, rows: Sequence[Mapping[str, Any]]) -> None:
    """Insert rows keyed by column name (every stored column of ``table``; JSON columns as text, a
    None ``created_at``-like time takes ``now()``). ``tenant_id`` is set on every row."""
    await execute_many(conn, _INSERT[table], [{**r, "tenant_id": tenant_id} for r in rows])


async def set_fact_links(conn: Conn, tenant_id: uuid.UUID, links: Sequence[Mapping[str, int | None]]) -> None:
    """Set ``supersedes`` (``s``) and ``superseded_by`` (``b``) of facts ``id``."""
    await execute_many(conn, _SET_LINKS, [{**link, "t": tenant_id} for link in links])


async def recount_sources(conn: Conn, tenant_id: uuid.UUID, forest_id: int) -> None:
    """Every fact's ``source_count`` from its fact sources."""
    await execute(conn, _RECOUNT_SOURCES, {"t": tenant_id, "f": forest_id})


async def drop_staging_forest(conn: Conn, tenant_id: uuid.UUID, forest_id: int, prefix: str) -> None:
    """Delete a forest and everything in it, only when its name starts with ``prefix``."""
    await execute(conn, _DROP_STAGING, {"t": tenant_id, "f": forest_id, "prefix": prefix + "%"})


async def facts_without_vector(conn: Conn, tenant_id: uuid.UUID, forest_id: int, after: int, limit: int) -> list[Row]:
    """Up to ``limit`` facts (``fact_id, text``) with no vector and an id above ``after``, in id order."""
    return await fetch_all(conn, _FACTS_WITHOUT_VECTOR, {"t": tenant_id, "f": forest_id, "last": after, "n": limit})


async def set_fact_vectors(conn: Conn, tenant_id: uuid.UUID, vectors: Mapping[int, Any]) -> None:
    """Store fact vectors (fact id -> vector)."""
    await execute_many(
        conn,
        _SET_VECTOR,
        [{"e": np.asarray(v, dtype=np.float32), "t": tenant_id, "id": fid} for fid, v in vectors.items()],
    )


async def finish_vectors(conn: Conn, tenant_id: uuid.UUID, forest_id: int) -> int:
    """Fact leaves take their fact's vector; zero centroids become their members' normalised sum.
    Returns the centroids computed."""
    p = {"t": tenant_id, "f": forest_id}
    await execute(conn, _LEAF_VECTORS, p)
    return await execute(conn, _CENTROIDS, p)
