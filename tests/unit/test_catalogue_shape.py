"""The table catalogue that export, import and merge derive their column lists from lists parents
first and names exactly the fields of the export format (its match with the migrated database:
tests/db/test_catalogue.py)."""

from __future__ import annotations

from memforest.db.catalogue import TRANSFER_TABLES, spec, spec_for_record
from memforest.lifecycle.transfer_format import DERIVED_TYPES, MODELS, PERSISTENT_TYPES

# Fields a record carries beyond its table's columns (a cluster's scene scope).
EXTRA_FIELDS = {"scene_cluster": ["label", "members"]}


def test_tables_come_parents_first() -> None:
    seen: set[str] = set()
    for s in TRANSFER_TABLES:
        for col, ref in s.refs.items():
            if (s.name, col) == ("trees", "root_node_id"):  # a tree names its root: checked after the nodes
                continue
            assert ref in seen or ref == s.name, (s.name, col, ref)
        seen.add(s.name)
    assert tuple(s.record for s in TRANSFER_TABLES) == PERSISTENT_TYPES + DERIVED_TYPES


def test_export_records_carry_the_catalogue_columns_in_order() -> None:
    for record, model in MODELS.items():
        s = spec_for_record(record)
        fields = [s.field(c) for c in s.exported(True)] + EXTRA_FIELDS.get(record, [])
        assert ["type", *fields] == list(model.model_fields), record


def test_derived_columns() -> None:
    facts = spec("facts")
    assert "embedding" in facts.own and "embedding" not in facts.exported(False)
    assert "tsv" in facts.computed and "tsv" not in facts.stored
    assert spec("nodes").exported(False) == spec("nodes").own  # a derived table is exported whole
