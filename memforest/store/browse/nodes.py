"""Browsing a forest's trees and nodes: trees in creation order, one node with a keyset page of
its children in time order."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from memforest.domain import TreeKind
from memforest.errors import NotFoundError
from memforest.store.browse.paging import Page, check_limit, page_rows, read_cursor, short, sid
from memforest.store.sql import Conn, Row, fetch_all, fetch_one
from memforest.timefmt import iso

_LIST_TREES = (
    "SELECT tree_id, kind, key, label, fanout, root_node_id, height, n_leaves, created_at FROM trees "
    "WHERE {where} ORDER BY tree_id LIMIT :n"
)
_TREES_IN_FOREST = "tenant_id = :t AND forest_id = :f"
_TREES_OF_KIND = "kind = :kind"
_TREES_AFTER_CURSOR = "tree_id > :c"
_NODE_COLS = (
    "n.node_id, n.tree_id, n.level, n.parent_id, n.t_start, n.t_end, n.seq, n.n_children, n.summary, n.dirty, "
    "n.leaf_fact_id, n.leaf_cell_id, fa.text AS fact_text, ce.text AS cell_text"
)
_NODE_JOINS = (
    "LEFT JOIN facts fa ON fa.tenant_id = n.tenant_id AND fa.fact_id = n.leaf_fact_id "
    "LEFT JOIN cells ce ON ce.tenant_id = n.tenant_id AND ce.cell_id = n.leaf_cell_id"
)
_NODE = (
    f"SELECT {_NODE_COLS}, tr.kind AS tree_kind, tr.label AS tree_label FROM nodes n "
    "JOIN trees tr ON tr.tenant_id = n.tenant_id AND tr.tree_id = n.tree_id "
    f"{_NODE_JOINS} WHERE n.tenant_id = :t AND n.forest_id = :f AND n.node_id = :id"
)
_CHILDREN = (
    f"SELECT {_NODE_COLS} FROM nodes n {_NODE_JOINS} WHERE {{where}} ORDER BY n.t_start, n.seq, n.node_id LIMIT :n"
)
_CHILDREN_OF = "n.tenant_id = :t AND n.forest_id = :f AND n.parent_id = :id"
_CHILDREN_AFTER_CURSOR = " AND (n.t_start, n.seq, n.node_id) > (:ct, :cs, :cid)"


def _tree_item(r: Row) -> dict[str, Any]:
    return {
        "id": str(r["tree_id"]),
        "kind": r["kind"],
        "label": r["label"],
        "key": r["key"],
        "root_node_id": sid(r["root_node_id"]),
        "height": int(r["height"]),
        "n_leaves": int(r["n_leaves"]),
        "fanout": int(r["fanout"]),
        "created_at": iso(r["created_at"]),
    }


async def list_trees(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    kind: TreeKind | None = None,
    *,
    cursor: str | None = None,
    limit: int = 50,
) -> Page:
    """Trees of the forest (optionally of one kind) in creation order."""
    p: dict[str, Any] = {"t": tenant_id, "f": forest_id, "n": check_limit(limit) + 1}
    where = [_TREES_IN_FOREST]
    if kind is not None:
        where.append(_TREES_OF_KIND)
        p["kind"] = str(kind)
    if cursor is not None:
        (p["c"],) = read_cursor(cursor, int)
        where.append(_TREES_AFTER_CURSOR)
    rows = await fetch_all(conn, _LIST_TREES.format(where=" AND ".join(where)), p)
    rows, nxt = page_rows(rows, limit, lambda r: (str(r["tree_id"]),))
    return Page([_tree_item(r) for r in rows], nxt)


def _interval(r: Row) -> dict[str, str | None]:
    return {"start": iso(r["t_start"]), "end": iso(r["t_end"])}


def _leaf(r: Row) -> dict[str, Any] | None:
    if r["leaf_fact_id"] is not None:
        return {"kind": "fact", "id": str(r["leaf_fact_id"]), "text": r["fact_text"]}
    if r["leaf_cell_id"] is not None:
        return {"kind": "cell", "id": str(r["leaf_cell_id"]), "text": r["cell_text"]}
    return None


def _child_item(r: Row) -> dict[str, Any]:
    leaf = _leaf(r)
    text = r["summary"] if r["summary"] is not None else (leaf or {}).get("text")
    return {
        "id": str(r["node_id"]),
        "level": int(r["level"]),
        "interval": _interval(r),
        "n_children": int(r["n_children"]),
        "dirty": bool(r["dirty"]),
        "text": short(text),
        "leaf": {"kind": leaf["kind"], "id": leaf["id"]} if leaf else None,
    }


async def get_node(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    node_id: int,
    *,
    cursor: str | None = None,
    limit: int = 50,
) -> dict[str, Any]:
    """One node with a page of its children in time order; NotFoundError when absent."""
    p: dict[str, Any] = {"t": tenant_id, "f": forest_id, "id": node_id, "n": check_limit(limit) + 1}
    row = await fetch_one(conn, _NODE, p)
    if row is None:
        raise NotFoundError("no such node")
    where = _CHILDREN_OF
    if cursor is not None:
        p["ct"], p["cs"], p["cid"] = read_cursor(cursor, datetime, int, int)
        where += _CHILDREN_AFTER_CURSOR
    children = await fetch_all(conn, _CHILDREN.format(where=where), p)
    children, nxt = page_rows(children, limit, lambda c: (c["t_start"].isoformat(), str(c["seq"]), str(c["node_id"])))
    return {
        "id": str(row["node_id"]),
        "tree": {"id": str(row["tree_id"]), "kind": row["tree_kind"], "label": row["tree_label"]},
        "level": int(row["level"]),
        "interval": _interval(row),
        "parent_id": sid(row["parent_id"]),
        "dirty": bool(row["dirty"]),
        "n_children": int(row["n_children"]),
        "summary": row["summary"] if row["level"] > 0 else None,
        "leaf": _leaf(row),
        "children": [_child_item(c) for c in children],
        "children_next_cursor": nxt,
    }
