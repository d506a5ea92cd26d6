"""Merge step 1: A's rows in session-private temp tables, the tenant switch, and id maps.

A snapshot table ``mm_<table>`` holds the catalogue's own columns of one forest (tenant, forest and
generated columns left out); an id map ``mm_<x>_map (old, new, ...)`` pairs A's ids with B's.
All of it lives until the merge transaction commits (``ON COMMIT DROP``).
"""

from __future__ import annotations

import uuid

from memforest.db.catalogue import TRANSFER_TABLES, spec
from memforest.store.sql import Conn, execute, scalar

__all__ = ["create_map", "forest_name", "new_ids", "sequence_of", "set_tenant", "snapshot_forest"]

_SET_TENANT = "SELECT set_config('memforest.tenant_id', :t, true)"

_FOREST_NAME = "SELECT name FROM forests WHERE tenant_id = :t AND forest_id = :f"

_SEQUENCE = "SELECT pg_get_serial_sequence(:tb, :col)"

_CREATE_SNAPSHOT = {
    s.name: f"CREATE TEMP TABLE mm_{s.name} ON COMMIT DROP AS SELECT {', '.join(s.own)} FROM {s.name} WITH NO DATA"
    for s in TRANSFER_TABLES
}
_FILL_SNAPSHOT = {
    s.name: f"INSERT INTO mm_{s.name} SELECT {', '.join(s.own)} FROM {s.name} WHERE tenant_id = :t AND forest_id = :f"
    for s in TRANSFER_TABLES
}
_SNAPSHOT_KEY = {
    s.name: f"ALTER TABLE mm_{s.name} ADD PRIMARY KEY ({s.id_column})" for s in TRANSFER_TABLES if s.id_column
}
_ANALYZE = {s.name: f"ANALYZE mm_{s.name}" for s in TRANSFER_TABLES}

# Extra columns of each id map next to (old, new).
_MAP_COLUMNS = {
    "mm_session_map": ", external_id text NOT NULL, shared boolean NOT NULL",
    "mm_turn_map": "",
    "mm_cell_map": "",
    "mm_fact_map": ", how text NOT NULL",
    "mm_entity_map": ", matched boolean NOT NULL",
    "mm_cluster_map": ", matched boolean NOT NULL, members bigint NOT NULL",
    "mm_node_map": "",
}
_CREATE_MAP = {
    name: f"CREATE TEMP TABLE {name} (old bigint PRIMARY KEY, new bigint NOT NULL{extra}) ON COMMIT DROP"
    for name, extra in _MAP_COLUMNS.items()
}

# Fresh ids (in A's id order) for every A row the map does not hold yet; ``mark`` fills the map's
# extra column (facts: how they map; entities: not matched).
_NEW_IDS = {
    (table, name): f"INSERT INTO {name} SELECT k, nextval(CAST(:seq AS regclass)){mark} FROM (SELECT x.{key} AS k "
    f"FROM mm_{table} x WHERE NOT EXISTS (SELECT 1 FROM {name} m WHERE m.old = x.{key}) ORDER BY x.{key}) y"
    for table, name, key, mark in (
        ("turns", "mm_turn_map", "turn_id", ""),
        ("cells", "mm_cell_map", "cell_id", ""),
        ("facts", "mm_fact_map", "fact_id", ", 'new'"),
        ("entities", "mm_entity_map", "entity_id", ", false"),
    )
}


async def set_tenant(conn: Conn, tenant_id: uuid.UUID) -> None:
    """Switch the transaction's RLS tenant (transaction-local, like ``Database.tenant`` sets it)."""
    await execute(conn, _SET_TENANT, {"t": str(tenant_id)})


async def forest_name(conn: Conn, tenant_id: uuid.UUID, forest_id: int) -> str | None:
    """The name of a forest, None when it does not exist."""
    name = await scalar(conn, _FOREST_NAME, {"t": tenant_id, "f": forest_id})
    return None if name is None else str(name)


async def sequence_of(conn: Conn, table: str) -> str:
    """The name of the sequence that issues ``table``'s ids."""
    return str(await scalar(conn, _SEQUENCE, {"tb": table, "col": spec(table).id_column}))


async def snapshot_forest(conn: Conn, tenant_id: uuid.UUID, forest_id: int) -> dict[str, int]:
    """Copy a forest's rows into ``mm_<table>`` temp tables (under that forest's tenant context);
    returns the rows per table."""
    counts: dict[str, int] = {}
    p = {"t": tenant_id, "f": forest_id}
    for s in TRANSFER_TABLES:
        await execute(conn, _CREATE_SNAPSHOT[s.name])
        counts[s.name] = await execute(conn, _FILL_SNAPSHOT[s.name], p)
    for statement in _SNAPSHOT_KEY.values():
        await execute(conn, statement)
    for statement in _ANALYZE.values():
        await execute(conn, statement)
    return counts


async def create_map(conn: Conn, name: str) -> None:
    """Create the (empty) id map ``name`` (one of ``mm_session_map``, ``mm_turn_map`` ...)."""
    await execute(conn, _CREATE_MAP[name])


async def new_ids(conn: Conn, table: str, map_name: str) -> int:
    """Give every A row of ``table`` that ``map_name`` does not map yet a fresh id of ``table``."""
    return await execute(conn, _NEW_IDS[(table, map_name)], {"seq": await sequence_of(conn, table)})
