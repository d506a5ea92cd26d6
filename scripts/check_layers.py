"""Check the layering rules of ``docs/architecture.md`` over the ``memforest`` package.

    python scripts/check_layers.py [--root DIR]

Rules (each violation is printed as ``path:line: rule: detail``; exit 1 if there is any):

- ``sql``: no string literal containing SQL outside ``memforest/store/`` and ``memforest/db/``
  (``migrations/`` is outside the package). Docstrings are prose and are not read.
- ``layer``: an import points only to the same or a lower layer (table ``LAYERS``).
- ``adapter``: no adapter (api, mcp, commands, client, integrations) imports another adapter,
  except that the CLI's remote mode and the framework integrations use the client; the client
  imports only the wire models and the errors, the integrations only those and the client.
- ``local-import``: no ``import`` of a ``memforest`` module inside a function or class body
  (such an import only hides a cycle; the shared part belongs a layer down).
- ``size``: no module over ``MAX_LINES`` lines.
- ``unassigned``: every top-level module or package of ``memforest`` has a layer.
- ``planner``: the plan-mode constants (``PLANNER_NAMES``) and the ``plan_cache_mode`` /
  ``enable_seqscan`` settings are named only in ``memforest/store/`` and ``memforest/db/``; the
  layers above say what they will read, never how PostgreSQL should plan it.
- ``work-log``: comments and docstrings say what is true now, with an ADR number: no references to
  a working session (``session 12``) or an ADR addendum, and no timing figures (``0.3 ms``,
  ``~13 us``); measurements belong to the ADRs, ``docs/perf/`` and ``bench/results/``. Code is not
  read (``SIDE_POOL_WAIT_S = 0.05`` is a setting), nor the simulators' documented latencies under
  ``memforest/testing/`` (their specification, not a measurement).

Violations in the paths of ``PENDING`` are printed as pending and do not fail the check: each entry
names work under way elsewhere, and is removed when that work lands (the check says when an entry
no longer matches anything).
"""

from __future__ import annotations

import argparse
import ast
import io
import re
import sys
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

PACKAGE = "memforest"
MAX_LINES = 500

# Top-level module or package of memforest -> layer; an import may point only to the same or a lower layer.
LAYERS: dict[str, int] = {
    **dict.fromkeys(
        ("domain", "errors", "settings", "rules", "attributes", "schemas", "logs", "timefmt", "tracing"), 0
    ),
    **dict.fromkeys(("db", "store", "text", "formats", "memtree"), 1),
    "backends": 2,
    **dict.fromkeys(("pipeline", "retrieval", "lifecycle"), 3),
    "app": 4,
    **dict.fromkeys(("api", "mcp", "commands", "client", "integrations", "testing"), 5),
    # the composition root: processes that host adapters, and the command line that starts them
    **dict.fromkeys(("servers", "cli", "demo", "__main__"), 6),
}
ADAPTERS = frozenset({"api", "mcp", "commands", "client", "integrations"})
# The CLI's --url mode and the framework integrations talk to a running server through the Python
# client, a library of the HTTP API.
ADAPTER_MAY_USE: dict[str, frozenset[str]] = {
    "commands": frozenset({"client"}),
    "integrations": frozenset({"client"}),
}
# The libraries of the HTTP API import nothing of the server.
LIBRARY_MAY_IMPORT: dict[str, frozenset[str]] = {
    "client": frozenset({"client", "schemas", "errors"}),
    "integrations": frozenset({"integrations", "client", "schemas", "errors"}),
}
SQL_HOMES = frozenset({"store", "db"})

_SQL = re.compile(
    r"\b(SELECT\s+[\w*(]|INSERT\s+INTO|UPDATE\s+\w+(\s+\w+)?\s+SET|DELETE\s+FROM|CREATE\s+(TEMP|TABLE|INDEX|UNIQUE|"
    r"EXTENSION|ROLE|DATABASE|SCHEMA|POLICY)|ALTER\s+(TABLE|ROLE|DATABASE)|DROP\s+(TABLE|INDEX|DATABASE|ROLE)|"
    r"TRUNCATE\s+\w|SET\s+LOCAL|RESET\s+ROLE|LOCK\s+TABLE|ON\s+CONFLICT|RETURNING\s+\w|ORDER\s+BY\s+\w|"
    r"GROUP\s+BY\s+\w|pg_advisory\w*|pg_has_role|WHERE\s+\w+(\.\w+)?\s*(=|<>|IS|IN|<|>))"
    r"|(=|<>|<=|>=)\s*:[a-z_]\w*\b|\bANY\s*\(\s*:|\bCAST\s*\(\s*:",
)


