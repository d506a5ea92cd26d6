"""The CPU-only compose profile (issue 52 item 6): `docker compose --profile cpu up` starts
PostgreSQL, the migrations and the API on the rule-based backends, and nothing that needs a GPU or
a model server; the gpu profile keeps the vLLM stack. Read from the YAML (no Docker needed);
`docker compose config` also checks it where Docker Compose is installed."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

yaml = pytest.importorskip("yaml", reason="PyYAML is needed to check the deployment files")

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
COMPOSE = DEPLOY / "docker-compose.yml"


def _services() -> dict[str, dict[str, Any]]:
    data = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    services: dict[str, dict[str, Any]] = data["services"]
    return services


def _active(profile: str) -> dict[str, dict[str, Any]]:
    """The services `docker compose --profile PROFILE up` starts: those of no profile, and PROFILE's."""
    return {n: s for n, s in _services().items() if not s.get("profiles") or profile in s["profiles"]}


def _env(service: dict[str, Any]) -> dict[str, str]:
    return {str(k): str(v) for k, v in service.get("environment", {}).items()}


def test_the_cpu_profile_starts_the_database_the_migrations_and_the_api() -> None:
    assert set(_active("cpu")) == {"postgres", "migrate", "memforest-api-cpu"}
    assert set(_active("gpu")) == {
        "postgres",
        "migrate",
        "vllm-chat",
        "vllm-embed",
        "memforest-api",
        "memforest-worker",
    }


def test_nothing_in_the_cpu_profile_needs_a_gpu_or_a_model_server() -> None:
    for name, service in _active("cpu").items():
        assert "vllm" not in str(service.get("image", "")), name
        assert "devices" not in str(service.get("deploy", {})), name
        for dep in service.get("depends_on", {}):
            assert dep in _active("cpu"), f"{name} waits for {dep}, which the cpu profile does not start"
    api = _active("cpu")["memforest-api-cpu"]
    env = _env(api)
    assert "MEMFOREST_LLM__BASE_URL" not in env  # the rule-based extractor and summariser
    assert env["MEMFOREST_EMBEDDING__BACKEND"] == "hashed"


def test_the_cpu_api_bootstraps_and_keeps_the_rules_of_an_open_server() -> None:
    services = _services()
    api = services["memforest-api-cpu"]
    assert api["command"][:1] == ["serve"] and "--bootstrap" in api["command"]
    assert "0.0.0.0" in api["command"]
    env = _env(api)
    assert env["MEMFOREST_API__METRICS_KEY"].startswith("${METRICS_KEY:?")  # ADR 0019
    migrate = _env(services["migrate"])
    for key in ("MEMFOREST_DATABASE_URL", "MEMFOREST_DATABASE_TENANT_URL", "MEMFOREST_ADMIN_KEY"):
        assert env[key] == migrate[key], key
    # the dimension the migrate service initialises the database with
    assert env["MEMFOREST_EMBEDDING__DIM"] == migrate["MEMFOREST_EMBEDDING__DIM"]
    assert "/readyz" in " ".join(api["healthcheck"]["test"])
    assert api["depends_on"]["migrate"]["condition"] == "service_completed_successfully"


def test_the_example_env_file_selects_the_gpu_profile() -> None:
    example = (DEPLOY / ".env.example").read_text(encoding="utf-8")
    assert "COMPOSE_PROFILES=gpu" in example.splitlines()


def _has_compose() -> bool:
    if shutil.which("docker") is None:
        return False
    return subprocess.run(["docker", "compose", "version"], capture_output=True, timeout=30).returncode == 0


@pytest.mark.skipif(not _has_compose(), reason="no docker compose on PATH")
def test_docker_compose_reads_the_cpu_profile(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text((DEPLOY / ".env.example").read_text(encoding="utf-8"), encoding="utf-8")
    out = subprocess.run(
        [
            "docker",
            "compose",
            "-f",
            str(COMPOSE),
            "--env-file",
            str(env_file),
            "--profile",
            "cpu",
            "config",
            "--services",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert set(out.stdout.split()) == {"postgres", "migrate", "memforest-api-cpu"}
