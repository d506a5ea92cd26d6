"""Claiming due webhook deliveries (review 2026-11-28, H2): round-robin by tenant, each tenant's
turns counted after the deliveries the process already has in flight, up to ``per_tenant``; a
claimed delivery is not claimed again while its lease runs."""

from __future__ import annotations

import uuid

from support import admin_settings, app_client, new_tenant

from memforest.db.engine import Database
from memforest.settings import Settings
from memforest.store import webhooks as q
from memforest.store.sql import execute

_DUE = """
INSERT INTO webhook_deliveries (tenant_id, delivery_id, webhook_id, event_id, type, job_id, next_attempt_at)
VALUES (:t, :d, :w, :e, 'job.succeeded', :j, now() - make_interval(secs => :age))
"""


async def _tenant_with_due(db: Database, tenant: str, webhook: str, ages_s: list[float]) -> uuid.UUID:
    """A tenant's webhook (on 127.0.0.1) with one due delivery per age, the oldest first."""
    tid, wid = uuid.UUID(tenant), uuid.UUID(webhook)
    async with db.system() as conn:
        for age in ages_s:
            params = {"t": tid, "d": uuid.uuid4(), "w": wid, "e": uuid.uuid4(), "j": uuid.uuid4(), "age": age}
            await execute(conn, _DUE, params)
    return tid


async def test_claims_take_turns_by_tenant(settings: Settings, db: Database) -> None:
    s = admin_settings(settings, webhooks={"allow_private": True})
    async with app_client(s, db) as (_, c):
        tenants = {}
        for name in ("flood", "quiet", "other"):
            tid, key = await new_tenant(c, name)
            h = {"Authorization": f"Bearer {key}"}
            r = await c.post("/v1/webhooks", json={"url": "http://127.0.0.1:1024/hook"}, headers=h)
            assert r.status_code == 201, r.text
            tenants[name] = (tid, r.json()["id"])
    flood = await _tenant_with_due(db, *tenants["flood"], ages_s=[100.0 - i for i in range(10)])  # oldest
    quiet = await _tenant_with_due(db, *tenants["quiet"], ages_s=[5.0])
    other = await _tenant_with_due(db, *tenants["other"], ages_s=[4.0, 3.0])

    async with db.system() as conn:  # first turns first: one each, though the flood's are all older
        first = [r["tenant_id"] for r in await q.claim_due(conn, 3, 120.0, per_tenant=4, busy={})]
    assert sorted(map(str, first)) == sorted(map(str, (flood, quiet, other)))
    async with db.system() as conn:  # the flood already has 3 in flight here: one more turn for it
        rows = await q.claim_due(conn, 10, 120.0, per_tenant=4, busy={flood: 3})
    assert sorted(str(r["tenant_id"]) for r in rows) == sorted(map(str, (flood, other)))
    async with db.system() as conn:  # at its bound the flood gets nothing; the others have nothing left
        assert await q.claim_due(conn, 10, 120.0, per_tenant=4, busy={flood: 4}) == []
    async with db.system() as conn:  # below it again, its next ones (none claimed twice)
        again = await q.claim_due(conn, 10, 120.0, per_tenant=4, busy={})
    assert [str(r["tenant_id"]) for r in again] == [str(flood)] * 4


async def test_a_claim_skips_rows_another_claim_holds(settings: Settings, db: Database) -> None:
    """Two deliverers claiming at once: the second leaves the row the first's open claim holds and takes
    the others at once, instead of waiting on it (waiting claimers deadlocked, each holding a row the
    other wanted)."""
    s = admin_settings(settings, webhooks={"allow_private": True})
    async with app_client(s, db) as (_, c):
        tid, key = await new_tenant(c, "pair")
        h = {"Authorization": f"Bearer {key}"}
        r = await c.post("/v1/webhooks", json={"url": "http://127.0.0.1:1024/hook"}, headers=h)
        assert r.status_code == 201, r.text
    await _tenant_with_due(db, tid, r.json()["id"], ages_s=[30.0, 20.0, 10.0])
    async with db.system() as first:
        held = await q.claim_due(first, 1, 120.0, per_tenant=10, busy={})  # open: its row stays locked
        assert len(held) == 1
        async with db.system() as second:
            await execute(second, "SET LOCAL lock_timeout = '2s'")  # a wait on the held row fails the test
            rest = await q.claim_due(second, 10, 120.0, per_tenant=10, busy={})
    assert len(rest) == 2
    assert held[0]["delivery_id"] not in {row["delivery_id"] for row in rest}


async def test_a_claim_reads_only_its_own_tenants_job(settings: Settings, db: Database) -> None:
    """The claim reads a body-less delivery's job to compose its body, as the owning role: a delivery
    naming another tenant's job id comes back without that job (its body says only the job's id
    and state), and one naming its own tenant's job comes back with it."""
    s = admin_settings(settings, webhooks={"allow_private": True})
    async with app_client(s, db) as (_, c):
        ids = {}
        for name in ("owner", "prober"):
            tid, key = await new_tenant(c, name)
            h = {"Authorization": f"Bearer {key}"}
            hook = await c.post("/v1/webhooks", json={"url": "http://127.0.0.1:1024/hook"}, headers=h)
            job = await c.post("/v1/forests/f/messages", json={"messages": [{"role": "user", "content": "Hi."}]},
                               headers=h)  # fmt: skip
            assert hook.status_code == 201 and job.status_code == 202, (hook.text, job.text)
            ids[name] = (uuid.UUID(tid), uuid.UUID(hook.json()["id"]), uuid.UUID(job.json()["job_id"]))
    owners_job, (prober, probe_hook, probers_job) = ids["owner"][2], ids["prober"]
    async with db.system() as conn:
        for job_id in (owners_job, probers_job):
            params = {"t": prober, "d": uuid.uuid4(), "w": probe_hook, "e": uuid.uuid4(), "j": job_id, "age": 1.0}
            await execute(conn, _DUE, params)
        rows = await q.claim_due(conn, 10, 120.0, per_tenant=10, busy={})
    jobs = {row["job_id"]: q.claimed_job(row) for row in rows}
    assert set(jobs) == {owners_job, probers_job} and jobs[owners_job] is None
    probers = jobs[probers_job]
    assert probers is not None and probers["job_id"] == probers_job and probers["forest"] == "f"
