"""A result file names the commit its bench started on, and says so when HEAD moved during the run
(review s10 V17: a recall file named the commit it ended at, whose code it had not run)."""

from __future__ import annotations

from typing import Any

import pytest

from bench import report


def test_provenance_names_the_start_and_the_end_when_head_moved(monkeypatch: pytest.MonkeyPatch) -> None:
    start: dict[str, Any] = {"commit": "a" * 40, "dirty": False}
    end: dict[str, Any] = {"commit": "b" * 40, "dirty": False}
    monkeypatch.setattr(report, "_AT_START", start)
    monkeypatch.setattr(report, "git_commit", lambda: end)
    git = report.provenance(None, argv=[])["git"]
    assert git == {"commit": "a" * 40, "dirty": False, "at_end": end}


def test_provenance_of_a_run_nothing_moved_under_is_its_commit(monkeypatch: pytest.MonkeyPatch) -> None:
    same: dict[str, Any] = {"commit": "c" * 40, "dirty": False}
    monkeypatch.setattr(report, "_AT_START", same)
    monkeypatch.setattr(report, "git_commit", lambda: dict(same))
    assert report.provenance(None, argv=[])["git"] == same


def test_provenance_records_the_settings_environment_but_no_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    """A run's settings read from MEMFOREST_* variables are recorded (a cell-vectors or quantisation
    arm is told apart by them); keys and addresses only by name."""
    monkeypatch.setenv("MEMFOREST_EMBEDDING__CELL_VECTORS", "facts")
    monkeypatch.setenv("MEMFOREST_LLM__API_KEY", "sk-not-recorded")
    monkeypatch.setenv("MEMFOREST_DATABASE_URL", "postgresql://u:pw@127.0.0.1/db")
    env = report.provenance(None, argv=[])["settings_env"]
    assert env["MEMFOREST_EMBEDDING__CELL_VECTORS"] == "facts"
    assert env["MEMFOREST_LLM__API_KEY"] == "(set)" and env["MEMFOREST_DATABASE_URL"] == "(set)"
    assert "sk-not-recorded" not in str(env) and "pw@" not in str(env)
