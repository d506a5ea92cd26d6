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

__all__ = ["MOODS", "is_leave", "mood_near", "mood_of"]

MOODS = ("plan", "wish", "hypothetical", "considered", "turned_down", "suggestion", "negation", "nostalgia")

_RE = {
    "nostalgia": r"\bmiss(?:es|ed|ing)?\b|\bused\s+to\b|\bback\s+(?:when|in\s+the\s+day)\b|\bremember\s+when\b|"
    r"\bthose\s+(?:were\s+)?(?:the\s+)?(?:good\s+)?(?:days|times|years)\b|\bold\s+(?:photo|picture|days|times)\b|"
    r"\bnostalgi\w*|\bgood\s+old\b|\bformer\b|\bex-\w+|\bback\s+then\b|\bin\s+those\s+days\b|\breminisc\w*|"
    r"\blong(?:s|ed|ing)?\s+for\b|\b(?:good|fond|happy)\s+memories\b|\bfondly\b|\blook(?:s|ed|ing)?\s+back\s+on\b|"
    r"\bthink(?:s|ing)?\s+back\b|\bthought\s+back\b",
    "hypothetical": r"^if\b|[,;]\s*if\b|\bwere\s+no\s+object\b|\bwould\b|\bcould\b|\bin\s+another\s+life\b|"
    r"\bimagine\b|\bwhat\s+if\b|\bsuppos(?:e|ing)\b|\bin\s+case\b",
    "wish": r"\bwish(?:es|ed)?\b|\bwould\s+love\b|\bhop(?:e|es|ing)\s+to\b|\bone\s+day\b|\bsomeday\b|"
    r"\bdream(?:s|ing)?\s+(?:of|about)\b|\bwant(?:s|ed)?\s+to\b|\bwanna\b|\bif\s+only\b|\bwould\s+rather\b|"
    r"\btempted\b|\bfancy\b|\bdaydream\w*|\bhop(?:e|es|ed|ing)\s+for\b|\bfingers\s+crossed\b|\bideally\b|"
    r"\b(?:got|have|has|had)\s+(?:my|his|her|their|our|\w+'s)\s+eyes?\s+on\b",
    "plan": r"\b(?:am|is|are|was|were|not)\s+(?:\w+\s+)?going\s+to\b|\bgonna\b|"
    r"\bplan(?:s|ning|ned)?\s+(?:to|on)\b|\bplanning\b|\bmight\b|"
    r"\bwill\b|['’]ll\b|\bnext\s+(?:week|month|year|spring|summer|autumn|fall|winter)\b|\babout\s+to\b|"
    r"\bnothing\s+is\s+decided\b|\bthinking\s+(?:of|about)\b|\bconsidering\b|\bintend\w*\s+to\b|"
    r"\baim(?:s|ing)?\s+to\b|\bmeaning\s+to\b|\bsupposed\s+to\b|\bappl(?:y|ied|ying)\s+(?:to|for|at)\b|\binterview\w*\s+(?:at|with|for)\b|"
    r"\bwait(?:ing)?[\s-]*list\w*|\bon\s+the\s+list\s+for\b|\bplan\s+(?:is|was)\s+to\b|\bsaving\s+(?:up\s+)?for\b|"
    # the progressive of a verb of change is an arrangement, not yet a state ("is moving to X in
    # June", "is joining X"); "is living in X" is a state
    r"\b(?:am|is|are|was|were|['’]m|['’]re|['’]s)\s+(?:\w+ly\s+)?(?:moving|relocating|switching|joining|starting|transferring|"
    r"leaving|quitting|buying|adopting)\b",
    "considered": r"\blooked\s+(?:into|at)\b|\bthought\s+about\b|\bconsidered\b|\btoyed\s+with\b|"
    r"\blet\s+it\s+go\b|\bwasn't\s+(?:right|for)\b|\bdecided\s+against\b|"
    r"\btried\s+to\b|\bcame\s+close\s+to\b|\bshortlist\w*|\bon\s+the\s+fence\b|\bweigh(?:ed|ing)\s+up\b|"
    r"\bcheck(?:ed|ing)\s+out\b|\btoured\b|\btrial\s+(?:class|session|week|month)\b|\bleaning\s+towards?\b|"
    r"\bstay(?:ed|s)?\s+put\b|\b(?:almost|nearly)\s+(?:\w+ed|went|bought|took|got|made|left|sold|chose|became)\b",
    "turned_down": r"\bturn(?:ed|s)?\s+(?:it\s+|them\s+|\w+\s+)?down\b|\bsaid\s+no\b|\bdeclined\b|\bpassed\s+on\b|"
    r"\brejected\b",
    "suggestion": r"\b(?:keeps?|kept)\s+(?:telling|saying|suggesting|pushing)\b|\bsuggest\w*\b|\brecommend\w*\b|"
    r"\bshould\b|\btold\s+\w+(?:'s\s+\w+)?\s+to\b|\burg(?:es|ed|ing)\s+\w+\s+to\b|\bwhy\s+not\b|\badvis(?:ed|es|ing)\b|"
    r"\bnag(?:s|ged|ging)\b|\bpush(?:es|ed|ing)\s+\w+\s+to(?:wards)?\b|\bought\s+to\b|\bhad\s+better\b|"
    r"^\s*(?:how|what)\s+about\b",
    "negation": r"\bnot\b|\bnever\b|n't\b|\bno\s+way\b|\bnor\b",
}
_COMPILED = {mood: re.compile(pattern, re.IGNORECASE) for mood, pattern in _RE.items()}
# "from my Riverside days": a named past (case matters: the name is capitalised)
_NAMED_DAYS = re.compile(
    r"\b(?!(?:These|Those|Some|Many|Few|All|Most|Other|Good|Old|Early|Recent|Two|Three|Several|Busy)\b)"
    r"[A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,4}\s+days\b|\b(?i:the|my|our|his|her|their)\s+[A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,4}\s+years\b"
)
# set phrases with a negation or modal word that deny or hedge nothing ("can't believe", "couldn't
# be happier", "wouldn't trade it")
_SET_PHRASES = re.compile(
    r"\b(?:can't|cannot|couldn't)\s+(?:believe|wait|stop|complain|recommend|get\s+over|be\s+happier|imagine)\b|"
    r"\b(?:never|not)\s+(?:been\s+happier|looked\s+back|looking\s+back|bad|too\s+bad|a\s+bad)\b|"
    r"\bwouldn't\s+(?:trade|change|have\s+it)\b|\bif\s+(?:i'm|i\s+am|we're|\w+\s+is)\s+honest\b|\bnot\s+gonna\s+lie\b|"
    r"\bnot\s+only\b|\bno\s+longer\b|\bnot\s+enough\b|\bwould\s+not\s+stop\b|\bwouldn't\s+stop\b|"
    r"\btoo\s+good\s+to\s+(?:turn\s+down|pass\s+up|refuse|say\s+no\s+to)\b",
    re.IGNORECASE,
)
# a state that ends with no successor named: "left X", "stopped going to X", "no longer goes to X"
_LEAVE = re.compile(
    r"\b(?:stopped\s+(?:going\s+to|seeing|using|visiting)|cancell?ed\s+(?:with|on|my|\w+'s)?|no\s+longer\s+\w+|"
    r"(?:quit|quits|left|leaves|dropped\s+out\s+of|gave\s+up\s+on|parted\s+ways\s+with|sold|rehomed|"
    r"had\s+to\s+rehome|got\s+rid\s+of|moved\s+out\s+of)\b(?![^.;]*\b(?:and|then|to)\s+(?:join|switch|start|"
    r"mov|got|bought|took|adopt|went)))",
    re.IGNORECASE,
)


