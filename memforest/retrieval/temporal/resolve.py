"""The temporal step of a query: confirm the subject against the forest, resolve the anchor to a
time, browse the subject's entity tree by interval toward it, and plan the answer among the leaves
reached (``plan.plan_answer``).

The descent reads one node per level down to the bottom node holding the anchor time (the tree's
last node for now / latest, its first for first), then walks neighbouring bottom nodes outward only
until enough states of the attribute lie on each side to tell the answer and its neighbours: node
reads grow with the tree's height and with how sparse the attribute is near the anchor, not with
the number of the subject's facts. A subject with no entity tree falls back to one read of its facts."""

from __future__ import annotations

import asyncio
import re
import uuid
from collections.abc import Awaitable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import partial

from memforest.attributes import STATE_ATTRIBUTES
from memforest.db.engine import Database
from memforest.retrieval.beside import hand_on
from memforest.retrieval.temporal.asked import ASKER
from memforest.retrieval.temporal.chains import chain_label
from memforest.retrieval.temporal.descent import BACKWARD, FORWARD, TimeCursor, fact_ids
from memforest.retrieval.temporal.lexicon import CUES
from memforest.retrieval.temporal.loose import OPERATORS as LOOSE_OPERATORS
from memforest.retrieval.temporal.loose import loose_read
from memforest.retrieval.temporal.memo import one_question
from memforest.retrieval.temporal.other_names import ALIAS_TEXTS, aliases
from memforest.retrieval.temporal.parse import TemporalQuestion, value_name
from memforest.retrieval.temporal.pick import in_full, titled_surname
from memforest.retrieval.temporal.plan import (
    ANSWER,
    EARLIER,
    LATER,
    TemporalPlan,
    mentions,
    plan_answer,
    presupposed,
    run_count,
    states_of,
)
from memforest.retrieval.temporal.walk import walk_side
from memforest.store import temporal as store
from memforest.store.reading import ReadTransaction, read_beside
from memforest.store.sql import Conn, Row

# runs (changes of value) a walk must see on each side of the anchor, per operator: the answer's
# run, one beyond it (which fixes where the answer's run starts) and the neighbour the answer shows
NEED_RUNS: dict[str, dict[int, int]] = {
    "before": {BACKWARD: 3, FORWARD: 1},
    "after": {BACKWARD: 2, FORWARD: 3},
    "between": {BACKWARD: 2, FORWARD: 3},
    "when": {BACKWARD: 2, FORWARD: 2},
    "how_long": {BACKWARD: 2, FORWARD: 2},
    "now": {BACKWARD: 2},
    "latest": {BACKWARD: 2},
    "as_of": {BACKWARD: 2},
    "first": {FORWARD: 2},
}
NEAR = 2  # facts a question with no attribute chain pins next to its anchor
MAX_READS = 256  # a bound on one walk's node reads (a subject whose attribute is very sparse)
# node reads one question may spend on all its walks together (its subjects, both sides of each):
# a question of a kind its subject has no state of walks to the tree's edge, and each read costs
# statements and a new telling of the states among the facts read so far, so this bounds what one
# question can take from the server. Spent, the walks stop and the plan is made from the facts
# read; no further subject is walked (the loose plan, else recall's own ranking). Two sides of
# MAX_READS: the longest walks of the LoCoMo and tune questions stay well inside it (ADR 0062).
QUERY_READS = 2 * MAX_READS
_ANCHORED = ("before", "after", "when", "between")
_OWN_ANCHOR = ("when", "how_long")  # operators whose anchor is the asked state's own value
_ASKER = re.compile(rf"\b{ASKER}\b")


@dataclass(slots=True)
class _Budget:
    """The node reads a question has left for its walks (:data:`QUERY_READS`)."""

    left: int = QUERY_READS


