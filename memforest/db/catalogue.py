"""The forest's persistent tables as export, import and merge see them, read once from ``schema``.

Every column list those three need comes from here, so a column added to ``db/schema.py`` travels
through a merge, an export and an import without anyone writing its name again. Per table:

- ``columns``: every column in declaration order;
- ``id_column``: the identity column whose sequence issues fresh ids (None for link tables);
- ``computed``: generated columns (full-text vectors), never written or copied;
- ``derived``: columns recomputable from the rest (embeddings, summaries), left out of an export
  without derived artifacts when the table itself is persistent;
- ``refs``: column -> the table whose id it holds (foreign keys plus the unenforced references);
- ``record`` and ``field``: the export file's record type and the field name of each column.

``TRANSFER_TABLES`` lists them parents first, the order export writes them and import loads them.
"""

from __future__ import annotations

from dataclasses import dataclass

from pgvector.sqlalchemy import Vector
from sqlalchemy import Table
from sqlalchemy.dialects.postgresql import JSONB

from memforest.db import schema

__all__ = ["TRANSFER_TABLES", "TableSpec", "spec", "spec_for_record"]

# Columns every forest row carries; the target's values replace them on every copy.
SCOPE_COLUMNS = ("tenant_id", "forest_id")

# References the schema does not enforce with a foreign key (cheaper writes), by column.
_UNENFORCED_REFS: dict[tuple[str, str], str] = {
    ("fact_sources", "session_id"): "sessions",
    ("entity_facts", "session_id"): "sessions",
    ("scene_clusters", "merged_into"): "scene_clusters",
    ("trees", "root_node_id"): "nodes",
}

# Columns derived from other state (vectors from text, summaries from children).
_DERIVED: dict[str, tuple[str, ...]] = {
    "facts": ("embedding",),
    "nodes": ("summary", "summary_hash", "embedding", "embedded_hash"),
}

# Tables that are derived artifacts as a whole (rebuilt from the persistent state when missing).
_DERIVED_TABLES = ("trees", "nodes", "placements")

# (table, record type) parents first: the export file's order.
_ORDER: tuple[tuple[Table, str], ...] = (
    (schema.sessions, "session"),
    (schema.turns, "turn"),
    (schema.cells, "cell"),
    (schema.facts, "fact"),
    (schema.fact_sources, "fact_source"),
    (schema.entities, "entity"),
    (schema.entity_facts, "entity_fact"),
    (schema.scene_clusters, "scene_cluster"),
    (schema.trees, "tree"),
    (schema.nodes, "node"),
    (schema.placements, "placement"),
)

# Export field names that do not follow the ``<x>_id`` -> ``<x>`` rule.
_FIELD_NAMES = {"root_node_id": "root"}


@dataclass(frozen=True, slots=True)
class TableSpec:
    """One persistent table of a forest, as transfer code needs it."""

    name: str
    record: str
    columns: tuple[str, ...]
    id_column: str | None
    computed: frozenset[str]
    derived: frozenset[str]
    derived_table: bool
    refs: dict[str, str]
    vectors: frozenset[str]
    json_columns: frozenset[str]
    now_default: frozenset[str]

    @property
    def stored(self) -> tuple[str, ...]:
        """Columns a copy writes (every column but the generated ones), in declaration order."""
        return tuple(c for c in self.columns if c not in self.computed)

    @property
    def own(self) -> tuple[str, ...]:
        """Stored columns without tenant and forest: what a snapshot of one forest keeps."""
        return tuple(c for c in self.stored if c not in SCOPE_COLUMNS)

    def exported(self, with_derived: bool) -> tuple[str, ...]:
        """Columns an export writes: derived ones only with derived artifacts (or in a derived table)."""
        if with_derived or self.derived_table:
            return self.own
        return tuple(c for c in self.own if c not in self.derived)

    def field(self, column: str) -> str:
        """The export file's name of ``column``: ``id`` for the table's own id, ``<x>`` for a
        reference ``<x>_id``, the column name otherwise."""
        if column == self.id_column:
            return "id"
        if column in _FIELD_NAMES:
            return _FIELD_NAMES[column]
        if column in self.refs and column.endswith("_id"):
            return column.removesuffix("_id")
        return column


def _spec(table: Table, record: str) -> TableSpec:
    refs: dict[str, str] = {}
    for fk in table.foreign_key_constraints:
        cols = [c.name for c in fk.columns if c.name not in SCOPE_COLUMNS]
        if len(cols) == 1:
            refs[cols[0]] = fk.referred_table.name
    refs.update({col: ref for (name, col), ref in _UNENFORCED_REFS.items() if name == table.name})
    ids = [c.name for c in table.c if c.identity is not None]
    return TableSpec(
        name=table.name,
        record=record,
        columns=tuple(c.name for c in table.c),
        id_column=ids[0] if ids else None,
        computed=frozenset(c.name for c in table.c if c.computed is not None),
        derived=frozenset(_DERIVED.get(table.name, ())),
        derived_table=table.name in _DERIVED_TABLES,
        refs=refs,
        vectors=frozenset(c.name for c in table.c if isinstance(c.type, Vector)),
        json_columns=frozenset(c.name for c in table.c if isinstance(c.type, JSONB)),
        now_default=frozenset(
            c.name
            for c in table.c
            if c.server_default is not None and str(getattr(c.server_default, "arg", "")) == "now()"
        ),
    )


TRANSFER_TABLES: tuple[TableSpec, ...] = tuple(_spec(table, record) for table, record in _ORDER)

_BY_NAME = {s.name: s for s in TRANSFER_TABLES}
_BY_RECORD = {s.record: s for s in TRANSFER_TABLES}


def spec(table: str) -> TableSpec:
    """The spec of a persistent table by name (KeyError for any other table)."""
    return _BY_NAME[table]


def spec_for_record(record: str) -> TableSpec:
    """The spec of the table behind an export record type."""
    return _BY_RECORD[record]
