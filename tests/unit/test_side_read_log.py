"""A side read (the full-text rows read beside the query) that fails after handing its rows on is
logged by its error's class (and a driver error's SQLSTATE), never by the error's text, which can
quote the question's search terms."""

from __future__ import annotations

import asyncio
import logging

import asyncpg.exceptions
import pytest
from sqlalchemy.exc import DBAPIError

from memforest.retrieval import beside

TERMS = "zanzibar marmalade"  # the question's search terms, as a driver error could quote them


async def _failed_after_handing(error: BaseException) -> None:
    rows: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    async def side() -> None:
        rows.set_result(None)  # (handed its rows on, then failed: its COMMIT)
        raise error

    task = asyncio.create_task(side())
    await asyncio.wait({task})
    beside.settle(rows, task)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("error", "said"),
    [
        (RuntimeError(f"lost while reading {TERMS!r}"), "RuntimeError"),
        (asyncpg.exceptions.QueryCanceledError(f"canceled: {TERMS}"), "QueryCanceledError, SQLSTATE 57014"),
        (
            DBAPIError(f"SELECT ... plainto_tsquery('{TERMS}')", {"q": TERMS}, asyncpg.exceptions.QueryCanceledError()),
            "QueryCanceledError, SQLSTATE 57014",
        ),
    ],
)
def test_the_log_names_the_error_without_its_text(
    error: BaseException, said: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger=beside.__name__):
        asyncio.run(_failed_after_handing(error))
    [record] = [r for r in caplog.records if "after handing its rows on" in r.getMessage()]
    message = record.getMessage()
    assert said in message and "zanzibar" not in message and "marmalade" not in message
    assert len(message) < 120 and record.exc_info is None
