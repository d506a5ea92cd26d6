"""The mood of a sentence that names a state: is it stated as holding, or only planned, wished,
imagined, considered, turned down, suggested by someone else, denied, or remembered?

A sentence in any mood but the plain indicative states no state: it stays a fact (it can be
recalled) but carries no supersession slot, and the temporal read path never answers "now" or
"as of" with it. Nostalgia about a past state ("those were good days", "back when") does not
re-open that state. The cues are grammatical (modal verbs, conditionals, verbs of wanting,
considering and remembering), not words of any subject matter.
"""

from __future__ import annotations

import re

from memforest.text.clauses import clause_spans
from memforest.text.lexicon import CAPITALS, WORD_START
from memforest.text.state_words import DISPOSAL, GOT_IN, LET_IN, NOT_GETTING_IN, PRODUCT_PLAN

__all__ = ["MOODS", "is_leave", "leaves", "mood_near", "mood_of", "plain_opening"]

MOODS = ("plan", "wish", "hypothetical", "considered", "turned_down", "suggestion", "negation", "nostalgia")

_RE = {
    "nostalgia": r"\bmiss(?:es|ed|ing)?\b|\bused\s+to\b|\bback\s+(?:when|in\s+the\s+day)\b|\bremember\s+when\b|"
    r"\bthose\s+(?:were\s+)?(?:the\s+)?(?:good\s+)?(?:days|times|years)\b|\bold\s+(?:photo|picture|days|times)\b|"
    r"\bnostalgi\w*|\bgood\s+old\b|\bformer\b|\bex-\w+|\bback\s+then\b|\bin\s+those\s+days\b|"
    r"\b(?:the|my|our|those)\s+(?:years|days)\s+(?:at|in|with)\s+[^.;!?]{1,40}?\s+were\b",
    "hypothetical": r"^if\b|[,;]\s*if\b|\bwere\s+no\s+object\b|\bwould\b|\bcould\b|\bin\s+another\s+life\b|"
    r"\bimagine\b|\bwhat\s+if\b|\bsuppos(?:e|ing)\b|\bin\s+case\b",
    "wish": r"\bwish(?:es|ed)?\b|\bwould\s+love\b|\bhop(?:e|es|ing)\s+to\b|\bone\s+day\b|\bsomeday\b|"
    r"\bdream(?:s|ing)?\s+(?:of|about)\b|\bwant(?:s|ed)?\s+to\b|\bwanna\b|\bif\s+only\b|\bwould\s+rather\b|"
    r"\btempted\b|\bfancy\b|\bdaydream\w*",
    "plan": r"\b(?:am|is|are|was|were|not)\s+(?:\w+\s+)?going\s+to\b|\bgonna\b|"
    rf"\b{PRODUCT_PLAN}plan(?:s|ning|ned)?\s+(?:to|on)\b|\bplanning\b|\bmight\b|"
    r"\bwill\b|['’]ll\b|\bnext\s+(?:week|month|year|spring|summer|autumn|fall|winter)\b|\babout\s+to\b|"
    r"\bnothing\s+is\s+decided\b|\bthinking\s+(?:of|about)\b|\btalk(?:s|ed|ing)?\s+(?:about|of)\s+\w+ing\b|\bconsidering\b|\bintend\w*\s+to\b|"
    r"\baim(?:s|ing)?\s+to\b|\bmeaning\s+to\b|\bsupposed\s+to\b|\bappl(?:y|ied|ying)\s+(?:to|for|at)\b|\binterview\w*\s+(?:at|with|for)\b|"
    r"\bwait(?:ing)?[\s-]*list\w*",
    "considered": r"\blooked\s+(?:into|at)\b|\bthought\s+about\b|\bconsidered\b|\btoyed\s+with\b|\beyeing\b|"
    r"\blet\s+it\s+go\b|\bwasn't\s+(?:right|for)\b|\bdecided\s+against\b|"
    r"\btried\s+to\b|\bcame\s+close\s+to\b|\bshortlist\w*|\bon\s+the\s+fence\b|\bweigh(?:ed|ing)\s+up\b|"
    r"\bcheck(?:ed|ing)\s+out\b|\btoured\b|\btrial\s+(?:class|session|week|month)\b|\brecruiters?\b|\bheadhunt\w*|"
    # an offer answered by not moving: the offer's clause is the state considered
    r"\bstay(?:ed|s)?\s+put\b|\bdebating\s+(?:whether|if|between|about)\b|\btorn\s+between\b|"
    r"\b(?:showed\s+(?:\w+\s+){1,3}?|view(?:ed|ing)\s+)(?:a|an|round|around)\s+(?:\w+\s+)?(?:flat|house|apartment|place|home|"
    r"property|room|cottage|condo)\b",
    "turned_down": r"\bturn(?:ed|s)?\s+(?:it\s+|them\s+|\w+\s+)?down\b|\bsaid\s+no\b|\bdeclined\b|\bpassed\s+on\b|"
    r"\brejected\b",
    "suggestion": r"\b(?:keeps?|kept)\s+(?:telling|saying|suggesting|pushing|inviting|asking)\b|\bsuggest\w*\b|"
    r"\brecommend\w*\b|"
    r"\bshould\b|\btold\s+\w+(?:'s\s+\w+)?\s+to\b|\burg(?:es|ed|ing)\s+\w+\s+to\b|\bwhy\s+not\b|\badvis(?:ed|es|ing)\b|"
    r"\bnag(?:s|ged|ging)\b|\bpush(?:es|ed|ing)\s+\w+\s+to(?:wards)?\b|\bon\s+at\s+\w+\s+to\b",
    "negation": r"\bnot\b|\bnever\b|n't\b|\bno\s+way\b|\bnor\b",
}
_COMPILED = {mood: re.compile(pattern, re.IGNORECASE) for mood, pattern in _RE.items()}
# cues that give their mood to their own clause only: a hope, a piece of advice, a near miss or a
# fond memory beside a plain statement is an aside ("I joined the Harriers, fingers crossed I can
# keep up" states a club), so the sentence has the mood only when no other clause states something
_CLAUSE_RE = {
    "nostalgia": r"\breminisc\w*|\blong(?:s|ed|ing)?\s+for\b|\b(?:good|fond|happy)\s+memories\b|\bfondly\b|"
    r"\blook(?:s|ed|ing)?\s+back\s+on\b|\bthink(?:s|ing)?\s+back\b|\bthought\s+back\b|"
    # a past state told only as the time of something else, opening the sentence ("When Ana lived in
    # X, Ana had ...")
    r"(?:^|[.!?]\s+)when\s+[\w']+\s+(?:lived|worked|was\s+living|was\s+working|studied)\s+(?:in|at|for)\b",
    "wish": r"\bhop(?:e|es|ed|ing)\s+for\b|\bhopefully\b|\bfingers\s+crossed\b|\bideally\b|"
    r"\b(?:got|have|has|had)\s+(?:my|his|her|their|our|\w+'s)\s+eyes?\s+on\b",
    "plan": r"\bon\s+the\s+list\s+for\b|\bplan\s+(?:is|was)\s+to\b|\bsaving\s+(?:up\s+)?for\b|"
    # the progressive of a verb of change is an arrangement, not yet a state ("is moving to X in
    # June", "is joining X"); "is living in X" is a state
    r"\b(?:am|is|are|was|were|['’]m|['’]re|['’]s)\s+(?:\w+ly\s+)?(?:moving|relocating|switching|joining|starting(?!\s+to\b)|"
    r"transferring|leaving|quitting|buying|adopting)\b",
    # a near miss ("almost joined X") is about the verb it qualifies, not the clause beside it
    "considered": r"\bleaning\s+towards?\b|"
    r"\b(?:almost|nearly)\s+(?:\w+ed|went|bought|took|got|made|left|sold|chose|became)\b",
    # a leading "how about X"; "how about that!" is an interjection, "what about you?" a question back
    "suggestion": r"\bought\s+to\b|\bhad\s+better\b|"
    r"\binvit(?:es|ed|ing)\s+\w+\s+to\b|"
    r"^\s*(?:how|what)\s+about\b(?!\s+(?:that|you)\b\s*(?:[,;:!.?]|[-–—]|$))",
}
_CLAUSE_COMPILED = {mood: re.compile(pattern, re.IGNORECASE) for mood, pattern in _CLAUSE_RE.items()}

