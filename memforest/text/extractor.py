"""The built-in rule-based extractor: deterministic heuristics, no model.

It splits turns into sentences, drops content-free ones and chatter (text/chatter.py), rewrites first and
second person to speaker names, resolves relative dates against the turn time, and tags entities, topics, a
fact kind and, where a pattern matches, a supersession slot (text/state_slot.py). A fallback for deployments
without a model server and for tests; it is not equivalent to an LLM extractor.
"""

from __future__ import annotations

import heapq
import re
from dataclasses import dataclass, field, replace

from memforest.domain import Candidate, CellTurn, CellView, FactKind
from memforest.text.apposed import asides
from memforest.text.change_subjects import leading_subject, subjects_named
from memforest.text.changes import announced_switch, find_announced_kind, find_pointed_kind
from memforest.text.chatter import is_chatter, split_asked_tail
from memforest.text.clause_readings import came_instead, several_slots
from memforest.text.clauses import clause_spans, mood_tail, shared_subject_clauses
from memforest.text.cleaning import clean_sentence, informative, strip_emoji
from memforest.text.dates import TimeMention, rewrite_relative
from memforest.text.entities import sentence_entities
from memforest.text.kinds import fact_kind
from memforest.text.lexicon import CAPITALS, IRREGULAR_PAST, WORD_START
from memforest.text.offload import Deadline
from memforest.text.persons import introduced_person, rewrite_persons
from memforest.text.presupposed import asks_presupposing, find_presupposed
from memforest.text.sentences import split_sentences
from memforest.text.state_slot import state_slot
from memforest.text.state_words import ANIMALS
from memforest.text.thing_named import thing_named
from memforest.text.titled_work import with_title_apart
from memforest.text.topics import topics

__all__ = ["MAX_PER_TURN", "extract_cell"]

MAX_PER_TURN = 6
_SHORT_WORDS = 5  # sentences shorter than this are merged with a neighbour of the same turn
_MAX_MERGED_WORDS = 40
# anchored at "[", possessive spaces and a bounded caption: an unclosed "[image:" costs at most
# MAX_CAPTION_CHARS steps (plus the spaces after it, once), not a scan to the end of the turn from every start
MAX_CAPTION_CHARS = 500
_CAPTION_RE = re.compile(
    rf"\[(?:image|photo|picture|img)\s*+:\s*+(?P<cap>[^\]]{{0,{MAX_CAPTION_CHARS}}})\]", re.IGNORECASE
)
# a rhetorical "guess who" that tells the listener about the speaker: "Guess who's a member of X
# now?", "Guess who just joined X?" (not "Guess who I ran into?", "Guess who Jared invited?": a verb
# in lower case follows "who"; "guess" and an opening word in any case)
_GUESS_WHO = re.compile(
    r"^(?P<lead>(?:(?i:so|ok(?:ay)?|well|right|oh|ha|anyway|and),?\s+)?)(?i:guess)\s+who"
    r"(?:(?P<is>'s|\s+is)(?=\s+[a-z])|(?P<has>\s+has)|\s+(?P<verb>(?:just|finally|officially|now)\b|[a-z]{3,}ed\b|"
    + "|".join(sorted(IRREGULAR_PAST))
    + r"\b))"
    r"(?P<rest>[^?]*)\?+!*$"
)
# the answer a guess gets in the next sentence when it is someone else ("My ex!", "Ravi!"): a
# short sentence that is not the speaker ("Me!", "Yours truly")
_ANSWERED_BY_SOMEONE = re.compile(r"^(?!(?i:me|moi|yours\s+truly|this\s+(?:guy|girl|one))\b)[\w' -]{1,30}[.!]*$")
_SELF_CONTAINED_RE = re.compile(r"^(?:I|I'm|I've|I'd|I'll|My|We|We're|Our)\b")
# a sentence that names what the one before it introduced ("Her name is Momo", "He's called Biscuit")
_NAMING = re.compile(r"(?:Her|His|Its|Their)\s+name(?:'s|\s+is)\s+|(?:She|He|It)(?:'s|\s+is)\s+(?:called|named)\s+")
# the verb classes of a state a switch announced just before may name the kind of ("Switched
# barbers. Now I go to X"); a thing joined after it is no switch of it
_GONE_TO = frozenset({"patronage", "change"})
# an animal got or taken in ("adopted a kitten", "got a puppy"), which a next sentence may name
_PET_GOT = re.compile(
    rf"\b(?i:adopted|got|bought|rescued|took\s+in|brought\s+home|welcomed)\s+(?:a|an|our|my|another)\s+"
    rf"(?:[a-z-]+\s+){{0,2}}?(?i:{ANIMALS}|kitten|puppy|pup)\b"
)
# "It's a Pinecone 5": a product said of the thing the sentence before owned ("Ana's phone")
_IT_IS = re.compile(rf"It(?:'s|\s+is)\s+(?=an?\s+[{CAPITALS}])")
_OWNED_THING = re.compile(
    rf"{WORD_START}[{CAPITALS}][\w-]*'s\s+(?:[a-z]+'s\s+)?(?:(?:new|current)\s+)?[a-z][\w-]*+(?!')"
)
# where a clause of a sentence ends (a relative or a subordinate clause too): the clause that names
# a state's value says when it began
_CLAUSE_BREAK = re.compile(
    r"[,;:]\s+|[.!?]\s+|(?<!\s)\s+(?:and|but|so|then|while|whereas|because|that|which|who|after|before|when|until)\s+",
    re.IGNORECASE,
)
_OPEN_BOUND_RE = re.compile(r"\b(?:since|from|after|starting|as\s+of)\s+$", re.IGNORECASE)


