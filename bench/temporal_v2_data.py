"""The synthetic world of ``bench.temporal_v2``: one user talking to an agent over five years about
their own life (in the first person) and about two people they know ("my sister Ilse"), whose
homes, dentists, clubs, cars ... change; among the changes, sentences that are NOT states (plans,
wishes, hypotheticals, things considered or turned down, suggestions, negations, nostalgia), states
stated by their consequence, and probe questions by operator (before, after, as of, now, when, how
long, a named month, a relative time, "back when ...").

The text comes from one of two splits (``bench.temporal_v2_tune``, ``bench.temporal_v2_eval``)
whose templates, values and attributes are disjoint (:func:`overlap`). Deterministic for a seed.
A benchmark fixture, not real data.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from bench import temporal_v2_eval, temporal_v2_tune
from bench.temporal_v2_spec import FIRST_PERSON, Attribute, Split, TimePhrase, Voice, names_subject, render, words
from memforest.domain import SessionInput, TurnInput

SPLITS: dict[str, Split] = {"tune": temporal_v2_tune.SPLIT, "eval": temporal_v2_eval.SPLIT}
MONTHS = words("January, February, March, April, May, June, July, August, September, October, November, December")
EPOCH = datetime(2021, 2, 1, 9, 0, tzinfo=UTC)
LAST_START = datetime(2026, 8, 1, tzinfo=UTC)
DURING_SHARE = 0.75  # "back when I lived in X": the state that held for most of that time


@dataclass(frozen=True, slots=True)
class WorldSpec:
    """The size of a generated world."""

    forests: int = 6
    others: int = 2  # people the user talks about
    user_attributes: int = 5
    other_attributes: int = 2
    states: tuple[int, int] = (3, 4)  # states per chain: at least, at most
    mood_rate: float = 0.6  # chance that a chain has mood distractors (1 or 2)
    leave_rate: float = 0.25  # chance of a leave (a gap) between two states
    indirect_rate: float = 0.25  # chance that a state is stated only by its consequence
    filler_sessions: float = 0.15


@dataclass(slots=True)
class State:
    """One state of a subject's attribute and the turn that states it (``turn_id``); ``end`` is the
    next state's start or a leave (``end_turn``), None while it lasts."""

    subject: str
    attribute: str
    index: int
    value: str
    indirect: bool
    start: datetime
    turn_id: str = ""
    end: datetime | None = None
    end_turn: str | None = None


@dataclass(frozen=True, slots=True)
class Probe:
    """A question with what the harness passes (``as_of``; ``speaker`` and ``now`` once the query
    API takes them) and what scores it (``gold_turn``: the turn stating the asked state)."""

    qid: str
    forest: str
    operator: str
    text: str
    speaker: str
    now: datetime
    as_of: datetime | None
    window: tuple[datetime, datetime] | None  # the time the question names, when it names one
    subject: str
    subject_kind: str  # self | other
    form: str  # first_person | named | relation
    attribute: str
    attribute_kind: str  # named | open
    gold_turn: str
    gold_value: str
    end_turn: str | None
    other_turns: tuple[str, ...]
    mood_distractor: bool
    gold_indirect: bool


@dataclass(slots=True)
class ForestData:
    """One forest: the user, the people they talk about, the sessions, states, mood turns, probes."""

    name: str
    user: str
    others: dict[str, tuple[str, str]]  # name -> (relation, pronoun)
    sessions: list[SessionInput] = field(default_factory=list)
    states: list[State] = field(default_factory=list)
    mood_turns: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    leave_turns: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    probes: list[Probe] = field(default_factory=list)
    now: datetime = EPOCH


@dataclass(slots=True)
class _Event:
    when: datetime
    subject: str
    text: str
    state: State | None = None
    kind: str = "state"  # state | leave | mood
    chain: tuple[str, str] = ("", "")
    turn_id: str = ""


# ------------------------------------------------------------------------------- the world