def mood_of(text: str) -> str | None:
    """The mood of ``text`` when it is not a plain statement (one of :data:`MOODS`), else None."""
    cleared = _SET_PHRASES.sub(lambda m: "_" * len(m.group(0)), text)
    for mood, regex in _COMPILED.items():
        if regex.search(cleared):
            return mood
    if _NAMED_DAYS.search(cleared):
        return "nostalgia"
    return None


# moods a sentence carries whichever clause names the state ("X had a place for me, but I said no")
_SENTENCE_MOODS = ("considered", "turned_down")
# a run of whitespace is tried from its first character only (linear on long runs of spaces)
_CLAUSE_END = re.compile(r"[,;:]\s+|(?<!\s)\s+(?:but|and\s+then|so)\s+|(?<!\s)\s+[-–—]\s+")


_SUBORDINATE = re.compile(r"(?i:when|whenever|where|while|whilst)\b")


def mood_near(text: str, at: int) -> str | None:
    """The mood of the statement at position ``at`` of ``text``: the moods of a whole sentence
    (considered, turned down) anywhere in it, the others in the clause holding ``at`` ("The new
    address is in Leeds, I'll send it tonight" states a home)."""
    cleared = _SET_PHRASES.sub(lambda m: "_" * len(m.group(0)), text)
    for mood in _SENTENCE_MOODS:
        if _COMPILED[mood].search(cleared):
            return mood
    start, end = 0, len(cleared)
    for m in _CLAUSE_END.finditer(cleared):
        if m.end() <= at:
            # a clause opened by "when" or "where" belongs to the clause before it ("those were
            # good days, when Ana played in X")
            start = start if _SUBORDINATE.match(cleared, m.end()) else m.end()
        elif m.start() >= at:
            end = m.start()
            break
    return mood_of(cleared[start:end]) if start > 0 or end < len(cleared) else mood_of(cleared)


def is_leave(text: str) -> bool:
    """``text`` ends a state without naming its successor ("stopped going to X", "sold the X")."""
    return _LEAVE.search(text) is not None
