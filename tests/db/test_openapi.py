"""``/openapi.json`` names a response schema for every operation, and the wire models agree with
the settings and the JSON the API sends."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from pydantic import SecretStr

from memforest.app.problems import PROBLEM_CONTENT_TYPE
from memforest.db.engine import Database
from memforest.schemas import EvidenceItem, Job, Tenant, session
from memforest.servers import create_app
from memforest.settings import APISettings, Settings

ADMIN = "Adm1n-" + "q3Lw8Rt5Yp1Zx6Nc9Vb2Mk4H"


@pytest.fixture
async def api(settings: Settings, db: Database) -> AsyncIterator[httpx.AsyncClient]:
    app: FastAPI = create_app(settings.model_copy(update={"admin_key": SecretStr(ADMIN)}), db=db, start_worker=False)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            yield client


def _operations(spec: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(method.upper(), path, op) for path, ops in spec["paths"].items() for method, op in ops.items()]


async def test_every_operation_has_a_success_schema(api: httpx.AsyncClient) -> None:
    spec = (await api.get("/openapi.json")).json()
    operations = _operations(spec)
    assert len(operations) >= 30
    for method, path, op in operations:
        success = {code: r for code, r in op["responses"].items() if code.startswith("2")}
        assert success, (method, path)
        for code, response in success.items():
            if code == "204":  # no body by definition
                assert "content" not in response, (method, path)
                continue
            content = response.get("content") or {}
            assert content, (method, path, code)
            for media_type, body in content.items():
                assert body.get("schema"), (method, path, code, media_type)  # not the empty "anything" schema


async def test_error_answers_are_documented_as_problems(api: httpx.AsyncClient) -> None:
    spec = (await api.get("/openapi.json")).json()
    for method, path, op in _operations(spec):
        if path.startswith("/v1/"):
            for code in ("401", "404", "422"):
                content = op["responses"][code]["content"]
                assert list(content) == [PROBLEM_CONTENT_TYPE], (method, path, code)
                assert set(content[PROBLEM_CONTENT_TYPE]["schema"]["required"]) == {"type", "title", "status", "detail"}


def test_session_limits_default_to_the_settings() -> None:
    api = APISettings()
    assert api.max_text_chars == session.MAX_TEXT_CHARS
    assert api.max_turns_per_session == session.MAX_TURNS_PER_SESSION


def test_timestamps_keep_their_isoformat_on_the_wire() -> None:
    when = datetime(2024, 5, 1, 10, 0, 0, 123456, tzinfo=UTC)
    item = {
        "rank": 1, "kind": "fact", "text": "x", "time": when.isoformat(), "valid_from": None, "valid_to": None,
        "tree": "session:s1", "score": 0.5, "session_id": "s1", "turn_ids": ["t1"], "fact_id": "7",
        "superseded": False, "forest": "f",
    }  # fmt: skip
    parsed = EvidenceItem.model_validate(item)
    assert parsed.time == when
    dumped = parsed.model_dump(mode="json")
    assert {k: dumped[k] for k in item} == item
    assert dumped["temporal_role"] is None  # optional fields the item did not carry come back empty


def test_absent_fields_stay_absent_when_unset() -> None:
    assert Tenant.model_validate({"id": "t", "name": "n"}).model_dump(mode="json", exclude_unset=True) == {
        "id": "t",
        "name": "n",
    }
    job = Job.model_validate({"job_id": "j", "kind": "merge", "state": "queued", "attempts": 0})
    assert (
        job.forest is None
        and not job.done
        and job.model_dump(exclude_unset=True).keys()
        == {
            "job_id",
            "kind",
            "state",
            "attempts",
        }
    )
