"""worker.concurrency, when not given, is the most jobs the database pool serves, and the worker
admits as many of them as the chat budget keeps busy (docs/deploy.md section 3, ADR 0099)."""

from __future__ import annotations

import pytest

from memforest.settings import (
    WORKER_CONCURRENCY_DEFAULT,
    WORKER_CONCURRENCY_MAX,
    DatabaseSettings,
    LLMSettings,
    Settings,
    WorkerSettings,
    derived_worker_concurrency,
    worker_chat_budget,
)


@pytest.fixture(autouse=True)
def _no_env_worker_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (
        "MEMFOREST_WORKER__CONCURRENCY",
        "MEMFOREST_LLM__CONCURRENCY",
        "MEMFOREST_PIPELINE__EXTRACT_CONCURRENCY",
        "MEMFOREST_DATABASE__POOL_SIZE",
        "MEMFOREST_DATABASE__MAX_OVERFLOW",
    ):
        monkeypatch.delenv(name, raising=False)


def test_the_shipped_pool_serves_ten_jobs_admitted_against_the_shipped_budget() -> None:
    settings = Settings()
    assert settings.worker.concurrency == 10 and worker_chat_budget(settings) == settings.llm.concurrency == 32


@pytest.mark.parametrize(
    ("pool_size", "max_overflow", "jobs"),
    [(10, 10, 10), (16, 16, 16), (20, 20, 20), (8, 8, WORKER_CONCURRENCY_DEFAULT), (12, 13, 12), (60, 60, 60)],
)
def test_jobs_stay_within_half_the_pool(pool_size: int, max_overflow: int, jobs: int) -> None:
    # each job alive (up to twice the jobs, with commit overlap) may hold a connection while it
    # commits; never fewer than the default
    database = DatabaseSettings(pool_size=pool_size, max_overflow=max_overflow)
    assert Settings(llm=LLMSettings(concurrency=256), database=database).worker.concurrency == jobs
    assert derived_worker_concurrency(database) == jobs


def test_a_huge_pool_is_capped() -> None:
    database = DatabaseSettings(pool_size=1000, max_overflow=1000)
    assert Settings(database=database).worker.concurrency == WORKER_CONCURRENCY_MAX


@pytest.mark.parametrize("budget", [16, 32, 256, 4096])
def test_the_budget_does_not_set_the_most_jobs_but_admits_them(budget: int) -> None:
    settings = Settings(llm=LLMSettings(concurrency=budget))
    assert settings.worker.concurrency == 10 and worker_chat_budget(settings) == budget


def test_a_given_worker_settings_is_not_changed() -> None:
    worker = WorkerSettings()
    big = DatabaseSettings(pool_size=30, max_overflow=10)
    assert Settings(worker=worker, database=big).worker.concurrency == 20
    assert worker.concurrency == WORKER_CONCURRENCY_DEFAULT and "concurrency" not in worker.model_fields_set
    assert Settings(worker=worker).worker.concurrency == 10


def test_a_copy_with_another_pool_derives_again() -> None:
    copied = Settings().model_copy(update={"database": DatabaseSettings(pool_size=30, max_overflow=10)})
    assert copied.worker.concurrency == 20 and worker_chat_budget(copied) == 32
    assert copied.model_copy(update={"database": DatabaseSettings()}).worker.concurrency == 10
    given = Settings(worker=WorkerSettings(concurrency=3)).model_copy(update={"llm": LLMSettings(concurrency=256)})
    assert given.worker.concurrency == 3 and worker_chat_budget(given) is None


def test_a_given_worker_concurrency_is_kept_and_not_admitted_against_the_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    given = Settings(llm=LLMSettings(concurrency=256), worker=WorkerSettings(concurrency=3))
    assert given.worker.concurrency == 3 and worker_chat_budget(given) is None
    monkeypatch.setenv("MEMFOREST_WORKER__CONCURRENCY", "5")
    from_env = Settings(llm=LLMSettings(concurrency=256))
    assert from_env.worker.concurrency == 5 and worker_chat_budget(from_env) is None


def test_the_pool_from_the_environment_is_followed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMFOREST_LLM__CONCURRENCY", "256")
    assert Settings().worker.concurrency == 10 and worker_chat_budget(Settings()) == 256
    monkeypatch.setenv("MEMFOREST_DATABASE__POOL_SIZE", "22")
    assert Settings().worker.concurrency == 16
