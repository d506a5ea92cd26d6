"""A result file names the CPU it ran on: the model name and the features that change what a model
runtime costs, read from the first processor of ``/proc/cpuinfo`` (ADR 0112)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import report

CPUINFO = """processor\t: 0
vendor_id\t: GenuineIntel
model name\t: Example Xeon 9000
flags\t\t: fpu sse2 avx2 avx512f amx_bf16 amx_tile

processor\t: 1
model name\t: Another model the second core never has
flags\t\t: fpu avx512_vnni
"""


def test_the_first_processors_model_and_flags_are_read(tmp_path: Path) -> None:
    info = tmp_path / "cpuinfo"
    info.write_text(CPUINFO, encoding="utf-8")
    model, flags = report._cpuinfo(info)
    assert model == "Example Xeon 9000"
    assert {"avx2", "avx512f", "amx_bf16"} <= flags
    assert "avx512_vnni" not in flags  # the second processor's block is not read


def test_an_unreadable_cpuinfo_names_no_model(tmp_path: Path) -> None:
    assert report._cpuinfo(tmp_path / "missing") == (None, set())


ARM_CPUINFO = """processor\t: 0
BogoMIPS\t: 50.00
Features\t: fp asimd sve i8mm bf16
CPU implementer\t: 0x41
CPU part\t: 0xd40
"""


def test_an_arm_core_is_named_by_implementer_and_part_and_its_features_read(tmp_path: Path) -> None:
    info = tmp_path / "cpuinfo"
    info.write_text(ARM_CPUINFO, encoding="utf-8")
    model, flags = report._cpuinfo(info)
    assert model == "implementer 0x41 part 0xd40"
    assert {"asimd", "sve", "i8mm", "bf16"} <= flags


def test_machine_info_lists_the_known_features_the_cpu_has_in_their_order(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(report, "_cpuinfo", lambda _path: ("Example", {"amx_bf16", "avx2", "fpu", "sse2"}))
    machine = report.machine_info()
    assert machine["cpu_model"] == "Example"
    assert machine["cpu_features"] == ["avx2", "amx_bf16"]  # CPU_FEATURES' order; unknown flags left out


def test_the_python_loop_timing_is_a_positive_median() -> None:
    assert report.python_loop_ms(steps=10_000) > 0
