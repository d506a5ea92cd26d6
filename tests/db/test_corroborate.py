"""Corroboration reads the turns every evidence candidate cites (a fact's sources, a cell's own
turns) in one statement, and raises the candidates whose turn others cite too; a question that
asks when or names a window keeps the rerank's order."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from memforest.backends.factory import build_backends
from memforest.db.engine import Database
from memforest.domain import SessionInput, TurnInput
from memforest.pipeline.service import ingest_sessions
from memforest.retrieval.corroborate import corroborate
from memforest.retrieval.preset import SUPPORT_WITH_A_MODEL, RetrievalPreset
from memforest.retrieval.timecues import TimeCues
from memforest.settings import Settings
from memforest.store import corroborate as store
from memforest.store.sql import fetch_all
from memforest.store.tenants import ensure_tenant

LINES = [
    ("Bob", "I moved to Lisbon for a job at a fintech startup."),
    ("Ann", "That sounds exciting, good luck with the new job!"),
    ("Bob", "I adopted a grey cat named Pixel from the shelter."),
]

_FACT_TURNS = "SELECT fs.fact_id AS id, fs.turn_id FROM fact_sources fs WHERE fs.tenant_id = :t AND fs.forest_id = :f"
_CELL_TURNS = (
    "SELECT c.cell_id AS id, tu.turn_id FROM cells c JOIN turns tu ON tu.tenant_id = c.tenant_id "
    "AND tu.session_id = c.session_id AND tu.seq BETWEEN c.turn_from AND c.turn_to "
    "WHERE c.tenant_id = :t AND c.forest_id = :f"
)


async def _forest(db: Database, settings: Settings) -> tuple[uuid.UUID, int, dict[tuple[str, int], set[int]]]:
    """A small forest, and the turns each of its facts and cells cites (read apart from the statement)."""
    tenant_id = await ensure_tenant(db, f"corroborate-{uuid.uuid4().hex[:8]}")
    start = datetime(2023, 1, 1, 12, tzinfo=UTC)
    turns = tuple(TurnInput(speaker=who, text=text) for who, text in LINES)
    backends = build_backends(settings)
    try:
        await ingest_sessions(db, settings, backends, tenant_id, "bob", [SessionInput("s1", start, turns)])
        await ingest_sessions(
            db, settings, backends, tenant_id, "bob",
            [SessionInput("s2", start + timedelta(days=7), (TurnInput(speaker="Bob", text="Pixel sleeps all day."),))],
        )  # fmt: skip
    finally:
        await backends.aclose()
    async with db.tenant(tenant_id) as conn:
        rows = await fetch_all(conn, "SELECT forest_id FROM forests WHERE tenant_id = :t", {"t": tenant_id})
        forest_id = int(rows[0]["forest_id"])
        cited: dict[tuple[str, int], set[int]] = {}
        for kind, sql in (("fact", _FACT_TURNS), ("cell", _CELL_TURNS)):
            for r in await fetch_all(conn, sql, {"t": tenant_id, "f": forest_id}):
                cited.setdefault((kind, int(r["id"])), set()).add(int(r["turn_id"]))
    return tenant_id, forest_id, cited


async def test_candidate_turns_are_the_sources_of_facts_and_the_turns_of_cells(
    db: Database, settings: Settings
) -> None:
    tenant_id, forest_id, cited = await _forest(db, settings)
    fids = sorted(i for k, i in cited if k == "fact")
    cids = sorted(i for k, i in cited if k == "cell")
    assert fids and len(cids) >= 2
    async with db.tenant(tenant_id) as conn:
        got = await store.candidate_turns(conn, tenant_id, forest_id, fids, cids)
        some = await store.candidate_turns(conn, tenant_id, forest_id, fids[:1], [])
        other_tenant = await store.candidate_turns(conn, uuid.uuid4(), forest_id, fids, cids)
    assert {key: set(turns) for key, turns in got.items()} == cited
    assert set(some) == {("fact", fids[0])}
    assert other_tenant == {}


@dataclass
class _Item:
    kind: str
    source_id: int
    start: datetime
    score: float


async def test_a_candidate_whose_turn_others_cite_moves_up(db: Database, settings: Settings) -> None:
    tenant_id, forest_id, cited = await _forest(db, settings)
    fact = next(key for key, turns in cited.items() if key[0] == "fact")
    holding = next(key for key, turns in cited.items() if key[0] == "cell" and turns & cited[fact])
    alone = next(key for key, turns in cited.items() if key[0] == "cell" and not turns & cited[fact])
    when = datetime(2023, 1, 1, tzinfo=UTC)

    def pool() -> list[_Item]:  # the lone cell first, the two that agree on a turn a little behind
        return [_Item(*alone, when, 0.50), _Item(*fact, when, 0.49), _Item(*holding, when, 0.48)]

    async with db.tenant(tenant_id) as conn:
        off = await corroborate(conn, tenant_id, forest_id, pool(), 0.0, TimeCues())
        on = await corroborate(conn, tenant_id, forest_id, pool(), 0.025, TimeCues())
        when_asked = await corroborate(conn, tenant_id, forest_id, pool(), 0.025, TimeCues(asks_when=True))
        windowed = await corroborate(conn, tenant_id, forest_id, pool(), 0.025, TimeCues(after=when))
        cues = (TimeCues(wants_latest=True), TimeCues(wants_earliest=True), TimeCues(anchor_side="before"))
        timed = [await corroborate(conn, tenant_id, forest_id, pool(), 0.025, c) for c in cues]
    for same in (off, when_asked, windowed, *timed):  # the rerank's order, scores as they were
        assert [(it.kind, it.source_id, it.score) for it in same] == [(*alone, 0.50), (*fact, 0.49), (*holding, 0.48)]
    assert [(it.kind, it.source_id) for it in on][-1] == alone
    assert on[0].score == 0.49 + 0.025 and on[-1].score == 0.50


def test_corroboration_is_on_by_default_only_with_a_real_embedding_model(settings: Settings) -> None:
    """The hashed vectors measured no gain from it (ADR 0042), so they read no turns for it; a
    local or http model gets the weight; an explicit setting wins either way."""

    def weight(backend: str, support: float | None = None) -> float:
        embedding = settings.embedding.model_copy(update={"backend": backend})
        retrieval = settings.retrieval.model_copy(update={"support_weight": support})
        return RetrievalPreset.for_settings(
            settings.model_copy(update={"embedding": embedding, "retrieval": retrieval})
        ).w_support

    assert weight("hashed") == 0.0
    assert weight("local") == weight("http") == SUPPORT_WITH_A_MODEL > 0
    assert weight("hashed", 0.03) == 0.03 and weight("local", 0.0) == 0.0
