"""Named queries of building a forest's trees from its persistent state
(``memforest.lifecycle.treebuild``): what the trees hang (sessions and cells, live facts, activated
entities and their links), the tree rows created in one statement, and the live facts left
without a scene. The caller holds the transaction and the forest lock."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from memforest.domain import TreeKind
from memforest.memtree.model import TreeRef
from memforest.store.sql import Conn, Row, fetch_all, scalar

__all__ = [
    "TreeSpec",
    "activated_entities",
    "create_trees",
    "entity_links",
    "forest_cells",
    "forest_has_trees",
    "forest_sessions",
    "live_facts",
    "unscened_facts",
]

_HAS_TREES = "SELECT 1 FROM trees WHERE tenant_id = :t AND forest_id = :f LIMIT 1"
_SESSIONS = (
    "SELECT session_id, external_id FROM sessions WHERE tenant_id = :t AND forest_id = :f ORDER BY time, session_id"
)
_CELLS = """
SELECT cell_id, session_id, text, t_start, t_end FROM cells WHERE tenant_id = :t AND forest_id = :f
ORDER BY session_id, seq
"""
_LIVE_FACTS = """
SELECT fact_id, text, valid_from, embedding FROM facts WHERE tenant_id = :t AND forest_id = :f
AND retracted_at IS NULL
"""
_ACTIVATED_ENTITIES = """
SELECT entity_id, key, label, is_speaker FROM entities WHERE tenant_id = :t AND forest_id = :f AND activated
ORDER BY entity_id
"""
_ENTITY_LINKS = """
SELECT entity_id, fact_id, session_id FROM entity_facts WHERE tenant_id = :t AND forest_id = :f
ORDER BY entity_id, fact_id
"""
_CREATE_TREES = """
INSERT INTO trees (tenant_id, forest_id, kind, key, label, fanout) SELECT :t, :f, u.k, u.key, u.l, u.fo
FROM unnest(CAST(:k AS text[]), CAST(:key AS text[]), CAST(:l AS text[]), CAST(:fo AS int[]))
WITH ORDINALITY AS u(k, key, l, fo, i) ORDER BY u.i RETURNING tree_id, kind, key, root_node_id, height
"""
# (``NOT IN`` over a hashed subquery: a correlated ``NOT EXISTS`` was planned as a scan of the
# forest's placements per fact right after a rebuild.)
_UNSCENED_FACTS = """
SELECT x.fact_id, x.text, x.valid_from, x.embedding, x.entities, x.topics FROM facts x
WHERE x.tenant_id = :t AND x.forest_id = :f AND x.retracted_at IS NULL AND x.embedding IS NOT NULL
AND x.fact_id NOT IN (SELECT pl.source_id FROM placements pl WHERE pl.tenant_id = :t AND pl.forest_id = :f
AND pl.source_kind = 'fact' AND pl.tree_id IN (SELECT tr.tree_id FROM trees tr WHERE tr.tenant_id = :t
AND tr.forest_id = :f AND tr.kind = 'scene')) ORDER BY x.valid_from, x.fact_id
"""


@dataclass(frozen=True, slots=True)
class TreeSpec:
    """A tree to create: kind, key, label and fan-out."""

    kind: TreeKind
    key: str
    label: str
    fanout: int


async def forest_has_trees(conn: Conn, tenant_id: uuid.UUID, forest_id: int) -> bool:
    """Whether the forest has any tree."""
    return await scalar(conn, _HAS_TREES, {"t": tenant_id, "f": forest_id}) is not None


async def forest_sessions(conn: Conn, tenant_id: uuid.UUID, forest_id: int) -> list[Row]:
    """The forest's sessions (``session_id``, ``external_id``) in time order."""
    return await fetch_all(conn, _SESSIONS, {"t": tenant_id, "f": forest_id})


async def forest_cells(conn: Conn, tenant_id: uuid.UUID, forest_id: int) -> list[Row]:
    """The forest's cells (``cell_id``, ``session_id``, ``text``, ``t_start``, ``t_end``) by session
    and position."""
    return await fetch_all(conn, _CELLS, {"t": tenant_id, "f": forest_id})


async def live_facts(conn: Conn, tenant_id: uuid.UUID, forest_id: int) -> list[Row]:
    """The forest's live facts (``fact_id``, ``text``, ``valid_from``, ``embedding``)."""
    return await fetch_all(conn, _LIVE_FACTS, {"t": tenant_id, "f": forest_id})


async def activated_entities(conn: Conn, tenant_id: uuid.UUID, forest_id: int) -> list[Row]:
    """The forest's activated entities (``entity_id``, ``key``, ``label``, ``is_speaker``) by id."""
    return await fetch_all(conn, _ACTIVATED_ENTITIES, {"t": tenant_id, "f": forest_id})


async def entity_links(conn: Conn, tenant_id: uuid.UUID, forest_id: int) -> list[Row]:
    """Every entity-fact link of the forest (``entity_id``, ``fact_id``, ``session_id``), by entity
    then fact (creation order)."""
    return await fetch_all(conn, _ENTITY_LINKS, {"t": tenant_id, "f": forest_id})


async def create_trees(conn: Conn, tenant_id: uuid.UUID, forest_id: int, specs: Sequence[TreeSpec]) -> list[TreeRef]:
    """Create these (empty) trees in one statement; their TreeRefs in the order given. The forest
    must have no tree of the same kind and key."""
    if not specs:
        return []
    params = {
        "t": tenant_id,
        "f": forest_id,
        "k": [s.kind.value for s in specs],
        "key": [s.key for s in specs],
        "l": [s.label for s in specs],
        "fo": [s.fanout for s in specs],
    }
    by_key = {(str(r["kind"]), str(r["key"])): r for r in await fetch_all(conn, _CREATE_TREES, params)}
    out = []
    for s in specs:
        r = by_key[(s.kind.value, s.key)]
        out.append(
            TreeRef(int(r["tree_id"]), forest_id, s.kind, s.key, s.label, s.fanout, r["root_node_id"], int(r["height"]))
        )
    return out


async def unscened_facts(conn: Conn, tenant_id: uuid.UUID, forest_id: int) -> list[Row]:
    """Live facts with a vector but no scene tree (``fact_id``, ``text``, ``valid_from``,
    ``embedding``, ``entities``, ``topics``) in time order."""
    return await fetch_all(conn, _UNSCENED_FACTS, {"t": tenant_id, "f": forest_id})