@dataclass(slots=True)
class _Scope:
    conn: Conn
    tenant_id: uuid.UUID
    forest_id: int
    subject: str
    as_of: datetime | None
    hints: Mapping[int, float] | None = None  # the question's recall similarity of facts (``plan.plan_answer``)
    read: dict[int, Row | None] = field(default_factory=dict)  # fact id -> the subject's fact (None: not theirs)
    budget: _Budget = field(default_factory=_Budget)  # shared by the question's subjects
    probe: store.SubjectProbe | None = None  # the question's first statement (its first subject's root)
    slot_rows: int = store.SLOT_ROWS  # the newest facts of each slot read (``store.subject_facts``)
    names: tuple[str, ...] = ()  # the subject's other names ("Ana's sister" for Mia: ``aliases``)

    async def facts(self, leaves: list[Row], ahead: Sequence[Row] = ()) -> list[Row]:
        """The subject's facts among ``leaves``, oldest first (as ``facts_of``); those of the leaves
        read ahead (``ahead``) are read in the same statement and kept for the next calls."""
        ids = list(dict.fromkeys(fact_ids(leaves)))
        if any(i not in self.read for i in ids):
            wanted = [i for i in dict.fromkeys([*ids, *fact_ids(list(ahead))]) if i not in self.read]
            self.read.update(dict.fromkeys(wanted))
            self.read.update((int(r["fact_id"]), r) for r in await self.facts_of(wanted))
        rows = [r for i in ids if (r := self.read[i]) is not None]
        return sorted(rows, key=lambda r: (r["valid_from"], r["fact_id"]))

    async def facts_of(self, ids: list[int]) -> list[Row]:
        return await store.facts_by_id(self.conn, self.tenant_id, self.forest_id, self.subject, ids, self.as_of)


def _holding_attribute(rows: list[Row], asked: str | None, subject: str, anchor: str) -> str | None:
    """The attribute of which a state of the subject names ``anchor``: the asked one when one of
    its states does, else that of the latest slot fact naming it, else one whose cue words tell
    such a state (``rows``: the subject's facts naming the anchor). For when / how long the anchor
    is the state itself, so its own facts tell the attribute better than the question's verb
    ("When did Bob bring Pepper home?" is no question about a home)."""
    slots = [str(r["attribute"]).casefold() for r in reversed(rows) if r["attribute"]]
    order = [a for a in dict.fromkeys([asked, *slots, *CUES]) if a is not None]
    for attribute in order:
        if any(mentions(s.text, anchor) for s in states_of(rows, attribute, subject)):
            return attribute
    return None


def _anchor_of(tq: TemporalQuestion, subject: str) -> str | None:
    if tq.anchor:
        return tq.anchor
    if tq.attribute is None or tq.operator in _OWN_ANCHOR:
        return value_name(tq, subject)
    return None


async def _anchor(
    scope: _Scope, tq: TemporalQuestion, event_time: datetime | None
) -> tuple[TemporalQuestion, datetime | None]:
    """The question with its attribute filled in from the anchor's states when it named none, and
    the anchor's time: the state naming the value (the latest for before, else the earliest), else
    the event time found elsewhere, else None (the as-of time for now / latest / as of)."""
    anchor = _anchor_of(tq, scope.subject)
    if tq.operator in ("now", "latest", "as_of"):
        at = tq.at or scope.as_of
    elif tq.operator in _ANCHORED or tq.operator == "how_long":
        at = tq.at or event_time
    else:
        at = None
    if anchor is None:
        return tq, at
    rows = await store.facts_naming(scope.conn, scope.tenant_id, scope.forest_id, scope.subject, anchor, scope.as_of)
    rows = [r for r in rows if mentions(str(r["text"]), anchor)]
    surname = titled_surname(anchor) if not rows else None
    if surname is not None:  # "Dr. Cole" asked, told as "Dr. Aaron Cole": the name as told
        where = (scope.conn, scope.tenant_id, scope.forest_id, scope.subject)
        named = await store.facts_naming(*where, surname, scope.as_of)
        anchor = in_full(anchor, (str(r["text"]) for r in named)) or anchor
        rows = [r for r in named if mentions(str(r["text"]), anchor)]
        tq = replace(tq, anchor=anchor) if rows else tq
    attribute = tq.attribute
    if tq.operator in _OWN_ANCHOR:
        attribute = _holding_attribute(rows, attribute, scope.subject, anchor) or attribute
    if attribute is None:
        slot = [r for r in rows if r["attribute"]]
        if not slot:  # no chain: the event's own time, else the fact naming it
            if at is None and rows and tq.operator in _ANCHORED:
                at = rows[-1]["valid_from"] if tq.operator == "before" else rows[0]["valid_from"]
            return tq, at
        attribute = str(slot[-1]["attribute"]).casefold()
    if attribute != tq.attribute:
        tq = replace(tq, attribute=attribute)
    held = [s for s in states_of(rows, attribute, scope.subject) if mentions(s.text, anchor)]
    if not held and tq.operator == "how_long":  # "how long was X my Y?": from X's first mention
        held = presupposed(rows, [], scope.subject, anchor)
    if not held or not (tq.operator in _ANCHORED or tq.operator == "how_long"):
        return tq, at
    return tq, (held[-1].time if tq.operator == "before" else held[0].time)