@dataclass(slots=True)
class _Unit:
    """One or more adjacent kept sentences of a turn that become one candidate."""

    sentences: list[str]
    entities: list[str] = field(default_factory=list)
    caption: bool = False
    introduced: str | None = None  # the one person a dropped sentence just before it introduced by name
    asked: bool = False  # a request or question kept only for the provider it names with someone of theirs

    @property
    def text(self) -> str:
        return " ".join(self.sentences)

    @property
    def words(self) -> int:
        return sum(len(s.split()) for s in self.sentences)


def _finish_text(text: str) -> str:
    text = re.sub(r"\s{2,}", " ", text).strip()
    text = re.sub(r"\s+([,.;:!?])", r"\1", text)
    if not text:
        return text
    text = text[:1].upper() + text[1:]
    if text.endswith("!"):
        text = text.rstrip("!") + "."
    if not text.endswith((".", "?", '"', "'", ")")):
        text += "."
    return text


def told_as_guess(sentence: str, following: str | None) -> str:
    """A rhetorical "guess who ..." about the speaker as the first-person statement it makes
    ("Guess who's a member of X now?" -> "I'm a member of X now."), unless the ``following``
    sentence answers it with someone else ("Guess who got the job? Ravi!"); any other sentence as
    it is."""
    m = _GUESS_WHO.match(sentence)
    if m is None or (following is not None and _ANSWERED_BY_SOMEONE.match(following.strip())):
        return sentence
    verb = "I'm" if m["is"] else "I have" if m["has"] else f"I {m['verb']}"
    return f"{m['lead']}{verb}{m['rest']}."


# ------------------------------------------------------------------ the extractor


def _turn_units(turn: CellTurn, names: dict[str, str], deadline: Deadline | None) -> list[_Unit]:
    captions = [c.strip() for c in (m["cap"] for m in _CAPTION_RE.finditer(turn.text)) if c.strip()]
    body = _CAPTION_RE.sub(" ", turn.text)
    units: list[_Unit] = []
    raws = [part for raw in split_sentences(body) for part in split_asked_tail(raw)]
    introduced: str | None = None  # by the sentences dropped since the last unit
    for i, raw in enumerate(raws):
        if deadline is not None:
            deadline.check()
        sentence = told_as_guess(clean_sentence(raw, names), raws[i + 1] if i + 1 < len(raws) else None)
        if not sentence or not informative(sentence, names) or is_chatter(sentence, names):
            introduced = introduced_person(sentence) or introduced
            if sentence and asks_presupposing(sentence):  # ("Could you email my manager at X?": X is theirs)
                units.append(_Unit([sentence], sentence_entities(sentence, names), introduced=introduced, asked=True))
                introduced = None
            continue
        ents = sentence_entities(sentence, names)
        words = len(sentence.split())
        if (
            units
            and not units[-1].asked
            and words < _SHORT_WORDS
            and not _SELF_CONTAINED_RE.match(sentence)
            and units[-1].words + words <= _MAX_MERGED_WORDS
        ):
            units[-1].sentences.append(sentence)
            units[-1].entities.extend(ents)
        else:
            units.append(_Unit([sentence], ents, introduced=introduced))
        introduced = None
    units = _merge_down(units, max(1, MAX_PER_TURN - len(captions)))
    for caption in captions[:MAX_PER_TURN]:
        cap = strip_emoji(caption).rstrip(". ")
        cap = re.sub(r"^(?:a|an)\s+(?:photo|picture|image|pic)\s+of\s+", "", cap, flags=re.IGNORECASE)
        units.append(_Unit([f"{turn.speaker} shared a photo of {cap}."], [], caption=True))
    return units


