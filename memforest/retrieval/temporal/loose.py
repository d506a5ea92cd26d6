"""The loose plan of a temporal question whose attribute chain tells no answer (ADR 0057): the
subject's statements about the asked thing, found by the question's own words or by its recall
similarity, ordered by time, and the operator answered on that list (the latest for now, the one
holding at the as-of time or at the time a "while ..." clause's statements tell, the one before or
after the anchor's first mention, the first naming the value for when).

It runs only when ``plan.plan_answer`` gave no plan: no chain told an answer, or a verb class's
chain answered for an open-ended kind none of its states names while the subject's statements name
it (``kind_words.told_elsewhere``); a question it cannot read (no operator it answers, no statement
of the subject that fits) keeps the plain ranking."""

from __future__ import annotations

import re
import uuid
from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from datetime import datetime

from memforest.attributes import ATTRIBUTE_WORDS
from memforest.retrieval.temporal.chains import named_values
from memforest.retrieval.temporal.parse import TemporalQuestion, value_name
from memforest.retrieval.temporal.plan import ANSWER, EARLIER, LATER, TemporalPlan, during_span, mentions, mood_of
from memforest.store import temporal as store
from memforest.store.sql import Conn, Row
from memforest.text.lexicon import CAPITALS, CONTRACTED_S, WORD_START
from memforest.text.mood import plain_opening
from memforest.text.state_words import KIN
from memforest.text.terms import content_terms

OPERATORS = ("before", "after", "now", "latest", "as_of", "when")
NEAR_SIM = 0.04  # a statement this close to the subject's most similar one (cosine) fits the question
HOLDING = ("now", "latest", "as_of")  # operators that ask for a state that holds
# a statement that a state ended ("stopped his lessons with Anna Berg", "no longer plays"), unless
# a new one follows it ("stopped ... and now learns with Cressida Vane")
_ENDED = re.compile(r"\b(?:stopped|quit|left|no\s+longer|used\s+to|anymore|any\s+more|gave\s+up|dropped)\b", re.I)
_RESUMED = re.compile(r"\b(?:now|instead|switched|started|then|since)\b", re.I)
# a relative of the subject named in the statement ("his sister Nora"): the state is likely theirs
_RELATIVE = re.compile(rf"\b(?i:his|her|their|my|\w+'s)\s+(?i:{KIN})\s+([{CAPITALS}][\w-]*)")


# a named person's possessive before a noun phrase: no contraction ("It's", "That's") and no "is"
# ("Osric's the best teacher", "Osric's been")
_OWNER_OF = re.compile(
    rf"{WORD_START}(?!(?i:{CONTRACTED_S})'s)([{CAPITALS}][\w-]*)'s\s+"
    r"(?!(?:a|an|the|my|his|her|their|our|your|been|got|gone|not|just|also|still|now|so|very|always|never)\b)"
)


def _anothers_kind(text: str, asked: str | None, names: Sequence[str]) -> bool:
    """``text`` names the asked kind as another named person's ("Ana's new dentist at X", asked of
    Ilse): the state it tells is theirs."""
    words = [w for w in (asked or "").split("_") if len(w) > 2]
    if not words:
        return False
    kind = "|".join(re.escape(w) for w in words)
    own = {n.casefold() for n in names}
    return any(
        m.group(1).casefold() not in own
        for m in _OWNER_OF.finditer(text)
        if re.match(rf"(?:[a-z]+\s+){{0,2}}(?i:{kind})", text[m.end() :])
    )


def _terms_of(tq: TemporalQuestion) -> set[str]:
    """The question's terms and, for a named attribute, that attribute's words."""
    out = set(tq.terms)
    if tq.attribute is not None and tq.attribute in ATTRIBUTE_WORDS:
        out.update(content_terms(" ".join(ATTRIBUTE_WORDS[tq.attribute])))
    return out


def _shares(row: Row, terms: set[str], anchor: str | None) -> bool:
    """The statement shares a word with the question or names its anchor."""
    text = str(row["text"])
    return bool(terms & set(content_terms(text))) or (anchor is not None and mentions(text, anchor))


def statements(
    rows: Sequence[Row],
    tq: TemporalQuestion,
    subject: str,
    hints: Mapping[int, float],
    more: Sequence[str] = (),
    unfiled: Collection[int] = (),
    aliases: Sequence[str] = (),
) -> list[Row]:
    """The subject's statements (``rows``, oldest first) that may hold the asked state: each is
    filed under the subject (or under no one), names a value besides the subject with no mood (a
    plan, a wish, nostalgia), or in the plain clause it opens with (``_plainly_valued``), and shares
    a word with the question (or ``more`` terms) or names its anchor; when none does, those about
    as similar to the question as the most similar one (``hints``: cosine), of the subject's own
    facts only (not the ``unfiled`` ids: another
    speaker's remark naming the subject is taken on shared words alone). A statement naming the
    asked kind as another named person's is none (``aliases``: the subject's other names)."""
    own = subject.casefold()
    valued = [
        r
        for r in rows
        if str(r["subject"] or own).casefold() == own
        and _plainly_valued(str(r["text"]), (subject, *tq.people))
        and not _anothers_kind(str(r["text"]), tq.attribute, (subject, *aliases))
    ]
    terms = _terms_of(tq) | set(more)
    shared = [r for r in valued if _shares(r, terms, tq.anchor)]
    if shared:
        return shared
    valued = [r for r in valued if int(r["fact_id"]) not in unfiled]
    best = max((hints.get(int(r["fact_id"]), -1.0) for r in valued), default=-1.0)
    return [r for r in valued if hints.get(int(r["fact_id"]), -2.0) >= best - NEAR_SIM]


