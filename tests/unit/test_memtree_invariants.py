"""The MemTree's structural rules (``memtree/invariants.py``) name each broken invariant, and the
``memtree`` package stays pure: it imports only the standard library and layer 0 of memforest."""

from __future__ import annotations

import ast
import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from memtree_trees import MemoryTree, grow

from memforest.memtree.invariants import check_tree

REPO = Path(__file__).resolve().parents[2]
Rows = tuple[dict[str, Any], list[dict[str, Any]]]


def _rows() -> Rows:
    tree, batch = grow(list(range(20)), 4)
    rows = MemoryTree.from_batch(tree, batch)
    return rows.row(), list(rows.nodes.values())


def _first(nodes: list[dict[str, Any]], level: int) -> dict[str, Any]:
    return min((n for n in nodes if n["level"] == level), key=lambda n: (n["t_start"], n["seq"]))


def _later_start(rows: Rows) -> None:
    leaf = _first(rows[1], 0)
    leaf["t_start"] = leaf["t_start"].replace(year=2030)


def _wrong_count(rows: Rows) -> None:
    _first(rows[1], 1)["n_children"] += 1


def _short_end(rows: Rows) -> None:
    node = _first(rows[1], 1)
    node["t_end"] = node["t_start"]


def _lost_leaf(rows: Rows) -> None:
    rows[0]["n_leaves"] += 1


def _orphan(rows: Rows) -> None:
    _first(rows[1], 0)["parent_id"] = 10**9


def _dirty(rows: Rows) -> None:
    _first(rows[1], 1)["dirty"] = True


def _no_payload(rows: Rows) -> None:
    _first(rows[1], 0)["leaf_cell_id"] = None


@pytest.mark.parametrize(
    ("breakage", "named"),
    [
        (_later_start, "smallest key"),
        (_wrong_count, "n_children"),
        (_short_end, "largest end"),
        (_lost_leaf, "n_leaves"),
        (_orphan, "parent outside the tree"),
        (_dirty, "dirty nodes left"),
        (_no_payload, "no payload"),
    ],
)
def test_each_broken_invariant_is_named(breakage: Callable[[Rows], None], named: str) -> None:
    rows = _rows()
    assert check_tree(*rows) == []
    breakage(rows)
    assert any(named in v for v in check_tree(*rows)), check_tree(*rows)


def test_an_empty_tree_has_no_root() -> None:
    tree = {"tree_id": 1, "kind": "session", "label": "s", "fanout": 4, "root_node_id": None, "height": 1}
    assert check_tree({**tree, "n_leaves": 0}, []) == []
    assert check_tree({**tree, "n_leaves": 0, "root_node_id": 5}, []) == ["tree 1 (session:s): empty tree with a root"]


def _layers() -> dict[str, int]:
    spec = importlib.util.spec_from_file_location("check_layers_for_memtree", REPO / "scripts" / "check_layers.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (its dataclasses look their module up there)
    spec.loader.exec_module(module)
    layers: dict[str, int] = module.LAYERS
    return layers


def test_memtree_imports_only_the_standard_library_and_layer_0() -> None:
    layers = _layers()
    assert layers["memtree"] == 1
    for path in sorted((REPO / "memforest" / "memtree").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                parts = name.split(".")
                if parts[0] == "memforest":
                    ok = parts[1] == "memtree" or layers.get(parts[1]) == 0
                else:
                    ok = parts[0] in sys.stdlib_module_names or parts[0] == "__future__"
                assert ok, f"{path.name} imports {name}"
