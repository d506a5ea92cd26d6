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
from itertools import islice

from memforest.text.change_parts import KIN_RE, NOT_NOUN, NOT_UPDATE
from memforest.text.change_subjects import ADV, PERSON, SUBJ, leading_subject
from memforest.text.change_subjects import match_subject as _subject
from memforest.text.changes import slot_key
from memforest.text.lexicon import COMMON_VERBS, IRREGULAR_PAST
from memforest.text.mood import mood_near

__all__ = ["find_common_change", "find_header_change", "header_kind"]

Slot = tuple[str, str, str]

# a word of a noun phrase, read whole (possessive: linear on long runs); "greengrocer's" is one word
_W = r"[\w'&-]++"
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
_OWNER = rf"(?:(?P<owner>{PERSON})'s|(?P<pron>his|her|their|its))"
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
_NEW_KIND = re.compile(rf"\b(?i:new|first)\s++(?P<noun>[a-z][a-z-]*(?:\s++[a-z][a-z-]*)?)\s*+(?::|\(|,)\s*+{_NP}{_END}")
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
    rf"the\s++(?:[\w'-]++\s++){{0,2}}?[\w'-]++|[A-Z][\w'&-]*+(?:\s++[A-Z][\w'&-]*+){{0,2}})(?:\s++in)?\s++(?:with|for)\s++"
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
    rf"(?:commuting|commutes)\s++on)|(?P<bought>(?i:bought)(?:\s++(?:herself|himself|themself|themselves|myself|ourselves|[A-Z][\w-]*+))?))\s++"
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
        shortlist options ideas goals hopes wants candidates contenders maybe which who whose"""
    )
)
# nouns of a person or a passing event: held by no one as a state
_PERSON_OR_EVENT = frozenset(
    str.split(
        """guy man woman lady girl boy bloke person people kids kid friend friends mate mates family lot lads chap
        cold cough fever headache flu meeting question plan idea problem feeling chance break look rest nap shower
        bath chat word coffee tea drink pint round ticket lunch dinner breakfast snack sandwich present gift card
        cake pizza burger beer wine bottle go laugh moment minute second hour day week month year time party walk run
        drive trip holiday refund"""
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
        these those not no very so just now then there here what when where to with for if got"""
    )
)


def _value(m: re.Match[str], persons: set[str], *, person_head: bool = False) -> tuple[str, str] | None:
    """(value, head noun) of a matched noun phrase; None when it is no noun phrase of a thing."""
    core = m["core"].split()
    tail = m["tail"] or ""
    if _TIME_WORD.search(tail):
        tail = ""  # "the central library on saturdays", "Hollowfield Net in the end"
    named_person = any(w.casefold().removesuffix("'s") in persons for w in core)
    if named_person or _TIME_WORD.fullmatch(core[-1]) or any(w.lower() in _STOP for w in core):
        return None
    head = core[-1].lower().rstrip(".'")
    if head == "one" and tail:
        return f"{m['det'] or ''}{m['core']}{tail}".strip(), "one"  # "the one at the leisure centre"
    if not (re.fullmatch(r"[^\W\d_](?:[^\W\d_]|-)*", head) and core[-1][:1].islower()):
        named = any(w[:1].isupper() or any(c.isdigit() for c in w) for w in core) and bool(
            m["det"] or not _verb(core[0])
        )
        named = named and not (len(core) == 1 and KIN_RE.match(core[0]))  # ("Mum does my hair now")
        return (f"{m['core']}{tail}".strip(), "") if named else None  # "a refurbished Corvane 14": no head noun
    verb = _verb(head) and not _GROUP_HEAD.fullmatch(head)  # ("the neighbourhood watch" is a group)
    if verb or head in NOT_NOUN or head.endswith("ly") or KIN_RE.match(head):
        return None
    if head in _PERSON_OR_EVENT and not (person_head and tail):
        return None
    if not m["det"] and _verb(core[0]):
        return None  # "started in january", "gave up squash": a clause, no noun phrase
    return f"{m['core']}{tail}".strip(), head


def _verb(word: str) -> bool:
    w = word.lower()
    return w in COMMON_VERBS or w in IRREGULAR_PAST or (len(w) > 4 and w.endswith(("ed", "ing")))


def _kind(raw: str) -> str | None:
    words = raw.lower().split()
    verb = _verb(words[0]) and not (len(words) > 1 and words[0].endswith("ing")) if words else True  # ("climbing gym")
    if verb or any(w in NOT_NOUN or w in _NOT_KIND for w in words) or KIN_RE.match(words[-1]):
        return None
    return slot_key(" ".join(words))


def _stated(text: str, m: re.Match[str]) -> bool:
    return not text.rstrip().endswith("?") and mood_near(text, m.start("v")) is None


def _slot(text: str, m: re.Match[str], speaker: str, kind: str | None, value: str) -> Slot | None:
    subject = _subject(text, m, speaker)
    return (subject, kind, value) if subject and kind and _stated(text, m) else None