def _merge_down(units: list[_Unit], limit: int) -> list[_Unit]:
    """Merge adjacent units until at most ``limit`` are left, each time the pair with the fewest
    words together (the leftmost on a tie). A heap of pairs with stale entries skipped keeps this
    O(n log n) on a turn of thousands of sentences."""
    n = len(units)
    if n <= limit:
        return units
    words = [u.words for u in units]
    nxt = list(range(1, n + 1))
    prv = list(range(-1, n - 1))
    version = [0] * n
    alive = [True] * n
    heap = [(words[i] + words[i + 1], i, i + 1, 0, 0) for i in range(n - 1)]
    heapq.heapify(heap)
    left = n
    while left > limit:
        _, i, j, vi, vj = heapq.heappop(heap)
        if not (alive[i] and alive[j] and version[i] == vi and version[j] == vj):
            continue  # a pair one of whose units has since been merged
        units[i].sentences.extend(units[j].sentences)
        units[i].entities.extend(units[j].entities)
        words[i] += words[j]
        version[i] += 1
        alive[j] = False
        nxt[i] = nxt[j]
        if nxt[i] < n:
            prv[nxt[i]] = i
            heapq.heappush(heap, (words[i] + words[nxt[i]], i, nxt[i], version[i], version[nxt[i]]))
        if prv[i] >= 0:
            p = prv[i]
            heapq.heappush(heap, (words[p] + words[i], p, i, version[p], version[i]))
        left -= 1
    return [u for u, keep in zip(units, alive, strict=True) if keep]


# roles whose sentences hold no one's state: an assistant advises, restates and suggests ("Practise
# the solo daily", "your new dentist sounds great"); the speaker's own sentence carries the state
_NO_STATE_ROLES = frozenset({"assistant", "system", "developer", "tool", "function"})