# "from my Riverside days": a named past (case matters: the name is capitalised)
_NAMED_DAYS = re.compile(
    rf"{WORD_START}(?!(?:These|Those|Some|Many|Few|All|Most|Other|Good|Old|Early|Recent|Two|Three|Several|Busy)\b)"
    rf"[{CAPITALS}][\w-]*(?:\s+[{CAPITALS}][\w-]*){{0,4}}\s+days\b|\b(?i:the|my|our|his|her|their)\s+[{CAPITALS}][\w-]*(?:\s+[{CAPITALS}][\w-]*){{0,4}}\s+years\b"
)
# set phrases with a negation or modal word that deny or hedge nothing ("can't believe", "couldn't
# be happier", "wouldn't trade it")
_SET_PHRASES = re.compile(
    r"\b(?:can't|cannot|couldn't)\s+(?:believe|wait|stop|complain|recommend|get\s+over|be\s+happier|imagine)\b|"
    r"\b(?:never|not)\s+(?:been\s+happier|looked\s+back|looking\s+back|bad|too\s+bad|a\s+bad)\b|"
    r"\bwouldn't\s+(?:trade|change|have\s+it)\b|\bif\s+(?:i'm|i\s+am|we're|\w+\s+is)\s+honest\b|\bnot\s+gonna\s+lie\b|"
    r"\bnot\s+only\b|\bno\s+longer\b|\bnot\s+enough\b|\bwould\s+not\s+stop\b|\bwouldn't\s+stop\b|"
    r"\btoo\s+good\s+to\s+(?:turn\s+down|pass\s+up|refuse|say\s+no\s+to)\b|"
    # a request of one's own turned down by another ("they rejected Ana's claim"): no offer refused
    # (someone else's verb: a lower-case word before it, not the speaker's name)
    r"\b(?-i:[a-z][\w']*)\s+(?:rejected|declined|refused)\s+(?:my|our|[\w-]+'s)\s+(?:\w+\s+)?"
    r"(?:claim|application|appeal|payment|card|refund|complaint)s?\b|"
    # an application that succeeded in its own sentence ("applied to X and was accepted") is no plan
    rf"\bappl(?:y|ied)\s+(?:to|for|at)\b(?=[^.;!?]{{1,80}}?\band\s+(?:[a-z][\w'-]*\s+)?(?:{GOT_IN}\b{NOT_GETTING_IN}|"
    rf"{LET_IN}\b))",
    re.IGNORECASE,
)
# "missed" as an attributive participle, after a determiner, a number or an ordinal and before its noun
# ("the third missed appointment", "two missed trains"), is an adjective, not missing someone or something
_ORDINAL = r"(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|\d+(?:st|nd|rd|th))"
_ATTRIBUTIVE_MISSED = re.compile(
    rf"\b(?:(?:a|an|the|another|any|no|every|each|several|many|few|two|three|four|five|six|seven|eight|nine|ten|"
    rf"\d+)\s+(?:{_ORDINAL}\s+)?|{_ORDINAL}\s+)missed(?=\s+[a-z])",
    re.IGNORECASE,
)
# a state that ends with no successor named: "stopped going to X", "no longer goes to X", and a verb
# of leaving or disposal ("left X", "got rid of X") unless a successor follows it in its sentence
# ("quit X and joined Y"): read per sentence from the last such verb (linear in the text)
_LEAVE = re.compile(
    r"\b(?:stopped\s+(?:going\s+to|seeing|using|visiting)|cancell?ed(?!\s+on\b)\s+(?:with|my|\w+'s)?|no\s+longer\s+\w+)",
    re.IGNORECASE,
)
_LEAVING = re.compile(
    rf"\b(?:quit|quits|left|leaves|dropped\s+out\s+of|gave\s+up\s+on|parted\s+ways\s+with|{DISPOSAL}|"
    r"had\s+to\s+rehome|moved\s+out\s+of|retired\s+from|retires\s+from|(?:was|were|got|been)\s+stolen|stole|"
    r"handed\s+back\s+the\s+keys|(?:lease|tenancy)\b[^.;]{0,60}?\b(?:ended|expired|ran\s+out))\b",
    re.IGNORECASE,
)
_DISPOSAL = re.compile(DISPOSAL, re.IGNORECASE)
# the words of a disposal's object before the value: determiners, possessives and modifiers ("gave
# away my old X", "binned all the X"), at most three, none a word that ends a noun phrase (a
# preposition, conjunction, pronoun or form of "be"/"have": "dumped my photos onto X", "dumped snow
# all over X", "binned the idea of X" dispose of no X). Matched whole between the verb and the value.
_OBJECT_LEAD = re.compile(
    r"\s+(?:(?!(?:to|of|in|on|onto|into|at|over|under|for|with|from|by|about|after|before|off|out|up|down|"
    r"away|around|round|through|across|than|and|or|but|then|so|because|while|when|where|which|who|is|was|"
    r"are|were|be|been|has|have|had|it|them|him|me|us|you|i|we|they|she|he)\b)[\w'-]+\s+){0,3}",
    re.IGNORECASE,
)
# a disposal's object that stands for the one thing named before the verb ("the Corsa failed its MOT,
# so I scrapped it"; a value names one thing, so "them" stands for something else)
_PRONOUN_OBJECT = re.compile(r"(?<!\s)\s+it\b", re.IGNORECASE)
_SUCCESSOR = re.compile(r"\b(?:and|then|to)\s+(?:join|switch|start|mov|got|bought|took|adopt|went)", re.IGNORECASE)
_SENTENCE_PART = re.compile(r"[^.;]+")
# between a verb of leaving and a value: words that make the value what came instead, a destination
# ("moved out of the city to X", "left A for X"; not "going to X") or a verb of taking something up
# ("quit A and joined X")
_INSTEAD = re.compile(
    r"(?<!ing)\s(?:to|into|for)\s|\b(?:join|switch|start|mov|got|get|bought|buy|took|adopt|went|sign|enrol|register)",
    re.IGNORECASE,
)


