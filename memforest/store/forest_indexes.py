"""A large forest's own indexes (ADR 0024): a forest past ``exact_scan_max_rows`` facts gets five
partial indexes of its own (``WHERE forest_id = N``): HNSW over its facts, its cell leaves and its
roots, GIN over the full text of its facts and of its cell leaves (migration 0016). Smaller forests
have none: their rows are read through the ``(tenant, forest)`` b-trees and scanned. The two node
graphs index the vectors at half precision (``halfvec``, migration 0017, ADR 0026): half the bytes
to read per search and to write per insert; the cell leaves' graph also links fewer neighbours
(``m = 8``). They key on ``nodes.graph_embedding``, which only their rows (roots, cell leaves)
fill, and the text index on ``tsv``, which only cell leaves fill (migration 0029, ADR 0102): an
inner node's refresh changes no indexed column and stays a HOT update. The facts' graph keeps
full precision (the write path's near-duplicate test and a plain pgvector search read it) and is
built with a wider candidate list than pgvector's default (``ef_construction = 128``, ADR 0024).

Global indexes serve both one huge forest and many small ones badly: a large forest among many
small ones is a small part of a global HNSW graph, so a filtered search walks mostly other forests'
vectors and misses most of the exact nearest rows; a GIN posting list holds a word's rows of every
forest, so a small forest's matches cost as much as the whole table's; and every insert into a
small forest pays for both. A partial index holds one forest's rows only. The planner uses it when
the statement's ``forest_id`` is a known constant, which tenant transactions guarantee by planning
their statements for their parameters (``plan_cache_mode = force_custom_plan``, ``memforest.db.engine``; a query's
evidence assembly, which reads by key only, runs on generic plans: ``KEY_LOOKUP_PLANS`` there) and
the full-text functions by building their statement with the forest id (migration 0013).

Indexes are named after the forest (``ix_facts_vec_f<forest>`` ...), so "does this forest have its
indexes" is a catalogue lookup that can never disagree with what the planner sees, and an index
left INVALID by an interrupted ``CREATE INDEX CONCURRENTLY`` counts as missing (and is rebuilt);
in :func:`index_state` (the builders' view, not the read path's) one whose rows, operator class or
storage parameters differ from its spec's (built by an older release after a migration changed the
spec) counts as invalid too.
Building and dropping needs the owning role (``Database.autocommit``) outside a transaction.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from memforest.store.sql import Conn, Row, execute, fetch_all, scalar


@dataclass(frozen=True, slots=True)
class ForestIndexSpec:
    """One of a forest's indexes: name prefix, table, access method and key (``{half_key}``: the
    embedding as :func:`half_precision` casts it, at the stored dimension), its operator class,
    and the rows it holds besides the forest's; ``column``: the column its key reads."""

    prefix: str
    table: str
    using: str  # "hnsw (embedding vector_cosine_ops)" | "gin (tsv)" | a half-precision graph
    opclass: str  # the key's operator class as the catalogue names it
    rows: str  # predicate besides the forest (empty: every row of the forest)
    options: tuple[str, ...] = ()  # storage parameters ("m=8"), as the catalogue lists them
    column: str = "embedding"  # the column of its key

    def name(self, forest_id: int) -> str:
        """The index's name for ``forest_id``."""
        return f"{self.prefix}{int(forest_id)}"

    def predicate(self, forest_id: int) -> str:
        """The rows this index holds for ``forest_id`` (its ``WHERE``)."""
        return f"forest_id = {int(forest_id)}" + (f" AND {self.rows}" if self.rows else "")

    def matches(
        self,
        forest_id: int,
        predicate: str | None,
        opclass: str | None,
        options: list[str] | None = None,
        key_dim: int | None = None,
        dim: int | None = None,
        key: str | None = None,
    ) -> bool:
        """Whether an index with this predicate as the catalogue prints it (``pg_get_expr``,
        parenthesised), this operator class and these storage parameters (``pg_class.reloptions``)
        is this spec's for ``forest_id``: one built with other rows, another key or other
        parameters (by an older release) is not; nor, for a key cast to the vectors' dimension,
        one whose key (``key_dim``) is not at the stored vectors' (``dim``): built for the old
        dimension by a builder a dimension change overtook, it would refuse every new vector; nor,
        given its key as the catalogue prints it (``key``), one over another column (a node graph
        over ``embedding``, built before migration 0029)."""
        same_rows = _bare(predicate or "") == _bare(self.predicate(forest_id))
        same_dim = "{half_key}" not in self.using or key_dim == dim
        same_key = key is None or _key_column(key) == self.column
        return (
            same_rows
            and same_dim
            and same_key
            and opclass == self.opclass
            and sorted(options or ()) == sorted(self.options)
        )

    def create_sql(self, forest_id: int, dim: int) -> str:
        """``CREATE INDEX CONCURRENTLY`` of this index for ``forest_id`` (vectors of ``dim``)."""
        where = self.predicate(forest_id)
        with_ = f" WITH ({', '.join(o.replace('=', ' = ') for o in self.options)})" if self.options else ""
        return (
            f"CREATE INDEX CONCURRENTLY IF NOT EXISTS {self.name(forest_id)} ON {self.table} "
            f"USING {self.using.format(half_key=half_precision(self.column, dim))}{with_} WHERE {where}"
        )


