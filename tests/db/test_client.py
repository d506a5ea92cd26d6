"""``MemForestClient`` against the real app (ASGI transport, real per-test database), and the CLI's
``--url`` mode against a real ``memforest serve`` subprocess."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import time
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import SecretStr
from support.apps import free_port
from support.db import tenant_url
from support.live_server import serve

from memforest.cli import main
from memforest.client import (
    ApiAuthenticationError,
    ApiConflictError,
    ApiError,
    ApiInputError,
    ApiKey,
    ApiModelBackendError,
    ApiNotFoundError,
    ApiPayloadTooLargeError,
    ApiPermissionDeniedError,
    ApiServerError,
    EvidenceItem,
    Fact,
    Forest,
    Job,
    JobAccepted,
    JobWaitTimeout,
    MemForestClient,
    Node,
    NodeChild,
    Page,
    QueryResult,
    RequestTimeoutError,
    Session,
    SessionAccepted,
    SessionSummary,
    Tenant,
    TransportError,
    Tree,
    UnexpectedResponseError,
    session_to_json,
)
from memforest.db.engine import Database
from memforest.domain import SessionInput, TurnInput
from memforest.errors import (
    AuthenticationError,
    ConflictError,
    InputError,
    MemForestError,
    NotFoundError,
    PayloadTooLargeError,
    PermissionDeniedError,
)
from memforest.servers import create_app
from memforest.settings import Settings

ADMIN = "Adm1n-" + "c9Vh3Lq7Zt2Xw5Nb8Rk4Pj6Y"
PROBLEMS = "https://memforest.dev/problems/"
BASE = "http://test"


def session_body(sid: str = "s1", text: str = "I moved to Lisbon last spring.") -> dict[str, Any]:
    return {
        "id": sid,
        "time": "2024-05-01T10:00:00Z",
        "turns": [
            {"speaker": "Mirela", "role": "user", "text": text, "id": f"{sid}-t1"},
            {"speaker": "bot", "role": "assistant", "text": "Nice, how do you like it?", "id": f"{sid}-t2"},
        ],
    }


class Server:
    """The app behind an ASGI transport: an admin client and tenant clients on demand."""

    def __init__(self, transport: httpx.ASGITransport, stack: contextlib.AsyncExitStack) -> None:
        self.transport = transport
        self.stack = stack

    async def client(self, key: str | None) -> MemForestClient:
        return await self.stack.enter_async_context(MemForestClient(BASE, key, transport=self.transport))

    async def tenant(self, name: str, scopes: tuple[str, ...] = ("read", "write", "admin")) -> MemForestClient:
        admin = await self.client(ADMIN)
        tenant = await admin.create_tenant(name)
        key = await admin.create_key(tenant.id, scopes)
        assert key.key is not None
        return await self.client(key.key)


def _settings(settings: Settings, **api: Any) -> Settings:
    return settings.model_copy(
        update={
            "admin_key": SecretStr(ADMIN),
            "api": settings.api.model_copy(update=api),
            "worker": settings.worker.model_copy(update={"poll_interval_s": 0.05}),
        },
        deep=True,
    )


@contextlib.asynccontextmanager
async def running(settings: Settings, db: Database, *, worker: bool) -> AsyncIterator[Server]:
    app = create_app(_settings(settings, max_body_bytes=50_000), db=db, start_worker=worker)
    async with app.router.lifespan_context(app), contextlib.AsyncExitStack() as stack:
        yield Server(httpx.ASGITransport(app=app), stack)


@pytest.fixture
async def server(settings: Settings, db: Database) -> AsyncIterator[Server]:
    async with running(settings, db, worker=True) as s:
        yield s


# ---------------------------------------------------------------- admin: tenants and keys


async def test_tenants_and_keys(server: Server) -> None:
    admin = await server.client(ADMIN)
    assert (await admin.health()) == {"status": "ok"}
    assert (await admin.ready())["status"] == "ready"
    acme = await admin.create_tenant("acme")
    assert isinstance(acme, Tenant) and acme.name == "acme" and acme.id
    await admin.create_tenant("beta")
    tenants = await admin.list_tenants()
    assert isinstance(tenants, Page) and tenants.next_cursor is None
    assert [t.name for t in tenants.items] == ["acme", "beta"]
    assert all(isinstance(t.created_at, datetime) for t in tenants.items)

    created = await admin.create_key(acme.id, ["read", "write"])
    assert isinstance(created, ApiKey) and created.key is not None and created.scopes == ("read", "write")
    keys = await admin.list_keys(acme.id)
    assert [k.id for k in keys.items] == [created.id]
    listed = keys.items[0]
    assert listed.key is None and listed.prefix is not None and created.key.startswith(listed.prefix)
    assert not listed.revoked

    tenant = await server.client(created.key)
    assert (await tenant.list_forests()).items == ()
    await admin.revoke_key(acme.id, created.id)
    assert (await admin.list_keys(acme.id)).items[0].revoked
    with pytest.raises(AuthenticationError):
        await tenant.list_forests()

    await admin.delete_tenant(acme.id)
    assert [t.name for t in (await admin.list_tenants()).items] == ["beta"]
    with pytest.raises(NotFoundError):
        await admin.delete_tenant(acme.id)


# ---------------------------------------------------------------- forests, sessions, jobs, query


async def test_forest_session_job_query_flow(server: Server) -> None:
    mf = await server.tenant("acme")
    forest = await mf.create_forest("notes")
    assert forest == Forest(name="notes")
    assert await mf.ensure_forest("notes") == Forest(name="notes")  # exists: no error
    assert [f.name for f in (await mf.list_forests()).items] == ["notes"]

    accepted = await mf.add_session("notes", session_body("s1"))
    assert isinstance(accepted, SessionAccepted) and accepted.created and accepted.session_id == "s1"
    assert accepted.job_id is not None
    job = await mf.wait_job(accepted.job_id, timeout=60)
    assert isinstance(job, Job) and job.succeeded and job.done and job.kind == "ingest" and job.forest == "notes"
    assert job.created_at is not None and job.finished_at is not None and job.finished_at >= job.created_at

    # the same session again is the same job, not a new one
    again = await mf.add_session("notes", session_body("s1"))
    assert again.job_id == accepted.job_id and not again.created

    got = await mf.get_session("notes", "s1")
    assert isinstance(got, Session) and got.time == datetime(2024, 5, 1, 10, tzinfo=UTC)
    assert [(t.id, t.speaker, t.role) for t in got.turns] == [
        ("s1-t1", "Mirela", "user"),
        ("s1-t2", "bot", "assistant"),
    ]

    info = await mf.get_forest("notes")
    assert info.counts is not None and info.counts["sessions"] == 1 and info.counts["turns"] == 2
    assert info.counts["facts"] >= 1

    result = await mf.query("notes", "Where did Mirela move?", top_k=5)
    assert isinstance(result, QueryResult) and result.forest == "notes" and result.mode == "emb"
    assert result.evidence and all(isinstance(e, EvidenceItem) for e in result.evidence)
    assert [e.rank for e in result.evidence] == sorted(e.rank for e in result.evidence)
    assert any("Lisbon" in e.text for e in result.evidence)
    assert all(e.session_id == "s1" for e in result.evidence)
    assert result.raw["evidence"][0]["text"] == result.evidence[0].text
    assert [e.time for e in result.in_time_order()] == sorted(e.time for e in result.evidence)
    # filters travel: nothing was valid before the session took place
    early = await mf.query("notes", "Where did Mirela move?", as_of=datetime(2020, 1, 1, tzinfo=UTC))
    assert early.evidence == ()

    deleted = await mf.delete_forest("notes")
    assert deleted.name == "notes" and deleted.deleted["sessions"] == 1
    assert deleted.deleted["jobs"] == 2  # the ingest job and the forest's coalesced refresh job
    with pytest.raises(NotFoundError):
        await mf.get_forest("notes")
    with pytest.raises(NotFoundError):
        await mf.get_job(accepted.job_id)


async def test_domain_sessions_and_idempotency_keys(server: Server) -> None:
    mf = await server.tenant("acme")
    await mf.create_forest("f")
    session = SessionInput(
        external_id="dom-1",
        time=datetime(2023, 3, 4, 9, 30, tzinfo=UTC),
        turns=(
            TurnInput(speaker="Oskar", text="My sister Vida opened a bakery in Ghent.", role="user", external_id="a"),
            TurnInput(speaker="bot", text="Wonderful!", time=datetime(2023, 3, 4, 9, 31, tzinfo=UTC)),
        ),
        metadata={"channel": "chat"},
    )
    assert session_to_json(session)["turns"][1] == {
        "speaker": "bot",
        "text": "Wonderful!",
        "time": "2023-03-04T09:31:00+00:00",
    }
    first = await mf.add_session("f", session, idempotency_key="req-1")
    again = await mf.add_session("f", session, idempotency_key="req-1")
    assert first.job_id == again.job_id
    with pytest.raises(ConflictError) as info:
        await mf.add_session("f", session_body("other"), idempotency_key="req-1")
    assert info.value.status_code == 409
    stored = await mf.get_session("f", "dom-1")
    assert stored.metadata == {"channel": "chat"} and stored.turns[0].text.startswith("My sister")
    assert stored.turns[1].time == datetime(2023, 3, 4, 9, 31, tzinfo=UTC)


async def test_session_pagination(server: Server) -> None:
    mf = await server.tenant("acme")
    await mf.create_forest("f")
    for i in range(5):
        await mf.add_session("f", session_body(f"s{i}", f"Fact number {i} about Quillon harbour."))
    page = await mf.list_sessions("f", limit=2)
    assert [s.session_id for s in page.items] == ["s0", "s1"] and page.next_cursor is not None
    assert all(isinstance(s, SessionSummary) and s.turns == 2 for s in page.items)
    page2 = await mf.list_sessions("f", cursor=page.next_cursor, limit=2)
    assert [s.session_id for s in page2.items] == ["s2", "s3"]
    assert [s.session_id async for s in mf.iter_sessions("f", page_size=2)] == [f"s{i}" for i in range(5)]
    assert [s.session_id async for s in mf.iter_sessions("f", page_size=200)] == [f"s{i}" for i in range(5)]
    with pytest.raises(InputError):
        await mf.list_sessions("f", cursor="abc")


# ---------------------------------------------------------------- browse: facts, trees, nodes


async def test_browse_facts_trees_nodes(server: Server) -> None:
    mf = await server.tenant("acme")
    await mf.create_forest("f")
    jobs = [
        (await mf.add_session("f", session_body("s1", "I moved to Lisbon last spring."))).job_id,
        (await mf.add_session("f", session_body("s2", "My sister Vida opened a bakery in Ghent."))).job_id,
    ]
    for job_id in jobs:
        assert job_id is not None and (await mf.wait_job(job_id, timeout=60)).succeeded

    facts = await mf.list_facts("f", limit=200)
    assert facts.items and all(isinstance(f, Fact) for f in facts.items) and facts.next_cursor is None
    assert all(f.status == "current" and f.valid_from is not None for f in facts.items)
    assert [f.id async for f in mf.iter_facts("f", page_size=1)] == [f.id for f in facts.items]
    lisbon = [f for f in facts.items if "Lisbon" in f.text]
    assert lisbon
    only_s1 = await mf.list_facts("f", session="s1", limit=200)
    assert {f.id for f in only_s1.items} < {f.id for f in facts.items} and lisbon[0] in only_s1.items
    assert (await mf.list_facts("f", q="bakery")).items and not (await mf.list_facts("f", q="zeppelin")).items
    detail = await mf.get_fact("f", lisbon[0].id)
    assert detail.id == lisbon[0].id and detail.text == lisbon[0].text
    assert [p["session_id"] for p in detail.provenance] == ["s1"]
    assert detail.placements and detail.supersession_chain[0]["is_requested"]

    trees = await mf.list_trees("f")
    assert trees.items and all(isinstance(t, Tree) for t in trees.items)
    session_trees = await mf.list_trees("f", kind="session")
    assert session_trees.items and {t.kind for t in session_trees.items} == {"session"}
    assert [t.id async for t in mf.iter_trees("f", page_size=1)] == [t.id for t in trees.items]
    tree = session_trees.items[0]
    assert tree.root_node_id is not None and tree.n_leaves >= 1

    root = await mf.get_node("f", tree.root_node_id)
    assert isinstance(root, Node) and root.tree_id == tree.id and root.tree_kind == "session"
    assert root.children and all(isinstance(c, NodeChild) for c in root.children)
    assert root.start is not None and root.end is not None and root.start <= root.end
    leaf_id = root.children[0].id
    while True:
        node = await mf.get_node("f", leaf_id)
        if node.level == 0:
            break
        leaf_id = node.children[0].id
    assert node.leaf_kind in ("fact", "cell") and node.leaf_text and node.parent_id is not None
    first = await mf.get_node("f", tree.root_node_id, limit=1)
    assert len(first.children) == 1 and (first.children_next_cursor is None) == (root.n_children == 1)

    with pytest.raises(NotFoundError):
        await mf.get_fact("f", "999999999")
    with pytest.raises(NotFoundError):
        await mf.get_node("f", "999999999")
    with pytest.raises(NotFoundError):
        await mf.list_facts("nope")
    with pytest.raises(InputError):
        await mf.list_trees("f", kind="forest")


# ---------------------------------------------------------------- lifecycle: retract, merge, export, rematerialize


async def _ingest(mf: MemForestClient, forest: str, *bodies: dict[str, Any]) -> None:
    for body in bodies:
        job_id = (await mf.add_session(forest, body)).job_id
        assert job_id is not None and (await mf.wait_job(job_id, timeout=60)).succeeded


async def test_lifecycle_retract_merge_export_import_rematerialize(server: Server) -> None:
    mf = await server.tenant("acme")
    await mf.create_forest("f")
    await _ingest(
        mf,
        "f",
        session_body("s1", "I moved to Lisbon last spring."),
        session_body("s2", "My sister Vida opened a bakery in Ghent."),
    )

    # retract one turn, then a whole session: the report comes back, the facts are gone
    turn_report = await mf.retract_turn("f", "s2", "s2-t1")
    assert turn_report["session"] == "s2" and turn_report["turn"] == "s2-t1" and turn_report["turns"] == 1
    assert not (await mf.list_facts("f", q="bakery")).items
    report = await mf.retract_session("f", "s1")
    assert report["forest"] == "f" and report["session"] == "s1" and report["sessions"] == 1
    assert report["facts_removed"] >= 1 and not (await mf.list_facts("f", session="s1")).items
    with pytest.raises(NotFoundError):
        await mf.get_session("f", "s1")
    with pytest.raises(NotFoundError):
        await mf.retract_session("f", "s1")

    # merge another forest in
    await mf.create_forest("g")
    await _ingest(mf, "g", session_body("g1", "Our cat Pimento learned to open the fridge door."))
    merge = await mf.merge_forest("f", "g")
    assert isinstance(merge, JobAccepted) and merge.raw["kind"] == "merge"
    assert (await mf.wait_job(merge.job_id, timeout=60)).succeeded
    assert (await mf.get_session("f", "g1")).turns[0].text.startswith("Our cat Pimento")
    with pytest.raises(InputError):
        await mf.merge_forest("f", "f")

    # export, import into a new forest, same content
    records = await mf.export_forest("f")
    assert records[0]["forest"] == "f" and records[0]["with_derived"] is False and len(records) > 1
    imported = await mf.import_forest("copy", records)
    assert isinstance(imported, JobAccepted) and imported.raw["kind"] == "import"
    assert (await mf.wait_job(imported.job_id, timeout=60)).succeeded
    original, copy = (await mf.get_forest("f")).counts, (await mf.get_forest("copy")).counts
    assert original is not None and copy is not None
    for k in ("sessions", "turns", "facts"):
        assert copy[k] == original[k], k
    derived = await mf.export_forest("f", with_derived=True)
    assert derived[0]["with_derived"] is True and len(derived) > len(records)
    with pytest.raises(InputError):
        await mf.import_forest("bad", b'{"not": "an export"}\n')

    remat = await mf.rematerialize("f", summaries=True)
    assert isinstance(remat, JobAccepted)
    assert (await mf.wait_job(remat.job_id, timeout=60)).succeeded
    with pytest.raises(InputError):
        await mf.rematerialize("f")  # nothing asked for
    with pytest.raises(NotFoundError):
        await mf.export_forest("nope")


# ---------------------------------------------------------------- errors


async def test_problem_responses_map_to_the_error_tree(server: Server) -> None:
    mf = await server.tenant("acme")
    admin = await server.client(ADMIN)
    tenant_id = (await admin.list_tenants()).items[0].id
    reader_key = (await admin.create_key(tenant_id, ["read"])).key
    assert reader_key is not None
    reader = await server.client(reader_key)
    nobody = await server.client("mf_" + "Z" * 43)
    anonymous = await server.client(None)
    await mf.create_forest("f")

    cases: list[tuple[Any, type[ApiError], type[MemForestError], int, str]] = [
        (nobody.list_forests(), ApiAuthenticationError, AuthenticationError, 401, "unauthorized"),
        (anonymous.list_forests(), ApiAuthenticationError, AuthenticationError, 401, "unauthorized"),
        (reader.create_forest("g"), ApiPermissionDeniedError, PermissionDeniedError, 403, "forbidden"),
        (mf.list_tenants(), ApiPermissionDeniedError, PermissionDeniedError, 403, "forbidden"),
        (admin.list_forests(), ApiPermissionDeniedError, PermissionDeniedError, 403, "forbidden"),
        (mf.get_forest("nope"), ApiNotFoundError, NotFoundError, 404, "not-found"),
        (mf.get_session("f", "nope"), ApiNotFoundError, NotFoundError, 404, "not-found"),
        (mf.get_job("not-a-uuid"), ApiNotFoundError, NotFoundError, 404, "not-found"),
        (mf.create_forest("f"), ApiConflictError, ConflictError, 409, "conflict"),
        (mf.add_session("f", {"id": "x", "turns": []}), ApiInputError, InputError, 422, "invalid-input"),
        (mf.query("f", "x", top_k=10_000), ApiInputError, InputError, 422, "invalid-input"),
        (mf.query("f", "x", mode="bogus"), ApiInputError, InputError, 422, "invalid-input"),
        (mf.add_session("f", session_body("big", "x" * 60_000)), ApiPayloadTooLargeError, PayloadTooLargeError, 413,
         "payload-too-large"),
    ]  # fmt: skip
    for call, api_cls, base_cls, status, slug in cases:
        with pytest.raises(base_cls) as info:
            await call
        err = info.value
        assert isinstance(err, api_cls) and isinstance(err, MemForestError)
        assert err.status == status == err.status_code
        assert err.type == PROBLEMS + slug and err.type_slug == slug
        assert err.detail and str(err) == err.detail and "\n" not in err.detail
        assert err.problem["status"] == status
    with pytest.raises(ApiInputError) as bad_turns:
        await mf.add_session("f", {"id": "x", "time": "2024-01-01", "turns": [{"speaker": "a"}]})
    assert bad_turns.value.location is not None and "turns" in bad_turns.value.location
    # nothing was written by any of the failed calls
    counts = (await mf.get_forest("f")).counts
    assert counts is not None and counts["sessions"] == 0 and counts["turns"] == 0
    assert [f.name for f in (await mf.list_forests()).items] == ["f"]
    assert (await mf.list_sessions("f")).items == ()


async def test_transport_failures_never_leak_httpx() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # bound, never listening: connections are refused
        async with MemForestClient(f"http://127.0.0.1:{port}", "k", timeout=2) as mf:
            with pytest.raises(TransportError) as info:
                await mf.list_forests()
    assert not isinstance(info.value, httpx.HTTPError) and isinstance(info.value.__cause__, httpx.HTTPError)

    def slow(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("timed out", request=request)

    async with MemForestClient(BASE, "k", transport=httpx.MockTransport(slow)) as mf:
        with pytest.raises(RequestTimeoutError):
            await mf.get_job("j")

    def proxy(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/v1/forests":
            return httpx.Response(200, text="<html>hello</html>")
        if request.url.path == "/v1/forests/g":
            return httpx.Response(200, json={"counts": {}})
        code = 502 if request.url.path.endswith("bad") else 504
        return httpx.Response(code, text="<html><body>Gateway   trouble</body></html>")

    async with MemForestClient(BASE, "k", transport=httpx.MockTransport(proxy)) as mf:
        with pytest.raises(ApiModelBackendError) as bad:
            await mf.get_forest("bad")
        assert bad.value.status == 502 and "Gateway trouble" in bad.value.detail and bad.value.type == "about:blank"
        with pytest.raises(ApiServerError) as down:
            await mf.get_forest("down")
        assert down.value.status == 504
        with pytest.raises(UnexpectedResponseError):
            await mf.list_forests()
        with pytest.raises(UnexpectedResponseError):
            await mf.get_forest("g")


async def test_wait_job_times_out_without_a_worker(settings: Settings, db: Database) -> None:
    async with running(settings, db, worker=False) as srv:
        mf = await srv.tenant("acme")
        await mf.create_forest("f")
        accepted = await mf.add_session("f", session_body())
        assert accepted.job_id is not None
        t0 = time.monotonic()
        with pytest.raises(JobWaitTimeout) as info:
            await mf.wait_job(accepted.job_id, timeout=0.5, poll_interval=0.1)
        assert 0.5 <= time.monotonic() - t0 < 5
        assert info.value.job.state == "queued" and not info.value.job.done
        assert isinstance(info.value, MemForestError)


# ---------------------------------------------------------------- CLI --url against `memforest serve`


@pytest.fixture
def served(db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A real `memforest serve` subprocess on a free port against this test's database."""
    monkeypatch.delenv("MEMFOREST_API_KEY", raising=False)  # (the CLI runs in this process)
    with serve(db_url, tmp_path / "home", {"MEMFOREST_ADMIN_KEY": ADMIN}) as url:
        yield url


