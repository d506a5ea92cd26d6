"""Parse a question into the parts of a temporal question: operator, attribute, candidate subject
names and anchor (design 3.1, step 1). Pure functions; the subject is confirmed against the forest
by the caller."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from memforest.retrieval.temporal.asked import (
    DuringClause,
    ago_point,
    anchor_value,
    asked_noun,
    asks_change,
    during_clause,
    first_person,
    is_time_name,
    kind_named,
    part_point,
    persons,
    relations,
    slot_of,
    steps_back,
)
from memforest.retrieval.temporal.asked_attribute import attribute_of
from memforest.retrieval.temporal.asked_service import SWITCHED_KIND_SOURCE
from memforest.retrieval.temporal.chains import joined_kind
from memforest.retrieval.temporal.exchanged import exchanged
from memforest.retrieval.temporal.owners import QUESTION_WORDS as _QUESTION_WORDS
from memforest.retrieval.temporal.owners import askers_owned
from memforest.retrieval.timecues import asks_when, parse_time_cues, without_phrasal_after
from memforest.text.changes import slot_key
from memforest.text.dates import resolve_time_expressions
from memforest.text.lexicon import CAPITALS, TIME_WORDS
from memforest.text.lexicon import words as word_set
from memforest.text.state_words import KIN
from memforest.text.terms import content_terms, stems

OPERATORS = ("before", "after", "between", "when", "how_long", "first", "latest", "now", "as_of")

_ANCHOR_END = r"(?P<x>[^?.!,;]+)"
# X of "between X and Y" is read up to this many characters: a lazy X without a bound rescanned the
# rest of the clause from every "between" (quadratic in a crafted question)
BETWEEN_REACH = 200
_BETWEEN_RE = re.compile(rf"\bbetween\s+(?P<x>[^?.!,;]{{1,{BETWEEN_REACH}}}?)\s+and\s+(?P<y>[^?.!,;]+)", re.IGNORECASE)
# names of the question an anchor's tail is checked against (one search each): a real question
# names a few; a crafted one may name hundreds
ANCHOR_NAMES = 8
# candidate subjects a question keeps, most likely first: each is looked up in every forest the
# query reads; a real question names a few, a crafted one thousands
QUESTION_NAMES = 16
# ("the year before last" is a time, "before last week" a time anchor)
_BEFORE_RE = re.compile(
    r"\b(?:before(?!\s+last\b(?!\s+(?:week|month|year|spring|summer|autumn|fall|winter|weekend|time)))|prior\s+to|previous\s+to|until|till|up\s+(?:un)?to|ahead\s+of|earlier\s+than|preced(?:ed|ing)|"
    r"leading\s+up\s+to|in\s+the\s+run[\s-]up\s+to|came\s+before|"
    r"(?:was\s+)?replaced\s+by|gave\s+way\s+to)\s+" + _ANCHOR_END,
    re.IGNORECASE,
)
# verbs of leaving a state, in the past ("left Acme", "was done with Acme")
_LEAVING = (
    r"(?:left|quit|sold|ditched|dropped|moved\s+(?:away\s+from|out\s+of|on\s+from)|gave\s+up|got\s+rid\s+of|"
    r"stopped\s+(?:going\s+to|seeing|using)|(?:was|were)\s+(?:done|finished|through)\s+with)"
)
_AFTER_RE = re.compile(
    r"\b(?:after(?!\s+next\b)|following|followed|since|later\s+than|subsequent\s+to|in\s+the\s+wake\s+of|replaced|"
    r"succeeded|came\s+after|took\s+over\s+(?:as\s+[^?.!,;]{1,40}?\s+)?from|"
    r"(?:switch(?:ed)?|move[ds]?|change[ds]?|turn(?:ed|s)?|upgrade[ds]?)\s+(?:over\s+|on\s+)?to\s+from|"
    r"(?:switch(?:ed)?|upgrade[ds]?|move[ds]?\s+on|moving\s+on)\s+from|"
    # "when <someone> left X": what came next ("where did I go when I left Leeds?")
    rf"when(?=\s+(?:I|he|she|they|we|[{CAPITALS}][\w-]*)\s+(?:had\s+)?{_LEAVING}\s)|"
    # "once <a clause naming a value>": "once I had left Acme", "once Ana stopped seeing Dr. Roy"
    rf"once(?=[^?.!,;]*\b(?-i:(?!I\b)[{CAPITALS}])))\s+" + _ANCHOR_END,
    re.IGNORECASE,
)
_HOW_LONG_RE = re.compile(
    r"\bhow\s+long\b(?!\s+ago)|\bhow\s+many\s+(?:years|months|weeks|days)\b(?!\s+ago)", re.IGNORECASE
)
_FIRST_RE = re.compile(
    r"\b(?:first(?!\s+(?:half|(?:few\s+|couple\s+of\s+)?(?:days|weeks|months|quarter)))|originally|initially|original|earliest|at\s+first|to\s+(?:begin|start)\s+with|"
    r"in\s+the\s+first\s+place|(?:in|at)\s+the\s+(?:start|beginning|outset)(?!\s+of\b)|starting\s+out|"
    r"early\s+on)\b",
    re.IGNORECASE,
)
_LATEST_RE = re.compile(
    r"\b(?:most\s+recent(?:ly)?|latest|newest|(?<!before\s)last(?!\s+(?:year|month|week|weekend|summer|winter|spring|fall|"
    r"autumn|night|time|christmas|easter|\d|january|february|march|april|may|june|july|august|september|"
    r"october|november|december))|recently|lately)\b",
    re.IGNORECASE,
)
# a question in the present tense ("Which bank am I with?", "Who cuts Bo's hair?") asks what holds now
_PRESENT = re.compile(
    r"\s*(?i:which|what|who|whom|whose|where)\b[^?]*?\b(?i:am|is|are|do|does)\b|\s*(?i:what|who|where)'s\b"
    # ("Who looks after my teeth?", "What insurer covers my car?": the asked one does it, in the present)
    r"|\s*(?i:which|what|who)(?:\s+[a-z][a-z-]*){0,2}?\s+(?!(?:was|is|has|this|his|its|as|us|yes|plus)\b)"
    r"[a-z]+(?:[^s\W]s|(?:ch|sh|x|ss|z)es)\b"
)
_PAST = re.compile(r"\b(?i:did|was|were|had|used|ever|first|last|ago|before|after|when|since|until|previous|former)\b")
# a clause after the copula whose own verb is past or says an intent is no question of now ("What is
# the city Bob grew up in?", "Where is Bob planning to move?", "What car does Bob want to buy?")
_INTENT = re.compile(
    r"\b(?i:going\s+to|planning|plans?\s+to|wants?|wanted|wishes|hoping|hopes?\s+to|intends?|thinking\s+(?:of|about)|"
    r"considering|will|would|about\s+to|next|someday|as\s+a\s+(?:kid|child|teen|teenager)|growing\s+up|"
    r"in\s+(?:college|high\s+school|school|university))\b"
)
_PAST_FORM = (
    r"(?:[a-z]{2,}(?<!ne)ed|grew|went|left|saw|met|got|took|bought|sold|lived|moved|made|came|became|drove|rode|ran|"
    r"gave|kept|found|knew|taught|wore|wrote|began|won|lost|spent|paid|built|sent|brought|chose|fell|felt|held|"
    r"heard|led|meant|sat|stood|told|said|had|was|were|did)"
)
# a subject and its own past verb ("the city Bob grew up in"); right after the copula the subject's
# "-ed" word is a passive in the present ("Where is Bob based?", "What's Bob called?"). The lead word
# starts where a word starts: searched from every start, a long word is read once, not once per letter
_SUBJECT_PAST = re.compile(rf"(?<!\S)(?P<lead>\S+)\s+(?:[{CAPITALS}][\w-]*|he|she|they|I|you|we)\s+{_PAST_FORM}\b")
# an anchor that is the state holding now ("before this one", "before the current one")
_THE_CURRENT = re.compile(
    r"^(?:(?:the|my|his|her|their)\s+)?(?:(?:this|that|current|present|new)\s+one|(?:current|present)\s+[a-z-]+|"
    rf"one\s+(?:I|we|they|he|she|[{CAPITALS}][\w-]*)(?:\s+(?:have|has|use|uses|go\s+to|goes\s+to|see|sees)|"
    r"(?:\s+(?:am|is|are)|'m|'re|'s)(?:\s+(?:in|at|with|on|using|seeing))?)(?:\s+now)?|"
    # a change of the kind itself: "before she changed practices", "before I switched banks"
    rf"(?:I|we|they|he|she|[{CAPITALS}][\w-]*)\s+{SWITCHED_KIND_SOURCE})$",
    re.IGNORECASE,
)
_COPULA = frozenset(("am", "is", "are", "do", "does", "what's", "who's", "where's"))


def _asked_now(question: str) -> bool:
    """Whether ``question`` is in the present tense throughout: a present copula, and no past or
    intent word nor a clause with its own past verb after it."""
    if _PRESENT.match(question) is None or _PAST.search(question) or _INTENT.search(question):
        return False
    return not any(m["lead"].lower() not in _COPULA for m in _SUBJECT_PAST.finditer(question))


_NOW_RE = re.compile(
    r"\b(?:now|currently|current|these\s+days|at\s+the\s+moment|nowadays|still|at\s+present|today|presently|"
    r"anymore|any\s+more|at\s+this\s+point|as\s+things\s+stand|right\s+now)\b",
    re.IGNORECASE,
)
# adverbs of aspect: they say a state went on, not that it is asked of the present ("Was X still in Y
# in 2023?" asks as of 2023); only with no time named in the question do they ask about now
_ASPECT_RE = re.compile(r"\b(?:still|anymore|any\s+more)\b", re.IGNORECASE)
# the finite verbs of a main clause before its adverb of aspect ("Was", "does", "where's")
_AUXILIARY = re.compile(r"\b(?:am|is|are|was|were|do|does|did|has|have|had)\b|'(?:s|re|m)\b", re.IGNORECASE)
_PAST_AUXILIARY = frozenset(("was", "were", "did", "had"))
# words that are no noun of a noun phrase, nor the verb of a clause ("the house in Bergen in 2021")
_FUNCTION = (
    r"(?:in|on|at|to|into|for|from|with|without|by|of|about|and|or|but|so|the|a|an|back|around|during|still|"
    r"anymore|when|while|last|this|next|before|after|since|until|till|ago|not|no|then|there|here|now)\b"
)
_NOUN_WORD = rf"(?!{_FUNCTION})[a-z][\w-]*"
# a relative clause after a noun: "the flat she bought ...", "the bike (that) my son got ...", "the band
# Ivo started ...", "the club that moved ..." (its subject, or a relative pronoun, then a verb)
_RELATIVE = re.compile(
    rf"\b(?i:the|a|an|that|this|my|his|her|their|our|your)\s+(?:{_NOUN_WORD}\s+){{0,2}}(?-i:{_NOUN_WORD})\s+"
    rf"(?P<clause>(?:(?:that|which|who|whom)\s+)?(?:I|you|he|she|we|they|(?:my|his|her|their|our|your)\s+[a-z]+|"
    rf"[{CAPITALS}][\w-]*)\s+(?:'d\s+|had\s+|has\s+|have\s+)?(?-i:{_NOUN_WORD})|(?:that|which|who)\s+(?-i:{_NOUN_WORD}))"
    r"[^,;?.!]*"
)
# what an anchor phrase starts with before the value itself ("before the move to Miami", "after he
# quit Initech", "before getting Mochi")
_ANCHOR_LEAD_RE = re.compile(
    r"^(?:(?:he|she|they|\w+)\s+(?:had\s+|has\s+)?(?:moved\s+(?:to|into|out\s+of|away\s+from|from)|"
    r"relocated\s+to|settled\s+in|left|quit|joined|started\s+(?:at|with)|signed\s+(?:on\s+)?with|switched\s+to|sold|"
    rf"bought|got|adopted|rescued|leased|lost|traded\s+in|{_LEAVING})\s+)?"
    r"(?:(?:the|a|an|his|her|their|its)\s+)?(?:(?:move|moving|relocation|switch|change)\s+(?:to|into|from)\s+|"
    r"(?:moving\s+(?:to|into|out\s+of|from)|living\s+in|working\s+(?:at|for)|starting\s+at|leaving|quitting|"
    r"joining|getting|buying|adopting|selling|having|owning|driving|trading\s+in|rescuing|leasing|"
    r"[a-z]+ing\s+(?:to|into|in|at|for|with|from|on\s+with|out\s+of|away\s+from|up|in))\s+)?"
    r"(?:(?:the|a|an|his|her|their)\s+|\w+'s\s+)?",
    re.IGNORECASE,
)
# "after X as her bakery": the role the anchor had is no part of it
_ANCHOR_ROLE_RE = re.compile(rf"\s+(?:as|for)\s+(?:(?:[{CAPITALS}][\w-]*'s|his|her|their|my)\s+)+.*$")
_NAME_RE = re.compile(rf"\b([{CAPITALS}][\w\u2024-]*(?:\s+[{CAPITALS}][\w\u2024-]*)*)(?P<owner>'s)?")


@dataclass(frozen=True, slots=True)
class TemporalQuestion:
    """What a question asks about time. ``operator`` None: it names no time (answer as usual)."""

    operator: str | None
    attribute: str | None
    names: tuple[str, ...]  # capitalised names in the question, candidates for the subject
    anchor: str | None = None  # the value or event X of before / after / when ("Miami", "the wedding")
    anchor_to: str | None = None  # the second anchor of "between X and Y"
    noun: str | None = None  # the slot the question's noun phrase names ("dentist", "coffee_place")
    noun_own: str | None = None  # that phrase's own slot key where a named attribute stands for it ("bike": vehicle)
    at: datetime | None = None  # the time the question names ("in March 2023", "two years ago")
    during: str | None = None  # the value of "back when I lived in X": its state's time is the as-of time
    during_kind: str | None = None  # the attribute that clause's own words name ("lived": residence)
    during_holder: str | None = None  # that clause's subject when it names one ("while Ana was at X": Ana)
    during_change: bool = False  # the main clause asks what changed then ("which club did I join while ...")
    people: tuple[str, ...] = ()  # names the question uses as people (possessors, subjects), not as values
    back: int = 0  # states before the latest the question counts back ("my previous dentist": 1)
    terms: tuple[str, ...] = ()  # stems of the words naming what it asks about (``question_terms``)
    implied: bool = False  # the operator is read from the tense alone ("which bank am I with?": now)
    asked_at: datetime | None = None  # when the query says it is asked: a state begun later holds not yet "now"

    @property
    def asks_state_at_time(self) -> bool:
        """It asks for the state of an attribute or a kind of thing as of a time the question names
        ("which dentist did Ana have in May 2023?")."""
        return self.operator == "as_of" and self.at is not None and (self.attribute or self.noun) is not None

    def only_says_when(self, name: str) -> bool:
        """``name`` is the person a "while ..." clause names and not the question's first subject:
        their state only says when ("while Ana was at X, where did I live?" asks nothing of Ana)."""
        holder = self.during_holder
        return holder is not None and name.casefold() == holder.casefold() and name != self.names[0]


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z]+(?:\s+[a-z]+)?", text.lower())


def clean_anchor(text: str, names: tuple[str, ...] = ()) -> str:
    """The value or event of an anchor phrase ("the move to Miami" -> "Miami"), without a trailing
    phrase about one of the question's other ``names`` ("Rex in Elena's home" -> "Rex") when what
    is left still names something ("the plot at Hollin Lane" stays whole)."""
    text = " ".join(text.split()).strip(" '\"")
    text = _ANCHOR_ROLE_RE.sub("", text)
    value = _ANCHOR_LEAD_RE.sub("", text, count=1).strip() or text
    for name in names[:ANCHOR_NAMES]:
        tail = re.search(rf"\s+(?:in|for|at|with|by)\s+{re.escape(name)}(?:'s\b.*)?$", value)
        # (what stays must still name something: "the plot at Hollin Lane" keeps its place)
        if tail and tail.start() > 0 and _CAPITAL.search(value[: tail.start()]):
            value = value[: tail.start()]
    return value


_CAPITAL = re.compile(rf"(?<![\w'])(?!I\b)[{CAPITALS}]")  # ("I" names no value)


def _names(question: str) -> tuple[str, ...]:
    """The capitalised phrases of the question, in order. A phrase ending in a possessor is read
    as two names first ("How long was Ghent Ana's home?": Ghent, Ana), then as one ("Ana Silva's")."""
    out: list[str] = []
    for m in _NAME_RE.finditer(question):
        words = m.group(1).replace(_DOT, ".").split()
        while words and words[0].lower() in _QUESTION_WORDS:
            words.pop(0)
        if m["owner"] and len(words) > 1:
            out += [" ".join(words[:-1]), words[-1]]
        if words:
            out.append(" ".join(words))
    return tuple(dict.fromkeys(out))


# "Ana's cousin Mia": Ana only owns the relation
_KIN_NAMED = re.compile(rf"\b(?P<owner>[{CAPITALS}][\w-]*)'s\s+(?i:{KIN})\s+[{CAPITALS}]")
# the dot of a title ("Dr. Ruiz") ends no anchor: it is read as this character, and restored
_TITLE = re.compile(rf"\b(Dr|Dra|Mr|Mrs|Ms|Mx|St|Prof|Mt|Jr|Sr|Sra|Mme|Mlle|Rev)\.(?=\s+[{CAPITALS}])")
_DOT = "\u2024"


def parse_question(
    question: str,
    *,
    has_as_of: bool = False,
    speaker: str | None = None,
    now: datetime | None = None,
    window: tuple[datetime | None, datetime | None] = (None, None),
    asked_at: datetime | None = None,
) -> TemporalQuestion:
    """Operator, attribute, names and anchor of ``question``; ``has_as_of``: the API's as_of is set
    (a question naming no other operator then asks for the state as of that time). ``speaker``:
    whom "I" and "my" name; ``now``: when it is asked (relative times read from it); ``window``:
    the time its words name (``timecues``), whose middle is the as-of time of a question with no
    other operator; ``asked_at``: the time the query itself says it is asked (its ``now`` or
    ``as_of``), after which no state holds "now" yet (None: any time)."""
    tq = _parse_question(question, has_as_of, speaker, now, window)
    return replace(tq, terms=question_terms(question, tq.names), asked_at=asked_at)


def _parse_question(
    question: str,
    has_as_of: bool,
    speaker: str | None,
    now: datetime | None,
    window: tuple[datetime | None, datetime | None],
) -> TemporalQuestion:
    asked_now = _asked_now(question)
    question = asked = without_phrasal_after(question)
    tq = _parse(_TITLE.sub(lambda m: m[1] + _DOT, question), has_as_of)
    if tq.anchor is not None:
        tq = replace(tq, anchor=tq.anchor.replace(_DOT, "."), anchor_to=(tq.anchor_to or "").replace(_DOT, ".") or None)
    question = first_person(question, speaker)  # (operators read first: "tell me when" is no name)
    named_kind = kind_named(question) if tq.operator in ("how_long", "when") else None
    # (the kind named wins over no attribute, a bare "with", or "join" read as a job: "join the X choir")
    joined = named_kind is not None and joined_kind(named_kind.replace(" ", "_"))
    if not (tq.attribute in (None, "partner") or (tq.attribute == "employer" and joined)):
        named_kind = None
    noun = asked_noun(question) or named_kind
    names, people = _ordered(question, noun, speaker, asked)
    names = tuple(n for n in names if n.casefold() != (noun or "").casefold())  # (an acronym asked: "my GP")
    slot = slot_of(noun) if noun else None
    own = slot_key(noun) if noun else None
    tq = replace(tq, names=names, attribute=slot or tq.attribute, noun=slot, people=people,
                 noun_own=own if own != slot else None)  # fmt: skip
    if tq.operator == "before" and tq.anchor and _THE_CURRENT.match(tq.anchor):
        return replace(tq, operator="latest", anchor=None, back=1)  # "the phone before this one": the previous
    if tq.operator in ("before", "after") and tq.anchor:
        return _bounded(tq, now)
    if tq.operator not in (None, "now", "latest", "as_of", "first"):
        return tq
    clause = during_clause(question, names, now)
    during = clause.value if clause is not None else None
    back = steps_back(question, noun)
    if back and during is None and tq.operator in (None, "now", "latest"):
        return replace(tq, operator="latest", back=back)
    at = (ago_point(question, now) or part_point(question, now)) if now is not None else None
    # (a point outside the window its words name is read from part of them: "the summer two years ago")
    if window[0] is not None and window[1] is not None and window[0] < window[1]:
        at = at if at is not None and window[0] <= at < window[1] else None
    if at is None and window[0] is not None and window[1] is not None:
        at = window[0] + (window[1] - window[0]) / 2
    if clause is not None:
        return _during(tq, question, clause)
    if at is not None and tq.operator in (None, "as_of", "latest"):
        return replace(tq, operator="as_of", at=at)
    then = _still_at(asked, now) if at is not None and tq.operator == "now" else None
    if then is not None:
        return replace(tq, operator="as_of", at=then)  # "Was X still in Y in 2023?": as of that time
    if tq.operator is None and tq.attribute is not None and asked_now:
        return replace(tq, operator="now", implied=True)  # a state asked in the present tense holds now
    return tq


def _still_at(question: str, now: datetime | None) -> datetime | None:
    """The time an adverb of aspect asks as of, or None when it asks about now. It asks as of a
    time when it is the only word of the present ("Was X still in Y now?" asks now), the main clause
    is past (its finite verb before the adverb is was / were / did / had, or with none, the verb
    after it is a past form: "Who still lived in Y in 2020?") and the time is named outside a
    relative clause after a noun ("Did X still have the bike she got in 2021?" names the bike by
    2021 and asks now; "..., back in 2022?" names the time asked)."""
    aspect = _ASPECT_RE.search(question)
    if now is None or aspect is None or _NOW_RE.search(_ASPECT_RE.sub(" ", question)):
        return None
    finite = next(_AUXILIARY.finditer(question, 0, aspect.start()), None)
    if finite is not None:
        if finite[0].lower() not in _PAST_AUXILIARY:
            return None
    elif re.match(rf"\s+{_PAST_FORM}\b", question[aspect.end() :], re.IGNORECASE) is None:
        return None
    main = _RELATIVE.sub(lambda m: m[0][: m.start("clause") - m.start()] + " " * len(m["clause"]), question)
    at = ago_point(main, now) or part_point(main, now)
    if at is None:
        cues = parse_time_cues(main, now)
        if cues.after is not None and cues.before is not None:
            at = cues.after + (cues.before - cues.after) / 2
    return at


# words of a temporal question that say how it asks, not what it asks about
_ASKING = frozenset(
    stems(
        word_set(
            """now currently current nowadays present moment days still these those used use previous former
        old before after last ago start end since time back while when which what who where latest recent
        recently newest new"""
        )
    )
    + stems(TIME_WORDS)
)


def question_terms(question: str, names: Sequence[str]) -> tuple[str, ...]:
    """The stems of ``question``'s words that name what it asks about: not its names, nor its
    words of time and asking."""
    named = set(content_terms(" ".join(names)))
    return tuple(dict.fromkeys(t for t in content_terms(question) if t not in named and t not in _ASKING))


def _ordered(
    question: str, noun: str | None, speaker: str | None, asked: str = ""
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The question's candidate subjects, most likely first, and the names it uses as people.
    Subjects: relatives without a name, the possessor of the thing asked ("Jonas's pet"), a
    relative's name ("Ana's cousin Mia"), the subject after an auxiliary ("did Mia"), a name that
    only owns a relative ("Ana" of "Ana's cousin Mia"), then the rest; not the asker named only as
    the owner of a named relative ("Where did my cousin Mia work?": :func:`owners.askers_owned`).
    ``asked``: the question as asked, before its first person was rewritten."""
    names = _apart(_names(_TITLE.sub(lambda m: m[1] + _DOT, question)), speaker, asked)
    roles = persons(question, speaker)
    owners = list(dict.fromkeys(m["owner"] for m in _KIN_NAMED.finditer(question)))
    rank = {"possessor": 0, "relative": 1, "subject": 2}
    people = sorted((p for p in roles if p not in owners), key=lambda p: rank[roles[p]])
    ordered = tuple(
        dict.fromkeys([*relations(question, noun, speaker), *(p for p in [*people, *owners] if p in names), *names])
    )
    owned = askers_owned(question, speaker)
    kept = tuple(n for n in ordered if not owned or not set(n.split()) <= owned)
    return kept[:QUESTION_NAMES], tuple(roles)


