"""Defence in depth (issue 54 item 7, review L3): SQL running as the tenant role cannot raise a key's
scopes, lift its tenant's limits or name another tenant as a merge's source, and the tenant login's
password never reaches the server as a statement literal."""

from __future__ import annotations

import base64
import json
import uuid
from typing import Any

import pytest
from sqlalchemy import event, text
from sqlalchemy.exc import DBAPIError
from support import seed_two_tenants
from support.queue import claim

from memforest.app.jobs import process_job
from memforest.backends.factory import build_backends
from memforest.db import tenant_login
from memforest.db.embedded import EmbeddedServer
from memforest.db.engine import Database
from memforest.domain import JobState
from memforest.settings import Settings
from memforest.store import admin_merges

# quotes, a dollar, a non-ASCII letter, a no-break space (SASLprep: a space), a soft hyphen
# (SASLprep: nothing) and a ligature (SASLprep: "fi")
PASSWORD = "p'w\"d $1 \\ é\u00a0x\u00ady\ufb01"


async def _key(db: Database, tenant_id: uuid.UUID) -> None:
    async with db.system() as conn:
        await conn.execute(
            text(
                "INSERT INTO api_keys (tenant_id, key_id, key_hash, key_prefix, scopes) VALUES (:t, :k, :h, 'mf_x', :s)"
            ),
            {"t": tenant_id, "k": uuid.uuid4(), "h": uuid.uuid4().hex, "s": ["read"]},
        )


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE api_keys SET scopes = '{read,write,admin}'",
        "UPDATE tenants SET rate_limit_per_s = 0, max_in_flight = 0",
        "UPDATE tenants SET max_facts = 0, max_forests = 0",
        "DELETE FROM api_keys",
        "INSERT INTO api_keys (tenant_id, key_id, key_hash, key_prefix, scopes) "
        "VALUES (CAST(:t AS uuid), gen_random_uuid(), 'h', 'p', '{admin}')",
        "DELETE FROM tenants",
        "SELECT count(*) FROM admin_merges",
    ],
)
async def test_the_tenant_role_cannot_write_tenants_or_keys(db: Database, statement: str) -> None:
    a, _ = await seed_two_tenants(db)
    await _key(db, a)
    with pytest.raises(DBAPIError, match="permission denied"):
        async with db.tenant(a) as conn:
            await conn.execute(text(statement), {"t": str(a)})
    async with db.tenant(a) as conn:  # reading its own rows still works
        assert (await conn.execute(text("SELECT count(*) FROM api_keys"))).scalar_one() == 1
        assert (await conn.execute(text("SELECT count(*) FROM tenants"))).scalar_one() == 1
    async with db.system() as conn:
        scopes = (await conn.execute(text("SELECT scopes FROM api_keys WHERE tenant_id = :t"), {"t": a})).scalar_one()
    assert scopes == ["read"]


async def _sessions(db: Database, tenant_id: uuid.UUID) -> int:
    async with db.system() as conn:
        count = await conn.execute(text("SELECT count(*) FROM sessions WHERE tenant_id = :t"), {"t": tenant_id})
        return int(count.scalar_one())


async def _seed_session(db: Database, tenant_id: uuid.UUID) -> None:
    async with db.system() as conn:
        await conn.execute(
            text(
                "INSERT INTO sessions (tenant_id, forest_id, external_id, time, content_hash, n_turns) "
                "SELECT :t, forest_id, 's1', now(), 'h', 0 FROM forests WHERE tenant_id = :t"
            ),
            {"t": tenant_id},
        )


