"""A result file names the CPU it ran on: the model name and the features that change what a model
runtime costs, read from the first processor of ``/proc/cpuinfo`` (ADR 0112)."""

from __future__ import annotations

from pathlib import Path

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


def test_machine_info_lists_only_known_features_in_their_order() -> None:
    machine = report.machine_info()
    assert set(machine) >= {"cpu_model", "cpu_features", "cpu_count", "platform"}
    assert machine["cpu_features"] == [f for f in report.CPU_FEATURES if f in machine["cpu_features"]]