def _apart(names: tuple[str, ...], speaker: str | None, asked: str) -> tuple[str, ...]:
    """``names`` with the speaker's name parted from a capitalised word it stands next to where
    ``asked`` (the question before "I" and "me" were rewritten) does not name them together: "me"
    rewritten to the speaker before a name ("who was teaching me Italian") runs into it."""
    if not speaker:
        return names
    out: list[str] = []
    for name in names:
        if name in asked:
            out.append(name)
        elif name.startswith(f"{speaker} "):
            out += [speaker, name[len(speaker) + 1 :]]
        elif name.endswith(f" {speaker}"):
            out += [name[: -len(speaker) - 1], speaker]
        else:
            out.append(name)
    return tuple(dict.fromkeys(out))


def value_name(tq: TemporalQuestion, subject: str) -> str | None:
    """The value a question names besides its ``subject`` (the anchor of when / how long): its
    first name that is neither the subject, a person nor a time, else any other name; None
    when it names none ("When did Gizmo become Jonas's pet?": Gizmo, the subject after "did",
    is the value once Jonas is the subject). A name holding the subject's ("Trieste Ana" of "how long
    was Trieste my home", "my" read as Ana) is none, nor is the owner of a relative asked about or
    a name holding it ("When did Pip become Ana's aunt's dog?", "How long was Oslo my aunt's
    home?": Ana only says whose aunt)."""
    whose = subject.split("'s ", 1)[0] if "'s " in subject else subject
    own = re.compile(rf"(?<!\w)(?:{re.escape(subject)}|{re.escape(whose)})(?!\w)", re.IGNORECASE)
    others = [n for n in tq.names if "'s " not in n and not own.search(n)]
    plain = [n for n in others if n not in tq.people and not is_time_name(n)]
    found = plain or others
    return found[0] if found else None