def _runs_beyond(
    rows: list[Row], tq: TemporalQuestion, subject: str, at: datetime | None, side: int, strict: bool
) -> int:
    """The runs of the asked chain among ``rows`` on one side of ``at``; ``strict``: only the
    chain of the asked kind itself counts (``_strict``)."""
    if tq.attribute is None:
        return 0
    states = states_of(rows, tq.attribute, subject, loose=not strict)
    if at is not None:
        states = [s for s in states if (s.time <= at if side == BACKWARD else s.time >= at)]
    return run_count(states)


async def _strict(scope: _Scope, attribute: str | None) -> bool:
    """Whether a walk counts only the asked kind's own chain: always for a named attribute, and for
    an open-ended kind when one of the subject's facts naming the kind's head noun ("dentist" of
    ``dentist``, "club" of ``running_club``) is a state of that kind. Another chain standing in for
    it (a verb class's) among the few facts read so far would end the walk before it reaches the
    kind's own states."""
    if attribute is None or attribute in STATE_ATTRIBUTES:
        return True
    head = attribute.split("_")[-1]
    rows = await store.facts_naming(scope.conn, scope.tenant_id, scope.forest_id, scope.subject, head, scope.as_of)
    labels = {str(r["attribute"]).casefold(): 1 for r in rows if r["attribute"] is not None}
    return chain_label(attribute, labels, loose=False) is not None


async def _browse(scope: _Scope, root: int, tq: TemporalQuestion, at: datetime | None) -> tuple[list[Row], int]:
    """The subject's facts under the bottom nodes around ``at`` (enough on each side), and the
    node reads it took."""
    strict = await _strict(scope, tq.attribute)
    need = NEED_RUNS[str(tq.operator)]
    sides = tuple(need) if at is not None else ((FORWARD,) if tq.operator == "first" else (BACKWARD,))
    cursor = TimeCursor(scope.conn, scope.tenant_id, scope.forest_id)
    start = await cursor.descend(root, at, sides[0])
    rows = await scope.facts(start)
    reads = cursor.reads
    for side in sides:
        enough = need.get(side, 2) + tq.back  # ("two jobs ago" reads two more runs back)
        limit = min(MAX_READS, scope.budget.left - reads)
        runs = partial(_runs_beyond, tq=tq, subject=scope.subject, at=at, side=side, strict=strict)
        rows, walked = await walk_side(cursor.copy(), side, rows, scope.facts, runs, enough, limit)
        reads += walked
    scope.budget.left -= reads
    unique = {int(r["fact_id"]): r for r in rows}
    return sorted(unique.values(), key=lambda r: (r["valid_from"], r["fact_id"])), reads


