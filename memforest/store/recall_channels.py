"""Forest recall: the forest by name with whether it has its own indexes (and the HNSW knobs set
in the same statement; a process that knows the name skips this round trip: ADR 0024), then
every candidate channel of the read path in ONE statement, or its two parts (``vector``: roots,
facts, cells, labels, and the forest's own row as it is now; ``lexical``: full text) as two
statements, which the read path runs at the same time in two transactions (the query's own and
one of the side pool: ADR 0024).

Each variant is a whole statement of ``memforest/store/queries/recall_channels.sql``, whose
comments describe the channels; :func:`channels_sql` picks one by its flags (ADR 0037).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from memforest.db.engine import CUSTOM_PLANS_AGAIN, GENERIC_PLANS, GENERIC_PLANS_NEXT
from memforest.domain import Forest
from memforest.errors import NotFoundError
from memforest.store import queries
from memforest.store.recall import TIE_MARGIN, Vec
from memforest.store.sql import Conn, RowView, fetch_one, fetch_rows

# the knobs of an HNSW scan (written in the statements that set them, and by :func:`recall_knobs`)
_ITERATIVE_SCAN = "relaxed_order"
_Q = queries.load("recall_channels")
_INDEXED_AND_KNOBS = _Q["indexed_and_knobs"]
_FOREST_FOR_RECALL = _Q["forest_for_recall"]
_PLANS_AS_USUAL = _Q["plans_as_usual"]
# The vector part alone by (forest read exactly, as of a time, the planner switch its forest row
# writes: db/engine's CUSTOM_PLANS_AGAIN or GENERIC_PLANS_NEXT)
_VECTOR = {
    (True, False, CUSTOM_PLANS_AGAIN): _Q["vector_exact"],
    (True, True, CUSTOM_PLANS_AGAIN): _Q["vector_exact_as_of"],
    (False, False, CUSTOM_PLANS_AGAIN): _Q["vector_indexed"],
    (False, True, CUSTOM_PLANS_AGAIN): _Q["vector_indexed_as_of"],
    (True, False, GENERIC_PLANS_NEXT): _Q["vector_exact_then_generic"],
    (True, True, GENERIC_PLANS_NEXT): _Q["vector_exact_as_of_then_generic"],
    (False, False, GENERIC_PLANS_NEXT): _Q["vector_indexed_then_generic"],
    (False, True, GENERIC_PLANS_NEXT): _Q["vector_indexed_as_of_then_generic"],
}
# the lexical part alone by (full text scanned from the forest's rows, as of a time): the GIN
# indexes' functions take :as_of as a parameter
_LEXICAL = {
    (True, False): _Q["lexical_scan"],
    (True, True): _Q["lexical_scan_as_of"],
    (False, False): _Q["lexical_indexed"],
    (False, True): _Q["lexical_indexed"],
}
# both parts by (forest read exactly, as of a time, the planner switch its forest row writes):
# full text is read the way the forest is
_ALL = {
    (True, False, CUSTOM_PLANS_AGAIN): _Q["all_exact"],
    (True, True, CUSTOM_PLANS_AGAIN): _Q["all_exact_as_of"],
    (False, False, CUSTOM_PLANS_AGAIN): _Q["all_indexed"],
    (False, True, CUSTOM_PLANS_AGAIN): _Q["all_indexed_as_of"],
    (True, False, GENERIC_PLANS_NEXT): _Q["all_exact_then_generic"],
    (True, True, GENERIC_PLANS_NEXT): _Q["all_exact_as_of_then_generic"],
}
# a question of this many terms or more asks the candidate functions for its rows matching every
# term first (with two, the pairs are that query)
ALL_TERMS_FROM = 3
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
    drop out after the graph). An unscoped query reads no more than that margin: its extra roots
    would all pass and only slow the vector channels (ADR 0033)."""
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


