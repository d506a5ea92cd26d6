"""From a parsed temporal question and the subject's facts to the answer state and its neighbours
(design 3.1, steps 2-4): the states of the attribute in time order, the anchor as a time, the
state next to it (before / after) or holding it (as of / now), earlier and later neighbours."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from memforest.attributes import STATE_ATTRIBUTES
from memforest.retrieval.temporal.chains import (
    GENERIC,
    SharingWords,
    bare_switches,
    chain_label,
    holders,
    joined_kind,
    link_generic,
    named_values,
    other_kind,
    type_words,
)
from memforest.retrieval.temporal.chains import head as _head
from memforest.retrieval.temporal.chains import names_as_written as _written
from memforest.retrieval.temporal.ended import end_asked, left_by, left_for, left_span
from memforest.retrieval.temporal.ended import mood_of as mood_of  # re-exported
from memforest.retrieval.temporal.held import anchor_joined, holder_states, told_holders
from memforest.retrieval.temporal.kind_words import (
    names_other_service,
    of_told_kind,
    same_service,
    service_kind,
    service_synonyms,
    told_elsewhere,
    value_kind_label,
)
from memforest.retrieval.temporal.lexicon import CUES, cue_scores, is_state_of
from memforest.retrieval.temporal.memo import per_question
from memforest.retrieval.temporal.parse import TemporalQuestion, value_name
from memforest.retrieval.temporal.pick import Span, changed_during, in_full
from memforest.retrieval.temporal.pick import holding as _holding
from memforest.retrieval.temporal.pick import mentions as mentions  # re-exported
from memforest.retrieval.temporal.pick import pick as _pick
from memforest.retrieval.temporal.pick import run_count as run_count  # re-exported
from memforest.retrieval.temporal.pick import runs as _runs
from memforest.retrieval.temporal.pick import same as _same
from memforest.retrieval.temporal.pick import valued as _valued
from memforest.retrieval.temporal.state import State
from memforest.retrieval.temporal.termed import (
    chain_labelled_by_terms,
    chain_sharing_terms,
    labels_terms,
    value_in_terms,
)
from memforest.retrieval.temporal.whose import names_any as _names_any
from memforest.retrieval.temporal.whose import names_itself as _names_itself
from memforest.retrieval.temporal.whose import own as _own
from memforest.retrieval.temporal.whose import owned as _owned
from memforest.retrieval.temporal.whose import value_of as _value
from memforest.retrieval.temporal.worded import new_value, worded_states
from memforest.store.sql import Row

ANSWER, EARLIER, LATER = "answer", "earlier", "later"
_ONE_RUN_ANSWERS = ("when", "how_long", "now", "latest", "as_of", "first")  # (operators one state answers)


@dataclass(slots=True)
class TemporalPlan:
    """The facts to rank first, in order, each with its role."""

    operator: str
    subject: str
    attribute: str | None
    anchor_time: datetime | None = None
    roles: dict[int, str] = field(default_factory=dict)  # fact id -> answer | earlier | later, in rank order
    node_reads: int = 0  # node reads of the interval-guided descent that found the states

    def describe(self) -> str:
        """A short phrase for the query result ("before X of alice.residence")."""
        return f"{self.operator} {self.subject}.{self.attribute or '?'}"


def _labelled(rows: Sequence[Row], subject: str) -> list[tuple[str, State]]:
    """The subject's slot facts as (label, state), oldest first, verb-class labels linked to the
    label of the value they replaced (``chains.link_generic``)."""
    slotted = sorted(
        ((State(int(r["fact_id"]), r["valid_from"], str(r["text"]), _value(r, subject), True), str(r["attribute"]))
         for r in rows if r["attribute"] is not None),
        key=lambda pair: (pair[0].time, pair[0].fact_id),
    )  # fmt: skip
    states = [s for s, _ in slotted]
    labels = link_generic([a.casefold() for _, a in slotted], [s.value for s in states], [s.text for s in states])
    labelled = list(zip(labels, states, strict=True))
    return sorted(labelled + _replaced(labelled, rows, subject), key=lambda pair: (pair[1].time, pair[1].fact_id))


def _replaced(labelled: list[tuple[str, State]], rows: Sequence[Row], subject: str) -> list[tuple[str, State]]:
    """States known only from their consequences: a state whose statement names another value
    ("after Rex died, I got Pip") makes the subject's first earlier mention of that value ("Rex
    chewed my slippers", named with its capitals: "to work" is no mention of "Work") the start of a
    state of the same chain, unless a state names it already or it is a person (a fact's subject)."""
    known = {s.value.casefold() for _, s in labelled if s.value}
    known |= {str(r.get("subject")) for r in rows if r.get("subject")}
    loose = [(r, mood_of(str(r["text"]))) for r in rows if r["attribute"] is None]
    out: list[tuple[str, State]] = []
    for label, state in labelled:
        for value in named_values(state.text, (subject, state.value or "")):
            if value.casefold() in known:
                continue
            first = next((r for r, mood in loose if r["valid_from"] < state.time and _written(str(r["text"]), value)
                          and (mood is None or (mood == "negation" and _owned(str(r["text"]), value, subject)))),
                         None)  # fmt: skip
            if first is not None:
                known.add(value.casefold())
                out.append((label, State(int(first["fact_id"]), first["valid_from"], str(first["text"]), value, False)))
    return out


def states_of(
    rows: Sequence[Row],
    attribute: str,
    subject: str,
    *,
    loose: bool = True,
    kind: str | None = None,
    aliases: Sequence[str] = (),
) -> list[State]:
    """The subject's states of ``attribute``: slot facts of its chain (``chains.chain_label``: its
    own label, else one sharing a word, else one whose value is named by the kind's head noun
    (``value_kind_label``), else (``loose``) a verb class's that can hold it), and facts
    with no slot that name the subject and a value and whose cue words point to the attribute,
    moods aside; oldest first. ``kind``: the open-ended kind whose own named values
    (``_kind_named``) join when ``attribute`` is a verb class's chain (default ``attribute``);
    ``aliases``: the subject's other names ("Ana's cousin"), by which a statement with no slot may
    name them too."""
    labelled = _labelled(rows, subject)
    counts = _label_counts(labelled)
    chain = chain_label(attribute, counts, loose=False) or value_kind_label(attribute, labelled)
    chain = chain or same_service(attribute, counts) or (chain_label(attribute, counts, loose=True) if loose else None)
    alike = service_synonyms(attribute, counts) if chain == attribute else ()  # ("gp" and "doctor")
    out = [s for lab, s in labelled if lab in (chain, *alike)]
    asked = kind or attribute
    if chain in GENERIC and asked not in GENERIC and asked not in STATE_ATTRIBUTES:  # ("Moonrise Bakery": no guitar)
        out = [s for s in out if not other_kind(s.value, asked)]
        service = service_kind(asked)
        if service is not None:  # ("a check-up at Castle Green Dental" is no mobile network)
            out = of_told_kind([s for s in out if not names_other_service(s.text, service)], asked, service)
    out += [s for (_, s), on in zip(labelled, bare_switches(labelled, chain, subject, asked), strict=True) if on]
    for r in rows:
        value = _value(r, subject)
        text = str(r["text"])
        kind_named = _kind_named(r, kind or attribute, subject)
        if kind_named is not None:  # "took the dog to the Mossgate Vets": a vet, by its own name
            out.append(State(int(r["fact_id"]), r["valid_from"], text, kind_named, False))
            continue
        # without a slot, the statement must be about the subject (its rewritten text names them,
        # not only as a relative's owner: "the cat Ana's coworker brought home" is the coworker's)
        # and name a value (an entity other than the subject) its cue words tie to the attribute
        unslotted = r["attribute"] is None and value is not None and attribute in CUES
        if (
            unslotted
            and _names_any(text, (subject, *aliases))
            and mood_of(text) is None
            and is_state_of(text, attribute)
        ):
            known = {s.value.casefold() for s in out if s.value}  # ("after Rex died, I got Pip": Pip)
            out.append(State(int(r["fact_id"]), r["valid_from"], text, new_value(r, subject, known) or value, False))
    out += worded_states(rows, out, subject, kind or attribute, lambda r: _own(r, subject), aliases)
    out += left_for(rows, out, subject, lambda text: _names_itself(text, subject))
    out += _alike(rows, out, subject, attribute, _others(labelled, chain))
    return sorted({s.fact_id: s for s in reversed(out)}.values(), key=lambda s: (s.time, s.fact_id))  # one per fact


def _others(labelled: Sequence[tuple[str, State]], chain: str | None) -> frozenset[str]:
    """The values of the subject's other kind-named chains (not ``chain``, not a verb class's)."""
    return frozenset(s.value.casefold() for lab, s in labelled if lab != chain and lab not in GENERIC and s.value)


def _alike(
    rows: Sequence[Row], states: Sequence[State], subject: str, attribute: str, others: frozenset[str] = frozenset()
) -> list[State]:
    """States stated only by their consequences ("had a cleaning with Dr. Quill", "did the
    intervals with Brackwater Harriers"): a statement with no slot of a kind (none, or a verb
    class's) and no mood, about the subject (``_own``), whose cue words point to no other attribute
    (``_cued_for``), that names an entity no state of the chain names and that is no value of
    another of the subject's chains (``others``: the GP "Dr. B" is no new dentist), of the same
    type as a value of the chain: its title or head noun is one of theirs (``chains.type_words``),
    and it names the asked kind's words that every value names ("Cycling" of "X Cycling Club").
    Nothing earlier says otherwise, so the first such mention is the state's start and later ones
    restate it; a statement that leaves the entity ("quit X") starts nothing."""
    values = [s.value for s in states if s.value]
    types = frozenset().union(*(type_words(s.value, s.text) for s in states if s.value))
    if not types:
        return []
    known = {v.casefold() for v in values}
    seen = {s.fact_id for s in states}
    # the asked kind's words that every value names ("cycling" of "X Cycling Club"): a "Y Book Club" lacks them
    kept = [w for w in attribute.split("_") if all(mentions(v, w) for v in values)]
    sharing = SharingWords(values)  # (a name is the same as none of the values that share no word of it)
    out: list[State] = []
    for r in rows:
        text = str(r["text"])
        if r["attribute"] not in (None, *GENERIC) or int(r["fact_id"]) in seen:
            continue
        if mood_of(text) is not None or not _own(r, subject) or not _cued_for(text, attribute):
            continue
        if not all(mentions(text, w) for w in kept):
            continue
        for e in r["entities"] or ():
            name = str(e)
            if name.casefold() in known or any(_same(name, v) for v in sharing.sharing(name)) or left_span(text, name):
                continue
            if any(_same(name, v) for v in others):
                break
            if name.casefold() != subject.casefold() and type_words(name, text) & types:
                known.add(name.casefold())
                filed = str(r["value"] or "")  # a verb class's value keeps the title ("Dr. Ames")
                value = filed if filed and _same(filed, name) else name
                out.append(State(int(r["fact_id"]), r["valid_from"], text, value, False))
                break
    return out


@per_question
def _cued_for(text: str, attribute: str) -> bool:
    """A statement with no slot may be a state of ``attribute`` by its value's type alone: when the
    lexicon has cue words for ``attribute`` ("works", "job" for an employer), the statement has
    them (``is_state_of``); when it has none (a dentist, a running club), the statement's cue words
    point to no other attribute ("took the cat to Dr. X for shots" is a pet's)."""
    return is_state_of(text, attribute) if attribute in CUES else not cue_scores(text)


def presupposed(rows: Sequence[Row], states: Sequence[State], subject: str, anchor: str) -> list[State]:
    """A question "how long was X my Y?" says X was a state of the kind: when no state of
    ``states`` has the value X, the subject's first mention of X (no mood, about them (``_own``),
    not leaving it) is its start; else none."""
    if any(s.value and _same(s.value, anchor) for s in states):
        return []
    for r in rows:
        text = str(r["text"])
        if mentions(text, anchor) and mood_of(text) is None and _own(r, subject) and not left_span(text, anchor):
            return [State(int(r["fact_id"]), r["valid_from"], text, anchor, False)]
    return []


def _kind_named(row: Row, attribute: str, subject: str) -> str | None:
    """For an open-ended kind, the value of a statement with no slot that is about the subject
    (its text names them), has no mood and names an entity whose own head noun is the kind's
    ("Mossgate Vets" for ``vet``); else None."""
    if attribute in STATE_ATTRIBUTES or row["attribute"] is not None:
        return None
    text = str(row["text"])
    if not _names_itself(text, subject) or mood_of(text) is not None:
        return None
    head = attribute.split("_")[-1]
    named = [str(e) for e in row["entities"] or () if str(e).casefold() != subject.casefold() and _head(str(e)) == head]
    return named[0] if named else None


def anchor_label(rows: Sequence[Row], subject: str, anchor: str, asked: str | None = None) -> str | None:
    """The chain label of the subject's latest state whose value is ``anchor`` (else whose text
    names it: of the ``asked`` kind's chain only, when the question names one), or None."""
    labelled = _labelled(rows, subject)
    valued = [lab for lab, s in labelled if s.value is not None and _same(s.value, anchor)]
    named = valued or [lab for lab, s in labelled if mentions(s.text, anchor) and asked in (None, lab)]
    return named[-1] if named else None


def during_span(rows: Sequence[Row], subject: str, value: str, kind: str | None = None) -> Span | None:
    """The time the subject's state ``value`` held; with no state naming it, the time the subject's
    facts (``rows``, oldest first) mention it, a mention that is no mood standing for the start of
    a state of ``kind`` (the attribute the question's clause names: "back when I lived in X") that
    the next state of that chain ends; else None."""
    label = anchor_label(rows, subject, value)
    if label is None:
        named: list[datetime] = [r["valid_from"] for r in rows if mentions(str(r["text"]), value)]
        plain: list[datetime] = [
            r["valid_from"] for r in rows if mentions(str(r["text"]), value) and mood_of(str(r["text"])) is None
        ]
        later = [s.time for s in states_of(rows, kind, subject) if s.time > plain[0]] if kind and plain else []
        if later:  # ("Winters in X are brutal": a home stated by its consequences)
            return Span(plain[0], min(later), True)
        # (held while it was talked of; once mentioned, from then on)
        return Span(named[0], named[-1], len(named) > 1) if named else None
    runs = _runs([s for lab, s in _labelled(rows, subject) if lab == label])
    held = _holding(runs, value)
    if not held:
        return None
    i = held[0]
    ended = i + 1 < len(runs)
    return Span(runs[i][0].time, runs[i + 1][0].time if ended else runs[i][-1].time, ended)


def _during_of(
    tq: TemporalQuestion, subject: str, rows: Sequence[Row], during_rows: Sequence[Row] | None
) -> Span | None:
    """The span of the state a "while ..." clause names: its holder's (``during_rows``) when the
    clause names another person and they hold it, else one of the subject's facts."""
    assert tq.during is not None
    if during_rows is not None and tq.during_holder is not None:
        span = during_span(during_rows, tq.during_holder, tq.during, tq.during_kind)
        if span is not None:
            return span
    return during_span(rows, subject, tq.during, tq.during_kind)


def _answer_index(
    tq: TemporalQuestion, states: Sequence[State], anchor_time: datetime | None
) -> tuple[int | None, list[list[State]]]:
    """The runs of ``states`` (any order) and the index of the one answering ``tq``, or None."""
    runs = _runs(sorted(states, key=lambda s: (s.time, s.fact_id)))
    replaced = tq.operator == "after" and bool(runs) and not _valued(runs, tq.anchor)
    # (one state answers before / after a time known apart from the chain: the anchor's own time)
    timed = tq.operator in ("before", "after") and (anchor_time or tq.at) is not None and not _valued(runs, tq.anchor)
    if not runs or (len(runs) < 2 and tq.operator not in _ONE_RUN_ANSWERS and not replaced and not timed):
        return None, runs
    i = _pick(tq, runs, anchor_time)
    return (i if i is not None and 0 <= i < len(runs) else None), runs


def _hinted(rows: Sequence[Row], subject: str, attribute: str, hints: Mapping[int, float]) -> str | None:
    """The verb-class chain to ask when ``attribute`` names none of the subject's chains (nor a
    word of one nor a value's head noun), no cue words can tell its states and more than one verb
    class could hold it:
    the one whose state the question's own recall found most similar (``hints``: fact id ->
    cosine); None to keep ``chains.chain_label``'s order (a club is joined first)."""
    labelled = _labelled(rows, subject)
    counts = {lab: 1 for lab, _ in labelled}
    if attribute in CUES or chain_label(attribute, counts, loose=False) is not None or joined_kind(attribute):
        return None
    if same_service(attribute, counts) is not None:
        return None  # ("which salon": the hairdresser chain answers)
    if value_kind_label(attribute, labelled) is not None or any(_kind_named(r, attribute, subject) for r in rows):
        return None  # (a value named by the kind's own head noun, "Vine Street Hair" for "hair", answers)
    held_by = holders(attribute)  # (a kind one goes to is never bought: no possession chain for a barber)
    best = max(((hints[s.fact_id], lab) for lab, s in labelled if lab in held_by and s.fact_id in hints), default=None)
    return best[1] if best is not None else None


def _label_counts(labelled: Sequence[tuple[str, State]]) -> dict[str, int]:
    """How many states each chain label of ``labelled`` has."""
    counts: dict[str, int] = {}
    for label, _ in labelled:
        counts[label] = counts.get(label, 0) + 1
    return counts


def _has_chain(rows: Sequence[Row], subject: str, attribute: str | None) -> bool:
    """The subject has a chain ``attribute`` names (``chains.chain_label``, not loosely)."""
    counts = _label_counts(_labelled(rows, subject))
    return attribute is not None and chain_label(attribute, counts, loose=False) is not None


def _own_word_chain(rows: Sequence[Row], subject: str, attribute: str, own: str | None) -> str:
    """The chain the asked noun names in its own word ("bike") where the subject has one and none
    of the named attribute that word stands for ("vehicle"): a reader may file a thing by its kind."""
    if own is None or _has_chain(rows, subject, attribute):
        return attribute
    return chain_label(own, _label_counts(_labelled(rows, subject)), loose=False) or attribute


def _has_states(tq: TemporalQuestion, subject: str, rows: Sequence[Row], attribute: str | None) -> bool:
    """``attribute`` finds states of the subject (``states_of``, as the plan would read them)."""
    return attribute is not None and bool(states_of(rows, attribute, subject, loose=not tq.implied))


def _worded_chain(
    tq: TemporalQuestion, subject: str, rows: Sequence[Row], attribute: str | None, anchor: str | None
) -> tuple[str | None, str | None]:
    """(attribute, anchor) where the parse named no chain the subject has: the chain of a value the
    question names (in lower case for when / how long: "when did I pick up the banjo?"; the value
    of a present question whose kind finds no state: "is Ana still with Acme?"), else the chain
    whose words the question shares ("what was I learning?", ``termed``)."""
    labelled = _labelled(rows, subject)
    if anchor is None and tq.operator in ("when", "how_long"):
        named = value_in_terms(labelled, tq.terms)
        anchor = named[1] if named is not None else None
    unanchored = tq.operator in ("now", "as_of", "latest", "first")  # (operators no anchor bounds)
    if anchor is not None and unanchored and tq.during is None and not _has_states(tq, subject, rows, attribute):
        label = anchor_label(rows, subject, anchor)
        if label is not None:
            return label, anchor
    if attribute is None and (anchor is None or unanchored):
        attribute = chain_sharing_terms(labelled, tq.terms, subject)
    return attribute, anchor


def plan_answer(
    tq: TemporalQuestion,
    subject: str,
    rows: Sequence[Row],
    anchor_time: datetime | None = None,
    hints: Mapping[int, float] | None = None,
    during_rows: Sequence[Row] | None = None,
    aliases: Sequence[str] = (),
) -> TemporalPlan | None:
    """The answer state and its neighbours among the subject's facts ``rows`` (oldest first);
    None when the question has no operator, no attribute can be told, or no state answers it.
    ``anchor_time`` is the time of an event anchor resolved elsewhere (used when no state names X);
    ``hints``: the question's recall similarity of facts, which picks the chain of a kind no
    chain is named for (``_hinted``); ``during_rows``: the facts of the other person a "while ..."
    clause names as its subject (``tq.during_holder``), whose state gives the question its time;
    ``aliases``: the subject's other names (``states_of``). A chain the question's other words
    label ("which team do I have a season ticket for?": ``season_ticket``) answers before any
    stand-in for an asked kind that has no chain of its own; when the asked kind answers nothing,
    the chain sharing most of the question's words does."""
    asked = (tq, subject, rows, anchor_time, hints, during_rows, aliases)
    if tq.operator is None or tq.attribute is None or tq.anchor is not None or tq.implied:
        return _plan_answer(*asked)  # (an operator read from the tense alone keeps to the asked kind)
    # (the labels of the subject's chains are among its facts' attributes: most questions' words name none)
    attributes = {str(r["attribute"]).casefold() for r in rows if r["attribute"] is not None}
    if any(labels_terms(a, tq.terms) for a in attributes - {tq.attribute}):
        labelled = _labelled(rows, subject)
        labelled_by = chain_labelled_by_terms(labelled, tq.terms, tq.attribute)
        if labelled_by is not None and chain_label(tq.attribute, _label_counts(labelled), loose=False) is None:
            plan = _plan_answer(replace(tq, attribute=labelled_by, noun_own=None), *asked[1:])
            if plan is not None:
                return plan
    plan = _plan_answer(*asked)
    # (a plan refused for a state left or told elsewhere stays refused: only a kind with no state falls back)
    if plan is not None or _has_states(tq, subject, rows, tq.attribute):
        return plan
    others = [(lab, s) for lab, s in _labelled(rows, subject) if lab != tq.attribute]
    sharing = chain_sharing_terms(others, tq.terms, subject)
    return _plan_answer(replace(tq, attribute=sharing, noun_own=None), *asked[1:]) if sharing is not None else None


def _plan_answer(
    tq: TemporalQuestion,
    subject: str,
    rows: Sequence[Row],
    anchor_time: datetime | None,
    hints: Mapping[int, float] | None,
    during_rows: Sequence[Row] | None,
    aliases: Sequence[str],
) -> TemporalPlan | None:
    if tq.operator is None:
        return None
    span = None
    if tq.during is not None:
        span = _during_of(tq, subject, rows, during_rows)
        if span is None:
            return None
        tq = replace(tq, at=span.middle)
    named = in_full(tq.anchor or value_name(tq, subject), (str(r["text"]) for r in rows))  # ("Dr. Cole": Dr. A. Cole)
    attribute, anchor = _worded_chain(tq, subject, rows, tq.attribute, named)
    if attribute is None and anchor is None and tq.operator == "when":
        return None
    joined: list[State] = []
    if anchor is not None and tq.operator in ("before", "after", "when", "how_long", "between"):
        label = anchor_label(rows, subject, anchor, attribute)
        joined = anchor_joined(_labelled(rows, subject), attribute, label)
        attribute = attribute if joined else (label or attribute)
    if attribute is None:
        return None
    attribute = _own_word_chain(rows, subject, attribute, tq.noun_own)
    if tq.operator in ("when", "how_long") and tq.anchor is None:
        tq = replace(tq, attribute=attribute, anchor=anchor)
    # an operator read from the tense alone takes only the kind's own chain, never a verb class's
    if hints and not tq.implied:
        attribute = _hinted(rows, subject, attribute, hints) or attribute
    # a chain of a verb class read for the anchor keeps the asked kind's own named values
    kind = tq.attribute if attribute in GENERIC else None
    states = [*states_of(rows, attribute, subject, loose=not tq.implied, kind=kind, aliases=aliases), *joined]
    states += told_holders(_labelled(rows, subject), attribute, {s.fact_id for s in states})
    if tq.operator == "how_long" and tq.anchor is not None:
        states += presupposed(rows, states, subject, tq.anchor)
    if span is not None and tq.during_change:  # "which club did I join while ...": the change made then
        tq = replace(tq, at=changed_during(states, span) or tq.at)
    i, runs = _answer_index(tq, states, anchor_time)
    if i is None and span is not None and (told := changed_during(states, span)) is not None:
        # (none held by then: the first told since, or told before an ended span was over, unless
        # told only as it ended: "had to cancel my X membership")
        i, runs = _answer_index(replace(tq, at=told), states, anchor_time)
        if i is not None and span.ended and left_span(runs[i][0].text, runs[i][0].value or "", subject):
            i = None
    if i is None and not joined and tq.operator in ("before", "after"):
        # the kind's own chain cannot tell: read it with the verb-class chain that can hold it
        extra = holder_states(_labelled(rows, subject), attribute)
        i, runs = _answer_index(tq, [*states, *extra], anchor_time) if extra else (None, runs)
    if i is None or (
        tq.operator in ("as_of", "now")
        and left_by(rows, runs, i, tq.at or tq.asked_at, lambda t: _names_itself(t, subject))
    ):
        return None  # (a state its holder left before the asked time holds then no longer)
    generic = any(lab in GENERIC and s.fact_id == runs[i][0].fact_id for lab, s in _labelled(rows, subject))
    if generic and told_elsewhere(rows, tq.attribute, runs, runs[i][0], lambda r: _own(r, subject)):
        return None  # (the loose plan reads the statements that name the kind)
    plan = TemporalPlan(str(tq.operator), subject, attribute, anchor_time)
    ended = end_asked(tq, rows, runs[i], lambda t: _names_itself(t, subject))  # ("when did I leave X")
    plan.roles[(ended or runs[i][0]).fact_id] = ANSWER
    if i > 0:
        plan.roles[runs[i - 1][0].fact_id] = EARLIER
    if i + 1 < len(runs):
        plan.roles[runs[i + 1][0].fact_id] = LATER
    return plan