# a run of whitespace is tried from its first character only (linear on long runs of spaces); "and"
# opens a clause when a subject follows it ("nearly missed the van and we moved in on Friday")
_CLAUSE_END = re.compile(
    r"[,;:]\s+|(?<!\s)\s+(?:but|and\s+then|so)\s+|(?<!\s)\s+[-–—]\s+|"
    # a reason given after a statement ends the statement's clause ("switched to X because the old
    # one never had appointments": the reason's negation is not the statement's); see _REASON
    r"(?<!\s)\s+(?=(?i:because|cos|'cause)\s)|"
    r"(?<!\s)\s+and\s+(?=(?i:i|we|he|she|they|you)\s)|"
    # (also after a time that opens the clause: "and yesterday they asked if ...", rewritten "and on
    # 7 May 2024 they asked if ...")
    r"(?<!\s)\s+and\s+(?=(?i:on|in|at|during|after|before|last|this|yesterday|today|tonight|then)\s+(?:[\w']+\s+){0,3}?"
    r"(?i:we|he|she|they|you)\s)|"
    # (in person-rewritten text "I" is the speaker's name: "and Ana has never been this tired")
    rf"(?<!\s)\s+and\s+(?=[{CAPITALS}][\w-]*\s+(?:and\s+others\s+)?(?:has|have|had|never|still|just|really|also)\b)|"
    # (also a doing in progress: "and Ana's running out of ideas", "and Ana is losing sleep")
    rf"(?<!\s)\s+and\s+(?=[{CAPITALS}][\w-]*(?:'s|'re|\s+is|\s+was|\s+are)\s+[a-z]+ing\s)|"
    # a second predicate of the same subject with its own auxiliary ("joined X and will not stop talking")
    r"(?<!\s)\s+and\s+(?=(?i:will|won't|can't|cannot|never|still|keeps|kept)\s)|"
    # a second predicate that reports what the subject says ("rows with X and says I should join")
    r"(?<!\s)\s+and\s+(?=(?i:says|said|tells|told|thinks|thought|reckons|insists|insisted)\s)"
)
# a clause opened by "when" or "where" belongs to the clause before it ("those were good days, when
# Ana played in X")
_SUBORDINATE = re.compile(r"(?i:when|whenever|where|while|whilst)\b")
# a reason belongs to the clause it gives the reason for: a mood of that clause is the reason's too
# ("keeps telling me to switch to X because they have coverage at the cabin"), not the other way round
_REASON = re.compile(r"(?i:because|cos|'cause)\b")
# a clause that only says who spoke ("How about X, Ravi asked") states nothing of its own
_REPORTING = re.compile(
    r"\A\W*(?:\w+\s+){1,2}(?:asked|asks|said|says|added|adds|replied|replies|wrote|writes)\W*\Z", re.IGNORECASE
)
# moods a sentence carries whichever clause names the state ("X had a place for me, but I said no")
_SENTENCE_MOODS = ("considered", "turned_down")