def generate(seed: int, split: str, spec: WorldSpec | None = None) -> list[ForestData]:
    """The forests of one world in the ``split`` (``tune`` or ``eval``)."""
    if split not in SPLITS:
        raise ValueError(f"split must be one of {tuple(SPLITS)}")
    spec = spec or WorldSpec()
    return [_forest(random.Random(f"{seed}:{split}:{i}"), SPLITS[split], spec, i) for i in range(spec.forests)]


def _voice(rng: random.Random, forest: ForestData, subject: str) -> Voice:
    """How a statement refers to ``subject``: first person, or "Ilse" / "my sister Ilse" / "my sister"."""
    if subject == forest.user:
        return FIRST_PERSON
    relation, pronoun = forest.others[subject]
    name = rng.choice((subject, f"my {relation} {subject}", f"my {relation}"))
    return Voice(first=False, name=name, pronoun=pronoun)


def _subjects(rng: random.Random, split: Split, spec: WorldSpec, index: int) -> ForestData:
    user = split.users[index % len(split.users)]
    picks = [split.others[(index * spec.others + i) % len(split.others)] for i in range(spec.others)]
    others: dict[str, tuple[str, str]] = {}
    free = list(split.relations)
    rng.shuffle(free)
    for name, pronoun in picks:
        relation = next(r for r in free if r[1] in ("any", pronoun))
        free.remove(relation)
        others[name] = (relation[0], pronoun)
    return ForestData(name=f"{split.name[0]}2-{index}", user=user, others=others)


def _assign(rng: random.Random, split: Split, spec: WorldSpec, forest: ForestData) -> dict[str, list[Attribute]]:
    """Attributes per subject: the user has the anchor attribute and open-ended ones; each other
    person shares one attribute with the user (their changes must not supersede the user's)."""
    rest = [a for a in split.attributes if a.name != split.anchor_attribute]
    rng.shuffle(rest)
    mine = [split.attribute(split.anchor_attribute), *rest[: spec.user_attributes - 1]]
    shared = {other: mine[1 + i % (len(mine) - 1)] for i, other in enumerate(forest.others)}
    users_of = {a.name: 1 for a in mine}
    for a in shared.values():
        users_of[a.name] += 1
    out = {forest.user: mine}
    for other, common in shared.items():  # no attribute has more than two subjects in one forest
        pool = [a for a in split.attributes if a.name != common.name and users_of.get(a.name, 0) < 2]
        theirs = [common, *rng.sample(pool, min(len(pool), spec.other_attributes - 1))]
        for a in theirs[1:]:
            users_of[a.name] = users_of.get(a.name, 0) + 1
        out[other] = theirs
    return out


def _forest(rng: random.Random, split: Split, spec: WorldSpec, index: int) -> ForestData:
    forest = _subjects(rng, split, spec, index)
    pools = {a.name: rng.sample(a.values, len(a.values)) for a in split.attributes}
    events: list[_Event] = []
    for subject, attributes in _assign(rng, split, spec, forest).items():
        for attribute in attributes:
            events += _chain(rng, split, spec, forest, subject, attribute, pools[attribute.name])
    _sessions(rng, split, spec, forest, events)
    forest.now = forest.sessions[-1].time + timedelta(days=rng.randint(10, 40))
    forest.probes = _probes(rng, split, forest)
    return forest