# The planner's settings belong to the store and db layers (ADR 0022, ADR 0024): retrieval states its
# intent (what it will read next) and the store chooses the plan mode.
PLANNER_HOMES = SQL_HOMES
PLANNER_NAMES = frozenset(
    {"GENERIC_PLANS", "CUSTOM_PLANS", "KEY_LOOKUP_PLANS", "CUSTOM_PLANS_AGAIN", "GENERIC_PLANS_NEXT"}
)
_PLANNER_SETTING = re.compile(r"\b(plan_cache_mode|enable_seqscan)\b")

# Comments say what is true now (docs/adr/README.md). A reference to a working session or an ADR
# addendum ("session 26", "sessions 11 and 13", "session-19 addendum") cannot be resolved by a reader
# of the code; a session of conversation turns is written with a count or a noun after the number
# ("session 3 of 5" is not a work log, "2 sessions" neither), so only "session N" not followed by
# such words counts. A timing figure is a number with a time unit below the second.
_WORK_LOG = re.compile(
    r"\bsessions?[ -]\d+(?:\s*(?:,|and|or|to|-)\s*\d+)*\b(?!\s*(?:of|facts?|sessions?|turns?|items?)\b)"
    r"|\baddend(?:um|a)\b",
    re.IGNORECASE,
)
_TIMING = re.compile(r"(?<![\w.])~?\d+(?:\.\d+)?\s?(?:ms|us|\u00b5s|\u03bcs|ns)\b")
# Simulations document the latencies they simulate; those figures are their specification.
TIMING_EXEMPT = frozenset({"testing"})

# Paths (relative to memforest/, a trailing "/" for a folder) whose violations of a rule are work under
# way elsewhere: reported as pending, not failed. Remove an entry when its work lands.
PENDING: dict[str, tuple[str, ...]] = {}


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule at one place."""

    path: Path
    line: int
    rule: str
    detail: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.rule}: {self.detail}"


def _docstring_nodes(tree: ast.AST) -> set[int]:
    """ids of the string constants that are docstrings (module, class, function)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def _imported_modules(node: ast.Import | ast.ImportFrom) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if node.level or node.module is None:
        return []
    return [node.module]


def _top(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != PACKAGE:
        return None
    return parts[1] if len(parts) > 1 else ""


def _check_sql(path: Path, tree: ast.AST, where: str) -> Iterator[Violation]:
    if where in SQL_HOMES:
        return
    docs = _docstring_nodes(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            m = _SQL.search(node.value)
            if m:
                yield Violation(path, node.lineno, "sql", f"SQL outside store/ and db/: {m.group(0)!r}")


def _check_planner(path: Path, tree: ast.AST, where: str) -> Iterator[Violation]:
    if where in PLANNER_HOMES:
        return
    docs = _docstring_nodes(tree)
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Name):
            names = [node.id]
        elif isinstance(node, ast.Attribute):
            names = [node.attr]
        elif isinstance(node, ast.alias):
            names = [n.rsplit(".", 1)[-1] for n in (node.name, node.asname) if n]
        for name in names:
            if name in PLANNER_NAMES:
                line = getattr(node, "lineno", 1)
                yield Violation(path, line, "planner", f"plan mode {name} outside store/ and db/")
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            m = _PLANNER_SETTING.search(node.value)
            if m:
                yield Violation(path, node.lineno, "planner", f"planner setting {m.group(0)!r} outside store/ and db/")


def _prose(source: str, tree: ast.AST) -> Iterator[tuple[int, str]]:
    """(line, text) of every comment and docstring line of a module."""
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            yield tok.start[0], tok.string
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                for offset, text in enumerate(first.value.value.split("\n")):
                    yield first.value.lineno + offset, text


def _check_work_log(path: Path, source: str, tree: ast.AST, where: str) -> Iterator[Violation]:
    patterns = [("work-log reference", _WORK_LOG)]
    if where not in TIMING_EXEMPT:
        patterns.append(("timing figure", _TIMING))
    for line, text in _prose(source, tree):
        for what, pattern in patterns:
            for m in pattern.finditer(text):
                yield Violation(path, line, "work-log", f"{what} in a comment or docstring: {m.group(0)!r}")


def _check_imports(path: Path, tree: ast.Module, where: str) -> Iterator[Violation]:
    mine = LAYERS[where]
    local: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Import | ast.ImportFrom):
                    local.add(id(inner))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Import | ast.ImportFrom):
            continue
        for module in _imported_modules(node):
            target = _top(module)
            if target is None or target == "":
                continue
            if id(node) in local:
                yield Violation(path, node.lineno, "local-import", f"{module} imported inside a function or class")
            if target not in LAYERS:
                yield Violation(path, node.lineno, "unassigned", f"{module}: memforest.{target} has no layer")
                continue
            if LAYERS[target] > mine:
                yield Violation(
                    path, node.lineno, "layer", f"{where} (layer {mine}) imports {module} (layer {LAYERS[target]})"
                )
            if (
                where in ADAPTERS
                and target in ADAPTERS
                and target != where
                and target not in ADAPTER_MAY_USE.get(where, frozenset())
            ):
                yield Violation(path, node.lineno, "adapter", f"adapter {where} imports adapter {module}")
            allowed = LIBRARY_MAY_IMPORT.get(where)
            if allowed is not None and target not in allowed:
                only = ", ".join(sorted(allowed - {where}))
                yield Violation(path, node.lineno, "adapter", f"{where} imports {module} (only {only})")