def _plainly_valued(text: str, names: Sequence[str]) -> bool:
    """``text`` names a value besides ``names`` with no mood, or in the plain clause it opens with
    before a mood: "X climbs at Y and says I should have joined him" states Y; "maybe I'll join Y,
    Ana says Z is nicer" states nothing."""
    if mood_of(text) is None:
        return bool(named_values(text, names))
    opening = plain_opening(text)
    return opening is not None and bool(named_values(opening, names))


def holds(text: str, names: Sequence[str] = ()) -> bool:
    """Whether a statement may tell a state that holds: it tells no end of it (with nothing new
    after the end) and names no relative whose state it may be, unless that relative is the
    subject itself (``names``: "Ana's neighbour Ilse switched hairdressers", asked of Ilse)."""
    end = _ENDED.search(text)
    if end is not None and _RESUMED.search(text, end.end()) is None:
        return False
    own = {n.casefold() for n in names}
    return all(m.group(1).casefold() in own for m in _RELATIVE.finditer(text))


def _anchor_time(rows: Sequence[Row], tq: TemporalQuestion, anchor_time: datetime | None) -> datetime | None:
    """When the anchor starts: the first statement naming it with no mood (a wish or a plan starts
    nothing), else the time found elsewhere."""
    if tq.anchor is not None:
        named: list[datetime] = [
            r["valid_from"] for r in rows if mentions(str(r["text"]), tq.anchor) and mood_of(str(r["text"])) is None
        ]
        if named:
            return min(named)
    return tq.at or anchor_time


def _index(listed: Sequence[Row], tq: TemporalQuestion, at: datetime | None, names: Sequence[str]) -> int | None:
    """The answer's place in ``listed`` (oldest first) for the question's operator."""
    if tq.operator == "before":
        if at is None:
            return None
        earlier = [i for i, r in enumerate(listed) if r["valid_from"] < at]
        return earlier[-1] if earlier else None
    if tq.operator == "after":
        if at is None:
            return None
        later = [i for i, r in enumerate(listed) if r["valid_from"] > at and _moves_on(r, tq.anchor, names)]
        # (one naming the anchor and a new value tells the change itself: "X closed, so now I swim at Y")
        told = [i for i in later if tq.anchor is not None and _switched_from(str(listed[i]["text"]), tq.anchor)]
        return (told or later)[0] if later else None
    if tq.operator == "when":  # (the first statement naming the value whole, else by a short form)
        whole = [i for i, r in enumerate(listed) if tq.anchor and mentions(str(r["text"]), tq.anchor)]
        short = [i for i, r in enumerate(listed) if _names_value(str(r["text"]), tq.anchor or "")]
        return (whole or short)[0] if whole or short else None
    held = [i for i, r in enumerate(listed) if at is None or r["valid_from"] <= at]
    return held[-1 - tq.back] if len(held) > tq.back else None


def _switched_from(text: str, anchor: str) -> bool:
    """``text`` names ``anchor`` with a word of change or of leaving ("X closed, so now I swim at Y")."""
    return mentions(text, anchor) and (_RESUMED.search(text) is not None or _ENDED.search(text) is not None)


def _names_value(text: str, value: str) -> bool:
    """``text`` names ``value`` whole, or by a shorter name that keeps its first two words or more
    ("Ördekli Koy" of "Ördekli Koy Koşu Kulübü")."""
    if not value:
        return False
    if mentions(text, value):
        return True
    words = value.split()
    return any(mentions(text, " ".join(words[:k])) for k in range(len(words) - 1, 1, -1))


def _ended_later(answer: Row, ended: Sequence[Row], subject: str, at: datetime | None) -> bool:
    """Whether a statement after ``answer`` (and by ``at``) tells that the answer's state ended: it
    names one of the answer's values ("stopped her lessons with Anna Berg")."""
    values = named_values(str(answer["text"]), (subject,))
    return any(
        r["valid_from"] > answer["valid_from"]
        and (at is None or r["valid_from"] <= at)
        and any(mentions(str(r["text"]), v) for v in values)
        for r in ended
    )


def _moves_on(row: Row, anchor: str | None, names: Sequence[str]) -> bool:
    """A statement after the anchor's start that names something besides the anchor and the
    subject's ``names`` (a mere restatement of the anchor, or its end, is no later state)."""
    if anchor is None or not mentions(str(row["text"]), anchor):
        return True
    return bool(named_values(str(row["text"]), (anchor, *names)))


