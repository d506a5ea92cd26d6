"""Read path against the real database: isolation, as_of, the temporal probe, llm mode, CLI contract."""

from __future__ import annotations

import asyncio
import itertools
import json
import uuid
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import pytest
from sqlalchemy.ext.asyncio import AsyncConnection
from support.db import tenant_url
from support.sessions import noon_utc

from memforest.backends.base import ChatModel, Embedder, UsageLedger
from memforest.backends.factory import build_backends
from memforest.backends.hashed import HashedEmbedder
from memforest.backends.openai_http import OpenAIChatModel
from memforest.db.engine import Database
from memforest.domain import SessionInput, TreeKind, TurnInput
from memforest.memtree.model import InsertStats, LeafSpec
from memforest.pipeline.service import ingest_sessions
from memforest.retrieval import QueryRequest, query
from memforest.settings import Settings
from memforest.store.sql import execute, fetch_all, scalar
from memforest.store.tenants import ensure_forest, ensure_tenant
from memforest.store.trees import get_or_create_tree, insert_leaf
from memforest.testing.simulated_llm import SimulationConfig, run_server_in_thread

DIM = 64


@dataclass(frozen=True)
class FactSpec:
    """A hand-made fact: text, validity, when it was recorded, and the turn it came from."""

    text: str
    valid_from: datetime
    recorded_at: datetime
    valid_to: datetime | None = None
    entity: str = "Bob"


async def _embed_nodes(conn: AsyncConnection, tenant_id: uuid.UUID, forest_id: int, emb: HashedEmbedder) -> None:
    """Stand-in refresh: leaves embed their text, internal nodes the concatenation of their children."""
    height = int(await scalar(conn, "SELECT max(level) FROM nodes WHERE tenant_id = :t AND forest_id = :f",
                              {"t": tenant_id, "f": forest_id}) or 0)  # fmt: skip
    for level in range(height + 1):
        rows = await fetch_all(
            conn,
            "SELECT n.node_id, coalesce(n.summary, (SELECT string_agg(c.summary, ' ' ORDER BY c.t_start, c.seq) "
            "FROM nodes c WHERE c.tenant_id = n.tenant_id AND c.parent_id = n.node_id)) AS txt "
            "FROM nodes n WHERE n.tenant_id = :t AND n.forest_id = :f AND n.level = :l",
            {"t": tenant_id, "f": forest_id, "l": level},
        )
        vecs = emb.embed_sync([str(r["txt"] or "") for r in rows])
        for r, v in zip(rows, vecs, strict=True):
            await execute(
                conn,
                "UPDATE nodes SET summary = :s, embedding = :e, dirty = false WHERE tenant_id = :t AND node_id = :n",
                {"s": r["txt"], "e": v, "t": tenant_id, "n": r["node_id"]},
            )