def _cleared(text: str) -> str:
    """``text`` with its set phrases ("can't believe", "no longer") and attributive participles
    ("a missed call") blanked out, same length."""
    blank = _SET_PHRASES.sub(lambda m: "_" * len(m.group(0)), text)
    return _ATTRIBUTIVE_MISSED.sub(lambda m: "_" * len(m.group(0)), blank)


def _clauses(cleared: str) -> list[str]:
    """The clauses of ``cleared``: a subordinate clause kept with the one before, a lead of one or
    two words ("Fingers crossed, ...", "Ideally, ...") with the one after."""
    clauses: list[str] = []
    start = 0
    for m in _CLAUSE_END.finditer(cleared):
        kept = _SUBORDINATE.match(cleared, m.end()) or _REASON.match(cleared, m.end())
        if not kept and len(cleared[start : m.start()].split()) > 2:
            clauses.append(cleared[start : m.start()])
            start = m.end()
    return [*clauses, cleared[start:]]


def _has_mood(clause: str) -> bool:
    """Any cue of any mood in ``clause``."""
    return (
        any(regex.search(clause) for regex in _COMPILED.values())
        or any(regex.search(clause) for regex in _CLAUSE_COMPILED.values())
        or _NAMED_DAYS.search(clause) is not None
    )


