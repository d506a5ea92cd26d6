"""Evidence assembly reads: the facts and cells the read path proposed, with their similarity to
the query and the scoring trees that hold them (one statement for all candidates), then the
provenance (session and client turn ids) and tree labels of the few items that may be kept (one
statement).

Provenance is read for the best ranked items only (twice as many as are kept, so that cells
echoing a fact above them can be left out: ``retrieval.echoes``): ranking never looks at it, and a
few hundred candidates each have their own sources (ADR 0022). The statements are named in
``memforest/store/queries/evidence.sql`` (ADR 0037).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from memforest.store import queries
from memforest.store.recall import Vec
from memforest.store.sql import Conn, RowView, fetch_rows

_Q = queries.load("evidence")
# every tree of every candidate (a scoped query filters on their kinds)
_CANDIDATES = _Q["candidates_every_tree"]
# the scoring trees of every candidate only, and its first tree
_CANDIDATES_IN_TREES = _Q["candidates_in_scoring_trees"]
_PROVENANCE = _Q["provenance"]


async def candidates_with_sim(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    fact_ids: Sequence[int],
    cell_ids: Sequence[int],
    q: Vec,
    scoring_trees: Sequence[int] | None = None,
) -> list[RowView]:
    """The given facts and cells with their cosine to ``q`` (0 without a vector; a cell's is its
    leaf node's) and their trees, in one statement: ``kind`` (``fact`` | ``cell``), ``id, text,
    t_start, t_end`` (a fact's validity interval, a cell's time span)``, time_text, superseded_by,
    recorded_at, retracted_at`` (NULL for cells)``, session_ext`` (a cell's session external id;
    NULL for facts)``, sim, trees, in_trees, first_tree``. Without ``scoring_trees``, ``trees``
    holds every tree of the item as ``(tree_id, kind, label)`` records in no particular order (see
    :func:`tree_triples`), the other two NULL; with them, ``trees`` is NULL, ``in_trees`` the ids of
    those of ``scoring_trees`` that hold the item (NULL for none) and ``first_tree`` the smallest id
    of every tree holding it. Facts come first; order within a kind is unspecified."""
    p = {"t": tenant_id, "f": forest_id, "fids": list(fact_ids), "cids": list(cell_ids), "q": q}
    if scoring_trees is None:
        return await fetch_rows(conn, _CANDIDATES, p)
    return await fetch_rows(conn, _CANDIDATES_IN_TREES, p | {"rt": list(scoring_trees)})


async def provenance(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    fact_ids: Sequence[int],
    cell_ids: Sequence[int],
    tree_ids: Sequence[int] = (),
    follow: tuple[str, int] | None = None,
) -> list[RowView]:
    """The sources of the given facts, the turns of the given cells, the names of the given trees
    and the cell that follows the fact or cell ``follow`` ``(kind, id)``, in one statement: ``kind,
    id, turns`` (``[session external id, client turn id]`` pairs; a fact's oldest session first, a
    cell's in turn order)``, times`` (a fact's session time per pair; NULL for cells)``, tree,
    text`` (NULL)``, roles`` (a cell's turns' roles in turn order, '' for none; NULL for facts);
    for each tree a row ``tree, id, NULL, NULL, kind:label, NULL, NULL``; and at most one row
    ``next, cell id, turns, [t_start, t_end], kind:label`` (of the smallest id of its trees)``,
    text, NULL`` for the cell after the one holding the latest turn ``follow`` cites, in that
    turn's session. A fact or cell with no sources or turns has no row."""
    p = {"t": tenant_id, "f": forest_id, "fids": list(fact_ids), "cids": list(cell_ids), "tids": list(tree_ids)}
    kind, nid = follow if follow is not None else (None, None)
    return await fetch_rows(conn, _PROVENANCE, p | {"nkind": kind, "nid": nid})


def tree_triples(value: Sequence[tuple[int, str, str]] | None) -> list[tuple[int, str, str]]:
    """A ``trees`` column as a list of ``(tree_id, kind, label)`` tuples (the driver decodes the
    records as such)."""
    return list(value or ())
