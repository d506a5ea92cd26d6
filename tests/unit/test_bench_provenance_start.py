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