def _no_plain_clause(cleared: str) -> bool:
    """Every clause of ``cleared`` has a mood or only says who spoke: none is a plain statement."""
    return all(_has_mood(clause) or _REPORTING.fullmatch(clause) is not None for clause in _clauses(cleared))


def mood_of(text: str) -> str | None:
    """The mood of ``text`` when it is not a plain statement (one of :data:`MOODS`), else None. A
    cue of :data:`_CLAUSE_RE` counts only when no clause of ``text`` is a plain statement."""
    cleared = _cleared(text)
    for mood, regex in _COMPILED.items():
        if regex.search(cleared):
            return mood
        clause_cue = _CLAUSE_COMPILED.get(mood)
        if clause_cue is not None and clause_cue.search(cleared) and _no_plain_clause(cleared):
            return mood
    if _NAMED_DAYS.search(cleared):
        return "nostalgia"
    return None


def plain_opening(text: str) -> str | None:
    """The clause ``text`` opens with when it carries no mood and the sentence no mood of a whole
    sentence (considered, turned down): the statement before a mood told after it ("Rosalba is with
    X" of "Rosalba is with X and says I should switch too"); else None."""
    cleared = _cleared(text)
    if any(_COMPILED[mood].search(cleared) for mood in _SENTENCE_MOODS):
        return None
    first = _clauses(cleared)[0]
    return None if _has_mood(first) else text[: len(first)]