def _bare(predicate: str) -> str:
    """A predicate without parentheses and repeated spaces (how the catalogue and a spec differ)."""
    return " ".join(predicate.replace("(", " ").replace(")", " ").split())


def _key_column(key: str) -> str:
    """The column an index key reads, as ``pg_get_indexdef(index, 1, true)`` prints the key
    (``tsv``, ``embedding``, ``(graph_embedding::halfvec(384))``)."""
    return key.strip("( ").split("::")[0].split(")")[0].strip()


def half_precision(column: str, dim: int) -> str:
    """``column`` (a ``vector``) as the half-precision key of the node graphs: a statement that
    orders by ``half_precision(col, d) <=> half_precision(CAST(:q AS vector), d)`` reads them."""
    return f"CAST({column} AS halfvec({int(dim)}))"


_HNSW = "hnsw (embedding vector_cosine_ops)"
_HALF_HNSW = "hnsw (({half_key}) halfvec_cosine_ops)"
_GIN = "gin (tsv)"
# The cell leaves' graph links each element to 8 neighbours a layer (16 on layer 0) where the others
# keep pgvector's default 16 (32): its searches and inserts are cheaper and its overlap with the
# exact top 40 stays above the goal's 0.95 (ADR 0026); the roots' graph with 8 fell below it and
# keeps 16.
CELL_GRAPH_OPTIONS = ("m=8",)
# The facts' graph is built with twice pgvector's default candidate list: at its default (64) the
# 10K forest's graph found 0.94-0.98 of the exact top 60 at ef_search 128, from build to
# build; at 128, 0.999 in each of three builds, at the same search time. The price is a longer
# build and a dearer insert of a fact into a large forest, a small share of a session's write
# (ADR 0024).
FACT_GRAPH_OPTIONS = ("ef_construction=128",)
# The node graphs' column: a root's or cell leaf's vector, NULL on inner nodes (migration 0029).
GRAPH_COLUMN = "graph_embedding"
# The vector channels of recall (memforest.store.recall / recall_channels) and the write path's
# near-duplicate lookup, then the full-text channels (migration 0013's functions); the predicates
# are those of their statements.
FOREST_INDEXES: tuple[ForestIndexSpec, ...] = (
    ForestIndexSpec(
        "ix_nodes_root_vec_f", "nodes", _HALF_HNSW, "halfvec_cosine_ops", "parent_id IS NULL", column=GRAPH_COLUMN
    ),
    ForestIndexSpec(
        "ix_nodes_cell_vec_f",
        "nodes",
        _HALF_HNSW,
        "halfvec_cosine_ops",
        "level = 0 AND leaf_cell_id IS NOT NULL",
        CELL_GRAPH_OPTIONS,
        column=GRAPH_COLUMN,
    ),
    ForestIndexSpec("ix_nodes_tsv_f", "nodes", _GIN, "tsvector_ops", "leaf_cell_id IS NOT NULL", column="tsv"),
    ForestIndexSpec("ix_facts_tsv_f", "facts", _GIN, "tsvector_ops", "", column="tsv"),
    ForestIndexSpec("ix_facts_vec_f", "facts", _HNSW, "vector_cosine_ops", "", FACT_GRAPH_OPTIONS),
)
_SPECS = {s.prefix: s for s in FOREST_INDEXES}
_PREFIXES = tuple(_SPECS)


