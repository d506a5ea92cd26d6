"""``MemForestSyncClient`` against a real ``memforest serve``: the agent's round trip (messages in
with ``wait``, query, correct, delete, export), paging, errors, and the same answers as the async
client for the same calls."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from support.live_server import ADMIN_KEY, new_tenant_key, serve

from memforest.client import (
    ApiAuthenticationError,
    ApiNotFoundError,
    Job,
    MemForestClient,
    MemForestSyncClient,
    QueryResult,
)

MESSAGES = [
    {"role": "user", "name": "Oksana", "content": "I joined a rowing club in Gdansk last month."},
    {"role": "assistant", "content": "Rowing sounds fun. How often do you train?"},
    {"role": "user", "name": "Oksana", "content": "Twice a week, and my coach is called Bartek."},
]


@pytest.fixture(scope="module")
def server(module_db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve(module_db_url, tmp_path_factory.mktemp("sync-client")) as url:
        yield url


def test_agent_round_trip_with_the_blocking_client(server: str) -> None:
    key = new_tenant_key(server, "rowers")
    with MemForestSyncClient(server, key) as mf:
        mf.create_forest("club")
        done = mf.add_messages("club", MESSAGES, session_id="m1", wait=30)
        assert isinstance(done, Job) and done.succeeded
        result = mf.query("club", "Which club did Oksana join?", top_k=5)
        assert isinstance(result, QueryResult)
        assert any("rowing" in item.text.lower() for item in result.evidence)
        facts = list(mf.iter_facts("club", page_size=1))
        assert len(facts) >= 2, "paging stopped early"
        assert [f.id for f in facts] == [f.id for f in mf.list_facts("club", limit=100).items]
        target = next(f for f in facts if "coach" in f.text.lower() or "bartek" in f.text.lower())
        corrected = mf.correct_fact("club", target.id, "Oksana's rowing coach is called Marek.")
        assert corrected.kind == "correction"
        assert mf.get_fact("club", target.id).superseded_by is not None
        mf.delete_fact("club", corrected.id)
        with pytest.raises(ApiNotFoundError):
            mf.delete_fact("club", corrected.id)
        exported = mf.export_forest("club")
        assert any(r.get("type") == "session" or "turns" in r for r in exported)


def test_blocking_and_async_clients_give_the_same_answers(server: str) -> None:
    key = new_tenant_key(server, "twins")
    with MemForestSyncClient(server, key) as mf:
        mf.create_forest("notes")
        assert isinstance(mf.add_messages("notes", MESSAGES, session_id="m1", wait=30), Job)
        blocking = mf.query("notes", "Who coaches Oksana?").model_dump()
        blocking_facts = [f.id for f in mf.iter_facts("notes")]

    async def read() -> tuple[dict[str, Any], list[str]]:
        async with MemForestClient(server, key) as amf:
            answer = (await amf.query("notes", "Who coaches Oksana?")).model_dump()
            return answer, [f.id async for f in amf.iter_facts("notes")]

    answer, facts = asyncio.run(read())
    assert facts == blocking_facts
    assert [e["text"] for e in answer["evidence"]] == [e["text"] for e in blocking["evidence"]]


def test_blocking_client_errors_and_admin_calls(server: str) -> None:
    with MemForestSyncClient(server, "mf_" + "x" * 40) as mf, pytest.raises(ApiAuthenticationError):
        mf.list_forests()
    with MemForestSyncClient(server, ADMIN_KEY) as admin:
        tenant = admin.create_tenant("admin-made")
        key = admin.create_key(tenant.id, ["read"])
        assert tenant.id in {t.id for t in admin.list_tenants().items}
    assert key.key is not None
    with MemForestSyncClient(server, key.key) as reader, pytest.raises(ApiNotFoundError):
        reader.get_forest("nowhere")