async def build_forest(db: Database, tenant: str, forest: str, facts: list[FactSpec]) -> uuid.UUID:
    """One session per fact (turn text = fact text), a session tree per session and an entity tree."""
    tenant_id = await ensure_tenant(db, tenant)
    emb = HashedEmbedder(DIM)
    stats = InsertStats()
    async with db.tenant(tenant_id) as conn:
        f = await ensure_forest(conn, tenant_id, forest)
        entity_trees = {}
        for i, spec in enumerate(facts, start=1):
            sid = await scalar(
                conn,
                "INSERT INTO sessions (tenant_id, forest_id, external_id, time, content_hash, n_turns) "
                "VALUES (:t, :f, :x, :ts, :h, 1) RETURNING session_id",
                {"t": tenant_id, "f": f.forest_id, "x": f"S{i}", "ts": spec.valid_from, "h": f"h{i}"},
            )
            turn_id = await scalar(
                conn,
                "INSERT INTO turns (tenant_id, forest_id, session_id, seq, external_id, speaker, text, time) "
                "VALUES (:t, :f, :s, 0, :x, 'Bob', :txt, :ts) RETURNING turn_id",
                {"t": tenant_id, "f": f.forest_id, "s": sid, "x": f"D{i}:1", "txt": spec.text, "ts": spec.valid_from},
            )
            cell_text = f"Bob: {spec.text}"
            cell_id = await scalar(
                conn,
                "INSERT INTO cells (tenant_id, forest_id, session_id, seq, turn_from, turn_to, text, t_start, t_end) "
                "VALUES (:t, :f, :s, 0, 0, 0, :txt, :ts, :ts) RETURNING cell_id",
                {"t": tenant_id, "f": f.forest_id, "s": sid, "txt": cell_text, "ts": spec.valid_from},
            )
            vec = emb.embed_sync([spec.text])[0]
            fact_id = await scalar(
                conn,
                "INSERT INTO facts (tenant_id, forest_id, text, text_hash, kind, entities, valid_from, valid_to, "
                "recorded_at, embedding) VALUES (:t, :f, :txt, md5(:txt), 'state', ARRAY[:e], :vf, :vt, :ra, :emb) "
                "RETURNING fact_id",
                {"t": tenant_id, "f": f.forest_id, "txt": spec.text, "e": spec.entity, "vf": spec.valid_from,
                 "vt": spec.valid_to, "ra": spec.recorded_at, "emb": vec},
            )  # fmt: skip
            await execute(
                conn,
                "INSERT INTO fact_sources (tenant_id, fact_id, turn_id, cell_id, forest_id, session_id) "
                "VALUES (:t, :fa, :tu, :c, :f, :s)",
                {"t": tenant_id, "fa": fact_id, "tu": turn_id, "c": cell_id, "f": f.forest_id, "s": sid},
            )
            stree = await get_or_create_tree(conn, tenant_id, f.forest_id, TreeKind.SESSION, f"S{i}", f"S{i}", 8)
            await insert_leaf(
                conn, tenant_id, stree,
                LeafSpec("cell", int(cell_id), spec.valid_from, spec.valid_from, int(cell_id), cell_text), stats,
            )  # fmt: skip
            if spec.entity not in entity_trees:
                entity_trees[spec.entity] = await get_or_create_tree(
                    conn, tenant_id, f.forest_id, TreeKind.ENTITY, spec.entity.lower(), spec.entity, 4
                )
            await insert_leaf(
                conn, tenant_id, entity_trees[spec.entity],
                LeafSpec("fact", int(fact_id), spec.valid_from, spec.valid_from, int(fact_id), spec.text, vec),
                stats,
            )  # fmt: skip
        await _embed_nodes(conn, tenant_id, f.forest_id, emb)
    return tenant_id


@dataclass
class _Backends:
    embedder: Embedder
    chat: ChatModel | None = None


async def test_query_never_returns_another_forests_data(db: Database, settings: Settings) -> None:
    ta = await build_forest(db, "tenant-a", "home", [FactSpec("Alice adopted a cat named Pixel", noon_utc(2023, 1, 5),
                                                              noon_utc(2023, 1, 5), entity="Alice")])  # fmt: skip
    await build_forest(db, "tenant-a", "work", [FactSpec("Alice adopted a dog named Rex", noon_utc(2023, 2, 5),
                                                         noon_utc(2023, 2, 5), entity="Alice")])  # fmt: skip
    await build_forest(db, "tenant-b", "home", [FactSpec("Alice adopted a parrot named Kiwi", noon_utc(2023, 3, 5),
                                                         noon_utc(2023, 3, 5), entity="Alice")])  # fmt: skip
    backends = _Backends(HashedEmbedder(DIM))
    result = await query(
        db, settings, backends, ta, QueryRequest("home", "What pet did Alice adopt? dog parrot Rex Kiwi")
    )
    texts = " ".join(e.text for e in result.evidence)
    assert result.evidence and "Pixel" in texts
    assert "Rex" not in texts and "Kiwi" not in texts
    assert all(e.session_id == "S1" for e in result.evidence)


BOB = [
    FactSpec("Bob lives in Boston", noon_utc(2020, 3, 1), noon_utc(2020, 3, 1), valid_to=noon_utc(2023, 5, 10)),
    FactSpec("Bob moved to Davis", noon_utc(2023, 5, 10), noon_utc(2023, 5, 10), valid_to=noon_utc(2024, 7, 3)),
    FactSpec("Bob moved to Miami", noon_utc(2024, 7, 3), noon_utc(2024, 7, 3)),
]