def _during(tq: TemporalQuestion, question: str, clause: DuringClause) -> TemporalQuestion:
    """An as-of question whose time is that of the state a "back when ..." clause names. What it
    asks about is named outside that clause ("Who taught me cello back when I lived in Oslo?" asks
    for no home); the clause's own words name the kind of its state (``during_kind``) and maybe
    whose it is (``during_holder``); a main clause asking what changed ("which club did I join")
    asks for the change made while that state held (``during_change``)."""
    outside = question[: clause.start] + question[clause.end :]
    return replace(
        tq,
        operator="as_of",
        during=clause.value,
        during_kind=attribute_of(question[clause.start : clause.end]),
        during_holder=clause.holder,
        during_change=asks_change(outside),
        attribute=tq.noun or attribute_of(outside),
    )


def _bounded(tq: TemporalQuestion, now: datetime | None) -> TemporalQuestion:
    """A before / after question whose anchor is a time ("before 2023", "after last summer") asks
    for the state next to that time: the anchor becomes ``at`` (the time's start for before, its
    end for after); else the anchor is the value its clause names ("after he joined Acme": Acme)."""
    anchor = tq.anchor or ""
    # (read after "in ": a bare year or month is a time only after a preposition)
    times = resolve_time_expressions("in " + anchor, now) if now is not None else []
    if times and times[0].span_start <= len("in "):
        t = times[0]
        at = t.start if tq.operator == "before" else (t.end or t.start)
        return replace(tq, anchor=None, at=at)
    value = anchor_value(anchor, tq.names, now)
    return replace(tq, anchor=value) if value else tq