def _chain(
    rng: random.Random, split: Split, spec: WorldSpec, forest: ForestData, subject: str, a: Attribute, pool: list[str]
) -> list[_Event]:
    """The events of one (subject, attribute): its states, leaves and mood sentences."""
    n = rng.randint(*spec.states)
    kind = rng.choice(a.kinds) if a.kinds else ""
    starts = [EPOCH + timedelta(days=rng.randint(0, 480))]
    while len(starts) < n and starts[-1] + timedelta(days=420) < LAST_START:
        starts.append(starts[-1] + timedelta(days=rng.randint(150, 420), hours=rng.randint(-4, 4)))
    states = [State(subject, a.name, i, pool.pop(), False, t) for i, t in enumerate(starts)]
    key = (subject, a.name)
    events: list[_Event] = []
    for i, s in enumerate(states):
        v = {"v": s.value, "noun": a.noun, "k": kind, "prev": states[i - 1].value if i else ""}
        indirect = rng.random() < spec.indirect_rate * (1.5 if i == 0 else 1.0)
        if indirect:
            family = a.indirect
        elif i and rng.random() < 0.5 and not (events and events[-1].kind == "leave"):
            family = split.switch[a.cls]
        else:
            family = split.start[a.cls]
        template = rng.choice(family)
        if subject != forest.user:
            template = _attributable(template, family, split.start[a.cls], s.value)
            indirect = indirect and template in a.indirect
        s.indirect = indirect
        events.append(_Event(s.start, subject, render(template, _voice(rng, forest, subject), v), s, chain=key))
        if i + 1 < len(states):
            s.end = states[i + 1].start
            if split.leave.get(a.cls) and rng.random() < spec.leave_rate:
                left = s.start + (states[i + 1].start - s.start) * 0.6
                s.end = left
                text = render(rng.choice(split.leave[a.cls]), _voice(rng, forest, subject), {**v, "prev": s.value})
                events.append(_Event(left, subject, text, s, kind="leave", chain=key))
    if rng.random() < spec.mood_rate:
        for _ in range(rng.randint(1, 2)):
            events += _mood(rng, split, forest, a, kind, states, pool, key)
    forest.states += states
    return events


def _attributable(template: str, family: Sequence[str], starts: Sequence[str], value: str) -> str:
    """For another person's state, a sentence that says whose it is: one that names nobody ("Rode
    the {v} to the coast") is the speaker's to any reader, so it is replaced by a sentence of the same
    family that names its subject, or by a plain start when the family has none. The pick is a
    function of the draw already made (no draw of its own), so every other sentence of the world
    stays what it was."""
    if names_subject(template):
        return template
    pool = [t for t in family if names_subject(t)] or [t for t in starts if names_subject(t)]
    return pool[(list(family).index(template) + len(value)) % len(pool)]


def _mood(
    rng: random.Random,
    split: Split,
    forest: ForestData,
    a: Attribute,
    kind: str,
    states: list[State],
    pool: list[str],
    key: tuple[str, str],
) -> list[_Event]:
    """One sentence that names a value of the attribute but states nothing: a fresh value (plans,
    wishes, ...) or a past one (nostalgia, after it ended)."""
    mood = rng.choice(sorted(split.moods))
    if mood == "nostalgia":
        ended = [(s.value, s.end) for s in states if s.end is not None]
        if not ended:
            return []
        x, end = rng.choice(ended)
        when = end + timedelta(days=rng.randint(20, 200))
    elif pool:
        when = states[0].start + timedelta(days=rng.randint(20, max(21, (LAST_START - states[0].start).days)))
        x = pool.pop()
    else:
        return []
    values = {"x": x, "vp": a.vp, "noun": a.noun, "k": kind}
    text = render(rng.choice(split.moods[mood]), _voice(rng, forest, key[0]), values)
    return [_Event(when, key[0], text, kind="mood", chain=key)]