def _candidate(
    unit: _Unit, turn: CellTurn, other: str | None, names: dict[str, str], antecedent: str | None, before: str | None
) -> Candidate:
    """The candidate of one sentence; ``antecedent``: the one person the turn's sentences named last;
    ``before``: the turn's previous sentence when it stated no state or got an animal ("We adopted a
    kitten." before "Her name is Momo." states the pet with the name; "My phone is dying." before
    "It's a Pinecone 5." the phone)."""
    original = unit.text
    mentions: list[TimeMention] = []
    if unit.caption:
        text, kind = original, FactKind.EVENT
    else:
        timed, mentions = rewrite_relative(original, turn.time)
        text = rewrite_persons(timed, turn.speaker, other)
        kind = fact_kind(original, mentions, turn.time)
    text = _finish_text(text)
    entities: list[str] = [turn.speaker]
    for display in names.values():
        if display != turn.speaker and re.search(rf"\b{re.escape(display)}\b", text):
            entities.append(display)
    entities.extend(unit.entities)
    seen: set[str] = set()
    unique: list[str] = []
    for ent in entities:
        ent = re.sub(r"\s+", " ", ent).strip()
        if ent and ent.lower() not in seen:
            seen.add(ent.lower())
            unique.append(ent)
    slot, asking = None, unit.asked or original.rstrip().endswith("?")
    if asking and turn.role not in _NO_STATE_ROLES:
        slot = find_presupposed(text)  # (a question states only what it presupposes: "email my manager at X?")
    elif not unit.caption and not asking and turn.role not in _NO_STATE_ROLES:
        slot = state_slot(text, kind, turn.speaker, tuple(names.values()), antecedent)
        if slot is None and before is not None and _NAMING.match(text) and _PET_GOT.search(before):
            joined = state_slot(f"{before} {text}", kind, turn.speaker, tuple(names.values()), antecedent)
            slot = joined if joined is not None and joined[1] == "pet" else None
        it, owned = _IT_IS.match(text), _OWNED_THING.search(before or "")
        if slot is None and it is not None and owned is not None:  # "My phone is dying. It's a Pinecone 5."
            slot = state_slot(f"{owned[0]} is {text[it.end() :]}", kind, turn.speaker, tuple(names.values()))
        if slot is None and kind is not FactKind.PLAN:  # "..., so that's my vet now"
            slot = find_pointed_kind(text, before, (turn.speaker, *names.values()))
        if slot is None and kind is not FactKind.PLAN:  # "Changed banks. Everything's with X now."
            slot = find_announced_kind(text, before, (turn.speaker, *names.values()))
        if slot is None and kind is not FactKind.PLAN:  # "Got a new phone today. It's a Pinecone 5."
            slot = thing_named(text, before, turn.speaker)
        switch = announced_switch(before, turn.speaker) if slot is not None and slot[1] in _GONE_TO else None
        if slot is not None and switch is not None and switch[0].casefold() == slot[0].casefold():
            slot = (slot[0], switch[1], slot[2])  # "Switched barbers. Now I go to X": a barber of the one who switched
        if slot is not None and slot[1] == "pet" and slot[0] == turn.speaker:  # "Mum got a dog! Bobi is ..."
            slot = (_pet_keeper(text, before, turn.speaker) or slot[0], slot[1], slot[2])
    # (what a question presupposes holds when it is asked, not at the time it asks about)
    told = None if asking and (unit.asked or slot) else _mention_of(original, mentions, slot[2] if slot else None)
    valid_from = told.start if told is not None else turn.time
    time_text = told.text if told is not None else None
    valid_to = None
    if (
        told is not None
        and kind is FactKind.STATE
        and told.end is not None
        and not _OPEN_BOUND_RE.search(original, 0, told.span_start)
    ):
        valid_to = told.end
    if slot is not None and "'s " not in slot[0] and slot[0].lower() not in seen:
        unique.append(slot[0])  # the state's holder, also where no entity reader took the name ("Ana's been at X")
    topic_source = original if unit.caption else _strip_spans(original, mentions)
    return Candidate(
        text=text,
        kind=kind,
        source_turn_seqs=(turn.seq,),
        valid_from=valid_from,
        valid_to=valid_to,
        time_text=time_text,
        entities=tuple(unique),
        topics=topics(topic_source, names),
        speaker=turn.speaker,
        subject=slot[0] if slot else None,
        attribute=slot[1] if slot else None,
        value=slot[2] if slot else None,
    )


def _pet_keeper(text: str, before: str | None, speaker: str) -> str | None:
    """Whose the animal a sentence names is, when it does not say and the sentence before it tells
    someone other than ``speaker`` got an animal ("Ana's mum got a dog. Bobi is a terrier mix ...":
    the mum's); else None."""
    got = _PET_GOT.search(before) if before is not None else None
    own = re.search(rf"\b{re.escape(speaker)}(?:'s|\s+and\s+others)\b", text) or text.startswith(f"{speaker} ")
    if got is None or before is None or own:
        return None
    keeper = leading_subject(before, got.start())
    return keeper if keeper is not None and keeper.casefold() != speaker.casefold() else None


# clauses of one sentence read one by one at most (a sentence of more is a list, read whole)
_MAX_CLAUSES = 6


@dataclass(frozen=True, slots=True)
class _Turn:
    """What reading any sentence of a turn needs besides the sentence: the turn, the one other
    speaker, the cell's names, and the sentence before it (``_candidate``)."""

    turn: CellTurn
    other: str | None
    names: dict[str, str]
    before: str | None

    def read(self, unit: _Unit, antecedent: str | None) -> Candidate:
        return _candidate(unit, self.turn, self.other, self.names, antecedent, self.before)


def _candidates(unit: _Unit, turn: _Turn, antecedent: str | None) -> list[Candidate]:
    """The candidates of one unit (``_unit_candidates``) and, for each part of its sentences read
    alone for a state besides the whole's (``clauses.asides``: "my husband Declan", "Chidi plays
    bass"), that part's reading when none of those files its state but as a plan ("My dentist,
    Dr. Roy, wants to ...": the dentist's plan, and the speaker's dentist)."""
    read = _unit_candidates(unit, turn, antecedent)
    for sentence in unit.sentences:
        for part in asides(sentence):
            aside = turn.read(
                _Unit([f"{part[:1].upper()}{part[1:]}."], [e for e in unit.entities if e in part]), antecedent
            )
            planned = aside.kind is not FactKind.PLAN and all(c.kind is FactKind.PLAN for c in read)
            if aside.attribute is not None and (planned or all(_slot(c) != _slot(aside) for c in read)):
                read.append(aside)
    return with_title_apart(read)


