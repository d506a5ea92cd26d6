"""Node columns: the one INSERT INTO nodes statement of the incremental and the bulk tree writers,
and the leaf-derived arrays it takes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from pgvector import Vector

from memforest.store.sql import as_vector
from memforest.store.tree_model import LeafSpec

INSERT_NODES_SQL = """
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


def _vector(value: Any) -> Vector | None:
    """A leaf embedding as an element of a ``vector[]`` parameter (None stays None)."""
    if value is None:
        return None
    return Vector(np.asarray(as_vector(value), dtype=np.float32))


def leaf_columns(leaves: Sequence[LeafSpec | None]) -> dict[str, list[Any]]:
    """The leaf-derived arrays of :data:`INSERT_NODES_SQL` (``dirty``, ``txt``, ``emb``, ``fid``,
    ``cid``) for nodes whose leaf is given, None for internal nodes. A leaf without an embedding
    is dirty, so the refresh embeds it."""
    return {
        "dirty": [leaf is None or leaf.embedding is None for leaf in leaves],
        "txt": [None if leaf is None else leaf.text for leaf in leaves],
        "emb": [None if leaf is None else _vector(leaf.embedding) for leaf in leaves],
        "fid": [leaf.source_id if leaf is not None and leaf.source_kind == "fact" else None for leaf in leaves],
        "cid": [leaf.source_id if leaf is not None and leaf.source_kind != "fact" else None for leaf in leaves],
    }