def indexed_sql(forest: str) -> str:
    """An SQL expression, true when every index of the forest ``forest`` (an SQL expression of
    type bigint) exists and is valid."""
    regs = ", ".join(f"to_regclass('{p}' || {forest})" for p in _PREFIXES)
    return f"(SELECT count(*) = {len(FOREST_INDEXES)} FROM pg_index i WHERE i.indisvalid AND i.indexrelid IN ({regs}))"


# true when every index of the forest :f exists and is valid
INDEXED_SQL = indexed_sql("CAST(:f AS bigint)")
_INDEXED = f"SELECT {INDEXED_SQL}"
# the dimension of the stored vectors (pgvector keeps it as the column's type modifier)
_DIM = (
    "SELECT a.atttypmod FROM pg_attribute a WHERE a.attrelid = CAST('nodes' AS regclass) "
    "AND a.attname = 'embedding' AND NOT a.attisdropped"
)
_STATE = (
    "SELECT p.prefix, i.indisvalid AS valid, pg_get_expr(i.indpred, i.indrelid) AS predicate, "
    "(SELECT o.opcname::text FROM pg_opclass o WHERE o.oid = i.indclass[0]) AS opclass, "
    "(SELECT c.reloptions FROM pg_class c WHERE c.oid = i.indexrelid) AS options, "
    "(SELECT a.atttypmod FROM pg_attribute a WHERE a.attrelid = i.indexrelid AND a.attnum = 1) AS key_dim, "
    "pg_get_indexdef(i.indexrelid, 1, true) AS key, "
    f"({_DIM}) AS dim "
    "FROM unnest(CAST(:prefixes AS text[])) AS p(prefix) "
    "LEFT JOIN pg_index i ON i.indexrelid = to_regclass(p.prefix || CAST(:f AS bigint))"
)

# forests with more than :n facts (every tenant): the ones that should have their own indexes
_LARGE_FORESTS = (
    "SELECT tenant_id, forest_id FROM facts GROUP BY tenant_id, forest_id HAVING count(*) > :n "
    "ORDER BY tenant_id, forest_id"
)
_FACTS_OVER = "SELECT count(*) > :n FROM (SELECT 1 FROM facts WHERE tenant_id = :t AND forest_id = :f LIMIT :n + 1) s"
# per-forest indexes whose forest no longer exists (deleted forests and tenants)
_ORPHANS = (
    "SELECT c.relname::text AS name FROM pg_class c JOIN pg_namespace ns ON ns.oid = c.relnamespace "
    "WHERE c.relkind = 'i' AND ns.nspname = current_schema() AND c.relname ~ :pattern "
    "AND NOT EXISTS (SELECT 1 FROM forests f WHERE f.forest_id = CAST(substring(c.relname FROM '[0-9]+$') AS bigint))"
)
_ORPHAN_PATTERN = "^(" + "|".join(_PREFIXES) + ")[0-9]+$"
_LOCK = "SELECT pg_try_advisory_lock(hashtextextended('memforest:forest_index:' || CAST(:f AS bigint), 0))"
_UNLOCK = "SELECT pg_advisory_unlock(hashtextextended('memforest:forest_index:' || CAST(:f AS bigint), 0))"
_BUILD_MEMORY = "SELECT set_config('maintenance_work_mem', :mem, false)"
_RESET_BUILD_MEMORY = "RESET maintenance_work_mem"


