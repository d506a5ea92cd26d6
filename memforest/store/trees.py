"""MemTree rows: find or create the tree of a scope, re-read a tree; and the public names of the tree
writers (leaf insertion lives in :mod:`memforest.store.tree_insert`, the node columns in
:mod:`memforest.store.tree_columns`; the dataclasses they pass around in :mod:`memforest.memtree.model`)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from memforest.domain import TreeKind
from memforest.memtree.model import InsertStats, TreeRef
from memforest.store.sql import Conn, fetch_all, fetch_one
from memforest.store.tree_insert import insert_leaf, insert_leaves

__all__ = [
    "get_or_create_tree",
    "get_or_create_trees",
    "insert_leaf",
    "insert_leaves",
    "load_tree",
]

_TREE_COLUMNS = "tree_id, forest_id, kind, key, label, fanout, root_node_id, height"
_CREATE = f"""
INSERT INTO trees (tenant_id, forest_id, kind, key, label, fanout) VALUES (:t, :f, :k, :key, :l, :fo)
ON CONFLICT (tenant_id, forest_id, kind, key) DO NOTHING RETURNING {_TREE_COLUMNS}
"""
_BY_SCOPE = f"SELECT {_TREE_COLUMNS} FROM trees WHERE tenant_id = :t AND forest_id = :f AND kind = :k AND key = :key"
_BY_ID = f"SELECT {_TREE_COLUMNS} FROM trees WHERE tenant_id = :t AND tree_id = :id"


def _tree_from_row(row: dict[str, Any]) -> TreeRef:
    return TreeRef(
        tree_id=int(row["tree_id"]),
        forest_id=int(row["forest_id"]),
        kind=TreeKind(row["kind"]),
        key=str(row["key"]),
        label=str(row["label"]),
        fanout=int(row["fanout"]),
        root_node_id=row["root_node_id"],
        height=int(row["height"]),
    )


async def get_or_create_tree(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    kind: TreeKind,
    key: str,
    label: str,
    fanout: int,
    stats: InsertStats | None = None,
) -> TreeRef:
    """The tree of scope ``(kind, key)`` in the forest, created (empty) when missing."""
    params = {"t": tenant_id, "f": forest_id, "k": kind.value, "key": key, "l": label, "fo": fanout}
    row = await fetch_one(conn, _CREATE, params)
    if row is not None:
        if stats is not None:
            stats.trees_created += 1
        return _tree_from_row(row)
    row = await fetch_one(conn, _BY_SCOPE, params)
    assert row is not None
    return _tree_from_row(row)


# Every scope in the given order: created (in that order) when missing, else read. The outer SELECT
# sees the trees as they were before the statement, so each scope comes back exactly once.
_CREATE_MANY = f"""
WITH u AS (SELECT * FROM unnest(CAST(:k AS text[]), CAST(:key AS text[]), CAST(:l AS text[]), CAST(:fo AS int[]))
           WITH ORDINALITY AS u(k, key, l, fo, i)),
ins AS (INSERT INTO trees (tenant_id, forest_id, kind, key, label, fanout) SELECT :t, :f, u.k, u.key, u.l, u.fo
        FROM u ORDER BY u.i ON CONFLICT (tenant_id, forest_id, kind, key) DO NOTHING RETURNING {_TREE_COLUMNS})
SELECT true AS created, {_TREE_COLUMNS} FROM ins
UNION ALL
SELECT false, {", ".join("tr." + c for c in _TREE_COLUMNS.split(", "))} FROM trees tr JOIN u
ON tr.kind = u.k AND tr.key = u.key WHERE tr.tenant_id = :t AND tr.forest_id = :f
"""


async def get_or_create_trees(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    scopes: Sequence[tuple[TreeKind, str, str, int]],
    stats: InsertStats | None = None,
) -> list[TreeRef]:
    """:func:`get_or_create_tree` of every distinct ``(kind, key, label, fanout)`` in one statement, the
    missing ones created in the given order; returns the trees in that order."""
    if not scopes:
        return []
    params = {
        "t": tenant_id, "f": forest_id, "k": [s[0].value for s in scopes], "key": [s[1] for s in scopes],
        "l": [s[2] for s in scopes], "fo": [s[3] for s in scopes],
    }  # fmt: skip
    found: dict[tuple[str, str], TreeRef] = {}
    for row in await fetch_all(conn, _CREATE_MANY, params):
        if row["created"] and stats is not None:
            stats.trees_created += 1
        found[(str(row["kind"]), str(row["key"]))] = _tree_from_row(row)
    return [found[(s[0].value, s[1])] for s in scopes]


async def load_tree(conn: Conn, tenant_id: uuid.UUID, tree_id: int) -> TreeRef:
    """Re-read a tree row."""
    row = await fetch_one(conn, _BY_ID, {"t": tenant_id, "id": tree_id})
    assert row is not None, f"tree {tree_id} vanished"
    return _tree_from_row(row)