def find_common_change(text: str, speaker: str) -> Slot | None:
    """(subject, slot, value) when ``text`` states a person's current state whose value is a common
    noun phrase or whose kind heads the message (see the module doc); None otherwise."""
    persons = {speaker.casefold()}
    return _header(text, speaker, persons) or _named_kind(text, speaker, persons) or _headed(text, speaker, persons)


def header_kind(text: str) -> str | None:
    """The word that heads ``text`` as the kind of what it tells ("Energy supplier: ..."), if any."""
    header = _HEADER.match(text)
    return header["noun"] if header is not None and _kind(header["noun"]) is not None else None


def find_header_change(text: str, speaker: str) -> Slot | None:
    """(subject, slot, value) when the kind heads ``text`` before a colon and the words after it
    name the value ("Gym: moved to Ironside Fitness"); None otherwise."""
    return _header(text, speaker, {speaker.casefold()})


def _header(text: str, speaker: str, persons: set[str]) -> Slot | None:
    header = _HEADER.match(text)
    kind = _kind(header["noun"]) if header is not None else None
    if header is None or kind is None:
        return None
    rest = " " * (header.end() - 1) + text[header.end() - 1 :]  # (the kind heading the message is no person)
    for regex in _HEADER_VALUE:
        m = regex.match(rest, header.end())
        found = _value(m, persons, person_head=True) if m is not None else None
        if m is not None and found is not None and found[0].casefold() != kind.replace("_", " "):
            # the clause's own subject, else the speaker ("DSLR" in "went from the DSLR to X" is no one)
            subject = leading_subject(text[header.end() :].lstrip()) or speaker
            return (subject, kind, found[0]) if _stated(rest, m) else None
    return None


def _named_kind(text: str, speaker: str, persons: set[str]) -> Slot | None:
    """A kind the sentence names beside a noun-phrase value."""
    for regex in (_OWNED_IS, _IS_OWNED, _THE_KIND_IS, _NEW_KIND, _CALLED, _APPOSED):
        for m in islice(regex.finditer(text), 4):
            found = _value(m, persons, person_head=True)
            kind = _kind(m["noun"])
            found_now, adj = m.groupdict().get("now"), m.groupdict().get("adj") or ""
            marked = regex in (_NEW_KIND, _CALLED, _IS_OWNED, _APPOSED) or bool(found_now) or "new" in adj
            marked = marked or bool(_HOLDS_NOW.match(text, m.end("v")) or _NOW_WORD.search(m[0]))
            if regex is _THE_KIND_IS and not (m["subj"] or (found and found[1] == "one")):
                continue  # "The weather's a nightmare now": no one's kind
            if regex is _NEW_KIND and re.match(r"\s++(?:is|are|was|were)\b", text[m.end("v") :]):
                continue  # "new job, the pay is better": a clause, no value
            if found is not None and kind is not None and marked and found[0].casefold() != kind.replace("_", " "):
                slot = _slot(text, m, speaker, kind, found[0])
                if slot is not None:
                    return slot
    return None


# the readers of a value whose head noun is its kind, each with a cheap test of the sentence first
# (most sentences name no group and no present); the kind of a value with no head noun (a name)
_HEADED = (
    (_IN_GROUP, _GROUP_WORD),
    (_GROUP_HABIT, _GROUP_WORD),
    (_LEFT_GROUP, _GROUP_WORD),
    (_GOES_TO, _NOW_WORD),
    (_DOES_MINE, _NOW_WORD),
    (_NO_MORE, _NOW_WORD),
    (_HAS, None),
    (_SWAPPED, None),
)
_UNNAMED_KIND = {_HAS: "possession", _SWAPPED: "change", _DOES_MINE: "patronage", _NO_MORE: "change"}


def _headed(text: str, speaker: str, persons: set[str]) -> Slot | None:
    """A value whose head noun is its kind: a group joined, a place gone to now, a thing had now."""
    for regex, cue in _HEADED:
        if cue is not None and cue.search(text) is None:
            continue  # (a cheap test first: most sentences name no group and no present)
        for m in islice(regex.finditer(text), 4):
            found = _value(m, persons)
            bare = all(w.lower() in _BARE for w in found[0].split()[:-1]) if found is not None else True
            if found is None or (not found[1] and regex not in _UNNAMED_KIND) or (bare and regex is not _HAS):
                continue  # "a band", "the new dentist": the kind alone (a thing had is a state: "owns a cello")
            if regex is _HAS and not (
                _NEW_THING.search(m["core"]) or _HOLDS_NOW.match(text, m.end("v")) or not (m["has"] or m["bought"])
            ):
                continue  # "Ana has a cold", "bought a second coat": no mark that it holds
            kind = "change" if regex is _NO_MORE else slot_key(found[1]) if found[1] else _UNNAMED_KIND[regex]
            slot = _slot(text, m, speaker, kind, found[0])
            if slot is not None:
                return slot
    return None