async def forest_indexed(conn: Conn, forest_id: int) -> bool:
    """Whether every index of ``forest_id``'s own exists and is valid."""
    return bool(await scalar(conn, _INDEXED, {"f": forest_id}))


async def index_state(conn: Conn, forest_id: int) -> dict[str, bool | None]:
    """Per index name of the forest: True (valid), False (to build again: left invalid by a failed
    build, or holding other rows or another key than its spec's, e.g. built by an older release
    after a migration changed the spec, or keyed at another dimension than the stored vectors'),
    None (absent)."""
    rows = await fetch_all(conn, _STATE, {"prefixes": list(_PREFIXES), "f": forest_id})
    state: dict[str, bool | None] = {}
    for r in rows:
        valid = r["valid"]
        if valid is not None:
            valid = bool(valid) and _SPECS[r["prefix"]].matches(
                forest_id, r["predicate"], r["opclass"], list(r["options"] or ()), r["key_dim"], r["dim"], r["key"]
            )
        state[f"{r['prefix']}{int(forest_id)}"] = valid
    return state


async def has_more_facts_than(conn: Conn, tenant_id: uuid.UUID, forest_id: int, n: int) -> bool:
    """Whether the forest holds more than ``n`` facts (reads at most ``n + 1`` index entries)."""
    return bool(await scalar(conn, _FACTS_OVER, {"t": tenant_id, "f": forest_id, "n": n}))


async def large_forests(conn: Conn, min_rows: int) -> list[Row]:
    """``tenant_id, forest_id`` of every forest with more than ``min_rows`` facts (a full count)."""
    return await fetch_all(conn, _LARGE_FORESTS, {"n": min_rows})


async def orphan_indexes(conn: Conn) -> list[str]:
    """Names of per-forest indexes whose forest was deleted."""
    return [str(r["name"]) for r in await fetch_all(conn, _ORPHANS, {"pattern": _ORPHAN_PATTERN})]


async def try_lock_forest(conn: Conn, forest_id: int) -> bool:
    """A session advisory lock on building ``forest_id``'s indexes (False: another builder holds it)."""
    return bool(await scalar(conn, _LOCK, {"f": forest_id}))


async def unlock_forest(conn: Conn, forest_id: int) -> None:
    """Release :func:`try_lock_forest`'s lock."""
    await execute(conn, _UNLOCK, {"f": forest_id})


async def set_build_memory(conn: Conn, memory: str) -> None:
    """``maintenance_work_mem`` for the session's index builds (an HNSW graph or a GIN index built
    in memory is several times faster than one that spills)."""
    await execute(conn, _BUILD_MEMORY, {"mem": memory})


async def reset_build_memory(conn: Conn) -> None:
    """Back to the server's ``maintenance_work_mem`` (the connection returns to a pool)."""
    await execute(conn, _RESET_BUILD_MEMORY)


async def embedding_dim(conn: Conn) -> int:
    """The dimension of the stored vectors (the half-precision graphs are built for it)."""
    return int(await scalar(conn, _DIM))


async def create_index(conn: Conn, spec: ForestIndexSpec, forest_id: int, dim: int) -> None:
    """Build one index for vectors of ``dim`` (``conn`` must be in autocommit: CONCURRENTLY runs
    outside a transaction)."""
    await execute(conn, spec.create_sql(forest_id, dim))


async def drop_index(conn: Conn, name: str) -> None:
    """Drop a per-forest index by name, without blocking writes (autocommit ``conn``)."""
    if not name.startswith(_PREFIXES) or not name[len(name.rstrip("0123456789")) :].isdigit():
        raise ValueError(f"not a per-forest index: {name!r}")
    await execute(conn, f"DROP INDEX CONCURRENTLY IF EXISTS {name}")