async def subject_plan(scope: _Scope, tq: TemporalQuestion, event_time: datetime | None) -> TemporalPlan | None:
    """The plan for one subject: by interval descent of its entity tree, else from all its facts."""
    probe = scope.probe
    if probe is not None and probe.first == scope.subject.casefold():
        root = probe.root
    else:
        root = await store.entity_root(scope.conn, scope.tenant_id, scope.forest_id, scope.subject)
    if root is None:
        rows = await store.subject_facts(
            scope.conn, scope.tenant_id, scope.forest_id, scope.subject, scope.as_of, scope.slot_rows
        )
        rows = _in_order([*rows, *await _relation_said(scope, scope.subject)])
        return plan_answer(tq, scope.subject, rows, event_time, scope.hints)
    tq, at = await _anchor(scope, tq, event_time)
    if at is None and tq.operator in _ANCHORED:
        return None
    if tq.attribute is None:
        return await _near(scope, root, tq, at) if at is not None else None
    rows, reads = await _browse(scope, root, tq, at)
    plan = plan_answer(tq, scope.subject, rows, event_time, scope.hints)
    if plan is not None:
        plan.node_reads = reads
    return plan


async def _near(scope: _Scope, root: int, tq: TemporalQuestion, at: datetime) -> TemporalPlan | None:
    """No attribute chain: the same descent toward the anchor time, and the subject's facts
    immediately before it (marked earlier) or after it (later), nearest first; for when, the
    fact at it. Facts naming the anchor itself are the anchor, not the answer."""
    side = FORWARD if tq.operator in ("after", "between") else BACKWARD
    cursor = TimeCursor(scope.conn, scope.tenant_id, scope.forest_id)
    rows = await scope.facts(await cursor.descend(root, at, side))
    anchor = _anchor_of(tq, scope.subject)

    def beyond(r: Row) -> bool:
        if anchor is not None and mentions(str(r["text"]), anchor):
            return tq.operator == "when"
        return bool(r["valid_from"] < at if side == BACKWARD else r["valid_from"] > at)

    limit = min(MAX_READS, scope.budget.left)
    while cursor.reads < limit and sum(1 for r in rows if beyond(r)) < NEAR:
        leaves = await cursor.step(side)
        if leaves is None:
            break
        rows += await scope.facts(leaves, cursor.pending())
    scope.budget.left -= cursor.reads
    near = sorted(
        (r for r in rows if beyond(r)), key=lambda r: (abs((r["valid_from"] - at).total_seconds()), r["fact_id"])
    )
    if not near:
        return None
    plan = TemporalPlan(str(tq.operator), scope.subject, None, at, node_reads=cursor.reads)
    role = ANSWER if tq.operator == "when" else (EARLIER if side == BACKWARD else LATER)
    for r in near[:NEAR]:
        plan.roles.setdefault(int(r["fact_id"]), role)
    return plan