async def _supersede_chain(db: Database, tenant_id: uuid.UUID) -> None:
    async with db.tenant(tenant_id) as conn:
        ids = [r["fact_id"] for r in await fetch_all(conn, "SELECT fact_id FROM facts ORDER BY valid_from")]
        for old, new in itertools.pairwise(ids):
            await execute(conn, "UPDATE facts SET superseded_by = :n WHERE fact_id = :o", {"n": new, "o": old})
            await execute(conn, "UPDATE facts SET supersedes = :o WHERE fact_id = :n", {"n": new, "o": old})


async def test_as_of_hides_unknown_facts_and_shows_superseded_as_of_their_time(
    db: Database, settings: Settings
) -> None:
    facts = [*BOB, FactSpec("Bob adopted a turtle", noon_utc(2023, 6, 1), noon_utc(2024, 9, 1))]  # recorded much later
    tenant_id = await build_forest(db, "t", "bob", facts)
    await _supersede_chain(db, tenant_id)
    backends = _Backends(HashedEmbedder(DIM))
    fact_texts = lambda r: [e.text for e in r.evidence if e.kind == "fact"]  # noqa: E731
    # as of 2024-01-01: Davis is valid and known; Miami is not valid yet; the turtle not recorded yet
    asked = QueryRequest("bob", "Where does Bob live? turtle", as_of=noon_utc(2024, 1, 1))
    r = await query(db, settings, backends, tenant_id, asked)
    assert "Bob moved to Davis" in fact_texts(r)
    assert all("Miami" not in e.text and "turtle" not in e.text for e in r.evidence if e.kind == "fact")
    assert all(e.time <= noon_utc(2024, 1, 1) for e in r.evidence)
    # without as_of the superseded Boston/Davis facts are hidden, the current one shown
    r = await query(db, settings, backends, tenant_id, QueryRequest("bob", "Where does Bob live?"))
    assert "Bob moved to Miami" in fact_texts(r)
    assert "Bob moved to Davis" not in fact_texts(r)
    # include_superseded brings them back, with their validity interval
    r = await query(
        db, settings, backends, tenant_id, QueryRequest("bob", "Where does Bob live?", include_superseded=True)
    )
    davis = [e for e in r.evidence if e.text == "Bob moved to Davis"]
    assert davis and davis[0].valid_to == noon_utc(2024, 7, 3)
    # as of 2021: Boston (superseded later) is shown as of its own validity
    r = await query(
        db, settings, backends, tenant_id, QueryRequest("bob", "Where does Bob live?", as_of=noon_utc(2021, 1, 1))
    )
    assert fact_texts(r) == ["Bob lives in Boston"]


BOB_SESSIONS = [
    ("s1", noon_utc(2022, 3, 1), "I live in Boston, I have an apartment near the harbor."),
    ("s2", noon_utc(2023, 5, 20), "Big news: this month I moved to Davis in May 2023 for my new job."),
    ("s3", noon_utc(2024, 7, 15), "I moved to Miami in July 2024, the beach is right next to my place."),
]


def _bob_inputs() -> list[SessionInput]:
    out = []
    for sid, when, text in BOB_SESSIONS:
        turns = (
            TurnInput(speaker="Bob", text=text, external_id=f"{sid}:1"),
            TurnInput(speaker="Ann", text="That sounds great, tell me more!", external_id=f"{sid}:2"),
        )
        out.append(SessionInput(external_id=sid, time=when, turns=turns))
    return out


async def test_temporal_probe_through_the_write_path(db: Database, settings: Settings) -> None:
    backends = build_backends(settings)
    tenant_id = await ensure_tenant(db, "probe")
    await ingest_sessions(db, settings, backends, tenant_id, "bob", _bob_inputs())
    r = await query(db, settings, backends, tenant_id, QueryRequest("bob", "Where did Bob live before Miami?"))
    assert any("Davis" in e.text for e in r.evidence), [e.text for e in r.evidence]
    assert r.time_cues is not None and r.time_cues.startswith("before 2024")
    r = await query(
        db, settings, backends, tenant_id, QueryRequest("bob", "Where does Bob live?", as_of=noon_utc(2024, 1, 1))
    )
    texts = [e.text for e in r.evidence]
    assert any("Davis" in t for t in texts), texts
    assert not any("Miami" in t for t in texts), texts


