"""worker.concurrency, when not given, follows the chat budget (docs/deploy.md section 3)."""

from __future__ import annotations

import pytest

from memforest.settings import (
    WORKER_CONCURRENCY_DEFAULT,
    WORKER_CONCURRENCY_MAX,
    DatabaseSettings,
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
        "MEMFOREST_DATABASE__POOL_SIZE",
        "MEMFOREST_DATABASE__MAX_OVERFLOW",
    ):
        monkeypatch.delenv(name, raising=False)


def test_the_shipped_budget_keeps_the_default() -> None:
    assert Settings().worker.concurrency == WORKER_CONCURRENCY_DEFAULT


# a pool of 600 serves 300 jobs: the budget alone decides
_LARGE_POOL = DatabaseSettings(pool_size=300, max_overflow=300)


@pytest.mark.parametrize(
    ("budget", "per_job", "jobs"),
    [(32, 16, 8), (128, 16, 8), (129, 16, 9), (256, 16, 16), (512, 16, 32), (256, 8, 32), (4096, 1, 256)],
)
def test_jobs_fill_the_chat_budget(budget: int, per_job: int, jobs: int) -> None:
    llm, pipeline = LLMSettings(concurrency=budget), PipelineSettings(extract_concurrency=per_job)
    settings = Settings(llm=llm, pipeline=pipeline, database=_LARGE_POOL)
    assert settings.worker.concurrency == jobs
    assert derived_worker_concurrency(llm, pipeline, _LARGE_POOL) == jobs
    assert jobs <= WORKER_CONCURRENCY_MAX


@pytest.mark.parametrize(
    ("pool_size", "max_overflow", "jobs"), [(10, 10, 10), (16, 16, 16), (20, 20, 16), (8, 8, 8), (12, 13, 12)]
)
def test_jobs_stay_within_half_the_pool(pool_size: int, max_overflow: int, jobs: int) -> None:
    # each job alive (up to twice the jobs, with commit overlap) may hold a connection while it
    # commits; the shipped pool (10 + 10) serves 10 of the 16 a 256-slot budget wants, and never
    # fewer than the default are run
    database = DatabaseSettings(pool_size=pool_size, max_overflow=max_overflow)
    assert Settings(llm=LLMSettings(concurrency=256), database=database).worker.concurrency == jobs


def test_a_budget_of_256_with_the_shipped_pool() -> None:
    settings = Settings(llm=LLMSettings(concurrency=256))
    pool = settings.database.pool_size + settings.database.max_overflow
    assert pool == 20 and settings.worker.concurrency == 10 and 2 * settings.worker.concurrency <= pool


def test_a_given_worker_settings_is_not_changed() -> None:
    worker = WorkerSettings()
    assert Settings(worker=worker, llm=LLMSettings(concurrency=256), database=_LARGE_POOL).worker.concurrency == 16
    assert worker.concurrency == WORKER_CONCURRENCY_DEFAULT and "concurrency" not in worker.model_fields_set
    assert Settings(worker=worker, llm=LLMSettings(concurrency=32)).worker.concurrency == 8


def test_a_copy_with_another_budget_derives_again() -> None:
    copied = Settings(database=_LARGE_POOL).model_copy(update={"llm": LLMSettings(concurrency=256)})
    assert copied.worker.concurrency == 16
    assert copied.model_copy(update={"database": DatabaseSettings()}).worker.concurrency == 10
    given = Settings(worker=WorkerSettings(concurrency=3)).model_copy(update={"llm": LLMSettings(concurrency=256)})
    assert given.worker.concurrency == 3


def test_a_given_worker_concurrency_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings(llm=LLMSettings(concurrency=256), worker=WorkerSettings(concurrency=3)).worker.concurrency == 3
    monkeypatch.setenv("MEMFOREST_WORKER__CONCURRENCY", "5")
    assert Settings(llm=LLMSettings(concurrency=256)).worker.concurrency == 5


def test_the_budget_from_the_environment_is_followed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMFOREST_LLM__CONCURRENCY", "256")
    assert Settings().worker.concurrency == 10
    monkeypatch.setenv("MEMFOREST_DATABASE__POOL_SIZE", "22")
    assert Settings().worker.concurrency == 16
