"""``memforest --help`` and ``--version`` load no heavy module (issue 52 item 6): the command line
imports only the module of the command it runs, from a table that names every command."""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import json
import subprocess
import sys
from pathlib import Path

import pytest

import memforest
from memforest.cli import all_commands, build_parser, command_name, main

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("sqlalchemy", "numpy", "fastapi", "pydantic", "asyncpg", "uvicorn", "mcp", "memforest.settings")

_PROBE = """
import json, sys
from memforest.cli import main
try:
    main(sys.argv[1:])
except SystemExit as exc:
    code = exc.code
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


def _probe(*argv: str) -> tuple[int, list[str], str]:
    out = subprocess.run(
        [sys.executable, "-c", _PROBE, *argv], capture_output=True, text=True, cwd=ROOT, timeout=60, check=True
    )
    result = json.loads(out.stdout.strip().splitlines()[-1])
    return int(result["code"] or 0), list(result["modules"]), out.stdout


@pytest.mark.parametrize("argv", [["--help"], ["--version"], ["-v", "--help"]])
def test_help_and_version_import_no_heavy_module(argv: list[str]) -> None:
    code, modules, _ = _probe(*argv)
    assert code == 0
    loaded = [m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY)]
    assert loaded == [], f"`memforest {' '.join(argv)}` imported {loaded[:10]}"


def test_help_lists_every_command_sorted() -> None:
    _, _, out = _probe("--help")
    names = [spec.name for spec in all_commands()]
    assert names == sorted(names)
    for name in ("tenant", "key", "serve", "mcp", "query", "ingest"):
        assert f"\n    {name}" in out


def test_version_is_the_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert memforest.__version__ == importlib.metadata.version("memforest")
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out.strip() == f"memforest {memforest.__version__}"


def _registered(module: str) -> dict[str, str | None]:
    sub = argparse.ArgumentParser().add_subparsers()
    importlib.import_module(module).register(sub)
    return {action.dest: action.help for action in sub._choices_actions}


def test_the_table_matches_what_the_modules_register() -> None:
    specs = all_commands()
    for module in {spec.module for spec in specs}:
        table = {spec.name: spec.help for spec in specs if spec.module == module}
        assert _registered(module) == table, f"memforest.commands.COMMANDS is out of date for {module}"


def test_the_command_is_the_first_argument_that_is_not_an_option() -> None:
    assert command_name(["-v", "query", "--forest", "f", "q"]) == "query"
    assert command_name(["--help"]) is None
    assert command_name([]) is None


def test_only_the_chosen_command_is_registered_in_full() -> None:
    parser = build_parser("tenant")
    args = parser.parse_args(["tenant", "create", "acme"])
    assert args.name == "acme" and callable(args.handler)
    # a name missing from the table loads every module, so argparse can still name the mistake
    with pytest.raises(SystemExit):
        build_parser("no-such-command").parse_args(["no-such-command"])


def test_an_unknown_command_is_one_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["tenatn", "list"])
    assert info.value.code == 2
    assert "invalid choice: 'tenatn'" in capsys.readouterr().err
