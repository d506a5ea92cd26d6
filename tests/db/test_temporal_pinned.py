"""The state a temporal question's plan picks is ranked first even when neither recall nor browse
reached it: a statement that shares no word with the question ("Finally settled in Porto, the
neighbours are lovely") among earlier ones that echo it ("I live in Dublin now"); and the anchor
of before / after is the state whose value it is, not a later statement that mentions it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from memforest.backends.factory import build_backends
from memforest.db.engine import Database
from memforest.domain import SessionInput, TurnInput
from memforest.pipeline.service import ingest_sessions
from memforest.retrieval import QueryRequest, query
from memforest.settings import Settings
from memforest.store.tenants import ensure_tenant

SAID = [
    ("s1", datetime(2021, 2, 1, 12, tzinfo=UTC), "I live in Dublin now, it took a while to settle in."),
    ("s2", datetime(2021, 5, 1, 12, tzinfo=UTC), "I live in Denver now, the mountains are close."),
    ("s3", datetime(2021, 8, 1, 12, tzinfo=UTC), "I live in Oslo now, it is cold."),
    ("s4", datetime(2021, 11, 1, 12, tzinfo=UTC), "Finally settled in Porto, the neighbours are lovely."),
]


_TOPICS = ("soup", "a novel", "the game", "yoga", "a documentary", "the bakery", "a walk", "board games")


def _rows() -> list[tuple[str, datetime, str]]:
    """Bob's four homes among many days of chatter (enough that browse reaches only some leaves)."""
    start = datetime(2021, 1, 1, 12, tzinfo=UTC)
    rows = [(f"f{i}", start + timedelta(days=4 * i), f"I enjoyed {_TOPICS[i % 8]} on day {i}.") for i in range(90)]
    rows += [(sid, when, text) for sid, when, text in SAID]
    return sorted(rows, key=lambda r: r[1])


async def test_plan_answer_is_first_even_when_browse_missed_it(db: Database, settings: Settings) -> None:
    tenant_id = await ensure_tenant(db, "pinned")
    sessions = [
        SessionInput(
            sid,
            when,
            (
                TurnInput(speaker="Bob", text=text, external_id=f"{sid}:1"),
                TurnInput(speaker="Ann", text="Good for you!", external_id=f"{sid}:2"),
            ),
        )
        for sid, when, text in _rows()
    ]
    backends = build_backends(settings)
    try:
        await ingest_sessions(db, settings, backends, tenant_id, "bob", sessions)
        for q in ("Where does Bob live now?", "Where did Bob move most recently?"):
            r = await query(db, settings, backends, tenant_id, QueryRequest("bob", q))
            top = r.evidence[0]
            assert "Porto" in top.text and top.temporal_role == "answer" and top.turn_ids == ("s4:1",), (q, top)
    finally:
        await backends.aclose()


async def test_anchor_is_the_state_whose_value_it_is(db: Database, settings: Settings) -> None:
    # the new car's statement names the old one ("sold the Kia Niro"): "before the Kia Niro" is
    # the state before the Kia Niro's own, not before the statement that mentions it last
    tenant_id = await ensure_tenant(db, "anchorvalue")
    said = [
        ("c1", datetime(2021, 2, 1, 12, tzinfo=UTC), "I bought a Peugeot 208 last weekend."),
        ("c2", datetime(2021, 6, 1, 12, tzinfo=UTC), "I drive a Kia Niro now."),
        ("c3", datetime(2021, 11, 1, 12, tzinfo=UTC), "Finally sold the Kia Niro, the new Subaru Outback is so quiet."),
    ]
    sessions = [
        SessionInput(sid, when, (TurnInput(speaker="Bob", text=text, external_id=f"{sid}:1"),))
        for sid, when, text in said
    ]
    backends = build_backends(settings)
    try:
        await ingest_sessions(db, settings, backends, tenant_id, "bob", sessions)
        for q, turn in (
            ("What car did Bob drive before the Kia Niro?", "c1:1"),
            ("What did Bob drive after the Kia Niro?", "c3:1"),
            ("Which car replaced Bob's Peugeot 208?", "c2:1"),
        ):
            top = (await query(db, settings, backends, tenant_id, QueryRequest("bob", q))).evidence[0]
            assert top.turn_ids == (turn,) and top.temporal_role == "answer", (q, top)
    finally:
        await backends.aclose()