def mood_near(text: str, at: int) -> str | None:
    """The mood of the statement at position ``at`` of ``text``: the moods of a whole sentence
    (considered, turned down) anywhere in it, the others in the clause holding ``at`` ("The new
    address is in Leeds, I'll send it tonight" states a home)."""
    cleared = _cleared(text)
    for mood in _SENTENCE_MOODS:
        if _COMPILED[mood].search(cleared):
            return mood
    start, end = 0, len(cleared)
    for m in _CLAUSE_END.finditer(cleared):
        if m.end() <= at:
            kept = _SUBORDINATE.match(cleared, m.end()) or _REASON.match(cleared, m.end())
            start = start if kept else m.end()
        elif m.start() >= at:
            end = m.start()
            break
    return mood_of(cleared[start:end]) if start > 0 or end < len(cleared) else mood_of(cleared)


def is_leave(text: str) -> bool:
    """``text`` ends a state without naming its successor ("stopped going to X", "sold the X")."""
    if _LEAVE.search(text) is not None:
        return True
    for part in _SENTENCE_PART.finditer(text):
        verbs = list(_LEAVING.finditer(text, part.start(), part.end()))
        if verbs and _SUCCESSOR.search(text, verbs[-1].end(), part.end()) is None:
            return True
    return False


def leaves(text: str, at: int) -> bool:
    """``text`` ends the state whose value stands at position ``at`` without naming its successor
    (:func:`is_leave`), by a verb of leaving in the clause of the value (``clauses.clause_spans``:
    "left A after they shut it, and I'm banking with B" leaves no B) that the value does not follow
    as what came instead ("moved out of the city to B", "quit A and joined B", "left A for B"). When
    every such verb is one of disposal, the value is that verb's object: "I binned my old X" ends
    X, "I dumped my photos onto X" or "the storm dumped snow over X" do not (the value must follow
    the nearest such verb before it, past at most a few determiners and modifiers, see
    :data:`_OBJECT_LEAD`, or stand before the verb whose object is "it", in its clause or a later
    one of the sentence: "X kept crashing, so I binned it")."""
    if not is_leave(text):
        return False
    if _LEAVE.search(text) is not None:
        return True
    for part in _SENTENCE_PART.finditer(text):
        if part.start() <= at < part.end():
            return _leaves_in(text, part.start(), part.end(), at)
    return True


def _leaves_in(text: str, start: int, end: int, at: int) -> bool:
    """:func:`leaves` for the sentence part ``text[start:end]`` that holds ``at``."""
    opens, closes = next(
        ((start + a, start + b) for a, b in clause_spans(text[start:end]) if start + a <= at < start + b),
        (start, end),
    )
    verbs = list(_LEAVING.finditer(text, opens, closes))
    before = [v for v in verbs if v.start() < at]  # (one may span the value: "the lease on X ended")
    if before and _INSTEAD.search(text, before[-1].end(), at) is not None:
        before = []  # the value is what came after the leaving
    after = [v for v in verbs if v.start() >= at]
    later = next(
        (v for v in _LEAVING.finditer(text, closes, end) if _DISPOSAL.fullmatch(v.group())),
        None,
    )  # "X kept crashing, so I binned it": a disposal of "it" in a later clause
    if not (before or after):
        return later is not None and _PRONOUN_OBJECT.match(text, later.end()) is not None
    if not all(_DISPOSAL.fullmatch(v.group()) for v in (*before, *after)):
        return True
    if before and _OBJECT_LEAD.fullmatch(text, before[-1].end(), at) is not None:
        return True
    first = after[0] if after else later
    return first is not None and _PRONOUN_OBJECT.match(text, first.end()) is not None
