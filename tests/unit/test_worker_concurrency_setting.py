"""worker.concurrency, when not given, follows the chat budget (docs/deploy.md section 3)."""

from __future__ import annotations

import pytest

from memforest.settings import (
    WORKER_CONCURRENCY_DEFAULT,
    WORKER_CONCURRENCY_MAX,
    LLMSettings,
    PipelineSettings,
    Settings,
    WorkerSettings,
    derived_worker_concurrency,
)


@pytest.fixture(autouse=True)
def _no_env_worker_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (
        "MEMFOREST_WORKER__CONCURRENCY",
        "MEMFOREST_LLM__CONCURRENCY",
        "MEMFOREST_PIPELINE__EXTRACT_CONCURRENCY",
    ):
        monkeypatch.delenv(name, raising=False)


def test_the_shipped_budget_keeps_the_default() -> None:
    assert Settings().worker.concurrency == WORKER_CONCURRENCY_DEFAULT


@pytest.mark.parametrize(
    ("budget", "per_job", "jobs"),
    [(32, 16, 8), (128, 16, 8), (129, 16, 9), (256, 16, 16), (512, 16, 32), (256, 8, 32), (4096, 1, 256)],
)
def test_jobs_fill_the_chat_budget(budget: int, per_job: int, jobs: int) -> None:
    settings = Settings(llm=LLMSettings(concurrency=budget), pipeline=PipelineSettings(extract_concurrency=per_job))
    assert settings.worker.concurrency == jobs
    assert (
        derived_worker_concurrency(LLMSettings(concurrency=budget), PipelineSettings(extract_concurrency=per_job))
        == jobs
    )
    assert jobs <= WORKER_CONCURRENCY_MAX


def test_a_given_worker_concurrency_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings(llm=LLMSettings(concurrency=256), worker=WorkerSettings(concurrency=3)).worker.concurrency == 3
    monkeypatch.setenv("MEMFOREST_WORKER__CONCURRENCY", "5")
    assert Settings(llm=LLMSettings(concurrency=256)).worker.concurrency == 5


def test_the_budget_from_the_environment_is_followed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMFOREST_LLM__CONCURRENCY", "256")
    assert Settings().worker.concurrency == 16
