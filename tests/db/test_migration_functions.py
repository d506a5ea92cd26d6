"""Each database function the migrations leave at head has its current definition in
``migrations/functions/<name>.sql`` (ADR 0036), and every file there is a function of the migrated
database: the migrations keep frozen text, so these files are what a reader trusts.

A file is run in a scratch schema of the migrated database (in a transaction rolled back after) and
the function it makes is compared with the migrated one: ``pg_get_functiondef`` (arguments, result,
language, volatility, SECURITY DEFINER, the stored ``search_path``, the body bit for bit) and the
grants."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from memforest.db import migrate

FUNCTIONS_DIR = migrate.MIGRATIONS_DIR / "functions"
SCRATCH = "memforest_expected"
# every function of a schema that no extension owns: signature, name, definition (the schema's
# name cut from its first line), grants
_FUNCTIONS_OF_SCHEMA = """
SELECT p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')', p.proname::text,
       replace(pg_get_functiondef(p.oid), 'FUNCTION ' || quote_ident(n.nspname) || '.', 'FUNCTION '),
       p.proacl::text
  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
 WHERE n.nspname = %s
   AND NOT EXISTS (SELECT FROM pg_depend d
                    WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')
"""

Definitions = dict[str, tuple[str, str | None]]  # signature -> (definition, grants)


def _files() -> dict[str, Path]:
    return {path.stem: path for path in sorted(FUNCTIONS_DIR.glob("*.sql"))}


@pytest.fixture
def owner(db_url: str) -> Iterator[psycopg.Connection[tuple[str, ...]]]:
    """A connection to this test's migrated database as the owner (the migrations' role)."""
    url = migrate.sync_url(db_url).replace("postgresql+psycopg://", "postgresql://", 1)
    with psycopg.connect(url) as conn:
        yield conn
        conn.rollback()


def _functions(conn: psycopg.Connection[tuple[str, ...]], schema: str) -> dict[str, Definitions]:
    """The functions of ``schema`` by name, then by signature."""
    by_name: dict[str, Definitions] = {}
    for signature, name, definition, grants in conn.execute(_FUNCTIONS_OF_SCHEMA, (schema,)):
        by_name.setdefault(name, {})[signature] = (definition, grants)
    return by_name


def _migrated_schema(conn: psycopg.Connection[tuple[str, ...]]) -> str:
    schema = conn.execute("SELECT current_schema()").fetchone()
    assert schema is not None
    return schema[0]


def _made_by_file(conn: psycopg.Connection[tuple[str, ...]], path: Path) -> dict[str, Definitions]:
    """The functions ``path`` makes, run in an empty scratch schema searched first (the caller
    rolls the transaction back)."""
    conn.execute(f"CREATE SCHEMA {SCRATCH}")
    conn.execute(f"SET LOCAL search_path = {SCRATCH}, {_migrated_schema(conn)}")
    conn.execute(path.read_text().encode())  # no parameters: the text is sent as it is
    return _functions(conn, SCRATCH)


def test_every_function_has_its_file_and_every_file_its_function(
    owner: psycopg.Connection[tuple[str, ...]],
) -> None:
    installed = set(_functions(owner, _migrated_schema(owner)))
    files = set(_files())
    assert installed, "no function in the migrated database: the query is wrong"
    assert sorted(installed - files) == [], f"functions without a file in {FUNCTIONS_DIR}"
    assert sorted(files - installed) == [], "files of functions the migrated database does not have"


@pytest.mark.parametrize("name", sorted(_files()))
def test_function_file_is_the_migrated_definition(owner: psycopg.Connection[tuple[str, ...]], name: str) -> None:
    migrated = _functions(owner, _migrated_schema(owner)).get(name, {})
    made = _made_by_file(owner, _files()[name])
    assert list(made) == [name], f"{name}.sql makes functions {sorted(made)}, not (only) {name}"
    assert sorted(made[name]) == sorted(migrated), "the file's signatures are not the migrated ones"
    for signature, (definition, grants) in made[name].items():
        assert definition == migrated[signature][0], f"{name}.sql: definition differs from the migrated {signature}"
        assert grants == migrated[signature][1], f"{name}.sql: grants differ from the migrated {signature}"
