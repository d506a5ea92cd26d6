"""Cells that echo a fact ranked above them (the fact's turn and the assistant's reply) leave the
evidence on the real read path; a cell with another person's uncited turn stays."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from memforest.backends.factory import build_backends
from memforest.db.engine import Database
from memforest.domain import SessionInput, TurnInput
from memforest.pipeline.service import ingest_sessions
from memforest.retrieval import QueryRequest, query
from memforest.settings import Settings
from memforest.store.tenants import ensure_tenant

CHAT = [
    ("Wren", "user", "I joined the Larkspur bouldering gym last week."),
    ("assistant", "assistant", "Nice, enjoy it!"),
    ("Wren", "user", "The Larkspur gym has a new overhang wall for bouldering."),
    ("assistant", "assistant", "Sounds fun."),
    ("Wren", "user", "I bought chalk and shoes for bouldering at Larkspur."),
    ("assistant", "assistant", "Good luck with it."),
]
FRIENDS = [
    ("Wren", None, "I joined the Larkspur bouldering gym last week."),
    ("Osk", None, "Larkspur is where I met Tova, she sets the bouldering routes there."),
]


async def _ask(
    db: Database, settings: Settings, lines: list[tuple[str, str | None, str]]
) -> list[tuple[str, tuple[str, ...]]]:
    tenant_id = await ensure_tenant(db, f"echoes-{uuid.uuid4().hex[:8]}")
    turns = tuple(
        TurnInput(speaker=who, role=role, text=text, external_id=f"t{i}") for i, (who, role, text) in enumerate(lines)
    )
    backends = build_backends(settings)
    try:
        start = datetime(2024, 5, 2, 9, tzinfo=UTC)
        await ingest_sessions(db, settings, backends, tenant_id, "gym", [SessionInput("s1", start, turns)])
        res = await query(
            db, settings, backends, tenant_id, QueryRequest("gym", "bouldering at the Larkspur gym", top_k=10)
        )
    finally:
        await backends.aclose()
    return [(e.kind, e.turn_ids) for e in res.evidence]


async def test_no_cell_repeats_a_fact_above_it_with_only_the_assistants_reply(db: Database, settings: Settings) -> None:
    evidence = await _ask(db, settings, CHAT)
    assistant = {f"t{i}" for i, (_, role, _) in enumerate(CHAT) if role == "assistant"}
    facts = [turns for kind, turns in evidence if kind == "fact"]
    assert len(facts) == 3  # (one fact a user turn)
    cited: set[str] = set()
    for kind, turns in evidence:
        if kind == "fact":
            cited.update(turns)
        else:
            assert not (set(turns) & cited and set(turns) <= cited | assistant), (turns, evidence)
    assert [kind for kind, _ in evidence].count("cell") < 3  # (the three cells ranked; the echoes left)


async def test_a_cell_with_another_speakers_turn_stays(db: Database, settings: Settings) -> None:
    evidence = await _ask(db, settings, FRIENDS)
    cells = [turns for kind, turns in evidence if kind == "cell"]
    assert cells == [("t0", "t1")]