async def test_a_merge_job_written_as_a_tenant_cannot_read_another_tenant(settings: Settings, db: Database) -> None:
    victim, attacker = await seed_two_tenants(db)
    await _seed_session(db, victim)
    payload = {"src_tenant": str(victim), "src_forest": "f", "dst_forest": "f"}
    async with db.tenant(attacker) as conn:  # what an injection as the tenant role could write
        await conn.execute(
            text(
                "INSERT INTO jobs (tenant_id, job_id, forest_id, kind, payload) "
                "SELECT :t, gen_random_uuid(), forest_id, 'merge', CAST(:p AS jsonb) FROM forests"
            ),
            {"t": attacker, "p": json.dumps(payload)},
        )
        with pytest.raises(DBAPIError, match="permission denied"):  # nor can it forge the authority
            async with conn.begin_nested():
                await conn.execute(
                    text("INSERT INTO admin_merges (tenant_id, job_id, src_tenant) VALUES (:t, gen_random_uuid(), :s)"),
                    {"t": attacker, "s": victim},
                )
    job = await claim(db, "w", lease_s=60)
    assert job is not None and job.kind == "merge"
    assert await process_job(db, settings, build_backends(settings), job) == JobState.FAILED
    async with db.system() as conn:
        errors = (await conn.execute(text("SELECT errors FROM jobs WHERE job_id = :j"), {"j": job.job_id})).scalar_one()
    assert "admin endpoint" in errors[0]["error"]
    assert await _sessions(db, attacker) == 0  # nothing of the victim's was copied
    assert await _sessions(db, victim) == 1


async def test_an_admin_merge_records_its_source_tenant_where_the_tenant_cannot_write(
    settings: Settings, db: Database
) -> None:
    from memforest.app.transfer import queue_admin_merge

    src, dst = await seed_two_tenants(db)
    await _seed_session(db, src)
    queued = await queue_admin_merge(db, src, "f", dst, "f")
    job_id = uuid.UUID(queued["job_id"])
    async with db.system() as conn:
        assert await admin_merges.source_tenant(conn, dst, job_id) == src
    job = await claim(db, "w", lease_s=60)
    assert job is not None and job.job_id == job_id
    assert await process_job(db, settings, build_backends(settings), job) == JobState.SUCCEEDED
    assert await _sessions(db, dst) == 1


async def test_forgetting_a_tenant_deletes_its_keys_and_row_as_the_owner(db: Database) -> None:
    from memforest.lifecycle.forget import forget_tenant

    a, _ = await seed_two_tenants(db)
    await _key(db, a)
    counts = await forget_tenant(db, a)
    assert counts["api_keys"] == 1 and counts["tenants"] == 1


def _stored_verifier(server: EmbeddedServer, role: str) -> str:
    out: str = server.handle.psql(
        f"\\pset tuples_only on\n\\pset format unaligned\nSELECT rolpassword FROM pg_authid WHERE rolname = '{role}';"
    )
    return out.strip().splitlines()[-1]


def test_the_verifier_is_the_one_postgresql_computes(pg_server: EmbeddedServer) -> None:
    role = f"mf_v_{uuid.uuid4().hex[:8]}"
    quoted = PASSWORD.replace("'", "''")
    pg_server.handle.psql(f"SET password_encryption = 'scram-sha-256';\nCREATE ROLE {role} PASSWORD '{quoted}';")
    try:
        stored = _stored_verifier(pg_server, role)
        iterations, salt = stored.split("$")[1].split(":")
        ours = tenant_login.scram_verifier(PASSWORD, salt=base64.b64decode(salt), iterations=int(iterations))
        assert ours == stored
        assert tenant_login.scram_verifier(PASSWORD) != tenant_login.scram_verifier(PASSWORD)  # a fresh salt
    finally:
        pg_server.handle.psql(f"DROP ROLE IF EXISTS {role};")


async def test_provisioning_never_sends_the_password(pg_server: EmbeddedServer, db: Database) -> None:
    role = f"mf_t_{uuid.uuid4().hex[:8]}"
    sent: list[str] = []

    def record(_conn: object, _cursor: object, statement: str, parameters: Any, *_: object) -> None:
        values = parameters.values() if isinstance(parameters, dict) else parameters or ()
        sent.extend([statement, *(str(v) for v in values)])

    event.listen(db.engine.sync_engine, "before_cursor_execute", record)
    try:
        await tenant_login.provision(db, tenant_login.TenantLogin(name=role, password=PASSWORD, exists=False))
    finally:
        event.remove(db.engine.sync_engine, "before_cursor_execute", record)
    assert any("PASSWORD 'SCRAM-SHA-256$4096:" in s for s in sent), sent
    assert not any(PASSWORD in s or PASSWORD.replace("'", "''") in s for s in sent)
    stored = _stored_verifier(pg_server, role)
    iterations, salt = stored.split("$")[1].split(":")
    assert stored == tenant_login.scram_verifier(PASSWORD, salt=base64.b64decode(salt), iterations=int(iterations))