def _unit_candidates(unit: _Unit, turn: _Turn, antecedent: str | None) -> list[Candidate]:
    """The candidates of one unit: one, or, when the unit is one sentence stating a state and its
    clauses (``clauses.clause_spans``) state states of two different slots (two people's, or two
    kinds of one person's: "My sister Oona moved to Tralee, so I've started seeing Kit at X"), one
    per clause, a clause stating none kept with the one before it when that changes neither's
    reading. A sentence that reads as a plan as a whole, or states nothing, while one of its clauses
    states a state ("My dad sings in X and they have a concert in May") is that clause's reading."""
    whole = turn.read(unit, antecedent)
    if len(unit.sentences) > 1 and whole.kind is FactKind.PLAN:  # ("I've switched to X. The policy starts in July.")
        alone = [turn.read(_Unit([s], [e for e in unit.entities if e in s]), antecedent) for s in unit.sentences]
        return [_as_stated_in(whole, alone)]
    if len(unit.sentences) != 1 or (whole.attribute is None and whole.kind is not FactKind.PLAN):
        return [whole]
    sentence = unit.sentences[0]
    spans = clause_spans(sentence)
    if len(spans) == 1 and whole.kind is FactKind.PLAN and (cut := mood_tail(sentence)) is not None:
        return [_as_stated_in(whole, [_piece(sentence, 0, cut, unit, turn, antecedent)])]  # ("... and want to ask")
    if len(spans) == 1 and whole.attribute is not None and (shared := shared_subject_clauses(sentence)) is not None:
        read = [turn.read(_Unit([piece], [e for e in unit.entities if e in piece]), antecedent) for piece in shared]
        # ("I moved to Leeds and started at X": two states; "Ana quit A and finished a first week at B": B instead)
        return read if several_slots(read) or came_instead(read) else [whole]
    if not 2 <= len(spans) <= _MAX_CLAUSES:
        return [whole]
    pieces: list[tuple[int, Candidate, str | None]] = []  # (start, candidate, antecedent it was read with)
    for start, end in spans:
        candidate = _piece(sentence, start, end, unit, turn, antecedent)
        if pieces and (pieces[-1][1].attribute is None or candidate.attribute is None):
            was, held, by = pieces[-1]
            joined = _piece(sentence, was, end, unit, turn, by)
            kept = held if held.attribute is not None else candidate
            if _slot(joined) == _slot(kept) and joined.kind is kept.kind:
                pieces[-1] = (was, joined, by)
                continue
        pieces.append((start, candidate, antecedent))
        named = subjects_named(candidate.text, turn.turn.speaker)
        antecedent = named.pop() if len(named) == 1 else antecedent
    read = [candidate for _, candidate, _ in pieces]
    if whole.attribute is None or whole.kind is FactKind.PLAN:  # ("sings in X, and they play in May")
        return [_as_stated_in(whole, read)]
    return read if several_slots(read) else [whole]


def _as_stated_in(whole: Candidate, parts: list[Candidate]) -> Candidate:
    """The whole unit's candidate with the state, kind and time of the first of its ``parts``
    (clauses or sentences read alone) that states a state and is no plan; else ``whole``."""
    clause = next((c for c in parts if c.attribute is not None and c.kind is not FactKind.PLAN), None)
    if clause is None:
        return whole
    return replace(
        whole, kind=clause.kind, subject=clause.subject, attribute=clause.attribute, value=clause.value,
        valid_from=clause.valid_from, valid_to=clause.valid_to, time_text=clause.time_text,
    )  # fmt: skip


def _piece(sentence: str, start: int, end: int, unit: _Unit, turn: _Turn, antecedent: str | None) -> Candidate:
    """The candidate of ``sentence[start:end]``, a piece of a unit's one sentence."""
    piece = sentence[start:end].strip().rstrip(",;")
    piece = piece[:1].upper() + piece[1:]  # (a clause read as a sentence: "she's at X" opens with "She's")
    return turn.read(_Unit([piece], [e for e in unit.entities if e in piece]), antecedent)


