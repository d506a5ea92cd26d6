"""Forest recall: the forest by name with whether it has its own indexes (and the HNSW knobs set
in the same statement; a process that knows the name skips this round trip: ADR 0024, session 17),
then every candidate channel of the read path in ONE statement, or its two parts (``vector``:
roots, facts, cells, labels, and the forest's own row as it is now; ``lexical``: full text) as two
statements, which the read path runs at the same time in two transactions (the query's own and
one of the side pool: ADR 0024, session 10).

Channels (each bounded by its own LIMIT, none reads the whole forest):

- ``root``: the top root nodes by cosine. Roots are the nodes without a parent; the partial
  indexes ``ix_nodes_roots`` (b-tree on tenant, forest) and ``ix_nodes_root_embedding`` (HNSW) hold
  only them, so an exact scan reads the forest's roots alone and a large forest orders by the index;
- ``fact`` / ``cell``: nearest facts and cell leaves (``memforest.store.recall`` templates), each
  with the trees that hold it (placements);
- ``lexical_fact`` / ``lexical_node``: full-text matches of facts and of cell leaves (not internal
  nodes, whose summaries gather their leaves' words: migration 0016) ranked by ``ts_rank``: every
  match of a forest without its own indexes (small, or waiting for them to be built); in one with them,
  a capped candidate set: first the rows matching every term of a question of three or more (up to
  ``cap``; when there are ``nl`` of them, the channel's own count, nothing else is read: migration
  0023, ADR 0033), then rows matching at least two of its terms (up to ``cap``), then rows matching
  any term (up to ``cap``, only while the two did not fill it), so the ranking costs at most ``2 * cap``
  rows whatever the forest's size;
- ``label``: entity trees whose label is a word of the question: their key (``rules.entity_key`` of
  the label) through the trees' unique key, a lookup the tenant's policy allows (``lower(label)``,
  not leakproof, filtered every entity tree of the forest: ADR 0029);
- ``tree``: the tree rows (kind, label, root, height) of every tree named above (no root summary:
  only ``llm`` mode reads one, for its few top trees, in a statement of its own).
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from types import MappingProxyType
from typing import Any, Literal

from memforest.db.engine import CUSTOM_PLANS_AGAIN, GENERIC_PLANS, GENERIC_PLANS_NEXT
from memforest.domain import Forest
from memforest.errors import NotFoundError
from memforest.store.forest_indexes import INDEXED_SQL, indexed_sql
from memforest.store.recall import (
    NEAREST_CELLS_EXACT,
    NEAREST_CELLS_HNSW,
    NEAREST_FACTS_EXACT,
    NEAREST_FACTS_HNSW,
    TIE_MARGIN,
    Vec,
    cell_leaves_sql,
    fact_visibility,
    node_graph_order,
    node_visibility,
)
from memforest.store.sql import Conn, RowView, fetch_one, fetch_rows

# the knobs of an HNSW scan, set for the rest of the transaction (harmless for exact scans), as a
# column of a statement that runs anyway
_ITERATIVE_SCAN = "relaxed_order"
_KNOBS = (
    "0 * length(set_config('hnsw.ef_search', :ef, true)) "
    f"+ 0 * length(set_config('hnsw.iterative_scan', '{_ITERATIVE_SCAN}', true)) AS knobs"
)
# whether the forest has its own indexes (ADR 0024), and the knobs. No count of the forest's facts:
# the catalogue decides, and a capped count by forest was planned as a full scan of the forest's
# own GIN index when it had one (60 ms at 100K facts)
_INDEXED_AND_KNOBS = f"SELECT {_KNOBS}, {INDEXED_SQL} AS indexed"
# the read path's first statement: the forest by name, the time of its latest session, whether it
# has its own indexes, and the HNSW knobs (one round trip instead of two)
_FOREST_FOR_RECALL = (
    "SELECT f.forest_id, (SELECT max(s.time) FROM sessions s WHERE s.tenant_id = :t AND s.forest_id = f.forest_id) "
    f"AS latest, {indexed_sql('f.forest_id')} AS indexed, {_KNOBS} "
    "FROM forests f WHERE f.tenant_id = :t AND f.name = :n"
)

# The top roots ``c`` (node, tree, distance: every root of the forest when scanned exactly, the
# :nrg nearest by its HNSW index otherwise: ``ChannelLimits.roots_read``), each kept when its
# node's ``tree_id`` names a tree of the asked kinds rooted at it, looked up by the trees' primary
# key per root (LATERAL ... LIMIT 1): a join let the planner hash a sequential scan of ALL the
# tenant's trees (7,590 rows, 1.5 ms, for 70 roots of a 1K-fact forest among 100; 12K rows for 100
# probes at 100K)
_ROOTS = (
    "SELECT c.tree_id, 1 - c.d AS s FROM (SELECT x.node_id, x.tree_id, x.embedding <=> :q AS d FROM nodes x "
    "WHERE x.tenant_id = :t AND x.forest_id = :f AND x.parent_id IS NULL {top}) c CROSS JOIN LATERAL "
    "(SELECT 1 FROM trees tr WHERE tr.tenant_id = :t AND tr.tree_id = c.tree_id "
    "AND tr.root_node_id = c.node_id AND tr.kind = ANY(:kinds) LIMIT 1) z ORDER BY c.d, c.tree_id LIMIT :nr"
)
_ROOTS_EXACT = _ROOTS.format(top="AND x.embedding IS NOT NULL OFFSET 0")
_ROOTS_HNSW = _ROOTS.format(top="ORDER BY {order} LIMIT :nrg")  # the forest's root graph (node_graph_order)
_TREES_OF = (
    "(SELECT array_agg(p.tree_id ORDER BY p.tree_id) FROM placements p WHERE p.tenant_id = :t "
    "AND p.source_kind = '{kind}' AND p.source_id = {col} AND p.forest_id = :f)"
)
# Full-text candidates, ranked by ``ts_rank`` (normalised by document length; ``ts_rank_cd``, the
# cover density, cost ~5 us a row, 1.5 ms for 300 candidates, ts_rank ~0.3 us: ADR 0024, session 9).
# A forest without its own indexes is read here: its rows through the (tenant, forest) b-tree, the
# policy applying, ``@@`` a filter on each, every match ranked (the forest is small, or large and
# waiting for its indexes: then the scan reads it all either way, as migration 0013's did). Its cell
# leaves are written ``level = 0 AND leaf_cell_id IS NOT NULL`` (the same rows: ``ck_nodes_leaf``),
# the predicate of ``ix_nodes_cell_leaves`` on (tenant, forest): with ``leaf_cell_id`` alone the
# scan read the forest's internal nodes too (``ix_nodes_seek``), or, on a generic plan over tables
# of few rows, every cell leaf of the tenant (``ix_nodes_leaf_cell`` on (tenant, cell); session 28).
# A forest with its own GIN indexes calls ``memforest_fact_text_candidates`` /
# ``memforest_node_text_candidates`` (migration 0014; ADRs 0022, 0024): under row-level security the
# planner may not use ``@@`` (not leakproof) as an index condition, so a plain query evaluated it
# on every row of the forest; the functions run as the owner with the policy's tenant filter written
# out and read the forest's GIN index: rows matching every term first (:tsq3, a question of three
# terms or more; up to :cap, and only those when there are :nl of them: an AND is the one query
# shape a GIN scan answers without walking every posting list to its end, migration 0023, ADR
# 0033), then rows matching >= 2 terms (up to :cap), then rows matching any term (up to :cap)
# while the former did not fill :cap.
# The question's tsquery as an InitPlan, computed once per execution (each place it is written: up
# to four a statement): a generic plan (the full-text channels read beside a query:
# ``LEXICAL_BESIDE_KNOBS``; a forest read before without a side pool) cannot fold
# ``to_tsquery('english', $1)`` into a constant and parsed it again for every row it tested and
# ranked (~4 ms more at 1K facts). A custom plan pays ~0.1-0.2 ms for the InitPlans.
_TSQ = "(SELECT to_tsquery('english', :tsq))"
_RANK = "ts_rank({m}.tsv, " + _TSQ + ", 1)"
_LEXICAL_FACTS_SCAN = (
    f"SELECT x.fact_id, {_RANK.format(m='x')} AS s FROM facts x WHERE x.tenant_id = :t AND x.forest_id = :f "
    f"AND x.tsv @@ {_TSQ} AND {{visible}} ORDER BY s DESC, x.fact_id LIMIT :nl"
)
_LEXICAL_NODES_SCAN = (
    f"SELECT x.node_id, x.tree_id, x.leaf_cell_id, {_RANK.format(m='x')} AS s FROM nodes x WHERE x.tenant_id = :t "
    f"AND x.forest_id = :f AND x.level = 0 AND x.leaf_cell_id IS NOT NULL AND x.tsv @@ {_TSQ} {{node_as_of}} "
    "ORDER BY s DESC, x.node_id LIMIT :nl"
)
_LEXICAL_INDEXED = (
    f"SELECT m.{{key}}{{cols}}, {_RANK.format(m='m')} AS s FROM {{fn}}(:f, to_tsquery('english', :tsq), "
    "to_tsquery('english', :tsq2), to_tsquery('english', :tsq3), :nl, :cap, CAST(:as_of AS timestamptz)) m "
    "ORDER BY s DESC, m.{key} LIMIT :nl"
)
# a question of this many terms or more asks the candidate functions for its rows matching every
# term first (with two, the pairs are that query)
ALL_TERMS_FROM = 3
_LEXICAL_FACTS_INDEXED = _LEXICAL_INDEXED.format(key="fact_id", cols="", fn="memforest_fact_text_candidates")
_LEXICAL_NODES_INDEXED = _LEXICAL_INDEXED.format(
    key="node_id", cols=", m.tree_id, m.leaf_cell_id", fn="memforest_node_text_candidates"
)
# The channels come in two parts, each a statement on its own or both in one (``channels_sql``):
# ``vector`` (roots, facts, cells by cosine; entity labels) and ``lexical`` (full text). Each part
# is CTEs, the trees they name (``ids``) and its result rows; the ``tree`` rows of every tree named
# close the statement. ``_HEADER`` gives the result its column names and types (no rows).
_HEADER = (
    "SELECT NULL::text AS ch, NULL::bigint AS id, NULL::float8 AS s, NULL::bigint[] AS trees, "
    "NULL::bigint AS cell, NULL::text AS kind, NULL::text AS label, NULL::bigint AS root, NULL::int AS height "
    "WHERE false"
)
_VECTOR_CTES = (
    "rt AS MATERIALIZED ({roots}), fh AS MATERIALIZED ({facts}), ch AS MATERIALIZED ({cells}), "
    "lab AS MATERIALIZED (SELECT tree_id, n_leaves FROM trees WHERE tenant_id = :t AND forest_id = :f "
    "AND kind = 'entity' AND key = ANY(:names)), "
    "fx AS MATERIALIZED (SELECT fact_id, sim, {fact_trees} AS trees FROM fh), "
    "cx AS MATERIALIZED (SELECT leaf_cell_id, sim, {cell_trees} AS trees FROM ch)"
)
_VECTOR_IDS = (
    "SELECT tree_id FROM rt UNION SELECT unnest(trees) FROM fx UNION SELECT unnest(trees) FROM cx "
    "UNION SELECT tree_id FROM lab"
)
# The forest the vector channels read, as it is now (a caller that took its id from a cache learns
# whether the name still means it): id, name (``label``), whether it has its own indexes (``kind``)
# and its latest session's time in microseconds since the epoch (``root``); no row once it is gone.
# Its name column also hands the rest of the transaction back to plans made for their parameters,
# with sequential scans allowed (``CUSTOM_PLANS_AGAIN``, an empty string), whatever
# :func:`recall_knobs` opened the transaction with; without the row (the forest is gone), the
# caller does (:func:`plans_as_usual`). In the one-statement form the full-text channels' functions
# (a forest with its own indexes) come after this row, so they too plan their statements for their
# parameters; a forest read exactly scans its full text inline, planned with the rest of the
# statement (generic, for a forest read before: through its (tenant, forest) b-trees with ``@@`` a
# filter, as its custom plan does; ADR 0022, session 26). A caller whose next statements read by
# key only (the ``emb`` beam descent, assembly) asks for ``GENERIC_PLANS_NEXT`` instead
# (``generic_next``; the vector part alone): their plans are then made once per connection and the
# descent is not planned on every query (~0.4 ms at 1K and at 100K facts; ADR 0022, session 24).
_FOREST_ROW = (
    f"SELECT 'forest', f.forest_id, NULL, NULL, NULL, CASE WHEN {indexed_sql('f.forest_id')} THEN 'indexed' "
    "ELSE 'exact' END, f.name || {plans_next}, "
    "(SELECT CAST(extract(epoch FROM max(s.time)) * 1000000 AS bigint) "
    "FROM sessions s WHERE s.tenant_id = :t AND s.forest_id = f.forest_id), NULL "
    "FROM forests f WHERE f.tenant_id = :t AND f.forest_id = :f"
)
_VECTOR_ROWS = (
    "SELECT 'root', tree_id, s, NULL, NULL, NULL, NULL, NULL, NULL FROM rt "
    "UNION ALL SELECT 'fact', fact_id, sim, trees, NULL, NULL, NULL, NULL, NULL FROM fx "
    "UNION ALL SELECT 'cell', leaf_cell_id, sim, trees, NULL, NULL, NULL, NULL, NULL FROM cx "
    "UNION ALL SELECT 'label', tree_id, n_leaves, NULL, NULL, NULL, NULL, NULL, NULL FROM lab "
    f"UNION ALL {_FOREST_ROW}"
)
_LEXICAL_CTES = (
    "lf AS MATERIALIZED ({lex_facts}), ln AS MATERIALIZED ({lex_nodes}), "
    "lx AS MATERIALIZED (SELECT fact_id, s, {lex_trees} AS trees FROM lf)"
)
_LEXICAL_IDS = "SELECT unnest(trees) FROM lx UNION SELECT tree_id FROM ln"
_LEXICAL_ROWS = (
    "SELECT 'lexical_fact', fact_id, s, trees, NULL, NULL, NULL, NULL, NULL FROM lx "
    "UNION ALL SELECT 'lexical_node', node_id, s, ARRAY[tree_id], leaf_cell_id, NULL, NULL, NULL, NULL FROM ln"
)
# The named trees are probed by primary key: written ``IN (SELECT tree_id FROM ids)``, the planner
# hash-joined them to a scan of every tree of the forest (0.8 ms at 5,000 trees; ADR 0024, session 12).
_TREE_ROWS = (
    "SELECT 'tree', t.tree_id, NULL, NULL, NULL, t.kind, t.label, t.root_node_id, t.height "
    "FROM trees t WHERE t.tenant_id = :t AND t.forest_id = :f AND t.kind = ANY(:kinds) AND t.root_node_id IS NOT NULL "
    "AND t.tree_id = ANY(ARRAY(SELECT tree_id FROM ids))"
)
_PARTS = {"vector": (_VECTOR_CTES, _VECTOR_IDS, _VECTOR_ROWS), "lexical": (_LEXICAL_CTES, _LEXICAL_IDS, _LEXICAL_ROWS)}
ChannelPart = Literal["vector", "lexical"]
PARTS: tuple[ChannelPart, ...] = ("vector", "lexical")


@dataclass(frozen=True, slots=True)
class ChannelLimits:
    """Rows per channel: roots, facts, cells, lexical results, and the lexical candidate cap; and
    ``roots_read``, the root nodes a forest's root graph hands over before their trees are checked
    (kind, still its root), of which the first ``roots`` that pass are kept."""

    roots: int
    facts: int
    cells: int
    lexical: int
    lexical_cap: int
    roots_read: int


def roots_read(roots: int, *, scoped: bool) -> int:
    """The root nodes to read from a forest's root graph for ``roots`` kept: the margin of the
    facts' and cells' channels past them (``TIE_MARGIN``: ties, and the graph's half-precision
    order, which the kept rows' full-precision distances correct) when every tree kind is asked
    (every root's tree passes), twice as many for a query scoped to some kinds (roots of the others
    drop out after the graph). Reading twice as many unscoped too cost ~0.5 ms of the vector
    channels' ~10 ms at 100K facts (ADR 0033)."""
    return 2 * roots if scoped else roots + TIE_MARGIN


async def indexed_and_knobs(conn: Conn, forest_id: int, ef_search: int) -> bool:
    """Whether the forest has every one of its own indexes, valid (ADR 0024); sets the
    transaction's HNSW knobs too (one round trip)."""
    row = await fetch_one(conn, _INDEXED_AND_KNOBS, {"f": forest_id, "ef": str(ef_search)})
    assert row is not None  # a SELECT without FROM returns one row
    return bool(row["indexed"])


@dataclass(frozen=True, slots=True)
class RecallForest:
    """The forest a query reads: its row, its latest session's time (None without sessions) and
    whether it has its own indexes (ADR 0024)."""

    forest: Forest
    latest: datetime | None
    indexed: bool


# A forest with its own indexes: the vector channels' statement, planned once per connection
# (session 22). Its custom plan took ~0.7-0.8 ms of planning on every query at 100K facts (the
# statement's execution ~6.7 ms); a generic plan is made at the prepared statement's first run and
# kept. The statement names the forest by a literal (:func:`channels_sql`), so the generic plan
# can prove the forest's partial indexes apply, and sequential scans are off while it is planned
# (a plan made for any LIMIT must not prefer reading the forest). Its forest row turns both back
# (``CUSTOM_PLANS_AGAIN``) for whatever the transaction runs next. A forest read exactly runs it
# on a generic plan too (one plan per connection for every such forest: their statement names the
# forest by its parameter): paired A/Bs at 1K facts of 1,000 forests, -0.3 to -0.6 ms a query
# (ADR 0022, session 26; session 22 had measured it slower).


def recall_knobs(ef_search: int, *, planned_once: bool = False) -> dict[str, str]:
    """The settings of a read path's transaction (``Database.tenant(knobs=...)``): its HNSW scans'
    candidate list, and iterative scans that go on past it when filters drop rows. ``planned_once``
    (a forest the process has read before): its vector channels' statement runs on the plan its
    connection made the first time (``GENERIC_PLANS``), until that statement turns it back."""
    knobs = {"hnsw.ef_search": str(ef_search), "hnsw.iterative_scan": _ITERATIVE_SCAN}
    return knobs | GENERIC_PLANS if planned_once else knobs


# The transaction of the side pool that reads the full-text channels beside a query (ADR 0024,
# session 10) plans generically, once per connection: its statement reads a forest without its
# own indexes through the forest's b-trees (what its custom plan chose too) and one with them
# through the functions of migration 0014, and planning it took ~1 ms of every query (as long as
# its execution at 1K facts). Paired A/B, 180 queries each (ADR 0022, session 28): -0.34 ms a query
# at 1K facts of 1,000 forests, -0.19 and -0.14 ms at 10K and 100K.
LEXICAL_BESIDE_KNOBS: Mapping[str, str] = MappingProxyType(dict(GENERIC_PLANS))


async def plans_as_usual(conn: Conn) -> None:
    """Hand a transaction opened with ``recall_knobs(planned_once=True)`` back to custom plans with
    sequential scans allowed, when its vector channels' statement found no forest row to do it."""
    await fetch_one(conn, f"SELECT {CUSTOM_PLANS_AGAIN} AS reset")


def forest_of_rows(tenant_id: uuid.UUID, rows: Sequence[RowView]) -> RecallForest | None:
    """The forest of a vector channels' statement (its ``forest`` row): None when the forest it
    was asked about no longer exists."""
    for r in rows:
        if r["ch"] == "forest":
            micros = r["root"]
            latest = None if micros is None else _EPOCH + timedelta(microseconds=int(micros))
            forest = Forest(tenant_id=tenant_id, forest_id=int(r["id"]), name=str(r["label"]))
            return RecallForest(forest=forest, latest=latest, indexed=r["kind"] == "indexed")
    return None


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


async def forest_for_recall(conn: Conn, tenant_id: uuid.UUID, name: str, ef_search: int) -> RecallForest:
    """The forest ``name`` of the tenant for a query (NotFoundError if none), with the
    transaction's HNSW knobs set, in one round trip."""
    row = await fetch_one(conn, _FOREST_FOR_RECALL, {"t": tenant_id, "n": name, "ef": str(ef_search)})
    if row is None:
        raise NotFoundError(f"no forest named {name!r}")
    forest = Forest(tenant_id=tenant_id, forest_id=int(row["forest_id"]), name=name)
    return RecallForest(forest=forest, latest=row["latest"], indexed=bool(row["indexed"]))


# ``:f``, the forest's parameter (not the ``::float8`` of a cast)
_FOREST_PARAM = re.compile(r"(?<![:\w\\]):f(?![:\w])")  # (as SQLAlchemy finds a bind)


def channels_sql(
    exact: bool,
    as_of: datetime | None,
    *,
    scan_text: bool,
    parts: Sequence[ChannelPart] = PARTS,
    dim: int = 0,
    forest_id: int | None = None,
    generic_next: bool = False,
) -> str:
    """The statement of the recall channels of ``parts`` (both: every channel in one statement), for
    an exact or HNSW forest (whose node graphs are read for vectors of ``dim``); full-text
    candidates from the forest's rows (``scan_text``) or its GIN indexes. ``forest_id``: the forest
    written into the statement instead of its ``:f`` parameter (a generic plan of it can then use
    the forest's own partial indexes: ``recall_knobs``). ``generic_next`` (the vector part alone):
    its forest row switches the rest of the transaction to generic plans, not back to custom ones."""
    visible = fact_visibility(as_of)
    order = node_graph_order(dim)
    facts = (NEAREST_FACTS_EXACT if exact else NEAREST_FACTS_HNSW).format(visible=visible, lim=":nf")
    cells_of = NEAREST_CELLS_EXACT if exact else NEAREST_CELLS_HNSW
    cells = cells_of.format(leaves=cell_leaves_sql(as_of), lim=":nc", order=order)
    if scan_text:
        lex_facts = _LEXICAL_FACTS_SCAN.format(visible=visible)
        lex_nodes = _LEXICAL_NODES_SCAN.format(node_as_of=node_visibility(as_of))
    else:
        lex_facts, lex_nodes = _LEXICAL_FACTS_INDEXED, _LEXICAL_NODES_INDEXED
    pieces = {
        "roots": _ROOTS_EXACT if exact else _ROOTS_HNSW.format(order=order),
        "facts": facts,
        "cells": cells,
        "lex_facts": lex_facts,
        "lex_nodes": lex_nodes,
        "fact_trees": _TREES_OF.format(kind="fact", col="fh.fact_id"),
        "cell_trees": _TREES_OF.format(kind="cell", col="ch.leaf_cell_id"),
        "lex_trees": _TREES_OF.format(kind="fact", col="lf.fact_id"),
    }
    chosen = [_PARTS[p] for p in PARTS if p in parts]
    if not chosen:
        raise ValueError("channels_sql needs at least one part")
    if not exact and "vector" in parts and dim < 1:
        raise ValueError("the vector channels of an indexed forest need the vectors' dimension")
    if generic_next and tuple(parts) != ("vector",):
        raise ValueError("only the vector part alone may hand the transaction to generic plans")
    ctes = ", ".join(ctes.format(**pieces) for ctes, _, _ in chosen)
    ids = " UNION ".join(part_ids for _, part_ids, _ in chosen)
    rows = " UNION ALL ".join(part_rows for _, _, part_rows in chosen)
    sql = f"WITH {ctes}, ids(tree_id) AS ({ids}) {_HEADER} UNION ALL {rows} UNION ALL {_TREE_ROWS}"
    sql = sql.replace("{plans_next}", GENERIC_PLANS_NEXT if generic_next else CUSTOM_PLANS_AGAIN)
    return sql if forest_id is None else _FOREST_PARAM.sub(str(int(forest_id)), sql)


async def recall_channels(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    q: Vec | None,
    terms: Sequence[str],
    kinds: Sequence[str],
    names: Sequence[str],
    limits: ChannelLimits,
    *,
    exact: bool,
    scan_text: bool,
    as_of: datetime | None,
    parts: Sequence[ChannelPart] = PARTS,
    generic_next: bool = False,
) -> list[RowView]:
    """The rows of the channels of ``parts`` (default: every channel): ``ch, id, s, trees, cell,
    kind, label, root, height`` (see the module docstring), with the ``tree`` rows of the trees
    they name; rows of one channel come in no particular order. ``scan_text`` (a forest without its
    own indexes) finds full-text candidates by reading the forest's rows instead of its GIN indexes
    (migration 0014). ``q`` may be None when ``parts`` has no vector channel. ``generic_next``: see
    :func:`channels_sql`."""
    tsq = " | ".join(terms) if terms else None
    pairs = [f"({a} & {b})" for i, a in enumerate(terms) for b in terms[i + 1 :]]
    params: dict[str, Any] = {
        "t": tenant_id,
        "f": forest_id,
        "q": q,
        "tsq": tsq,
        "tsq2": " | ".join(pairs) if pairs else None,
        "tsq3": " & ".join(terms) if len(terms) >= ALL_TERMS_FROM else None,
        "kinds": list(kinds),
        "names": list(names),
        "nr": limits.roots,
        "nrg": limits.roots_read,
        "nf": limits.facts,
        "nc": limits.cells,
        "nl": limits.lexical,
        "cap": limits.lexical_cap,
        "as_of": as_of,
    }
    dim = 0 if q is None else len(q)
    # an indexed forest's vector channels name it by a literal (their generic plan: recall_knobs)
    literal = forest_id if not exact and "vector" in parts else None
    sql = channels_sql(
        exact, as_of, scan_text=scan_text, parts=parts, dim=dim, forest_id=literal, generic_next=generic_next
    )
    return await fetch_rows(conn, sql, params)