def check_file(path: Path, package_root: Path) -> list[Violation]:
    """Every violation in one module of the package."""
    rel = path.relative_to(package_root)
    where = rel.parts[0].removesuffix(".py") if len(rel.parts) > 1 or rel.name != "__init__.py" else ""
    source = path.read_text(encoding="utf-8")
    out: list[Violation] = []
    lines = source.count("\n") + (0 if source.endswith("\n") or not source else 1)
    if lines > MAX_LINES:
        out.append(Violation(path, 1, "size", f"{lines} lines (at most {MAX_LINES})"))
    if where == "":
        return out
    if where not in LAYERS:
        return [*out, Violation(path, 1, "unassigned", f"memforest.{where} has no layer in LAYERS")]
    tree = ast.parse(source, filename=str(path))
    out.extend(_check_sql(path, tree, where))
    out.extend(_check_imports(path, tree, where))
    out.extend(_check_planner(path, tree, where))
    out.extend(_check_work_log(path, source, tree, where))
    return out


def check_tree(root: Path) -> list[Violation]:
    """Every violation under ``root/memforest``."""
    package_root = root / PACKAGE
    out: list[Violation] = []
    for path in sorted(package_root.rglob("*.py")):
        out.extend(check_file(path, package_root))
    return out


def main(argv: list[str] | None = None) -> int:
    """Print the violations; 0 when there are none."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    args = parser.parse_args(argv)
    if not (args.root / PACKAGE).is_dir():
        print(f"check_layers: no {PACKAGE}/ package under {args.root}", file=sys.stderr)
        return 2
    package_root = args.root / PACKAGE
    violations: list[Violation] = []
    pending: list[Violation] = []
    used: set[tuple[str, str]] = set()
    for v in check_tree(args.root):
        entry = _pending_entry(v, package_root)
        if entry is None:
            violations.append(v)
        else:
            pending.append(v)
            used.add((v.rule, entry))
    for v in violations:
        print(v)
    for v in pending:
        print(f"pending: {v}")
    for rule, entries in PENDING.items():
        for entry in entries:
            if (rule, entry) not in used:
                print(f"check_layers: PENDING[{rule!r}] entry {entry!r} matches nothing now; remove it")
    n = sum(1 for _ in package_root.rglob("*.py"))
    print(f"check_layers: {len(violations)} violation(s), {len(pending)} pending, in {n} modules")
    return 1 if violations else 0


def _pending_entry(v: Violation, package_root: Path) -> str | None:
    """The ``PENDING`` entry that covers a violation, if any."""
    rel = v.path.relative_to(package_root).as_posix()
    for entry in PENDING.get(v.rule, ()):
        if rel == entry or (entry.endswith("/") and rel.startswith(entry)):
            return entry
    return None


if __name__ == "__main__":
    sys.exit(main())