@one_question
async def temporal_plan(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    tq: TemporalQuestion,
    as_of: datetime | None,
    anchor_time: datetime | None,
    hints: Mapping[int, float] | None = None,
    *,
    beside: Awaitable[ProbeRead | None] | None = None,
    slot_rows: int = store.SLOT_ROWS,
) -> TemporalPlan | None:
    """The answer state and its neighbours for a parsed temporal question, or None (then the query
    ranks as it would without a time operator). A relative the question names without a name
    ("Ana's sister") is asked about, never their owner; a person's other names (``aliases``) are
    read as one subject. ``hints``: fact id -> the question's recall similarity; ``beside``: the
    question's subject probe read beside the query (:func:`probe_beside`), used when it read this
    forest for these names; ``slot_rows``: the newest facts of each (subject, attribute) slot a
    plan reads (``store.subject_facts``). The checks of each fact's text are worked out once for
    the question (``memo.question_memo``)."""
    if tq.operator is None or not tq.names:
        return None
    asked_as = tq
    tq = await _asker_named(conn, tenant_id, forest_id, tq)
    selves = {n.casefold() for n, was in zip(tq.names, asked_as.names, strict=False) if was == ASKER}
    relatives = [n for n in tq.names if "'s " in n]
    anchor = _probe_anchor(tq)
    known: set[str] = set()
    answered: set[str] = set()  # (the names known_subjects was asked about: each is asked once)

    async def known_of(names: Sequence[str]) -> set[str]:
        unasked = list(dict.fromkeys(n.casefold() for n in names if n.casefold() not in answered))
        if unasked:
            known.update(await store.known_subjects(conn, tenant_id, forest_id, unasked))
            answered.update(unasked)
        return known

    probe = None
    if relatives:
        candidates = relatives
    else:  # (known_of's first call, with the first subject's texts and root read in the same statement)
        unasked = _probe_names(tq)
        probe = await _first_probe(conn, tenant_id, forest_id, (unasked, anchor), beside)
        known.update(probe.known)
        answered.update(unasked)
        candidates = [n for n in tq.names if n.casefold() in known and n.casefold() != anchor]
    candidates = [n for n in candidates if not tq.only_says_when(n)] or candidates
    unanswered: list[tuple[_Scope, TemporalQuestion]] = []
    budget = _Budget(QUERY_READS)
    for subject in candidates:
        if budget.left <= 0:
            break
        first = probe if probe is not None and subject.casefold() == probe.first else None
        texts = first.texts if first is not None else None
        names = await aliases(conn, tenant_id, forest_id, subject, texts, partnered=subject.casefold() not in selves)
        named = await known_of([*names, *(n.split("'s ", 1)[0] for n in names if "'s " in n)])
        names = [n for n in names if n.casefold() in named or _owner_known(n, named)]
        if not names:
            continue
        scope = _Scope(conn, tenant_id, forest_id, names[0], as_of, hints, budget=budget, probe=first)
        scope.slot_rows, scope.names = slot_rows, tuple(names[1:])
        others = tuple(n for n in tq.names if n.casefold() not in {x.casefold() for x in names})
        asked = replace(tq, names=(names[0], *others))
        if len(names) > 1 or tq.during is not None:
            plan = await _plan_of_all(scope, names, asked, anchor_time)
        else:
            plan = await subject_plan(scope, asked, anchor_time)
        if plan is not None:
            return plan
        unanswered.append((scope, asked))
    return await _loose(*unanswered[0], anchor_time) if unanswered else None


def _owner_known(name: str, known: set[str]) -> bool:
    """``name`` is a relation ("Ana's aunt") whose owner is a subject of the forest: the owner's
    words about the relative are read as theirs (``_relation_said``), though no fact has the
    relation for its subject."""
    return "'s " in name and name.split("'s ", 1)[0].casefold() in known


def _probe_names(tq: TemporalQuestion) -> list[str]:
    """The names a question's subject probe asks about: its names, lower case, once each, in order."""
    return list(dict.fromkeys(n.casefold() for n in tq.names))


def _probe_anchor(tq: TemporalQuestion) -> str:
    return (tq.anchor or "").casefold()


def probe_asked(tq: TemporalQuestion) -> tuple[list[str], str] | None:
    """The names and anchor of the question's subject probe (:func:`temporal_plan`'s first
    statement) when they are known from the question alone: a temporal question naming people,
    none of them a relative or the asker (whose name the forest gives); else None."""
    if tq.operator is None or not tq.names or any("'s " in n for n in tq.names):
        return None
    if any(_ASKER.search(n) for n in tq.names):
        return None
    return _probe_names(tq), _probe_anchor(tq)


@dataclass(frozen=True, slots=True)
class ProbeRead:
    """A subject probe read beside the query: the forest and the names and anchor it was read for."""

    forest_id: int
    asked: tuple[list[str], str]
    probe: store.SubjectProbe


async def probe_beside(
    db: Database,
    tenant_id: uuid.UUID,
    forest_id: int,
    asked: tuple[list[str], str],
    handed: asyncio.Future[ProbeRead | None] | None = None,
) -> ProbeRead | None:
    """The subject probe of ``asked`` (:func:`probe_asked`) in a transaction of the side pool, for
    :func:`temporal_plan`'s ``beside``; None when the side pool had no free connection.
    ``handed``: set to it as soon as it is read, before the side transaction's COMMIT."""

    async def read(side: ReadTransaction) -> ProbeRead:
        names, anchor = asked
        probe = await store.subject_probe(side.conn, tenant_id, forest_id, names, anchor, ALIAS_TEXTS)
        return hand_on(handed, ProbeRead(forest_id, asked, probe))

    return await read_beside(db, tenant_id, read)


