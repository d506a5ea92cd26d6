"""The export's reads: one query per record type over one forest, ordered so that references point
backwards, with the catalogue's columns under the file's field names."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

from sqlalchemy import text

from memforest.db.catalogue import TRANSFER_TABLES, spec_for_record
from memforest.store.sql import Conn, Row, scalar, writer
from memforest.store.transfer.columns import select_fields

__all__ = ["count_records", "stream_records"]

_SCOPE = "WHERE tenant_id = :t AND forest_id = :f"

# record type -> ORDER BY of its query (parents first, then file order inside a parent)
_ORDER_BY = {
    "session": "session_id",
    "turn": "session_id, seq",
    "cell": "session_id, seq",
    "fact": "fact_id",
    "fact_source": "fact_id, turn_id",
    "entity": "entity_id",
    "entity_fact": "entity_id, fact_id",
    "tree": "tree_id",
    "node": "tree_id, level DESC, node_id",
    "placement": "tree_id, source_kind, source_id",
}


def _plain(record: str, with_derived: bool) -> str:
    s = spec_for_record(record)
    fields = select_fields(s.name, s.exported(with_derived))
    return f"SELECT {fields} FROM {s.name} {_SCOPE} ORDER BY {_ORDER_BY[record]}"


def _scene_clusters(with_derived: bool) -> str:
    # A cluster carries its scope: the label and the member facts of its scene tree, in leaf order.
    s = spec_for_record("scene_cluster")
    return (
        f"SELECT {select_fields(s.name, s.exported(with_derived), 'c')}, tr.label, coalesce((SELECT "
        "array_agg(n.leaf_fact_id ORDER BY n.node_id) FROM nodes n WHERE n.tenant_id = c.tenant_id "
        "AND n.tree_id = tr.tree_id AND n.level = 0 AND n.leaf_fact_id IS NOT NULL), '{}') AS members "
        "FROM scene_clusters c LEFT JOIN trees tr ON tr.tenant_id = c.tenant_id AND tr.forest_id = c.forest_id "
        "AND tr.kind = 'scene' AND tr.key = CAST(c.cluster_id AS text) "
        "WHERE c.tenant_id = :t AND c.forest_id = :f ORDER BY c.cluster_id"
    )


# (record type, with derived artifacts) -> query
_QUERIES: dict[tuple[str, bool], str] = {
    (s.record, derived): _scene_clusters(derived) if s.record == "scene_cluster" else _plain(s.record, derived)
    for s in TRANSFER_TABLES
    for derived in (False, True)
}

_COUNTS = {s.record: f"SELECT count(*) FROM {s.name} {_SCOPE}" for s in TRANSFER_TABLES}


async def count_records(conn: Conn, tenant_id: uuid.UUID, forest_id: int, records: tuple[str, ...]) -> dict[str, int]:
    """The number of rows of each record type in a forest."""
    p = {"t": tenant_id, "f": forest_id}
    return {record: int(await scalar(conn, _COUNTS[record], p)) for record in records}


async def stream_records(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, record: str, *, with_derived: bool
) -> AsyncIterator[Row]:
    """The rows of one record type of a forest, streamed through a server-side cursor."""
    result = await writer(conn).stream(text(_QUERIES[(record, with_derived)]), {"t": tenant_id, "f": forest_id})
    async for row in result.mappings():
        yield dict(row)