def _tenant_key(url: str, name: str) -> str:
    async def setup() -> str:
        async with MemForestClient(url, ADMIN) as admin:
            tenant = await admin.create_tenant(name)
            key = (await admin.create_key(tenant.id, ["read", "write"])).key
            assert key is not None
            return key

    return asyncio.run(setup())


def _conversation(path: Path) -> Path:
    sessions = [
        {
            "id": "trip-1",
            "time": "2024-02-10T18:00:00Z",
            "turns": [
                {"speaker": "Tomasz", "text": "I started learning the cello in January.", "id": "a1"},
                {"speaker": "Ines", "text": "How is it going so far?", "id": "a2"},
            ],
        },
        {
            "id": "trip-2",
            "time": "2024-03-02T09:15:00Z",
            "turns": [
                {"speaker": "Tomasz", "text": "I moved to Valparaiso for a new job at the harbour.", "id": "b1"},
                {"speaker": "Ines", "text": "That sounds exciting.", "id": "b2"},
            ],
        },
    ]
    path.write_text(json.dumps({"forest": "trip", "sessions": sessions}))
    return path


def test_cli_url_ingest_query_stats_round_trip(
    served: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, db_url: str
) -> None:
    key = _tenant_key(served, "cli-tenant")
    data = _conversation(tmp_path / "trip.json")
    assert main(["ingest", str(data), "--url", served, "--api-key", key, "--json"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["forest"] == "trip" and summary["sessions_accepted"] == 2 and summary["jobs_succeeded"] == 2
    assert summary["jobs_failed"] == 0 and summary["counts"]["sessions"] == 2 and summary["counts"]["facts"] >= 2

    # again: nothing new, same jobs; the key may come from the environment
    monkeypatch.setenv("MEMFOREST_API_KEY", key)
    assert main(["ingest", str(data), "--url", served, "--json"]) == 0
    again = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert again["sessions_accepted"] == 0 and again["sessions_unchanged"] == 2 and again["counts"] == summary["counts"]
    assert main(["ingest", str(data), "--url", served]) == 0
    table = capsys.readouterr().out
    assert "ingest summary: forest trip" in table and "0 / 2" in table and "jobs succeeded / failed" in table

    assert main(["stats", "--forest", "trip", "--url", served, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == summary["counts"]

    question = "Where did Tomasz move?"
    assert main(["query", question, "--forest", "trip", "--url", served]) == 0
    remote = capsys.readouterr().out
    assert remote.startswith(question) and "Valparaiso" in remote
    assert main(["query", question, "--forest", "trip", "--url", served, "--json"]) == 0
    as_json = json.loads(capsys.readouterr().out)
    assert as_json["forest"] == "trip" and as_json["evidence"] and as_json["evidence"][0]["session_id"] == "trip-2"

    # the same question on the same database without --url prints the same thing
    monkeypatch.delenv("MEMFOREST_API_KEY")
    monkeypatch.setenv("MEMFOREST_DATABASE_URL", db_url)
    monkeypatch.setenv("MEMFOREST_DATABASE_TENANT_URL", tenant_url(db_url))
    monkeypatch.setenv("MEMFOREST_EMBEDDING__DIM", "64")
    monkeypatch.setenv("MEMFOREST_HOME", str(tmp_path / "local-home"))
    assert main(["query", question, "--forest", "trip", "--tenant", "cli-tenant"]) == 0
    assert capsys.readouterr().out == remote

    # a forest the key cannot see: one line, exit 2
    assert main(["query", question, "--forest", "nope", "--url", served, "--api-key", key]) == 2
    err = capsys.readouterr().err
    assert err.startswith("memforest: error:") and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["query", "q?", "--forest", "f", "--url", "http://127.0.0.1:9"], "--url needs an API key"),
        (["ingest", "whatever.json", "--url", "http://127.0.0.1:9"], "--url needs an API key"),
        (["stats", "--forest", "f", "--url", "http://127.0.0.1:9"], "--url needs an API key"),
        (["query", "q?", "--forest", "f", "--api-key", "k"], "--api-key is only used together with --url"),
        (["query", "q?", "--forest", "f", "--url", "127.0.0.1:9", "--api-key", "k"], "must start with http"),
        (["query", "q?", "--forest", "f", "--url", "http://h", "--api-key", "k", "--tenant", "t"], "--tenant"),
    ],
)
def test_cli_url_argument_errors_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("MEMFOREST_API_KEY", raising=False)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_cli_url_unreachable_server_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    port = free_port()
    assert main(["stats", "--forest", "f", "--url", f"http://127.0.0.1:{port}", "--api-key", "k"]) == 2
    err = capsys.readouterr().err
    assert "cannot reach" in err and len(err.strip().splitlines()) == 1
