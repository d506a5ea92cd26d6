"""scripts/check_layers.py, its `planner` and `work-log` rules: planted violations fail, look-alikes pass."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[2]


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_layers_rules", REPO / "scripts" / "check_layers.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["check_layers_rules"] = module
    spec.loader.exec_module(module)
    return module


check_layers = _load()

BASE = {
    "memforest/__init__.py": "",
    "memforest/domain.py": '"""Domain."""\nX = 1\n',
    "memforest/db/__init__.py": "",
    "memforest/store/__init__.py": "",
    "memforest/pipeline/__init__.py": "",
    "memforest/retrieval/__init__.py": "",
    "memforest/testing/__init__.py": "",
}


def _rules(tmp_path: Path, rel: str, body: str) -> set[str]:
    for path_rel, text in {**BASE, rel: body}.items():
        path = tmp_path / path_rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return {v.rule for v in check_layers.check_tree(tmp_path)}


@pytest.mark.parametrize(
    ("rel", "body"),
    [
        ("memforest/pipeline/bad.py", "X = 1  # measured in session 12\n"),
        ("memforest/pipeline/bad.py", "# sessions 11 and 13 tried it\nX = 1\n"),
        ("memforest/pipeline/bad.py", '"""Why (ADR 0025 session-19 addendum)."""\nX = 1\n'),
        ("memforest/pipeline/bad.py", 'def f() -> None:\n    """See the addendum."""\n'),
        ("memforest/pipeline/bad.py", "X = 1  # saves 0.3 ms a query\n"),
        ("memforest/pipeline/bad.py", "X = 1  # 13 us a call against 0.16\n"),
        ("memforest/pipeline/bad.py", "X = 1  # ~1 ms of planning\n"),
        ("memforest/pipeline/bad.py", 'class C:\n    """Costs 4.0us a text."""\n'),
        ("memforest/testing/sim.py", "X = 1  # calibrated in session 4\n"),
    ],
)
def test_a_work_log_reference_in_prose_fails(tmp_path: Path, rel: str, body: str) -> None:
    assert "work-log" in _rules(tmp_path, rel, body)


@pytest.mark.parametrize(
    "body",
    [
        "SIDE_POOL_WAIT_S = 0.05\nWAIT = '50 ms'\n",  # code and strings are not prose
        "X = 1  # a side transaction waits at most SIDE_POOL_WAIT_S for a connection (ADR 0024)\n",
        '"""A session of 2 turns; session 3 of 5 commits after session 2 of 5."""\n',
        "# the first 20 sessions, 3 items, 10 ms_budget, 5 msgs, 2 users, items 1-3 (ADR 0022)\nX = 1\n",
        "# poll every poll_interval_s; p50 and top-10 lists; 0.5 s at most\nX = 1\n",
        "X = 1  # sessions of one forest commit in acceptance order (ADR 0014)\n",
    ],
)
def test_present_tense_prose_and_code_pass(tmp_path: Path, body: str) -> None:
    assert _rules(tmp_path, "memforest/pipeline/good.py", body) == set()


def test_a_simulators_documented_latency_is_its_specification(tmp_path: Path) -> None:
    body = '"""Decode takes ``tpot_ms`` = 5.8 ms a token at one sequence."""\n'
    assert _rules(tmp_path, "memforest/testing/sim.py", body) == set()


@pytest.mark.parametrize(
    "body",
    [
        "from memforest.db.engine import GENERIC_PLANS\n",
        "from memforest.db import engine\nX = engine.KEY_LOOKUP_PLANS\n",
        "from memforest.db.engine import CUSTOM_PLANS_AGAIN as again\n",
        "def f(knobs: dict[str, str]) -> dict[str, str]:\n    return knobs | GENERIC_PLANS_NEXT\n",
        "X = {'plan_cache_mode': 'force_generic_plan'}\n",
        "X = f\"set_config('enable_seqscan', {'off'!r}, true)\"\n",
        "X = CUSTOM_PLANS\n",
    ],
)
def test_planner_names_outside_store_and_db_fail(tmp_path: Path, body: str) -> None:
    assert "planner" in _rules(tmp_path, "memforest/retrieval/bad.py", body)


@pytest.mark.parametrize("home", ["store", "db"])
def test_planner_names_in_store_and_db_pass(tmp_path: Path, home: str) -> None:
    body = (
        'GENERIC_PLANS = {"plan_cache_mode": "force_generic_plan", "enable_seqscan": "off"}\n'
        "KEY_LOOKUP_PLANS = str(GENERIC_PLANS)\n"
    )
    assert _rules(tmp_path, f"memforest/{home}/plans.py", body) == set()


def test_a_docstring_naming_the_setting_is_prose_not_planner_code(tmp_path: Path) -> None:
    body = '"""Reads by key; the store decides plan_cache_mode (ADR 0022)."""\nX = 1\n'
    assert _rules(tmp_path, "memforest/retrieval/good.py", body) == set()


def test_pending_paths_are_reported_not_failed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _rules(tmp_path, "memforest/retrieval/later.py", "X = 1  # session 9\n")
    monkeypatch.setattr(check_layers, "PENDING", {"work-log": ("retrieval/",), "planner": ("pipeline/old.py",)})
    assert check_layers.main(["--root", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "pending: " in out and ": work-log: " in out
    assert "PENDING['planner'] entry 'pipeline/old.py' matches nothing now" in out
    monkeypatch.setattr(check_layers, "PENDING", {})
    assert check_layers.main(["--root", str(tmp_path)]) == 1