async def _first_probe(
    conn: Conn,
    tenant_id: uuid.UUID,
    forest_id: int,
    asked: tuple[list[str], str],
    beside: Awaitable[ProbeRead | None] | None,
) -> store.SubjectProbe:
    """The question's subject probe: the one read beside when it read this forest for these names
    and anchor, else read here."""
    read = await beside if beside is not None else None
    if read is not None and read.forest_id == forest_id and read.asked == asked:
        return read.probe
    names, anchor = asked
    return await store.subject_probe(conn, tenant_id, forest_id, names, anchor, ALIAS_TEXTS)


async def _loose(scope: _Scope, tq: TemporalQuestion, anchor_time: datetime | None) -> TemporalPlan | None:
    """No chain answers for the first subject: the loose plan (``loose.loose_plan``) on its facts
    that recall found (``hints``), the pool's statements naming it that no state files, and those
    naming the anchor (``loose.loose_read``)."""
    if tq.operator not in LOOSE_OPERATORS or not scope.hints:
        return None
    own = await scope.facts_of(list(scope.hints))
    where = (scope.conn, scope.tenant_id, scope.forest_id)
    return await loose_read(where, (scope.subject, *scope.names), scope.as_of, scope.hints, own, tq, anchor_time)


async def _asker_named(conn: Conn, tenant_id: uuid.UUID, forest_id: int, tq: TemporalQuestion) -> TemporalQuestion:
    """The question with the asker (a first person and no speaker on the query) read as the forest's
    user-role speaker; without one, the asker's names are dropped."""
    if not any(_ASKER.search(n) for n in tq.names):
        return tq
    user = await store.user_speaker(conn, tenant_id, forest_id)
    if user is None:
        return replace(tq, names=tuple(n for n in tq.names if not _ASKER.search(n)))
    names = tuple(_ASKER.sub(lambda _: user, n) for n in tq.names)
    return replace(tq, names=names, anchor=_ASKER.sub(lambda _: user, tq.anchor) if tq.anchor else None)


async def _plan_of_all(
    scope: _Scope, names: list[str], tq: TemporalQuestion, event_time: datetime | None
) -> TemporalPlan | None:
    """The plan from all the facts of every name of one person, read as the first name's (and a
    "while ..." clause's other person's, whose state gives the time)."""
    rows: list[Row] = []
    where = (scope.conn, scope.tenant_id, scope.forest_id)
    for name in names:
        rows += await store.subject_facts(*where, name, scope.as_of, scope.slot_rows)
        rows += await _relation_said(scope, name)
    other = tq.during_holder if (tq.during_holder or "").casefold() not in {n.casefold() for n in names} else None
    during_rows = await store.subject_facts(*where, other, scope.as_of) if other else None
    return plan_answer(tq, names[0], _in_order(rows), event_time, scope.hints, during_rows, names[1:])


async def _relation_said(scope: _Scope, name: str) -> list[Row]:
    """For a person named by their relation only ("Ana's sister"), the owner's statements with no
    slot that name them ("Winters in Oslo are brutal, Ana's sister bought a coat"): they are about
    the relative, but no entity links them (a relation is no name). None for any other name."""
    if "'s " not in name:
        return []
    owner = name.split("'s ", 1)[0]
    rows = await store.facts_naming(scope.conn, scope.tenant_id, scope.forest_id, owner, name, scope.as_of)
    return [r for r in rows if r["attribute"] is None and r["subject"] is None and mentions(str(r["text"]), name)]


def _in_order(rows: Sequence[Row]) -> list[Row]:
    """``rows`` once each (by fact id), oldest first."""
    unique = {int(r["fact_id"]): r for r in rows}
    return sorted(unique.values(), key=lambda r: (r["valid_from"], r["fact_id"]))