def _slot(candidate: Candidate) -> tuple[str | None, str | None, str | None]:
    return candidate.subject, candidate.attribute, candidate.value


def _introduced(unit: _Unit) -> set[str]:
    """The one person a unit's sentences introduce by name where none is the subject of a verb
    ("I had lunch with my sister Ilse."), as a set."""
    person = introduced_person(unit.text)
    return {person} if person is not None else set()


def _mention_of(original: str, mentions: list[TimeMention], value: str | None) -> TimeMention | None:
    """The time mention a fact's time is read from: with a state's ``value`` and several mentions,
    the first mention in the clause that names the value ("Ruth retired in March, and I had my
    first session with X last Thursday": last Thursday), a time opening the sentence before a comma
    counting as the next clause's ("In 2019, I joined X with a friend I met last summer": 2019);
    else, or when that clause names no time, the text's first."""
    if not mentions:
        return None
    at = original.find(value) if value is not None and len(mentions) > 1 else -1
    if value is None or at < 0:
        return mentions[0]
    breaks = _clause_breaks(original, mentions)
    start = max((b.end() for b in breaks if b.end() <= at), default=0)
    end = min((b.start() for b in breaks if b.start() >= at + len(value)), default=len(original))
    inside = [m for m in mentions if start <= m.span_start < end]
    return inside[0] if inside else mentions[0]


def _clause_breaks(original: str, mentions: list[TimeMention]) -> list[re.Match[str]]:
    """Where the clauses of ``original`` end, but for the comma after a time that opens its clause
    ("In 2019, I joined X", "Back in May, we moved"): that time is the next clause's."""
    out: list[re.Match[str]] = []
    for b in _CLAUSE_BREAK.finditer(original):
        opened = out[-1].end() if out else 0
        leading = any(m.span_end == b.start() and len(original[opened : m.span_start].split()) <= 1 for m in mentions)
        if not leading:
            out.append(b)
    return out


def _strip_spans(text: str, mentions: list[TimeMention]) -> str:
    """``text`` with each mention's span replaced by a space (mentions are disjoint, in order)."""
    parts: list[str] = []
    pos = 0
    for m in mentions:
        parts.append(text[pos : m.span_start])
        pos = m.span_end
    parts.append(text[pos:])
    return " ".join(parts)


def extract_cell(cell: CellView, deadline: Deadline | None = None) -> list[Candidate]:
    """Extract memory candidates from one cell, deterministically, in turn then sentence order.

    Linear in the length of the cell's text; with a ``deadline``, raises
    :class:`~memforest.text.offload.TextBudgetExceededError` once it has passed."""
    names: dict[str, str] = {}
    for turn in cell.turns:
        if turn.speaker.strip():
            names.setdefault(turn.speaker.strip().lower(), turn.speaker.strip())
    out: list[Candidate] = []
    # per speaker, the one person their latest sentence naming someone named: "my sister Rosa got
    # news" then, a turn later, "she joined X" is Rosa's; a turn of anyone's that names someone ends it
    last_named: dict[str, str | None] = {}
    for turn in sorted(cell.turns, key=lambda t: t.seq):
        others = [n for n in names.values() if n.lower() != turn.speaker.strip().lower()]
        other = others[0] if len(others) == 1 else None
        antecedent = last_named.get(turn.speaker)
        named_anyone = False
        before: str | None = None  # the turn's previous sentence, when it stated no state or got an animal
        for unit in _turn_units(turn, names, deadline):
            if deadline is not None:
                deadline.check()
            if unit.introduced is not None:  # ("Can you help me thank my brother Anders? He got ...")
                antecedent, named_anyone = unit.introduced, True
            for candidate in _candidates(unit, _Turn(turn, other, names, before), antecedent):
                if not candidate.text:
                    continue
                out.append(candidate)
                unnamed_pet = candidate.attribute == "pet" and _PET_GOT.search(candidate.text) is not None
                before = candidate.text if candidate.attribute is None or unnamed_pet else None
                named = subjects_named(candidate.text, turn.speaker) or _introduced(unit)
                named_anyone = named_anyone or bool(named)
                antecedent = (named.pop() if len(named) == 1 else None) if named else antecedent
        if named_anyone:
            last_named = dict.fromkeys(last_named)
        last_named[turn.speaker] = antecedent
    return out
