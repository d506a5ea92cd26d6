"""How bench/statement_count.py classifies what the database receives."""

from __future__ import annotations

import pytest

from bench.statement_count import statement_kind


@pytest.mark.parametrize(
    ("sql", "kind"),
    [
        # asyncpg's type introspection, as the driver words it (over several lines)
        (
            "\n    SELECT\n        current_setting('jit') AS cur,\n        set_config('jit', 'off', false) AS new\n",
            "driver",
        ),
        ("WITH RECURSIVE typeinfo_tree(\n    oid, ns, name, kind, basetype", "driver"),
        ("SELECT set_config('jit', $1, false)", "driver"),
        ("BEGIN;", "transactions"),
        ("COMMIT;", "control"),
        (";", "pings"),
        ("\n  SELECT 1 FROM facts", "statements"),
    ],
)
def test_kinds(sql: str, kind: str) -> None:
    assert statement_kind(sql) == kind
