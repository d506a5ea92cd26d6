"""The temporal read path on small forests built here through the real write path: before, after,
as of, now, when, first; with out-of-order sessions, a retracted state and a value that recurs."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

from support.sessions import noon_utc

from memforest.backends.factory import build_backends
from memforest.db.engine import Database
from memforest.domain import SessionInput, TurnInput
from memforest.lifecycle.retract import retract
from memforest.pipeline.service import ingest_sessions
from memforest.retrieval import QueryAnswer, QueryRequest, query
from memforest.retrieval.temporal.parse import parse_question
from memforest.retrieval.temporal.resolve import temporal_plan
from memforest.settings import Settings
from memforest.store.temporal import facts_by_id
from memforest.store.tenants import ensure_tenant, get_forest

# (session id, time, what Bob says); Ann answers with chatter
BOB = [
    ("s1", noon_utc(2021, 2, 1), "I live in Boston."),
    ("s2", noon_utc(2021, 9, 1), "I work at Acme."),
    ("s3", noon_utc(2022, 3, 1), "I moved to Davis."),
    ("s4", noon_utc(2022, 11, 1), "The weather was lovely on the weekend."),
    ("s5", noon_utc(2023, 6, 1), "I moved to Miami."),
    ("s6", noon_utc(2023, 9, 1), "I work at Globex."),
]


def _sessions(rows: list[tuple[str, datetime, str]]) -> list[SessionInput]:
    return [
        SessionInput(
            external_id=sid,
            time=when,
            turns=(
                TurnInput(speaker="Bob", text=text, external_id=f"{sid}:1"),
                TurnInput(speaker="Ann", text="Nice, tell me more some time.", external_id=f"{sid}:2"),
            ),
        )
        for sid, when, text in rows
    ]


async def _forest(
    db: Database, settings: Settings, rows: list[tuple[str, datetime, str]], tenant: str = "temporal"
) -> uuid.UUID:
    tenant_id = await ensure_tenant(db, tenant)
    backends = build_backends(settings)
    try:
        await ingest_sessions(db, settings, backends, tenant_id, "bob", _sessions(rows))
    finally:
        await backends.aclose()
    return tenant_id


async def _ask(db: Database, settings: Settings, tenant_id: uuid.UUID, q: str, **kw: object) -> QueryAnswer:
    backends = build_backends(settings)
    try:
        return await query(db, settings, backends, tenant_id, QueryRequest("bob", q, **kw))  # type: ignore[arg-type]
    finally:
        await backends.aclose()


def _top(r: QueryAnswer) -> tuple[str, str | None, tuple[str, ...]]:
    e = r.evidence[0]
    return e.text, e.temporal_role, e.turn_ids


def _roles(r: QueryAnswer) -> dict[str, str]:
    return {e.text: e.temporal_role for e in r.evidence if e.temporal_role is not None}


def test_parse_operators() -> None:
    cases = {
        "Where did Bob live before Miami?": ("before", "residence", "Miami"),
        "Where was Bob living before the move to Miami?": ("before", "residence", "Miami"),
        "Where did Bob work after Acme?": ("after", "employer", "Acme"),
        "Where does Bob work now?": ("now", "employer", None),
        "Where is Bob living currently?": ("now", "residence", None),
        "When did Bob move to Davis?": ("when", "residence", None),
        "Where did Bob live first?": ("first", "residence", None),
        "Which city did Bob move to most recently?": ("latest", "residence", None),
        "How long did Bob live in Davis?": ("how_long", "residence", None),
    }
    for q, (op, attribute, anchor) in cases.items():
        tq = parse_question(q)
        assert (tq.operator, tq.attribute, tq.anchor) == (op, attribute, anchor), q
        assert "Bob" in tq.names
    assert parse_question("Where does Bob live?", has_as_of=True).operator == "as_of"
    assert parse_question("Where does Bob live?").operator == "now"  # a state asked in the present tense
    assert parse_question("Where did Bob live?").operator is None  # no time named: answered as before
    assert parse_question("What did Bob cook for the party?").attribute is None


async def test_before_after_now_as_of_when_first(db: Database, settings: Settings) -> None:
    t = await _forest(db, settings, BOB)
    text, role, turns = _top(await _ask(db, settings, t, "Where did Bob live before Miami?"))
    assert "Davis" in text and role == "answer" and turns == ("s3:1",)
    r = await _ask(db, settings, t, "Where did Bob live before Miami?")
    roles = _roles(r)
    assert any("Boston" in k and v == "earlier" for k, v in roles.items()), roles
    assert any("Miami" in k and v == "later" for k, v in roles.items()), roles
    # the answer first; its neighbours stay in the evidence where recall ranked them (ADR 0063)
    assert r.evidence[0].temporal_role == "answer"
    assert {"earlier", "later"} <= {e.temporal_role for e in r.evidence}
    text, role, _ = _top(await _ask(db, settings, t, "Where did Bob live after Boston?"))
    assert "Davis" in text and role == "answer"
    text, _, _ = _top(await _ask(db, settings, t, "Where did Bob move after Davis?"))
    assert "Miami" in text
    text, _, _ = _top(await _ask(db, settings, t, "Where does Bob live now?"))
    assert "Miami" in text
    text, _, _ = _top(await _ask(db, settings, t, "Where does Bob work now?"))
    assert "Globex" in text
    text, _, _ = _top(await _ask(db, settings, t, "Where did Bob work before Globex?"))
    assert "Acme" in text
    text, _, _ = _top(await _ask(db, settings, t, "Where does Bob live?", as_of=noon_utc(2022, 6, 1)))
    assert "Davis" in text
    r = await _ask(db, settings, t, "Where does Bob live?", as_of=noon_utc(2021, 6, 1))
    assert "Boston" in r.evidence[0].text and not any("Davis" in e.text or "Miami" in e.text for e in r.evidence)
    text, _, turns = _top(await _ask(db, settings, t, "When did Bob move to Davis?"))
    assert "Davis" in text and turns == ("s3:1",)
    text, _, _ = _top(await _ask(db, settings, t, "Where did Bob live first?"))
    assert "Boston" in text
    r = await _ask(db, settings, t, "Where does Bob live?")  # the present tense asks for now
    assert r.temporal == "now Bob.residence" and "Miami" in r.evidence[0].text
    r = await _ask(db, settings, t, "Where did Bob live?")  # no time named: no temporal plan
    assert r.temporal is None and all(e.temporal_role is None for e in r.evidence)


async def test_out_of_order_sessions(db: Database, settings: Settings) -> None:
    shuffled = [BOB[4], BOB[0], BOB[5], BOB[2], BOB[1], BOB[3]]
    t = await _forest(db, settings, shuffled)
    text, role, _ = _top(await _ask(db, settings, t, "Where did Bob live before Miami?"))
    assert "Davis" in text and role == "answer"
    text, _, _ = _top(await _ask(db, settings, t, "Where does Bob live now?"))
    assert "Miami" in text
    text, _, _ = _top(await _ask(db, settings, t, "Where does Bob live?", as_of=noon_utc(2022, 6, 1)))
    assert "Davis" in text


async def test_retracted_state_is_skipped(db: Database, settings: Settings) -> None:
    t = await _forest(db, settings, BOB)
    backends = build_backends(settings)
    try:
        await retract(db, settings, backends, t, "bob", "s3")
    finally:
        await backends.aclose()
    r = await _ask(db, settings, t, "Where did Bob live before Miami?")
    assert "Boston" in r.evidence[0].text and r.evidence[0].temporal_role == "answer"
    assert not any("Davis" in e.text for e in r.evidence)


async def test_recurring_value(db: Database, settings: Settings) -> None:
    rows = [
        ("s1", noon_utc(2021, 2, 1), "I live in Boston."),
        ("s2", noon_utc(2022, 3, 1), "I moved to Miami."),
        ("s3", noon_utc(2023, 6, 1), "I moved back to Boston."),
    ]
    t = await _forest(db, settings, rows)
    text, _, turns = _top(await _ask(db, settings, t, "Where did Bob live before Miami?"))
    assert "Boston" in text and turns == ("s1:1",)
    text, _, turns = _top(await _ask(db, settings, t, "Where did Bob live after Miami?"))
    assert "Boston" in text and turns == ("s3:1",)
    text, _, turns = _top(await _ask(db, settings, t, "Where does Bob live now?"))
    assert turns == ("s3:1",)
    text, _, turns = _top(await _ask(db, settings, t, "Where does Bob live?", as_of=noon_utc(2022, 9, 1)))
    assert "Miami" in text and turns == ("s2:1",)


_THINGS = ("pasta", "chess", "jazz", "tennis", "poetry", "pottery", "sushi", "hiking", "opera", "baking")
_VERBS = ("enjoyed", "tried", "talked about", "read about", "practised", "watched")


def _filler(n: int, start: datetime) -> list[tuple[str, datetime, str]]:
    """``n`` distinct statements of Bob, one a day from ``start``, with three homes among them near the end."""
    rows = []
    for i in range(n):
        thing, verb = _THINGS[i % len(_THINGS)], _VERBS[(i // len(_THINGS)) % len(_VERBS)]
        rows.append((f"f{i}", start + timedelta(days=i), f"I {verb} {thing} on day {i} of the season {i // 60}."))
    rows[-30] = ("h1", rows[-30][1], "I live in Boston.")
    rows[-20] = ("h2", rows[-20][1], "I moved to Davis.")
    rows[-10] = ("h3", rows[-10][1], "I moved to Miami.")
    return rows


async def _reads(db: Database, settings: Settings, t: uuid.UUID, q: str) -> tuple[int, str]:
    tq = parse_question(q)
    async with db.tenant(t) as conn:
        forest_id = (await get_forest(conn, t, "bob")).forest_id
        plan = await temporal_plan(conn, t, forest_id, tq, None, None)
        assert plan is not None, q
        answer = next(fid for fid, role in plan.roles.items() if role == "answer")
        (row,) = await facts_by_id(conn, t, forest_id, "bob", [answer], None)
    return plan.node_reads, str(row["text"])


async def test_descent_reads_grow_with_height_not_leaves(db: Database, settings: Settings) -> None:
    counts: dict[int, int] = {}
    for n in (50, 400):
        t = await _forest(db, settings, _filler(n, noon_utc(2020, 1, 1)), tenant=f"reads{n}")
        for q, value in (("Where did Bob live before Miami?", "Davis"), ("Where does Bob live now?", "Miami")):
            reads, text = await _reads(db, settings, t, q)
            assert value in text, (n, q, text)
            counts[n] = max(counts.get(n, 0), reads)
    assert 0 < counts[400] <= counts[50] + 4, counts  # 8x the leaves: a level or two more, not 8x the reads


async def test_now_finds_an_old_home_behind_newer_jobs(db: Database, settings: Settings) -> None:
    # the homes are all stated long before a run of job changes: the walk back from the newest
    # facts must go past the jobs to the homes, not answer the home question with a job
    rows = [
        ("h1", noon_utc(2019, 3, 1), "I live in Tarnwick."),
        ("h2", noon_utc(2019, 8, 1), "I moved to Quenby."),
    ]
    rows += [(f"f{i}", noon_utc(2019, 9, 1) + timedelta(days=4 * i), f"I {_VERBS[i % 6]} {_THINGS[i % 10]} on day {i}.")
             for i in range(60)]  # fmt: skip
    rows += [
        ("j1", noon_utc(2020, 6, 1), "I've been hired by Orrin Freight."),
        ("j2", noon_utc(2020, 9, 1), "I've been hired by Vellum Press."),
        ("j3", noon_utc(2021, 1, 1), "I've been hired by Saltmarsh Dairy."),
    ]
    t = await _forest(db, settings, rows)
    for q in ("Which city is Bob based in these days?", "What is the newest town Bob has lived in?"):
        text, _, turns = _top(await _ask(db, settings, t, q))
        assert turns == ("h2:1",), (q, text)


async def test_now_finds_an_old_state_of_an_open_kind_behind_newer_memberships(
    db: Database, settings: Settings
) -> None:
    # one dentist long ago, then two clubs joined: the walk back from the newest facts must not
    # stop at the clubs (a verb class that could stand in for a kind with no chain of its own)
    rows = [("d1", noon_utc(2019, 2, 1), "I started going to Dr. Quibell, my new dentist.")]
    rows += [(f"f{i}", noon_utc(2019, 3, 1) + timedelta(days=4 * i), f"I {_VERBS[i % 6]} {_THINGS[i % 10]} on day {i}.")
             for i in range(60)]  # fmt: skip
    rows += [
        ("c1", noon_utc(2020, 4, 1), "I joined the Harrowgate Rowers."),
        ("c2", noon_utc(2020, 9, 1), "I joined the Lintwhite Chess Circle."),
    ]
    t = await _forest(db, settings, rows)
    text, _, turns = _top(await _ask(db, settings, t, "Which dentist does Bob have these days?"))
    assert turns == ("d1:1",), text


async def test_no_chain_prefers_evidence_next_to_the_anchor(db: Database, settings: Settings) -> None:
    rows = [
        ("e1", noon_utc(2021, 1, 5), "I painted the old shed green."),
        ("e2", noon_utc(2021, 5, 5), "I painted a portrait of my grandmother."),
        ("e3", noon_utc(2021, 6, 1), "I went to the wedding of my cousin in Lisbon."),
        ("e4", noon_utc(2021, 6, 20), "I painted the kitchen walls blue."),
        ("e5", noon_utc(2021, 12, 5), "I painted a mural at the school."),
    ]
    t = await _forest(db, settings, rows)
    r = await _ask(db, settings, t, "What did Bob paint before the wedding?")
    assert "grandmother" in r.evidence[0].text and r.evidence[0].temporal_role == "earlier", r.evidence[0]
    texts = [e.text for e in r.evidence]
    assert not any("kitchen" in x or "mural" in x for x in texts[:2]), texts
    r = await _ask(db, settings, t, "What did Bob paint after the wedding?")
    assert "kitchen" in r.evidence[0].text and r.evidence[0].temporal_role == "later", r.evidence[0]


async def test_when_never_takes_the_value_for_the_person(db: Database, settings: Settings) -> None:
    # Alice is a speaker with facts of her own naming Bob, and the value of Bob's partner slot: in
    # "When did Alice become Bob's girlfriend?" she is the anchor of when, not the subject
    tenant_id = await ensure_tenant(db, "partner")
    said = [
        ("a1", noon_utc(2021, 2, 1), "Alice", "Bob and I went hiking near the lake."),
        ("b1", noon_utc(2021, 9, 1), "Bob", "Alice is my girlfriend now."),
        ("a2", noon_utc(2022, 3, 1), "Alice", "Bob cooked a lovely dinner for my birthday."),
    ]
    sessions = [
        SessionInput(sid, when, (TurnInput(speaker=who, text=text, external_id=f"{sid}:1"),))
        for sid, when, who, text in said
    ]
    backends = build_backends(settings)
    try:
        await ingest_sessions(db, settings, backends, tenant_id, "bob", sessions)
    finally:
        await backends.aclose()
    q = "When did Alice become Bob's girlfriend?"
    tq = parse_question(q)
    # (Bob, the possessor of the state asked, is the first candidate subject; Alice is its value)
    assert tq.operator == "when" and tq.names == ("Bob", "Alice") and tq.anchor is None
    async with db.tenant(tenant_id) as conn:
        forest_id = (await get_forest(conn, tenant_id, "bob")).forest_id
        plan = await temporal_plan(conn, tenant_id, forest_id, tq, None, None)
    assert plan is not None and plan.subject == "Bob", plan
    text, role, turns = _top(await _ask(db, settings, tenant_id, q))
    assert "girlfriend" in text and role == "answer" and turns == ("b1:1",), text


# Bob's pet, home and employer, stated once each change; Davis restated later (one fact, two turns)
PETS = [
    ("p1", noon_utc(2021, 2, 1), "We adopted a beagle called Pepper."),
    ("p2", noon_utc(2021, 8, 1), "I moved to Davis."),
    ("p3", noon_utc(2022, 3, 1), "We rescued a kitten named Mochi."),
    ("p4", noon_utc(2022, 9, 1), "I moved to Davis."),
    ("p5", noon_utc(2023, 1, 1), "Got hired by Globex, I start next week."),
    ("p6", noon_utc(2023, 6, 1), "I moved to Miami."),
]


async def test_when_in_many_phrasings_cites_the_stating_turn(db: Database, settings: Settings) -> None:
    t = await _forest(db, settings, PETS)
    cases = {  # the question's verb may name another attribute ("home", "live", "join"): the anchor's state tells
        "When did Bob bring Pepper home?": "p1:1",
        "Since when has Bob had Pepper?": "p1:1",
        "How long ago did Bob get Pepper?": "p1:1",
        "At what point did Bob take in Mochi?": "p3:1",
        "When did Mochi come to live with Bob?": "p3:1",
        "Do you remember when Bob relocated to Davis?": "p2:1",
        "Since when has Bob lived in Davis?": "p2:1",
        "At what point did Bob end up in Davis?": "p2:1",
        "What year did Bob start at Globex?": "p5:1",
        "When did Bob sign with Globex?": "p5:1",
        "When did Bob move to Globex?": "p5:1",
        "When was it that Bob settled in Miami?": "p6:1",
    }
    for q, turn in cases.items():
        r = await _ask(db, settings, t, q)
        assert r.evidence and r.evidence[0].turn_ids[:1] == (turn,), (q, r.temporal, r.evidence[0])
        assert r.evidence[0].temporal_role == "answer", (q, r.temporal)