def _sessions(rng: random.Random, split: Split, spec: WorldSpec, forest: ForestData, events: list[_Event]) -> None:
    """Events grouped into dated sessions (two at most, a few days apart) among chatter; the turn
    ids of states, leaves and moods are set here, and a state starts when its session happens."""
    events.sort(key=lambda e: (e.when, e.subject, e.text))
    groups: list[list[_Event]] = []
    for e in events:
        if groups and len(groups[-1]) < 2 and e.when - groups[-1][0].when < timedelta(days=5):
            groups[-1].append(e)
        else:
            groups.append([e])
    plans: list[tuple[datetime, list[_Event]]] = []
    for g in groups:
        plans.append((g[0].when, g))
        if rng.random() < spec.filler_sessions:
            plans.append((g[0].when + timedelta(days=rng.randint(6, 12), hours=3), []))
    plans.sort(key=lambda p: p[0])
    for n, (when, group) in enumerate(plans, 1):
        sid = f"{forest.name}-s{n}"
        size = rng.choice((6, 8, 10))
        slots = rng.sample(range(0, size, 2), len(group))
        chatter = iter(rng.sample(split.fillers, size // 2))
        texts = [
            render(next(chatter), FIRST_PERSON, {}) if j % 2 == 0 else rng.choice(split.replies) for j in range(size)
        ]
        for e, j in zip(group, slots, strict=True):
            texts[j] = e.text
            e.turn_id = f"{sid}:{j + 1}"
            if e.kind == "state" and e.state is not None:
                e.state.turn_id, e.state.start = e.turn_id, when
            elif e.kind == "leave" and e.state is not None:
                e.state.end_turn, e.state.end = e.turn_id, when
            else:
                forest.mood_turns.setdefault(e.chain, []).append(e.turn_id)
            if e.kind == "leave":
                forest.leave_turns.setdefault(e.chain, []).append(e.turn_id)
        turns = tuple(
            TurnInput(
                speaker=forest.user if j % 2 == 0 else "assistant",
                text=t,
                role="user" if j % 2 == 0 else "assistant",
                external_id=f"{sid}:{j + 1}",
            )
            for j, t in enumerate(texts)
        )
        forest.sessions.append(SessionInput(external_id=sid, time=when, turns=turns))
    for s in forest.states:  # a state ends when the next starts, unless a leave ended it earlier
        nxt = next((t for t in forest.states if (t.subject, t.attribute, t.index) == (s.subject, s.attribute,
                                                                                      s.index + 1)), None)  # fmt: skip
        if nxt is not None and s.end_turn is None:
            s.end, s.end_turn = nxt.start, None


# ---------------------------------------------------------------------------------- probes


def _month_start(year: int, month: int) -> datetime:
    return datetime(year + (month - 1) // 12, (month - 1) % 12 + 1, 1, tzinfo=UTC)


def _windows(phrase: TimePhrase, now: datetime) -> list[tuple[str, datetime, datetime]]:
    """Every (text, start, end) a time phrase can name relative to ``now``."""
    out: list[tuple[str, datetime, datetime]] = []
    if phrase.kind == "ago":
        centre = _month_start(now.year, now.month - phrase.months)
        lo, hi = _month_start(centre.year, centre.month - 1), _month_start(centre.year, centre.month + 2)
        out.append((phrase.text, lo, hi))
    elif phrase.kind == "last_season":
        for year in (now.year, now.year - 1):
            start = _month_start(year, phrase.months)
            end = _month_start(year, phrase.months + phrase.length)
            if end <= _month_start(now.year, now.month):
                out.append((phrase.text, start, end))
                break
    elif phrase.kind == "season":
        for year in range(EPOCH.year, now.year + 1):
            start, end = _month_start(year, phrase.months), _month_start(year, phrase.months + phrase.length)
            if end <= now:
                out.append((phrase.text.format(year=year), start, end))
    elif phrase.kind == "month":
        m = _month_start(EPOCH.year, EPOCH.month)
        while _month_start(m.year, m.month + 1) <= now:
            nxt = _month_start(m.year, m.month + 1)
            out.append((phrase.text.format(month=MONTHS[m.month - 1], year=m.year), m, nxt))
            m = nxt
    return out


def _holder(chain: list[State], start: datetime, end: datetime, now: datetime, share: float = 1.0) -> State | None:
    """The state that holds for at least ``share`` of [start, end) (all of it by default), if one does."""
    for s in chain:
        overlap = min(end, s.end or now) - max(start, s.start)
        if overlap >= (end - start) * share:
            return s
    return None


def _probes(rng: random.Random, split: Split, forest: ForestData) -> list[Probe]:
    chains: dict[tuple[str, str], list[State]] = {}
    for s in forest.states:
        chains.setdefault((s.subject, s.attribute), []).append(s)
    out: list[Probe] = []
    for key in sorted(chains):
        chain = sorted(chains[key], key=lambda s: s.index)
        if len(chain) < 2:
            continue
        subject, name = key
        a = split.attribute(name)
        last = len(chain) - 1
        asks: list[tuple[str, State, dict[str, str], datetime | None, tuple[datetime, datetime] | None]] = [
            ("before", chain[i := rng.randrange(last)], {"x": chain[i + 1].value}, None, None),
            ("after", chain[j := rng.randint(1, last)], {"x": chain[j - 1].value}, None, None),
            ("now", chain[last], {}, None, None),
            ("when", chain[w := rng.randint(0, last)], {"x": chain[w].value}, None, None),
            ("how_long", chain[h := rng.randrange(last)], {"x": chain[h].value}, None, None),
        ]
        s = chain[rng.randint(0, last)]
        asks.append(("as_of", s, {}, s.start + ((s.end or forest.now) - s.start) / 2, None))
        for op, kinds in (("in_month", ("month",)), ("relative", ("ago", "last_season", "season"))):
            options = [
                (text, lo, hi, held)
                for p in split.time_phrases
                if p.kind in kinds
                for text, lo, hi in _windows(p, forest.now)
                if (held := _holder(chain, lo, hi, forest.now)) is not None and held.turn_id
            ]
            if options:
                text, lo, hi, held = rng.choice(options)
                asks.append((op, held, {"t": text}, None, (lo, hi)))
        anchor = sorted((t for t in forest.states if (t.subject, t.attribute) == (subject, split.anchor_attribute)),
                        key=lambda t: t.index)  # fmt: skip
        if name != split.anchor_attribute:
            ended = [(y, y.end) for y in anchor if y.end is not None]
            pairs = [
                (y, end, held) for y, end in ended if (held := _holder(chain, y.start, end, forest.now, DURING_SHARE))
            ]
            if pairs:
                y, end, held = rng.choice(pairs)
                asks.append(
                    ("during", held, {"a": rng.choice(split.anchor_phrases), "y": y.value}, None, (y.start, end))
                )
        for op, gold, values, as_of, window in asks:
            out.append(_probe(rng, split, forest, a, chain, op, gold, values, as_of, window, len(out)))
    return out


def _probe(
    rng: random.Random,
    split: Split,
    forest: ForestData,
    a: Attribute,
    chain: list[State],
    op: str,
    gold: State,
    values: dict[str, str],
    as_of: datetime | None,
    window: tuple[datetime, datetime] | None,
    n: int,
) -> Probe:
    subject = gold.subject
    if subject == forest.user:
        voice, form = FIRST_PERSON, "first_person"
    else:
        relation, pronoun = forest.others[subject]
        form = "named" if rng.random() < 0.7 else "relation"
        voice = Voice(first=False, name=subject if form == "named" else f"my {relation}", pronoun=pronoun)
    template = rng.choice(split.questions[op])
    if "a" in values:  # the anchor phrase is itself a template of the same subject
        template = template.replace("{a}", values["a"])
    text = render(template, voice, {**values, "noun": a.noun})
    key = (subject, a.name)
    others = [s.turn_id for s in chain if s is not gold]
    others += forest.mood_turns.get(key, []) + forest.leave_turns.get(key, [])
    others += [s.turn_id for s in forest.states if s.attribute == a.name and s.subject != subject]
    return Probe(
        qid=f"{forest.name}-q{n}",
        forest=forest.name,
        operator=op,
        text=text,
        speaker=forest.user,
        now=forest.now,
        as_of=as_of,
        window=window,
        subject=subject,
        subject_kind="self" if subject == forest.user else "other",
        form=form,
        attribute=a.name,
        attribute_kind=a.kind,
        gold_turn=gold.turn_id,
        gold_value=gold.value,
        end_turn=gold.end_turn if op == "how_long" else None,
        other_turns=tuple(others),
        mood_distractor=bool(forest.mood_turns.get(key)),
        gold_indirect=gold.indirect,
    )


def all_turn_ids(forest: ForestData) -> set[str]:
    """Every turn id of a forest."""
    return {t.external_id or "" for s in forest.sessions for t in s.turns}
