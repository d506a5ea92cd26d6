"""Node rows as the incremental (:mod:`memforest.store.tree_insert`) and the bulk
(:mod:`memforest.store.tree_bulk`) tree writers store them: node ids from the sequence, the one
INSERT INTO nodes statement with its leaf-derived columns, and the one INSERT INTO placements."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np
from pgvector import Vector

from memforest.memtree.model import LeafSpec
from memforest.store.sql import Conn, as_vector, execute, fetch_all

__all__ = ["NodeRow", "PlacementRow", "insert_nodes", "insert_placements", "leaf_columns", "next_node_ids"]

_NEXT_NODE_IDS = "SELECT nextval(pg_get_serial_sequence('nodes', 'node_id')) AS id FROM generate_series(1, :n)"

_INSERT_NODES = """
INSERT INTO nodes (tenant_id, node_id, forest_id, tree_id, level, parent_id, t_start, t_end, seq, n_children,
                   version, dirty, summary, summary_hash, embedding, embedded_hash, leaf_fact_id, leaf_cell_id)
SELECT :t, u.id, u.f, u.tree, u.lvl, u.p, u.ts, u.te, u.seq, u.n, u.ver, u.dirty, u.txt, md5(u.txt), u.emb,
       CASE WHEN u.emb IS NOT NULL THEN md5(u.txt) END, u.fid, u.cid
FROM unnest(CAST(:id AS bigint[]), CAST(:f AS bigint[]), CAST(:tree AS bigint[]), CAST(:lvl AS int[]),
            CAST(:p AS bigint[]), CAST(:ts AS timestamptz[]), CAST(:te AS timestamptz[]), CAST(:seq AS bigint[]),
            CAST(:n AS int[]), CAST(:ver AS int[]), CAST(:dirty AS boolean[]), CAST(:txt AS text[]),
            CAST(:emb AS vector[]), CAST(:fid AS bigint[]), CAST(:cid AS bigint[]))
     AS u(id, f, tree, lvl, p, ts, te, seq, n, ver, dirty, txt, emb, fid, cid)
"""

_INSERT_PLACEMENTS = """
INSERT INTO placements (tenant_id, tree_id, source_kind, source_id, forest_id, node_id)
SELECT :t, u.tree, u.sk, u.sid, u.f, u.n FROM unnest(CAST(:tree AS bigint[]),
CAST(:sk AS text[]), CAST(:sid AS bigint[]), CAST(:f AS bigint[]), CAST(:n AS bigint[]))
AS u(tree, sk, sid, f, n)
"""


@dataclass(frozen=True, slots=True)
class NodeRow:
    """A new node as stored: ``leaf`` given for a leaf (level 0), None for an internal node."""

    node_id: int
    forest_id: int
    tree_id: int
    level: int
    parent_id: int | None
    t_start: datetime
    t_end: datetime
    seq: int
    n_children: int
    version: int
    leaf: LeafSpec | None


@dataclass(frozen=True, slots=True)
class PlacementRow:
    """Where a source (fact or cell) hangs: its leaf node in a tree."""

    tree_id: int
    source_kind: str
    source_id: int
    forest_id: int
    node_id: int


async def next_node_ids(conn: Conn, n: int) -> list[int]:
    """``n`` fresh node ids from the node sequence, ascending."""
    rows = await fetch_all(conn, _NEXT_NODE_IDS, {"n": n})
    return sorted(int(r["id"]) for r in rows)


def _vector(value: Any) -> Vector | None:
    """A leaf embedding as an element of a ``vector[]`` parameter (None stays None)."""
    if value is None:
        return None
    return Vector(np.asarray(as_vector(value), dtype=np.float32))


def leaf_columns(leaves: Sequence[LeafSpec | None]) -> dict[str, list[Any]]:
    """The leaf-derived arrays of the node INSERT (``dirty``, ``txt``, ``emb``, ``fid``, ``cid``) for
    nodes whose leaf is given, None for internal nodes. A leaf without an embedding is dirty, so the
    refresh embeds it."""
    return {
        "dirty": [leaf is None or leaf.embedding is None for leaf in leaves],
        "txt": [None if leaf is None else leaf.text for leaf in leaves],
        "emb": [None if leaf is None else _vector(leaf.embedding) for leaf in leaves],
        "fid": [leaf.source_id if leaf is not None and leaf.source_kind == "fact" else None for leaf in leaves],
        "cid": [leaf.source_id if leaf is not None and leaf.source_kind != "fact" else None for leaf in leaves],
    }


async def insert_nodes(conn: Conn, tenant_id: uuid.UUID, rows: Sequence[NodeRow]) -> None:
    """Store new nodes with one multi-row statement (a leaf's summary is its text, its embedding
    given or left to the refresh)."""
    await execute(
        conn,
        _INSERT_NODES,
        {
            "t": tenant_id,
            "id": [r.node_id for r in rows],
            "f": [r.forest_id for r in rows],
            "tree": [r.tree_id for r in rows],
            "lvl": [r.level for r in rows],
            "p": [r.parent_id for r in rows],
            "ts": [r.t_start for r in rows],
            "te": [r.t_end for r in rows],
            "seq": [r.seq for r in rows],
            "n": [r.n_children for r in rows],
            "ver": [r.version for r in rows],
            **leaf_columns([r.leaf for r in rows]),
        },
    )


async def insert_placements(conn: Conn, tenant_id: uuid.UUID, rows: Sequence[PlacementRow]) -> None:
    """Store placements with one multi-row statement."""
    await execute(
        conn,
        _INSERT_PLACEMENTS,
        {
            "t": tenant_id,
            "tree": [p.tree_id for p in rows],
            "sk": [p.source_kind for p in rows],
            "sid": [p.source_id for p in rows],
            "f": [p.forest_id for p in rows],
            "n": [p.node_id for p in rows],
        },
    )
