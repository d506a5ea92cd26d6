"""The client's agent operations against the real app (ASGI transport, real database, in-process
worker): messages with wait, correct and delete a fact, query filters and several forests, webhooks."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from support import admin_settings, app_client, new_tenant

from memforest.client import MemForestClient
from memforest.db.engine import Database
from memforest.errors import InputError, NotFoundError
from memforest.schemas import Job, SessionAccepted
from memforest.settings import Settings


@pytest.fixture
async def mf(settings: Settings, db: Database) -> AsyncIterator[MemForestClient]:
    s = admin_settings(settings, worker={"poll_interval_s": 0.05}, webhooks={"allow_private": True})
    async with app_client(s, db, start_worker=True) as (app, client):
        _, key = await new_tenant(client)
        async with MemForestClient("http://test", key, transport=httpx.ASGITransport(app=app)) as c:
            yield c


async def test_client_agent_operations(mf: MemForestClient) -> None:
    msgs = [{"role": "user", "name": "Ana", "content": "My favourite tea is jasmine."}]
    job = await mf.add_messages("mine", msgs, session_id="c1", metadata={"app": "chat"}, wait=30)
    assert isinstance(job, Job) and job.succeeded
    later = await mf.add_messages("team", [{"role": "user", "content": "The standup moved to 9:30."}])
    assert isinstance(later, SessionAccepted) and later.session_id.startswith("msg-")
    await mf.wait_job(str(later.job_id), timeout=60)
    result = await mf.query("mine", "Which tea does Ana like?", source_filter={"metadata": {"app": "chat"}})
    fact = next(e for e in result.evidence if e.kind == "fact" and "jasmine" in e.text)
    assert fact.fact_id is not None and not fact.superseded
    assert (await mf.query("mine", "tea", source_filter={"speakers": ["Bo"]})).evidence == ()
    new = await mf.correct_fact("mine", fact.fact_id, "My favourite tea is oolong.")
    assert new.kind == "correction" and new.supersedes == fact.fact_id
    both = await mf.query_forests(["mine", "team"], "tea and standup", top_k=5)
    assert {e.forest for e in both.evidence} == {"mine", "team"}
    assert "oolong" in " ".join(e.text for e in both.evidence)
    gone = await mf.delete_fact("mine", new.id)
    assert gone.fact_id == new.id and gone.leaves_removed >= 1
    with pytest.raises(NotFoundError):
        await mf.delete_fact("mine", new.id)
    hook = await mf.create_webhook("http://127.0.0.1:1024/hook", ["job.failed"])
    assert hook.secret and hook.events == ("job.failed",)
    assert [w.id for w in (await mf.list_webhooks()).items] == [hook.id]
    assert (await mf.webhook_deliveries(hook.id)).items == ()
    await mf.delete_webhook(hook.id)
    with pytest.raises(NotFoundError):
        await mf.delete_webhook(hook.id)
    with pytest.raises(InputError):
        await mf.create_webhook("ftp://example.com")