def _anchor_terms(rows: Sequence[Row], tq: TemporalQuestion, names: Sequence[str]) -> list[str]:
    """The words of the statements that name the anchor (no mood), less the names they hold: the
    way the subject's statements of the anchor's kind read ("a member of X now"), for a before or
    after that the question's own words leave unanswered (ADR 0100)."""
    if tq.anchor is None:
        return []
    texts = [str(r["text"]) for r in rows if mentions(str(r["text"]), tq.anchor) and mood_of(str(r["text"])) is None]
    named = {t for x in texts for v in (tq.anchor, *names, *named_values(x, ())) for t in content_terms(v)}
    return [t for x in texts for t in content_terms(x) if t not in named]


def _answer(
    listed: list[Row], tq: TemporalQuestion, at: datetime | None, names: Sequence[str]
) -> tuple[list[Row], int | None]:
    """The statements an answer is chosen among (for before, none naming the anchor) and the
    answer's place in them."""
    if tq.operator == "before" and tq.anchor is not None:
        listed = [r for r in listed if not mentions(str(r["text"]), tq.anchor)]
    return listed, _index(listed, tq, at, names)


def loose_plan(
    tq: TemporalQuestion,
    subject: str,
    rows: Sequence[Row],
    anchor_time: datetime | None,
    hints: Mapping[int, float] | None,
    aliases: Sequence[str] = (),
    unfiled: Collection[int] = (),
) -> TemporalPlan | None:
    """The answer among the subject's statements ``rows`` (oldest first) that fit the question, or
    None when the operator is none it answers or no statement fits (``aliases``: the subject's
    other names; ``unfiled``: the ids of statements read only for naming the subject)."""
    if tq.operator not in OPERATORS or tq.during_change or tq.implied:
        return None  # (a "now" read from the tense alone is answered by the kind's own chain only)
    if tq.operator == "when":  # ("when did I join X": X is what its statements must name)
        value = tq.anchor or value_name(tq, subject)
        if value is None:
            return None
        tq = replace(tq, anchor=value)
    if tq.during is not None:  # ("while I was at the cannery": as of the time its statements tell)
        span = during_span(rows, subject, tq.during, tq.during_kind)
        if span is None:
            return None
        tq = replace(tq, at=span.middle, during=None)
    names = (subject, *aliases, *(n.split("'s ", 1)[0] for n in (subject, *aliases) if "'s " in n))
    ended = [r for r in rows if not holds(str(r["text"]), names)] if tq.operator in HOLDING else []
    gone = {int(r["fact_id"]) for r in ended}
    kept = [r for r in rows if int(r["fact_id"]) not in gone]
    at = _anchor_time(rows, tq, anchor_time) if tq.operator in ("before", "after") else tq.at or tq.asked_at
    listed, i = _answer(statements(kept, tq, subject, hints or {}, (), unfiled, names), tq, at, names)
    if i is None and tq.operator in ("before", "after"):  # (the anchor's own words find its kind)
        more = _anchor_terms(rows, tq, names)
        if more:
            listed, i = _answer(statements(kept, tq, subject, hints or {}, more, unfiled, names), tq, at, names)
    if i is None or _ended_later(listed[i], ended, subject, at):
        return None
    plan = TemporalPlan(str(tq.operator), subject, None, at)
    plan.roles[int(listed[i]["fact_id"])] = ANSWER
    if i > 0:
        plan.roles[int(listed[i - 1]["fact_id"])] = EARLIER
    if i + 1 < len(listed):
        plan.roles[int(listed[i + 1]["fact_id"])] = LATER
    return plan


async def loose_read(
    where: tuple[Conn, uuid.UUID, int],
    names: Sequence[str],
    as_of: datetime | None,
    hints: Mapping[int, float],
    own: Sequence[Row],
    tq: TemporalQuestion,
    anchor_time: datetime | None,
) -> TemporalPlan | None:
    """The loose plan of the subject ``names[0]`` (its other names after it) on its facts that
    recall found (``own``, of the pool ``hints``), the pool's statements naming it by any name that
    no state files (another speaker's words, a person no state was ever filed for: ADR 0100), and
    its facts naming the anchor; ``where``: (connection, tenant, forest)."""
    conn, tenant_id, forest_id = where
    rows = {int(r["fact_id"]): r for r in own}
    others = [i for i in hints if i not in rows]
    said = await store.unfiled_by_id(conn, tenant_id, forest_id, others, names, as_of)
    said = [r for r in said if any(mentions(str(r["text"]), n) for n in names)]
    rows.update((int(r["fact_id"]), r) for r in said)
    if tq.anchor is not None:
        named = await store.facts_naming(conn, tenant_id, forest_id, names[0], tq.anchor, as_of)
        rows.update((int(r["fact_id"]), r) for r in named)
    ordered = sorted(rows.values(), key=lambda r: (r["valid_from"], r["fact_id"]))
    unfiled = {int(r["fact_id"]) for r in said}
    return loose_plan(tq, names[0], ordered, anchor_time, hints, tuple(names[1:]), unfiled)
