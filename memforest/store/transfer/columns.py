"""Statement builders over the table catalogue: the column lists of copies, loads and exports.

Each builder runs once, at import time of the module that names the statement; the statements
stay module-level constants, only their column lists come from ``db.catalogue``.
"""

from __future__ import annotations

from collections.abc import Mapping

from memforest.db.catalogue import spec

__all__ = ["insert_select", "insert_values", "select_fields"]

# A copy writes into the target forest: its tenant and forest replace the source's.
_TARGET = {"tenant_id": ":t", "forest_id": ":f"}


def insert_select(table: str, source: str, exprs: Mapping[str, str | None], *, alias: str) -> str:
    """``INSERT INTO table (every stored column) SELECT ... <source>`` into the target forest (tenant
    ``:t``, forest ``:f``): a column takes its expression from ``exprs`` (None leaves it to its
    default) or else ``<alias>.<column>``."""
    cols: list[str] = []
    values: list[str] = []
    for col in spec(table).stored:
        expr = exprs.get(col, _TARGET.get(col, f"{alias}.{col}"))
        if expr is not None:
            cols.append(col)
            values.append(expr)
    return f"INSERT INTO {table} ({', '.join(cols)}) SELECT {', '.join(values)} {source}"


def insert_values(table: str, tail: str = "") -> str:
    """``INSERT INTO table (every stored column) VALUES (:column, ...)``; JSON columns are cast from
    text, and a missing time whose default is ``now()`` gets that default."""
    s = spec(table)
    values = []
    for col in s.stored:
        if col in s.json_columns:
            values.append(f"CAST(:{col} AS jsonb)")
        elif col in s.now_default:
            values.append(f"coalesce(CAST(:{col} AS timestamptz), now())")
        else:
            values.append(f":{col}")
    return f"INSERT INTO {table} ({', '.join(s.stored)}) VALUES ({', '.join(values)}){tail}"


def select_fields(table: str, columns: tuple[str, ...], alias: str = "") -> str:
    """``col AS field, ...``: the columns under their export field names."""
    s = spec(table)
    prefix = f"{alias}." if alias else ""
    parts = []
    for col in columns:
        name = s.field(col)
        parts.append(f"{prefix}{col}" if name == col else f"{prefix}{col} AS {name}")
    return ", ".join(parts)
