"""Static checks of the deployment files under deploy/ (compose, Dockerfile, Helm chart) and
docs/deploy.md. No Docker, GPU or cluster needed; `helm lint`/`helm template` run only when a
``helm`` binary is on PATH."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from memforest.settings import Settings

yaml = pytest.importorskip("yaml", reason="PyYAML is needed to check the deployment files")

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
COMPOSE = DEPLOY / "docker-compose.yml"
CHART = DEPLOY / "helm" / "memforest"
TEMPLATES = CHART / "templates"
CI_VALUES = CHART / "ci" / "test-values.yaml"
DOCS = ROOT / "docs" / "deploy.md"

ENV_NAME = re.compile(r"\bMEMFOREST_[A-Z0-9_]*[A-Z0-9]\b")


# --------------------------------------------------------------------------- helpers


def _load(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _compose() -> dict[str, Any]:
    data = _load(COMPOSE)
    assert isinstance(data, dict)
    return data


def _plain_yaml_files() -> list[Path]:
    """Every YAML file under deploy/ that is not a Go template."""
    files = sorted(p for p in DEPLOY.rglob("*") if p.suffix in {".yml", ".yaml"} and p.is_file())
    return [p for p in files if TEMPLATES not in p.parents]


def setting_exists(env_name: str) -> bool:
    """Whether ``MEMFOREST_X`` / ``MEMFOREST_SECTION__FIELD`` names a field of Settings."""
    if not env_name.startswith("MEMFOREST_"):
        return False
    parts = env_name[len("MEMFOREST_") :].lower().split("__")
    fields: dict[str, Any] = Settings.model_fields
    for i, part in enumerate(parts):
        if part not in fields:
            return False
        annotation = fields[part].annotation
        last = i == len(parts) - 1
        if last:
            return True
        if not (isinstance(annotation, type) and issubclass(annotation, BaseModel)):
            return False
        fields = annotation.model_fields
    return False


def _env_names(text: str) -> set[str]:
    return set(ENV_NAME.findall(text))


def _service_env(service: dict[str, Any]) -> dict[str, str]:
    env = service.get("environment", {})
    if isinstance(env, list):
        return dict(item.split("=", 1) if "=" in item else (item, "") for item in env)
    return {str(k): str(v) for k, v in env.items()}


def _gpu_devices(service: dict[str, Any]) -> list[dict[str, Any]]:
    devices = service.get("deploy", {}).get("resources", {}).get("reservations", {}).get("devices", [])
    return [d for d in devices if "gpu" in d.get("capabilities", [])]


def _command_text(service: dict[str, Any]) -> str:
    cmd = service.get("command", [])
    return " ".join(cmd) if isinstance(cmd, list) else str(cmd)


# --------------------------------------------------------------------------- settings names


def test_setting_exists_helper() -> None:
    assert setting_exists("MEMFOREST_DATABASE_URL")
    assert setting_exists("MEMFOREST_ADMIN_KEY")
    assert setting_exists("MEMFOREST_LLM__CONCURRENCY")
    assert setting_exists("MEMFOREST_EMBEDDING__DIM")
    assert not setting_exists("MEMFOREST_LLM__NOPE")
    assert not setting_exists("MEMFOREST_NOPE")
    assert not setting_exists("MEMFOREST_DATABASE_URL__X")


@pytest.mark.parametrize(
    "path",
    [
        COMPOSE,
        DEPLOY / ".env.example",
        DEPLOY / "Dockerfile",
        DOCS,
        *sorted(CHART.rglob("*.yaml")),
        *sorted(CHART.rglob("*.tpl")),
    ],
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_memforest_env_names_are_real_settings(path: Path) -> None:
    names = _env_names(path.read_text(encoding="utf-8"))
    unknown = sorted(n for n in names if not setting_exists(n))
    assert not unknown, f"{path.name} uses MEMFOREST_ names that Settings does not define: {unknown}"


# --------------------------------------------------------------------------- plain YAML


@pytest.mark.parametrize("path", _plain_yaml_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_plain_yaml_parses(path: Path) -> None:
    assert _load(path) is not None


# --------------------------------------------------------------------------- compose


def test_compose_services_present() -> None:
    services = _compose()["services"]
    assert set(services) >= {
        "postgres",
        "migrate",
        "vllm-chat",
        "vllm-embed",
        "memforest-api",
        "memforest-worker",
    }


def test_compose_healthchecks() -> None:
    services = _compose()["services"]
    for name in ("postgres", "vllm-chat", "vllm-embed", "memforest-api"):
        hc = services[name].get("healthcheck")
        assert hc and hc.get("test"), f"{name} has no healthcheck"
    assert "pg_isready" in " ".join(services["postgres"]["healthcheck"]["test"])
    for name in ("vllm-chat", "vllm-embed"):
        assert "/health" in " ".join(services[name]["healthcheck"]["test"])
    assert "/readyz" in " ".join(services["memforest-api"]["healthcheck"]["test"])


def test_compose_postgres_image_and_volume() -> None:
    pg = _compose()["services"]["postgres"]
    assert pg["image"].startswith("pgvector/pgvector:pg")
    assert int(pg["image"].rsplit(":pg", 1)[1]) >= 15
    assert any(str(v).endswith(":/var/lib/postgresql/data") for v in pg["volumes"])


def test_compose_start_order() -> None:
    services = _compose()["services"]
    assert services["migrate"]["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert services["migrate"]["command"] == ["db", "upgrade"]
    for name in ("memforest-api", "memforest-worker"):
        deps = services[name]["depends_on"]
        assert deps["migrate"]["condition"] == "service_completed_successfully"
        assert deps["vllm-chat"]["condition"] == "service_healthy"
        assert deps["vllm-embed"]["condition"] == "service_healthy"


def test_compose_memforest_commands() -> None:
    services = _compose()["services"]
    api = services["memforest-api"]
    assert api["command"][:1] == ["serve"] and "8420" in api["command"]
    assert any(str(p).endswith(":8420") for p in api["ports"])
    worker = services["memforest-worker"]
    assert worker["command"] == ["worker"]
    assert worker["deploy"]["replicas"] == 2


def test_compose_vllm_services_request_gpus() -> None:
    services = _compose()["services"]
    chat = _gpu_devices(services["vllm-chat"])
    embed = _gpu_devices(services["vllm-embed"])
    assert chat and embed
    assert chat[0]["driver"] == "nvidia" and chat[0]["device_ids"] == ["0"]
    assert embed[0]["driver"] == "nvidia" and embed[0]["device_ids"] == ["1"]
    for name in ("vllm-chat", "vllm-embed"):
        assert "vllm/vllm-openai:" in services[name]["image"]


def test_compose_vllm_flags() -> None:
    services = _compose()["services"]
    chat = _command_text(services["vllm-chat"])
    for flag in (
        "--max-num-seqs",
        "--gpu-memory-utilization",
        "--enable-prefix-caching",
        "--max-model-len",
        "--structured-outputs-config.backend",
    ):
        assert flag in chat, flag
    embed = _command_text(services["vllm-embed"])
    assert "--runner=pooling" in embed and "--convert=embed" in embed
    assert "Qwen3-Embedding-0.6B" in embed


def test_compose_memforest_env() -> None:
    services = _compose()["services"]
    for name in ("migrate", "memforest-api", "memforest-worker"):
        env = _service_env(services[name])
        for key in env:
            if key.startswith("MEMFOREST_"):
                assert setting_exists(key), f"{name}: {key}"
        assert env["MEMFOREST_DATABASE_URL"].startswith("postgresql://")
        assert "@postgres:5432/" in env["MEMFOREST_DATABASE_URL"]
        assert env["MEMFOREST_EMBEDDING__BACKEND"] == "http"
        assert env["MEMFOREST_LLM__BASE_URL"] == "http://vllm-chat:8000/v1"
        assert env["MEMFOREST_EMBEDDING__BASE_URL"] == "http://vllm-embed:8000/v1"
        assert "1024" in env["MEMFOREST_EMBEDDING__DIM"]
        assert "MEMFOREST_ADMIN_KEY" in env


def test_compose_secrets_come_from_env_file() -> None:
    text = COMPOSE.read_text(encoding="utf-8")
    assert "${POSTGRES_PASSWORD:?" in text
    assert "${MEMFOREST_ADMIN_KEY:?" in text
    assert "${TENANT_DB_PASSWORD:?" in text
    assert "${METRICS_KEY:?" in text
    example = (DEPLOY / ".env.example").read_text(encoding="utf-8")
    keys = {
        line.split("=", 1)[0] for line in example.splitlines() if line.strip() and not line.lstrip().startswith("#")
    }
    assert {"POSTGRES_PASSWORD", "MEMFOREST_ADMIN_KEY", "TENANT_DB_USER", "TENANT_DB_PASSWORD", "METRICS_KEY"} <= keys
    # Every variable compose interpolates is documented in the example.
    used = set(re.findall(r"\$\{([A-Z0-9_]+)", text))
    assert used <= keys, sorted(used - keys)
    for line in example.splitlines():
        if line.startswith(("POSTGRES_PASSWORD=", "MEMFOREST_ADMIN_KEY=", "TENANT_DB_PASSWORD=", "METRICS_KEY=")):
            assert "change-me" in line, "the example must hold placeholders, not secrets"


def test_compose_tenant_work_logs_in_as_its_own_role() -> None:
    # ADR 0018: the owner (POSTGRES_USER, a superuser in this image) migrates; tenant work logs in as
    # a role that is only a member of memforest_app, which `db upgrade` (the migrate service) creates.
    services = _compose()["services"]
    for name in ("migrate", "memforest-api", "memforest-worker"):
        env = _service_env(services[name])
        tenant, owner = env["MEMFOREST_DATABASE_TENANT_URL"], env["MEMFOREST_DATABASE_URL"]
        assert tenant.startswith("postgresql://") and "@postgres:5432/" in tenant, name
        assert "${TENANT_DB_USER:-memforest_tenant}" in tenant and "${TENANT_DB_PASSWORD:?" in tenant, name
        assert "POSTGRES_USER" not in tenant and "POSTGRES_PASSWORD" not in tenant, name
        assert tenant.rsplit("/", 1)[1] == owner.rsplit("/", 1)[1], "the same database"
    assert services["migrate"]["command"] == ["db", "upgrade"]


def test_compose_servers_beyond_loopback_have_a_metrics_key() -> None:
    # ADR 0019: serve refuses to listen beyond loopback without MEMFOREST_API__METRICS_KEY.
    services = _compose()["services"]
    serving = {n: s for n, s in services.items() if s.get("command", [None])[:1] == ["serve"]}
    assert serving
    for name, service in serving.items():
        cmd = service["command"]
        host = cmd[cmd.index("--host") + 1] if "--host" in cmd else "127.0.0.1"
        if host not in {"127.0.0.1", "localhost", "::1"}:
            assert _service_env(service).get("MEMFOREST_API__METRICS_KEY", "").startswith("${METRICS_KEY:?"), name


def test_dockerfile() -> None:
    text = (DEPLOY / "Dockerfile").read_text(encoding="utf-8")
    assert re.search(r"^FROM python:3\.11-slim\b", text, re.M)
    assert "pip install" in text
    users = re.findall(r"^USER\s+(\S+)", text, re.M)
    assert users and users[-1].split(":")[0] not in {"root", "0"}
    assert re.search(r'^ENTRYPOINT \["memforest"\]', text, re.M)
    assert "COPY migrations" in text
    # The default command binds 0.0.0.0: the image says which settings it needs for that.
    assert re.search(r'^CMD \["serve", "--host", "0\.0\.0\.0"', text, re.M)
    for name in ("MEMFOREST_API__METRICS_KEY", "MEMFOREST_DATABASE_TENANT_URL"):
        assert name in text, name


# --------------------------------------------------------------------------- Helm chart


def test_chart_metadata() -> None:
    chart = _load(CHART / "Chart.yaml")
    assert chart["apiVersion"] == "v2"
    assert chart["name"] == "memforest"
    assert chart["version"] and chart["appVersion"]


def _template_files() -> list[Path]:
    return sorted(p for p in TEMPLATES.iterdir() if p.is_file())


ACTION = re.compile(r"\{\{-?\s*(.*?)\s*-?\}\}", re.S)
COMMENT = re.compile(r"\{\{-?\s*/\*.*?\*/\s*-?\}\}", re.S)
OPENERS = {"if", "range", "with", "define", "block"}


def _actions(text: str) -> list[str]:
    return [m.group(1) for m in ACTION.finditer(COMMENT.sub("", text))]


@pytest.mark.parametrize("path", _template_files(), ids=lambda p: p.name)
def test_template_delimiters_balanced(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count("{{") == text.count("}}"), "unbalanced {{ }}"
    depth = 0
    for action in _actions(text):
        word = action.split(None, 1)[0] if action else ""
        if word in OPENERS:
            depth += 1
        elif word == "end":
            depth -= 1
            assert depth >= 0, "{{ end }} without an opening block"
    assert depth == 0, "a block ({{ if }}/{{ range }}/{{ with }}/{{ define }}) is not closed"


def test_template_includes_are_defined() -> None:
    defined: set[str] = set()
    used: set[str] = set()
    for path in _template_files():
        text = path.read_text(encoding="utf-8")
        defined |= set(re.findall(r'\{\{-?\s*define\s+"([^"]+)"', text))
        used |= set(re.findall(r'\b(?:include|template)\s+"([^"]+)"', text))
    assert used, "templates include no helpers?"
    assert used <= defined, sorted(used - defined)


def _has_path(values: Any, path: list[str]) -> bool:
    node = values
    for key in path:
        if not isinstance(node, dict) or key not in node:
            return False
        node = node[key]
    return True


def test_template_values_references_exist() -> None:
    values = _load(CHART / "values.yaml")
    missing: set[str] = set()
    for path in _template_files():
        for ref in re.findall(r"\.Values((?:\.[A-Za-z_][A-Za-z0-9_]*)+)", path.read_text(encoding="utf-8")):
            keys = ref.strip(".").split(".")
            if not _has_path(values, keys):
                missing.add(f"{path.name}: .Values.{'.'.join(keys)}")
    assert not missing, sorted(missing)


def test_values_gpu_and_autoscaling_defaults() -> None:
    values = _load(CHART / "values.yaml")
    for server in ("chat", "embed"):
        res = values["vllm"][server]["resources"]
        assert res["limits"]["nvidia.com/gpu"] == 1
    assert values["config"]["embedding"]["dim"] == 1024
    assert values["config"]["llm"]["concurrency"] <= values["vllm"]["chat"]["maxNumSeqs"]
    assert values["worker"]["autoscaling"]["metricName"] == "memforest_queue_depth"
    assert values["worker"]["autoscaling"]["kind"] in {"hpa", "keda"}
    assert values["secrets"]["adminKey"] == "" and values["secrets"]["databaseUrl"] == ""
    assert values["secrets"]["tenantDatabaseUrl"] == "" and values["secrets"]["metricsKey"] == ""


def test_chart_passes_the_tenant_login_and_the_metrics_key() -> None:
    values = _load(CHART / "values.yaml")
    keys = values["secrets"]["keys"]
    assert keys["tenantDatabaseUrl"] == "MEMFOREST_DATABASE_TENANT_URL"
    assert keys["metricsKey"] == "MEMFOREST_API__METRICS_KEY"
    assert all(setting_exists(keys[k]) for k in ("adminKey", "databaseUrl", "tenantDatabaseUrl", "metricsKey"))
    secret = (TEMPLATES / "secret.yaml").read_text(encoding="utf-8")
    for k in ("tenantDatabaseUrl", "metricsKey"):
        assert f'required "secrets.{k} is required' in secret and f".Values.secrets.keys.{k}" in secret, k

    def env_from_secret(text: str, name: str, key: str) -> bool:
        block = re.search(rf"- name: {name}\n(\s+valueFrom:\n(?:\s+.*\n){{1,4}})", text)
        return block is not None and f".Values.secrets.keys.{key} }}}}" in block.group(1)

    helpers = (TEMPLATES / "_helpers.tpl").read_text(encoding="utf-8")
    assert env_from_secret(helpers, "MEMFOREST_DATABASE_TENANT_URL", "tenantDatabaseUrl")  # api and worker
    for deployment in ("api-deployment.yaml", "worker-deployment.yaml"):
        assert 'include "memforest.secretEnv"' in (TEMPLATES / deployment).read_text(encoding="utf-8")
    api = (TEMPLATES / "api-deployment.yaml").read_text(encoding="utf-8")
    assert '"--host", "0.0.0.0"' in api and env_from_secret(api, "MEMFOREST_API__METRICS_KEY", "metricsKey")
    job = (TEMPLATES / "migrations-job.yaml").read_text(encoding="utf-8")
    assert env_from_secret(job, "MEMFOREST_DATABASE_TENANT_URL", "tenantDatabaseUrl")  # db upgrade creates the role
    assert job.count(".Values.secrets.tenantDatabaseUrl") == 1  # and the hook Secret carries it
    ci = _load(CI_VALUES)["secrets"]
    assert ci["tenantDatabaseUrl"].startswith("postgresql://memforest_tenant:") and ci["metricsKey"]


def test_deploy_docs_name_the_roles_and_keys() -> None:
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("### Row-level security and roles", 1)[1].split("\n## ", 1)[0]
    for word in (
        "MEMFOREST_DATABASE_TENANT_URL",
        "TENANT_DB_PASSWORD",
        "METRICS_KEY",
        "MEMFOREST_API__METRICS_KEY",
        "secrets.tenantDatabaseUrl",
        "secrets.metricsKey",
        "CREATEROLE",
    ):
        assert word in section, word


def test_expected_templates_exist() -> None:
    names = {p.name for p in _template_files()}
    assert {
        "_helpers.tpl",
        "api-deployment.yaml",
        "api-service.yaml",
        "worker-deployment.yaml",
        "worker-autoscaler.yaml",
        "vllm-chat.yaml",
        "vllm-embed.yaml",
        "migrations-job.yaml",
        "secret.yaml",
        "configmap.yaml",
    } <= names
    job = (TEMPLATES / "migrations-job.yaml").read_text(encoding="utf-8")
    assert "pre-install,pre-upgrade" in job


# --------------------------------------------------------------------------- helm binary

HELM = shutil.which("helm")
needs_helm = pytest.mark.skipif(HELM is None, reason="helm binary not on PATH")


def _helm(*args: str) -> subprocess.CompletedProcess[str]:
    assert HELM is not None
    return subprocess.run([HELM, *args], capture_output=True, text=True, timeout=120, check=False)


@needs_helm
def test_helm_lint() -> None:
    out = _helm("lint", str(CHART), "-f", str(CI_VALUES))
    assert out.returncode == 0, out.stdout + out.stderr


def _render(*extra: str) -> list[dict[str, Any]]:
    out = _helm("template", "t", str(CHART), "-f", str(CI_VALUES), *extra)
    assert out.returncode == 0, out.stdout + out.stderr
    return [d for d in yaml.safe_load_all(out.stdout) if d]


@needs_helm
def test_helm_template_renders() -> None:
    docs = _render()
    kinds: dict[str, list[dict[str, Any]]] = {}
    for d in docs:
        kinds.setdefault(d["kind"], []).append(d)
    assert len(kinds["Deployment"]) == 4
    assert len(kinds["Service"]) == 3
    assert kinds["HorizontalPodAutoscaler"][0]["spec"]["metrics"][0]["external"]["metric"]["name"] == (
        "memforest_queue_depth"
    )
    assert any(j["metadata"]["annotations"]["helm.sh/hook"] == "pre-install,pre-upgrade" for j in kinds["Job"])
    gpu = [
        d
        for d in kinds["Deployment"]
        if d["spec"]["template"]["spec"]["containers"][0]["resources"].get("limits", {}).get("nvidia.com/gpu")
    ]
    assert len(gpu) == 2
    cm = kinds["ConfigMap"][0]["data"]
    assert all(setting_exists(k) for k in cm)
    for deployment in kinds["Deployment"]:
        container = deployment["spec"]["template"]["spec"]["containers"][0]
        names = {e["name"] for e in container.get("env", [])}
        if deployment["metadata"]["name"].endswith(("-api", "-worker")):
            assert "MEMFOREST_DATABASE_TENANT_URL" in names, deployment["metadata"]["name"]
        if deployment["metadata"]["name"].endswith("-api"):
            assert "MEMFOREST_API__METRICS_KEY" in names
    migrate = next(j for j in kinds["Job"] if j["metadata"]["name"].endswith("-migrate"))
    job_env = {e["name"] for e in migrate["spec"]["template"]["spec"]["containers"][0]["env"]}
    assert "MEMFOREST_DATABASE_TENANT_URL" in job_env
    secret = next(d for d in kinds["Secret"] if d["metadata"]["name"] == "t-memforest")["stringData"]
    assert {"MEMFOREST_DATABASE_TENANT_URL", "MEMFOREST_API__METRICS_KEY"} <= set(secret)
    assert cm["MEMFOREST_LLM__BASE_URL"] == "http://t-memforest-vllm-chat:8000/v1"


@needs_helm
def test_helm_template_variants() -> None:
    keda = _render("--set", "worker.autoscaling.kind=keda")
    assert any(d["kind"] == "ScaledObject" for d in keda)
    existing = _render("--set", "secrets.existingSecret=mine")
    assert not any(d["kind"] == "Secret" for d in existing)
    no_gpu = _render("--set", "vllm.chat.enabled=false", "--set", "vllm.embed.enabled=false")
    assert sum(d["kind"] == "Deployment" for d in no_gpu) == 2


@needs_helm
def test_helm_template_requires_secrets() -> None:
    out = _helm("template", "t", str(CHART))
    assert out.returncode != 0
    assert "secrets.adminKey is required" in out.stderr or "secrets.databaseUrl is required" in out.stderr
