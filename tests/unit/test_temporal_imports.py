"""The temporal read path's modules import one another without a cycle, imports for type checking
included (DESIGN section 9: a part two modules share moves down, here ``temporal.state``)."""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import memforest.retrieval.temporal as temporal

PACKAGE = "memforest.retrieval.temporal"


def _imports(path: Path) -> set[str]:
    """The package's modules that ``path`` imports anywhere (``if TYPE_CHECKING:`` blocks too)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module.startswith(f"{PACKAGE}."):
                out.add(node.module.removeprefix(f"{PACKAGE}."))
            elif node.module == PACKAGE:
                out.update(a.name for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name.removeprefix(f"{PACKAGE}.") for a in node.names if a.name.startswith(f"{PACKAGE}."))
    return out


def test_the_temporal_modules_import_one_another_without_a_cycle() -> None:
    folder = Path(temporal.__file__).parent
    graph = {p.stem: _imports(p) for p in folder.glob("*.py") if p.stem != "__init__"}
    assert {"plan", "pick", "ended"} <= graph.keys()
    try:
        order = list(TopologicalSorter(graph).static_order())
    except CycleError as e:
        raise AssertionError(f"import cycle among {PACKAGE}: {e.args[1]}") from None
    assert order.index("state") < min(order.index(m) for m in ("plan", "pick", "ended"))
