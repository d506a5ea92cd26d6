"""scripts/check_layers.py: the real package passes, and each kind of planted violation fails it."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[2]


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_layers", REPO / "scripts" / "check_layers.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["check_layers"] = module
    spec.loader.exec_module(module)
    return module


check_layers = _load()

CLEAN = {
    "memforest/__init__.py": "",
    "memforest/domain.py": '"""Domain."""\nX = 1\n',
    "memforest/store/__init__.py": "",
    "memforest/store/facts.py": (
        '"""Facts."""\nfrom memforest.domain import X\n_Q = "SELECT fact_id FROM facts WHERE tenant_id = :t"\n'
    ),
    "memforest/pipeline/__init__.py": "",
    "memforest/pipeline/route.py": (
        '"""Route. Runs one SELECT per level (prose in a docstring is not SQL)."""\n'
        "from memforest.store.facts import _Q\n"
        "def f() -> str:\n    return 'select a tree'\n"
    ),
}


def _tree(tmp_path: Path, extra: dict[str, str]) -> Path:
    for rel, body in {**CLEAN, **extra}.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body, encoding="utf-8")
    return tmp_path


def test_the_package_keeps_the_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert check_layers.main(["--root", str(REPO)]) == 0, capsys.readouterr().out


def test_a_clean_tree_passes(tmp_path: Path) -> None:
    assert check_layers.check_tree(_tree(tmp_path, {})) == []


@pytest.mark.parametrize(
    ("rel", "body", "rule"),
    [
        ("memforest/pipeline/bad.py", 'Q = "UPDATE facts SET text = :x"\n', "sql"),
        ("memforest/pipeline/bad.py", 'W = "tenant_id = :t AND forest_id = :f"\n', "sql"),
        ("memforest/pipeline/bad.py", 'S = f"SET LOCAL hnsw.ef_search = {1}"\n', "sql"),
        ("memforest/store/bad.py", "from memforest.pipeline.route import f\n", "layer"),
        ("memforest/pipeline/bad.py", "def g() -> None:\n    from memforest.store import facts\n", "local-import"),
        ("memforest/pipeline/bad.py", "X = 1\n" * 501, "size"),
        ("memforest/gadgets.py", "X = 1\n", "unassigned"),
        ("memforest/api/__init__.py", "from memforest.mcp import tools\n", "adapter"),
        ("memforest/client/__init__.py", "from memforest.store import facts\n", "adapter"),
        ("memforest/integrations/bad.py", "from memforest.app import facts\n", "adapter"),
        ("memforest/integrations/bad.py", "from memforest.mcp import tools\n", "adapter"),
    ],
)
def test_a_planted_violation_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], rel: str, body: str, rule: str
) -> None:
    root = _tree(tmp_path, {rel: body, "memforest/mcp/__init__.py": "", "memforest/mcp/tools.py": ""})
    assert check_layers.main(["--root", str(root)]) == 1
    out = capsys.readouterr().out
    assert f": {rule}: " in out, out