# A forest the process has read before runs its vector channels' statement on a generic plan,
# made at the prepared statement's first run on a connection and kept, so it is not planned on
# every query (ADR 0022). An indexed forest's statement names the forest by a literal, so that
# plan can prove the forest's partial indexes apply, and sequential scans are off while it is
# planned (a plan made for any LIMIT must not prefer reading the forest); a forest read exactly
# shares one plan per connection with every such forest (its statement names the forest by its
# parameter). The forest row turns both settings back (``CUSTOM_PLANS_AGAIN``) for whatever the
# transaction runs next.


def recall_knobs(ef_search: int, *, planned_once: bool = False) -> dict[str, str]:
    """The settings of a read path's transaction (``Database.tenant(knobs=...)``): its HNSW scans'
    candidate list, and iterative scans that go on past it when filters drop rows. ``planned_once``
    (a forest the process has read before): its vector channels' statement runs on the plan its
    connection made the first time (``GENERIC_PLANS``), until that statement turns it back."""
    knobs = {"hnsw.ef_search": str(ef_search), "hnsw.iterative_scan": _ITERATIVE_SCAN}
    return knobs | GENERIC_PLANS if planned_once else knobs


async def plans_as_usual(conn: Conn) -> None:
    """Hand a transaction opened with ``recall_knobs(planned_once=True)`` back to custom plans with
    sequential scans allowed, when its vector channels' statement found no forest row to do it."""
    await fetch_one(conn, _PLANS_AS_USUAL)


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
    candidates from the forest's rows (``scan_text``) or its GIN indexes (with both parts, as the
    forest is read: ``scan_text == exact``). ``forest_id``: the forest written into an indexed
    forest's vector channels instead of their ``:f`` parameter (a generic plan of them can then
    use the forest's own partial indexes: ``recall_knobs``). ``generic_next`` (the vector part
    alone, or both parts of a forest read exactly): its forest row switches the rest of the
    transaction to generic plans, not back to custom ones. ValueError for a combination no
    statement is written for."""
    chosen = tuple(p for p in PARTS if p in parts)
    if not chosen:
        raise ValueError("channels_sql needs at least one part")
    if not exact and "vector" in chosen and dim < 1:
        raise ValueError("the vector channels of an indexed forest need the vectors' dimension")
    if generic_next and chosen != ("vector",) and not (chosen == PARTS and exact):
        raise ValueError("only the vector part alone or an exact forest's every channel may hand on to generic plans")
    if chosen == ("lexical",):
        sql = _LEXICAL[(scan_text, as_of is not None)]
    elif chosen == ("vector",):
        sql = _VECTOR[(exact, as_of is not None, GENERIC_PLANS_NEXT if generic_next else CUSTOM_PLANS_AGAIN)]
    elif scan_text == exact:
        sql = _ALL[(exact, as_of is not None, GENERIC_PLANS_NEXT if generic_next else CUSTOM_PLANS_AGAIN)]
    else:
        raise ValueError("every channel in one statement reads full text the way it reads the forest")
    if forest_id is not None and "{f}" not in sql:
        raise ValueError("only an indexed forest's vector channels name the forest by a literal")
    return queries.fill(sql, dim=dim, f=forest_id)


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
    kind, label, root, height`` (see ``queries/recall_channels.sql``), with the ``tree`` rows of the trees
    they name; rows of one channel come in no particular order. ``scan_text`` (a forest without its
    own indexes) finds full-text candidates by reading the forest's rows instead of its GIN indexes
    (migration 0014). ``q`` may be None when ``parts`` has no vector channel. ``generic_next``: see
    :func:`channels_sql`."""
    dim = 0 if q is None else len(q)
    # an indexed forest's vector channels name it by a literal (their generic plan: recall_knobs)
    literal = forest_id if not exact and "vector" in parts else None
    sql = channels_sql(
        exact, as_of, scan_text=scan_text, parts=parts, dim=dim, forest_id=literal, generic_next=generic_next
    )
    tsq = " | ".join(terms) if terms else None
    # the term pairs only for a statement that reads them (an indexed forest's full-text candidates)
    pairs = [f"({a} & {b})" for i, a in enumerate(terms) for b in terms[i + 1 :]] if ":tsq2" in sql else []
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
    return await fetch_rows(conn, sql, params)