async def test_llm_mode_falls_back_without_a_chat_model(db: Database, settings: Settings) -> None:
    tenant_id = await build_forest(db, "t", "bob", BOB)
    r = await query(
        db, settings, _Backends(HashedEmbedder(DIM)), tenant_id, QueryRequest("bob", "Where is Bob?", mode="llm")
    )
    assert r.mode == "llm" and r.mode_used == "emb" and r.fallback
    assert r.to_json()["fallback"]


async def test_llm_mode_against_the_simulated_server(db: Database, settings: Settings) -> None:
    facts = [FactSpec(f"Bob visited place number {i} and liked it", noon_utc(2023, 1, 1 + i), noon_utc(2023, 1, 1 + i))
             for i in range(20)]  # fmt: skip
    tenant_id = await build_forest(db, "t", "bob", facts)
    with run_server_in_thread(SimulationConfig(ttft_ms=1, tpot_ms=0, embed_dim=DIM)) as url:
        llm_settings = settings.model_copy(update={"llm": settings.llm.model_copy(update={"base_url": url})})
        chat = OpenAIChatModel(llm_settings.llm)
        ledger = UsageLedger()
        try:
            r = await query(
                db,
                llm_settings,
                _Backends(HashedEmbedder(DIM), chat),
                tenant_id,
                QueryRequest("bob", "Which place did Bob like?", mode="llm"),
                ledger=ledger,
            )
        finally:
            await chat.aclose()
    usage = ledger.as_dict()
    assert usage["plan"]["calls"] == 1
    assert usage["navigate"]["calls"] >= 1
    assert r.mode_used == "llm" and r.fallback is None
    assert r.llm_calls["plan"] == 1 and r.llm_calls["navigate"] >= 1
    assert 1 <= len(r.evidence) <= 10
    assert [e.rank for e in r.evidence] == list(range(1, len(r.evidence) + 1))
    for e in r.evidence:
        assert e.kind in ("fact", "cell") and e.text and e.turn_ids and e.session_id
        assert e.tree.split(":")[0] in ("session", "entity", "scene")


def test_batch_cli_json_contract(
    db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from memforest.cli import main

    async def setup() -> None:
        database = Database(db_url, tenant_url=tenant_url(db_url), pool_size=2, max_overflow=2)
        try:
            await build_forest(database, "local", "bob", BOB)
        finally:
            await database.dispose()

    asyncio.run(setup())
    batch = tmp_path / "q.jsonl"
    batch.write_text(
        json.dumps({"question": "Where does Bob live?", "id": "q1"}) + "\n"
        + json.dumps({"question": "Where did Bob live?", "id": 2, "as_of": "2021-01-01", "mode": "llm"}) + "\n",
        encoding="utf-8",
    )  # fmt: skip
    monkeypatch.setenv("MEMFOREST_DATABASE_URL", db_url)
    monkeypatch.setenv("MEMFOREST_DATABASE_TENANT_URL", tenant_url(db_url))
    monkeypatch.setenv("MEMFOREST_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("MEMFOREST_EMBEDDING__DIM", str(DIM))
    assert main(["query", "--forest", "bob", "--questions", str(batch), "--top-k", "3"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [x["id"] for x in lines] == ["q1", 2]
    for line in lines:
        assert list(line) == ["id", "question", "evidence"]
        assert 1 <= len(line["evidence"]) <= 3
        for i, e in enumerate(line["evidence"], start=1):
            assert [k for k in e if k != "temporal_role"] == ["rank", "kind", "text", "time", "valid_from",
                                                                 "valid_to", "tree", "score", "session_id",
                                                                 "turn_ids", "fact_id", "superseded"]  # fmt: skip
            assert e["rank"] == i and isinstance(e["turn_ids"], list) and e["turn_ids"][0].startswith("D")
    assert all(e["time"] < "2021-01-02" for e in lines[1]["evidence"])
    # readable form: time order
    assert main(["query", "--forest", "bob", "Where does Bob live?"]) == 0
    out = capsys.readouterr().out
    stamps = [ln[1:11] for ln in out.splitlines() if ln.startswith("[")]
    assert stamps and stamps == sorted(stamps)