def _parse(question: str, has_as_of: bool) -> TemporalQuestion:
    attribute = attribute_of(question)
    names = _names(question)
    m = _BETWEEN_RE.search(question)
    if m is not None:
        return TemporalQuestion("between", attribute, names, clean_anchor(m["x"], names), clean_anchor(m["y"], names))
    if asks_when(question):
        return TemporalQuestion("when", attribute, names, None)
    # (how long first: "how long was I at X before I left?", "how long has it been since I moved to X?"
    # ask for the state's span, not for the one next to it)
    if _HOW_LONG_RE.search(question):
        return TemporalQuestion("how_long", attribute, names)
    for op, rx in (("before", _BEFORE_RE), ("after", _AFTER_RE)):
        m = rx.search(question)
        if m is not None:
            return TemporalQuestion(op, attribute, names, clean_anchor(m["x"], names))
    exchange = exchanged(question)
    if exchange is not None:
        return TemporalQuestion(exchange[0], attribute, names, clean_anchor(exchange[1], names))
    if _FIRST_RE.search(question):
        return TemporalQuestion("first", attribute, names)
    if _LATEST_RE.search(question):
        return TemporalQuestion("latest", attribute, names)
    if _NOW_RE.search(question):
        return TemporalQuestion("now", attribute, names)
    if has_as_of:
        return TemporalQuestion("as_of", attribute, names)
    return TemporalQuestion(None, attribute, names)
