"""States whose value is a common noun phrase, as people type in chat ("the little practice by the
station", "a secondhand road bike", "the tuesday pub quiz team"), or whose kind heads the message
before a colon ("Gym: moved to Ironside Fitness"). ``find_common_change`` is read only when no
reader of named values (``changes``) found a state in the sentence. Every pattern reads a
person-rewritten sentence ("I" already replaced by the speaker's name) and is linear in its length
(``tests/db/test_text_complexity.py``).

The slot is the kind the sentence names (the header, the owner's noun: "Ana's coffee place these
days is ..."), else the head noun of the value ("the little practice by the station": practice; a
group's noun: "the allotment society": society). A value that is a thing one has or a place one
goes to needs a mark that it holds now ("now", "these days", "new", "since"): "Ana has a parrot
now" is a state, "Ana has a cold" is none."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import islice

from memforest.text.change_parts import HELD_THINGS, KIN_RE, NOT_NOUN, NOT_UPDATE
from memforest.text.change_subjects import ADV, PERSON, SUBJ, leading_subject
from memforest.text.change_subjects import match_subject as _subject
from memforest.text.changes import slot_key, stated
from memforest.text.lexicon import CAPITALS, COMMON_VERBS, IRREGULAR_PAST, TITLES

__all__ = ["find_common_change", "find_header_change", "header_kind"]

Slot = tuple[str, str, str]

# a word of a noun phrase, read whole (possessive: linear on long runs); "greengrocer's" is one word
# a word, or a title before a name ("Dr. Amrani": its period ends no phrase)
_W = rf"(?:{TITLES}\.(?=\s++\w)|(?!{TITLES}\.\s)[\w'&-]++)"
_TAIL_PREP = r"(?:on|by|at|in|above|under|near|behind|outside|off|over|from|of|opposite|beside|next\s++to)"
_TAIL = rf"(?P<tail>\s++{_TAIL_PREP}\s++(?:the\s++)?(?:{_W}\s++){{0,2}}?{_W})?"
# a noun phrase: a determiner, up to five words, one prepositional phrase of where it is
_NP = rf"(?P<v>(?P<det>(?i:the|a|an)\s++)?(?P<core>(?:{_W}\s++){{0,4}}?{_W}){_TAIL})"
_DET_NP = rf"(?P<v>(?P<det>(?i:the|a|an)\s++)(?P<core>(?:{_W}\s++){{0,4}}?{_W}){_TAIL})"
# what may follow a noun phrase: punctuation, the end, or a word that opens what comes after it
_END = (
    r"(?=\s*+(?:[.,;:!?)(]|$)|\s++(?:now|these\s++days|nowadays|instead|since|every|most|for|with|and|but|so|as|who|which|"
    r"that|where|this|last|twice|once|called|named|is|are|in|at|on|from|off)\b)"
)
_NOW = r"(?:now|these\s++days|nowadays|this\s++(?:term|year|season|month)|at\s++the\s++moment)"
# what may follow a value opening the words after a header: punctuation, a time, a place
_HEADER_END = rf"(?=\s*+(?:[.,;:!?)(]|$)|\s++(?:{_NOW}|every|twice|once|instead|since|on|at|in|from)\b)"
_HOLDS_NOW = re.compile(rf"(?<!\s)\s*+,?\s*+(?:{_NOW}|instead|since)\b")
# a clause's subject: a person ("Ana's mate Oskar's in a team": the 's of "is" left to the verb), a
# pronoun, or none (the sentence's start, after punctuation)
_SUBJ_IS = r"(?='(?:s\s++(?:on|in|at|with|got|been|now|just|still)\b|re\s))"
_LEAD = rf"(?:{SUBJ}(?:\s++|{_SUBJ_IS})|(?<![\w'])(?P<lpron>(?i:he|she|they))(?:'(?:s|ve|d|re))?\s++|^|(?<=[.!?;:,]\s))"
_OWNER = rf"(?:(?P<owner>{PERSON})'s|(?<![\w'-])(?P<pron>his|her|their|its))"
_ADJ = r"(?P<adj>(?:(?:new|current|usual|regular|go-to|favou?rite|latest|main|own|local)\s++)*)"
_KIND = r"(?P<noun>[a-z][a-z-]*(?:\s++[a-z][a-z-]*){0,2}?)"

# "Gym: moved to X", "vet switch; we take the cats to X now": the kind heads the message
_HEADER = re.compile(
    rf"^{NOT_UPDATE}(?P<noun>[A-Za-z][a-z-]*(?:\s++[a-z][a-z-]*)??)(?:[\s-]++(?:news|update|wise|situation|setup|switch|front|"
    r"these\s++days|now|sorted))?(?:\s*+[:;]|\s++[–—-](?=\s))"
)
_HEADER_VALUE = (
    re.compile(rf"(?<=[:;–—-])\s++[^.;!?]{{0,60}}?\b(?i:from)\s++[^.;!?]{{1,40}}?\s++(?:to|into)\s++{_NP}{_END}"),
    re.compile(
        rf"(?<=[:;–—-])\s++(?:(?i:always|still|now|just|finally|currently|mostly|officially)\s++)?{_NP}{_HEADER_END}"
    ),
    re.compile(
        rf"(?<=[:;–—-])\s++(?:(?i:always|still|now|just|finally|currently|mostly|officially)\s++)?{_DET_NP}{_END}"
    ),
    re.compile(rf"(?<=[:;–—-])\s++[^.;!?]{{0,60}}?(?<!\w)(?:to|into|with|at|for|on|are|is|am|joined)\s++{_NP}{_END}"),
)
# "Ana's coffee place these days is the tiny kiosk outside the station", "Ana's car's the grey estate now"
_OWNED_IS = re.compile(
    rf"{_OWNER}\s++{_ADJ}{_KIND}(?:\s++(?P<now>{_NOW}))?(?:'s|\s++is|\s++has\s++become)\s++"
    rf"(?:(?:now|just|officially|finally)\s++)*{_NP}{_END}"
)
# "The lido's Ana's pool now"
_IS_OWNED = re.compile(
    rf"(?:^|(?<=[.!?;:,]\s))(?P<v>(?P<det>(?i:the|a|an)\s++)(?P<core>(?:{_W}\s++){{0,3}}?[\w&-]++))(?P<tail>)(?:'s|\s++is)\s++"
    rf"(?:now\s++)?{_OWNER}\s++{_ADJ}(?P<noun>[a-z][a-z-]*(?:\s++[a-z][a-z-]*)?)(?=\s++{_NOW}\b)"
)
# "The chiropractor Ana goes to now is a guy in the back room", "The podiatrist's the one at the clinic now"
_THE_KIND_IS = re.compile(
    rf"(?:^|(?<=[.!?;:,]\s))(?i:the)\s++(?P<noun>[a-z][a-z-]*(?:\s++[a-z][a-z-]*)?)(?:\s++{SUBJ}(?:\s++[a-z][\w'-]*+){{1,4}}?)?"
    rf"(?:'s|\s++is)\s++(?:now\s++)?{_DET_NP}{_END}"
)
# "has a new piano teacher: mrs achterberg", "new dentist (dr amaral on king st)", "first car: an old hatchback"
_OWNED_BEFORE = (
    r"(?:(?<='s\s)|(?<=\bher\s)|(?<=\bhis\s)|(?<=\btheir\s)|(?<=\bhas\sa\s)|(?<=\bhave\sa\s)|(?<=\bgot\sa\s)|"
    r"(?<=\bfound\sa\s))"
)
_NEW_KIND = re.compile(
    rf"{_OWNED_BEFORE}(?i:new|first)\s++(?P<noun>[a-z][a-z-]*(?:\s++[a-z][a-z-]*)?)\s*+(?::|\(|,)\s*+{_NP}{_END}"
)
# a kind in apposition, in brackets or dashes: "Ana's mechanic (the old guy at Rutherford Motors)",
# "the new laptop (a framework 13)", "Ana's work laptop — a chunky HP EliteBook —"
_APPOSED = re.compile(
    rf"(?:{_OWNER}\s++|(?i:the)\s++(?=new\b)){_ADJ}{_KIND}\s*+(?:\(|[–—-]\s)\s*+{_NP}\s*+(?:\)|\s[–—-])"
)
# "is seeing a physio now, a guy called Benedikt Arnaud", "started seeing a therapist, a woman called X"
_CALLED = re.compile(
    rf"{_LEAD}{ADV}(?:(?:is|are|am|been)\s++|'s\s++|'re\s++)?(?i:seeing|sees|see|found|started\s++seeing|started\s++with)\s++"
    rf"(?:a|an)\s++(?:new\s++)?{_KIND}(?:\s++{_NOW})?,?\s++(?:an?\s++(?:guy|man|woman|lady|bloke|chap|girl|fella)\s++)?"
    rf"(?:called|named)\s++{_NP}{_END}"
)
# a place one goes to now: "Ana takes the cats to the little practice by the station now"
_GOES_TO = re.compile(
    rf"{_LEAD}(?:(?!(?:who|which|that|and|but|because|when|if|or)\b)[\w'-]+\s++){{0,6}}?(?:to|at|with|from)\s++{_DET_NP}{_END}"
    rf"(?=[^.;!?]{{0,40}}?\b(?:now|these\s++days|nowadays|instead|since|currently|most\s++days)\b)"
)
_GROUP = (
    r"(?:club|team|squad|band|choir|chorus|orchestra|ensemble|group|league|society|association|council|committee|board|"
    r"circle|class|crew|side|troupe|guild|union|co-op|cooperative|collective|watch|gang|network|congregation|lodge|"
    r"chapter|federation|quartet|trio|quintet|governors|panel|trust|brigade|corps|cast|troop|eleven|course|forum)"
)
GROUP_KINDS = _GROUP  # the nouns of groups one joins or plays in (a choir, a team, a band)
_GROUP_HEAD = re.compile(rf"{_GROUP}s?")
_GROUP_WORD = re.compile(rf"\b{_GROUP}s?\b")
_NOW_WORD = re.compile(r"\b(?:now|these\s++days|nowadays|instead|since|currently|most\s++days)\b")
# joining or belonging to a group named by its noun: "joined the neighbourhood watch", "is on the
# parish council", "plays in the brass band now", "treasurer of the allotment society"
_IN_GROUP = re.compile(
    rf"{_LEAD}{ADV}(?:(?:is|are|am|been)\s++|'s\s++|'re\s++)?(?:(?i:joined|joins|doing|taking|attending|started)|(?:got|gets|voted|elected|accepted|picked|"
    rf"selected)\s++(?:into|onto|to|for)|in|on|(?:the\s++(?:new\s++)?)?(?:treasurer|secretary|chair|captain|president|member)\s++of|(?i:chair|chairs|captain|captains|run|runs)|"
    rf"(?:plays?|playing|sings?|singing)\s++(?:[a-z-]+\s++)?(?:in|for|with))\s++"
    rf"(?P<v>(?P<det>(?:the|a|an)\s++)(?P<core>(?:{_W}\s++){{0,4}}?{_GROUP}s?)"
    rf"(?P<tail>\s++of\s++(?:the\s++)?(?:{_W}\s++){{0,2}}?{_W})?){_END}"
)
# a group opening the message as a habit, no verb: "gospel choir on fridays now", "chess club at the
# library cafe on tuesdays"
_GROUP_HABIT = re.compile(
    rf"^(?P<v>(?P<det>)(?P<core>(?:{_W}\s++){{0,3}}?{_GROUP}s?)(?P<tail>\s++(?:at|in|with)\s++(?:the\s++)?(?:{_W}\s++){{0,2}}?{_W})?)"
    rf"(?=\s++(?:on\s++(?i:mon|tues|wednes|thurs|fri|satur|sun)days|every\s++\w|{_NOW}|(?:once|twice|\w+\s++times)\s++a\s++week)\b)"
)
# a thing replaced by another ("replaced it with a 2011 yaris", "traded the hatchback in for an
# electric van"), a group left for another ("left the bridge club for the chess club at the Crown")
_SWAPPED = re.compile(
    rf"{_LEAD}{ADV}(?i:replaced|traded|swapped|exchanged)\s++(?:it|them|{_OWNER}\s++(?:[\w-]++\s++){{0,2}}?[\w-]++|"
    rf"the\s++(?:[\w'-]++\s++){{0,2}}?[\w'-]++|[{CAPITALS}][\w'&-]*+(?:\s++[{CAPITALS}][\w'&-]*+){{0,2}})(?:\s++in)?\s++(?:with|for)\s++"
    rf"{_DET_NP}{_END}"
)
_LEFT_GROUP = re.compile(
    rf"{_LEAD}{ADV}(?i:left|quit|ditched|dropped)\s++(?:the\s++)?(?:[\w'-]++\s++){{0,3}}?{_GROUP}s?\s++for\s++"
    rf"(?P<v>(?P<det>(?:the|a|an)\s++)(?P<core>(?:{_W}\s++){{0,3}}?{_GROUP}s?)"
    rf"(?P<tail>\s++(?:at|in|of)\s++(?:the\s++)?(?:{_W}\s++){{0,2}}?{_W})?){_END}"
)
# "no more android for Ana, it's an iphone 15 now": a switch whose old value the read path knows
_NO_MORE = re.compile(
    rf"(?i:no\s++more)\s++[^.;!?,]{{1,40}}?,\s++(?:(?i:it's|it\s++is)|{SUBJ}\s++(?:is|are))\s++(?:on\s++|with\s++|at\s++)?"
    rf"{_NP}{_END}(?=[^.;!?]{{0,30}}?\bnow\b)"
)
# a provider doing one's things now: "the little bakery by the bridge does our bread now"
_DOES_MINE = re.compile(
    rf"(?:^|(?<=[.!?;:,]\s))(?P<v>(?P<det>(?i:the|a|an)\s++)?(?P<core>(?:{_W}\s++){{0,4}}?{_W}){_TAIL})\s++"
    rf"(?:does|do|cuts|handles|gets|takes|looks\s++after|sorts)\s++{_OWNER}\s++[\w-]++(?=[^.;!?]{{0,40}}?\bnow\b)"
)
# a thing one has now: "Ana and others have a parrot now", "she's got a basic android now", "adopted an old labrador"
_HAS = re.compile(
    rf"{_LEAD}{ADV}(?:(?P<has>(?:has|have|'s|'ve)\s++got|got|has|have)|(?i:adopted|drives|drive|rides|ride|owns|own|"
    rf"(?:commuting|commutes)\s++on)|(?P<bought>(?i:bought)(?:\s++(?:herself|himself|themself|themselves|myself|ourselves|[{CAPITALS}][\w-]*+))?))\s++"
    rf"(?P<v>(?P<det>(?:a|an|two|three|four)\s++)(?P<core>(?:{_W}\s++){{0,3}}?{_W}))(?P<tail>){_END}"
)
_NEW_THING = re.compile(r"\b(?:new|secondhand|second-hand|used|refurbished|rescue|own|first|proper)\b")
# words a value's head may carry that say nothing of which one it is ("the new dentist" is no value of dentist)
_BARE = frozenset({"new", "current", "usual", "regular", "old", "local", "same", "other", "latest"})
# nouns of no kind of state
_NOT_KIND = frozenset(
    str.split(
        """update updates news edit ps note fyi reminder question answer so also ok okay well anyway lol hi hey yes
        no thanks plus result verdict summary warning spoiler confession fact tip problem issue reason plan goal idea
        today tonight tomorrow weekend things highlights progress status mood life situation fault concern headache
        worry priority focus excuse dream guess point thing turn call business job responsibility favourite wishlist
        shortlist options ideas goals hopes wants candidates contenders maybe which who whose lunch dinner breakfast
        supper snack score forecast weather homework list story joke menu agenda schedule recipe quote result results
        me episode round date match film movie show book series song album game concert meal rant vent moan gripe
        grumble drama saga admin chores errands gossip subject topic aside tangent twist surprise shock shocker
        bombshell alert newsflash flash bulletin recap brag win milestone breakthrough development twists"""
    )
)
# nouns of a person or a passing event: held by no one as a state
_PERSON_OR_EVENT = frozenset(
    str.split(
        """guy man woman lady girl boy bloke person people kids kid friend friends mate mates family lot lads chap
        cold cough fever headache flu meeting question plan idea problem feeling chance break look rest nap shower
        bath chat word coffee tea drink pint round ticket lunch dinner breakfast snack sandwich present gift card
        cake pizza burger beer wine bottle go laugh moment minute second hour day week month year time party walk run
        drive trip holiday refund test exam deadline appointment interview shift bargain share blame policy haircut
        mess disaster nightmare draw storm essay score"""
    )
)
_TIME_WORD = re.compile(
    r"\b(?i:(?:mon|tues|wednes|thurs|fri|satur|sun)days?|end|moment|meantime|mornings?|evenings?|nights?|weekends?|"
    r"weeks?|months?|years?|summer|winter|spring|autumn|term|season|dawn|dusk|noon|lunchtime|january|february|march|april|may|june|july|"
    r"august|september|october|november|december)\b"
)
_STOP = frozenset(
    str.split(
        """is are was were be been am has have had and but or i we he she they it you me him them us who which that this
        these those not no very so just now then there here what when where to with for if got in on at by from into
        of off"""
    )
)


def _value(m: re.Match[str], persons: set[str], *, person_with_place: bool = False) -> tuple[str, str] | None:
    """(value, head noun) of a matched noun phrase, the head "" for a name ("a refurbished Corvane
    14"); None when it is no noun phrase of a thing. ``person_with_place``: a person placed by the
    phrase may be the value ("the old guy at Rutherford Motors", a provider)."""
    core = m["core"].split()
    tail = "" if _TIME_WORD.search(m["tail"] or "") else m["tail"] or ""  # ("the library on saturdays")
    if _clause(m, core, persons):
        return None
    head = core[-1].lower().rstrip(".'")
    if head == "one" and tail:
        return f"{m['det'] or ''}{m['core']}{tail}".strip(), "one"  # "the one at the leisure centre"
    if not (re.fullmatch(r"[^\W\d_](?:[^\W\d_]|-)*", head) and core[-1][:1].islower()):
        return (f"{m['core']}{tail}".strip(), "") if _named(core) else None
    if _verb(head) and not _GROUP_HEAD.fullmatch(head):  # ("the neighbourhood watch" is a group)
        return None
    if head in NOT_NOUN or head.endswith("ly") or KIN_RE.match(head):
        return None
    if head in _PERSON_OR_EVENT and not (person_with_place and tail):
        return None
    return f"{m['core']}{tail}".strip(), head


def _clause(m: re.Match[str], core: list[str], persons: set[str]) -> bool:
    """The matched words are no noun phrase: a person of the conversation, a time, a function word,
    or a verb first with no determiner ("started in january", "quit the one by the station")."""
    if any(w.casefold().removesuffix("'s") in persons for w in core) or _TIME_WORD.fullmatch(core[-1]):
        return True
    return any(w.lower() in _STOP for w in core) or (not m["det"] and _verb(core[0]))


def _named(core: list[str]) -> bool:
    """A name or a product: a capitalised word or a number in it; a kin word alone is none ("Mum")."""
    named = any(w[:1].isupper() or any(c.isdigit() for c in w) for w in core)
    return named and not (len(core) == 1 and KIN_RE.match(core[0]))


def _verb(word: str) -> bool:
    w = word.lower()
    return w in COMMON_VERBS or w in IRREGULAR_PAST or (len(w) > 4 and w.endswith(("ed", "ing")))


def _kind(raw: str) -> str | None:
    """The slot a kind's noun phrase names; None for a verb, a function word or no kind of state."""
    words = raw.lower().split()
    if not words or (_verb(words[0]) and not (len(words) > 1 and words[0].endswith("ing"))):
        return None  # ("climbing gym" is a kind, "switched dentists" none)
    if any(w in NOT_NOUN for w in words) or words[-1] in _NOT_KIND or KIN_RE.match(words[-1]) or _TIME_WORD.search(raw):
        return None
    return slot_key(" ".join(words))


def find_common_change(text: str, speaker: str, participants: Sequence[str] = ()) -> Slot | None:
    """(subject, slot, value) when ``text`` states a person's current state whose value is a common
    noun phrase or whose kind heads the message (see the module doc); None otherwise.
    ``participants`` are the others in the conversation (never a kind heading a message)."""
    persons = {p.casefold() for p in (speaker, *participants)}
    return _header(text, speaker, persons) or _named_kind(text, speaker, persons) or _headed(text, speaker, persons)


def header_kind(text: str, participants: Sequence[str] = ()) -> str | None:
    """The words that head ``text`` as the kind of what it tells ("Energy supplier: ..."), if any."""
    header = _HEADER.match(text)
    if header is None or header["noun"].casefold() in {p.casefold() for p in participants}:
        return None
    return header["noun"] if _kind(header["noun"]) is not None else None


def find_header_change(text: str, speaker: str, participants: Sequence[str] = ()) -> Slot | None:
    """(subject, slot, value) when the kind heads ``text`` before a colon, semicolon or dash and the
    words after it name the value ("Gym: moved to Ironside Fitness"); None otherwise."""
    return _header(text, speaker, {p.casefold() for p in (speaker, *participants)})


def _header(text: str, speaker: str, persons: set[str]) -> Slot | None:
    header = _HEADER.match(text)
    kind = _kind(header["noun"]) if header is not None and header["noun"].casefold() not in persons else None
    if header is None or kind is None:
        return None
    # the words after the header with the header blanked out (so no reader takes it for a person),
    # its closing colon, semicolon or dash kept for the value patterns to start at
    rest = " " * (header.end() - 1) + text[header.end() - 1 :]
    values = _HEADER_VALUE[:3] if _HELD_THING.fullmatch(kind) else _HEADER_VALUE  # ("Car: in the garage on X")
    for regex in values:
        m = regex.match(rest, header.end())
        found = _value(m, persons, person_with_place=True) if m is not None else None
        if m is None or found is None or found[0].casefold() == kind.replace("_", " "):
            continue
        if _ENDED_BEFORE.search(rest, header.end(), m.end("v")) or not stated(rest, m):
            return None  # "Gym: quit the one by the station", "Gym: no longer at X"
        # the clause's own subject, else the speaker ("DSLR" in "went from the DSLR to X" is no one)
        return leading_subject(text[header.end() :].lstrip()) or speaker, kind, found[0]
    return None


_HELD_THING = re.compile(rf"{HELD_THINGS}s?")
_ENDED_BEFORE = re.compile(
    r"\b(?i:no\s++longer|not|never|quit|left|cancell?ed|stopped|dropped|sold|lost|stolen|ditched|gave\s++up|hate[sd]?)\b"
)


@dataclass(frozen=True)
class _Reading:
    """A pattern of a state, what its sentence must also show, and where its kind comes from."""

    pattern: re.Pattern[str]
    check: Callable[[str, re.Match[str]], bool]
    cue: re.Pattern[str] | None = None  # a cheap test of the sentence first (most name no group, no present)
    unnamed: str | None = None  # the kind of a value with no head noun (a name); None: such a value is none


def _held_now(text: str, m: re.Match[str]) -> bool:
    """The sentence marks the value as held now: "now", "these days", "new", "since" in or after it."""
    if m.groupdict().get("now") or "new" in (m.groupdict().get("adj") or ""):
        return True
    return bool(_HOLDS_NOW.match(text, m.end("v")) or _NOW_WORD.search(m[0]))


def _anyway(text: str, m: re.Match[str]) -> bool:
    return True


def _someones_kind(text: str, m: re.Match[str]) -> bool:
    """ "the plumber Ana uses now is ...", "the podiatrist's the one at ... now": a subject's kind."""
    return bool(m["subj"] or m["core"].split()[-1] == "one") and _held_now(text, m)


def _no_clause_after(text: str, m: re.Match[str]) -> bool:
    return re.match(r"\s++(?:is|are|was|were)\b", text[m.end("v") :]) is None  # ("new job, the pay is better")


# a kind the sentence names beside a noun-phrase value
_NAMED_KIND = (
    _Reading(_OWNED_IS, _held_now),
    _Reading(_IS_OWNED, _anyway),
    _Reading(_THE_KIND_IS, _someones_kind),
    _Reading(_NEW_KIND, _no_clause_after),
    _Reading(_CALLED, _anyway),
    _Reading(_APPOSED, _anyway),
)


def _named_kind(text: str, speaker: str, persons: set[str]) -> Slot | None:
    for reading in _NAMED_KIND:
        for m in islice(reading.pattern.finditer(text), 4):
            found, kind = _value(m, persons, person_with_place=True), _kind(m["noun"])
            if found is None or kind is None or found[0].casefold() == kind.replace("_", " "):
                continue
            subject = _subject(text, m, speaker) if reading.check(text, m) and stated(text, m) else None
            if subject:
                return subject, kind, found[0]
    return None


def _not_passing(text: str, m: re.Match[str]) -> bool:
    """No one-off time after the value ("a yoga class tonight", "for the pub team on Saturday")."""
    return _ONE_OFF_AFTER.match(text, m.end("v")) is None


def _had_now(text: str, m: re.Match[str]) -> bool:
    """A thing had or bought needs a mark that it is held ("has a cold", "bought a second coat": none);
    one adopted, owned, driven or ridden is held."""
    marked = _NEW_THING.search(m["core"]) or _HOLDS_NOW.match(text, m.end("v"))
    return _not_passing(text, m) and bool(marked or not (m["has"] or m["bought"]))


def _gone_to_now(text: str, m: re.Match[str]) -> bool:
    """Not where one is at this moment ("I'm heading to the pub now", "stuck at the airport now")."""
    return _not_passing(text, m) and _MOMENT.search(m[0]) is None


_ONE_OFF_AFTER = re.compile(
    r"(?<!\s)\s*+,?\s*+(?i:tonight|today|tomorrow|this\s++(?:morning|afternoon|evening|weekend)|"
    r"on\s++(?:mon|tues|wednes|thurs|fri|satur|sun)day(?!s)|on\s++the\s++(?:night|evening|morning|afternoon)\s++of|on\s++\d)\b"
)
_MOMENT = re.compile(
    r"\b(?i:heading|headed|walking|driving|waiting|stuck|sitting|standing|queuing|off|leaving|arriving|"
    r"on\s++the\s++(?:way|train|bus|tube|plane|ferry|road))\b"
)

# a value whose head noun is its kind: a group joined, a place gone to now, a thing had now
_HEADED = (
    _Reading(_IN_GROUP, _not_passing, _GROUP_WORD),
    _Reading(_GROUP_HABIT, _not_passing, _GROUP_WORD),
    _Reading(_LEFT_GROUP, _not_passing, _GROUP_WORD),
    _Reading(_GOES_TO, _gone_to_now, _NOW_WORD),
    _Reading(_DOES_MINE, _not_passing, _NOW_WORD, unnamed="patronage"),
    _Reading(_NO_MORE, _not_passing, _NOW_WORD, unnamed="change"),
    _Reading(_HAS, _had_now, unnamed="possession"),
    _Reading(_SWAPPED, _not_passing, unnamed="change"),
)


def _headed(text: str, speaker: str, persons: set[str]) -> Slot | None:
    for reading in _HEADED:
        if reading.cue is not None and reading.cue.search(text) is None:
            continue
        for m in islice(reading.pattern.finditer(text), 4):
            found = _value(m, persons)
            kind = _headed_kind(reading, found)
            subject = _subject(text, m, speaker) if kind and reading.check(text, m) and stated(text, m) else None
            if found is not None and subject:
                return subject, kind or "", found[0]
    return None


def _headed_kind(reading: _Reading, found: tuple[str, str] | None) -> str | None:
    """The value's head noun as a slot ("change" for a switch the read path types by what it
    replaced); None for a value that is its kind alone ("a band", "the new dentist"; a thing had
    is a state: "owns a cello")."""
    if found is None or (not found[1] and reading.unnamed is None):
        return None
    if reading.pattern is not _HAS and all(w.lower() in _BARE for w in found[0].split()[:-1]):
        return None
    if reading.pattern is _NO_MORE or not found[1]:
        return reading.unnamed
    return slot_key(found[1])
