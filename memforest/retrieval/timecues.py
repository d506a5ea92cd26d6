"""Time cues in a question: explicit windows ("in May 2023", "before 2022"), event anchors
("before Miami", "after the race"), and what kind of time answer is wanted ("when ...")."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from memforest.text.dates import TimeMention, TimeScan, resolve_time_expressions, scan_time_expressions
from memforest.text.state_words import KIN
from memforest.text.terms import content_terms

_BEFORE_WORDS = ("before", "prior to", "until", "till", "by", "earlier than", "up to")
_AFTER_WORDS = ("after", "since", "following", "later than", "from")
CUE_PREFIX_CHARS = 2000
_WORD_REACH = 64  # a word longer than this may be cut at the prefix's end
_PHRASE_REACH = 2 + max(len(p) for p in (*_BEFORE_WORDS, *_AFTER_WORDS))
_ANCHOR_RE = re.compile(
    r"\b(?P<side>before|prior to|after|since(?!\s+when\b)|following|until)\s+(?P<event>[^?.!,;]+)", re.IGNORECASE
)
# a question asking for the time of something: "When did ...", "what year ...", "since when ...",
# "at what point ...", and "when did / was ..." inside a longer question ("Do you remember when ...")
WHEN_RE = re.compile(
    r"^\s*when\b|\bwhat (?:year|month|day|date|time|week|season)\b|\bwhich (?:year|month|day|week)\b|"
    r"\bhow long ago\b|\bsince when\b|\bat what (?:point|stage|time)\b|\bon what (?:date|day)\b|"
    r"\b(?:around|roughly|about|approximately|remember|recall|know|tell me|wondering|forget|forgotten)\s+when\b|"
    r"\bwhen (?:exactly |roughly )?(?:did|was|were|has|had)\b",
    re.IGNORECASE,
)
# a question-initial "when" that opens a subordinate clause ("When I lived in Oslo, which gym ...")
# rather than asking for a time ("When did I ...": an auxiliary follows the interrogative)
_SUBORDINATE_WHEN = re.compile(
    r"^\s*when\s+(?!(?:exactly|roughly|did|do|does|was|were|is|are|am|has|have|had|will|would|could|can|"
    r"should|might)\b)[^,?]{1,200},\s*",
    re.IGNORECASE,
)


def asks_when(question: str) -> bool:
    """The question asks for a time ("When did ...", "since when ..."), its main clause read past
    a leading "When <clause>," that only sets the time of the question."""
    lead = _SUBORDINATE_WHEN.match(question)
    return WHEN_RE.search(question[lead.end() :] if lead else question) is not None


# verbs whose "after" is no time ("looking after a dog", "named after her aunt")
_PHRASAL_AFTER_RE = re.compile(
    r"\b(?:(?:look|ask|hanker|lust)(?:s|ed|ing)?|(?P<take>tak(?:e|es|ing)|took)|named|sought)\s+after\b", re.IGNORECASE
)
# a question whose asked thing is the object of its verb ("what job did I take after X?"): "take"
# has an object of its own, so its "after" is a time, unless the thing is a person ("which parent")
_FRONTED_OBJECT = re.compile(
    rf"^\s*(?:what|which)\s+(?!(?:{KIN}|relatives?|one|side|family)\b)[a-z]+\s+(?:did|do|does|will|would)\b",
    re.IGNORECASE,
)


def _phrasal(match: re.Match[str], question: str) -> bool:
    """The matched "<verb> after" is a phrasal verb, not a verb and a time."""
    return match["take"] is None or _FRONTED_OBJECT.match(question) is None


# "following" as a verb of the progressive ("what diet am I following now", "is Karol following"),
# no time: after a form of "be" and at most a pronoun or a name ("was Ana's employer following X"
# and "was Ana in following her move" keep an "after")
_FOLLOWING_VERB_RE = re.compile(
    r"\b(?:am|is|are|was|were|been|be)\s+(?:(?:I|you|he|she|we|they|(?-i:[A-Z][\w-]*))\s+)?following\b(?!['\u2019])",
    re.IGNORECASE,
)


def without_phrasal_after(question: str) -> str:
    """``question`` with the "after" of phrasal verbs ("looking after") and the verb "following"
    of a progressive blanked out (same length)."""
    blanked = _PHRASAL_AFTER_RE.sub(
        lambda m: m.group(0)[:-5] + "_____" if _phrasal(m, question) else m.group(0), question
    )
    return _FOLLOWING_VERB_RE.sub(lambda m: m.group(0)[:-9] + "_________", blanked)


_LATEST_RE = re.compile(
    r"\b(?:now|currently|current|these days|latest|most recent(?:ly)?|recently|still|anymore|nowadays)\b",
    re.IGNORECASE,
)
_EARLIEST_RE = re.compile(r"\b(?:first|originally|initially|earliest|used to)\b", re.IGNORECASE)
_PRESENT_RE = re.compile(r"^\s*(?:where|what|who|which|how)\s+(?:does|do|is|are|has|have)\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class TimeCues:
    """What the question says about time. ``after`` is inclusive, ``before`` exclusive."""

    after: datetime | None = None
    before: datetime | None = None
    anchor_text: str | None = None  # an event to resolve by search ("Miami", "the race")
    anchor_side: str | None = None  # "before" | "after"
    asks_when: bool = False
    wants_latest: bool = False
    wants_earliest: bool = False
    present_tense: bool = False

    @property
    def has_window(self) -> bool:
        """A time window is known (from an explicit date or a resolved anchor)."""
        return self.after is not None or self.before is not None

    def with_window(self, after: datetime | None, before: datetime | None) -> TimeCues:
        """A copy whose window is narrowed by ``after``/``before`` (None keeps the side as is)."""
        a = self.after if after is None else (after if self.after is None else max(after, self.after))
        b = self.before if before is None else (before if self.before is None else min(before, self.before))
        return replace(self, after=a, before=b)

    def up_to_end(self) -> TimeCues:
        """The cues of a state asked at a time ("what was my bike in May 2023?"): a state holds from
        its statement until a change, so what was said before the window counts as much as what was
        said in it; the window keeps only its end, and the latest statement by then leads."""
        if self.before is None:
            return self
        return replace(self, after=None, wants_latest=True, wants_earliest=False)

    def describe(self) -> str | None:
        """A short human phrase for navigator prompts ("before 2024-07-01"), or None."""
        if self.after is not None and self.before is not None:
            return f"between {self.after.date().isoformat()} and {self.before.date().isoformat()}"
        if self.before is not None:
            return f"before {self.before.date().isoformat()}"
        if self.after is not None:
            return f"after {self.after.date().isoformat()}"
        return None


def _preceding_word(text: str, start: int) -> str:
    """The before/after phrase that ends ``text[:start]`` (whitespace aside), else ""; reads only
    the whitespace before ``start`` and the few characters before it."""
    end = start
    while end > 0 and text[end - 1].isspace():
        end -= 1
    head = text[max(0, end - _PHRASE_REACH) : end].lower()
    whole = end <= _PHRASE_REACH  # ``head`` is all of the text before the phrase
    for phrase in (*_BEFORE_WORDS, *_AFTER_WORDS):
        if head.endswith(" " + phrase) or (whole and head == phrase):
            return phrase
    return ""


def cue_prefix(question: str) -> str:
    """The part of ``question`` time cues are read from: its first :data:`CUE_PREFIX_CHARS`
    characters, cut back to a space so no word is split."""
    if len(question) <= CUE_PREFIX_CHARS:
        return question
    cut = CUE_PREFIX_CHARS
    while cut > CUE_PREFIX_CHARS - _WORD_REACH and not question[cut].isspace():
        cut -= 1
    return question[:cut]


def _mention_end(m: TimeMention) -> datetime:
    return m.end if m.end is not None else m.start + timedelta(days=1)


# a question mark ending a sentence (not one inside a web address): the words after the last one are
# context ("... these days? need to book a check-up before my mum nags me again"), not the question
_ASKED_END = re.compile(r"\?(?=\s|$)")


def asked_part(question: str) -> str:
    """The question itself, of its :func:`cue_prefix`: up to its last question mark that ends a
    sentence, the words after which ask nothing (their times and operators are no question's)."""
    prefix = cue_prefix(question)
    ends = [m.end() for m in _ASKED_END.finditer(prefix)]
    return prefix[: ends[-1]] if ends else prefix


_SPACE_BEFORE_PUNCT = re.compile(r"\s+([?.!,;:])")
# the words that led to a time cut out of a question ("as of", "back in", "at the end of")
_LEADING_TO_TIME = re.compile(
    r"(?:\s+(?i:as\s+of|back\s+in|at\s+the\s+(?:end|start|beginning)\s+of|around|in|on|at|during|by|since|and))+\s*$"
)


def without_times(question: str, ref: datetime) -> str:
    """``question`` with the time expressions of its asked part (:func:`asked_part`) cut out, and
    the words that led to them ("as of", "back in"): the words left say what it asks about, the
    time it names being the window, not words to match."""
    asked = without_phrasal_after(asked_part(question))
    out, at = [], 0
    for m in resolve_time_expressions(asked, ref):
        out.append(_LEADING_TO_TIME.sub("", question[at : m.span_start]))
        at = m.span_end
    return _SPACE_BEFORE_PUNCT.sub(r"\1", " ".join("".join([*out, question[at:]]).split())).lstrip(",;: ")


def names_a_day(question: str, ref: datetime) -> bool:
    """The asked part of ``question`` names a day ("on 3 May 2023", "yesterday"): a question about a
    day asks what happened on it more often than what held then."""
    asked = without_phrasal_after(asked_part(question))
    return any(m.granularity == "day" for m in resolve_time_expressions(asked, ref))


def parse_time_cues(question: str, ref: datetime) -> TimeCues:
    """Read the time cues of ``question``; relative expressions resolve against tz-aware ``ref``.

    Only the question itself is read (:func:`asked_part`), at most its first
    :data:`CUE_PREFIX_CHARS` characters (cut at a space), which bounds the work a long query costs
    on the event loop."""
    return read_time_cues(question).against(ref)


def read_time_cues(question: str) -> CueReading:
    """What the time cues of ``question`` are read from, found once: :meth:`CueReading.against`
    resolves them against each reference time (a query over several forests reads each forest's
    "now" from the same reading)."""
    asked = without_phrasal_after(asked_part(question))
    flags = TimeCues(
        asks_when=asks_when(asked),
        wants_latest=bool(_LATEST_RE.search(asked)),
        wants_earliest=bool(_EARLIEST_RE.search(asked)),
        present_tense=bool(_PRESENT_RE.search(asked)),
    )
    match = _ANCHOR_RE.search(asked)
    if match is not None and content_terms(match.group("event")):
        side = "before" if match.group("side").lower() in ("before", "prior to", "until") else "after"
        anchored = replace(flags, anchor_text=match.group("event").strip(), anchor_side=side)
    else:
        anchored = flags
    return CueReading(asked, scan_time_expressions(asked), flags, anchored)


@dataclass(frozen=True, slots=True)
class CueReading:
    """A question's time cues before any reference time: its asked part (``asked``), the time
    patterns found in it (``scan``), the cues that need no time (``flags``), and those with the
    "before/after <event>" anchor it names, read when it names no time (``anchored``)."""

    asked: str
    scan: TimeScan
    flags: TimeCues
    anchored: TimeCues

    def against(self, ref: datetime) -> TimeCues:
        """The cues with relative expressions resolved against tz-aware ``ref``."""
        mentions = self.scan.resolve(ref)
        if not mentions:
            return self.anchored
        cues, question = self.flags, self.asked
        for m in mentions:
            word = _preceding_word(question, m.span_start)
            if m.text.lower().startswith(("before ", "after ", "since ", "until ")):
                word = m.text.split()[0].lower()
            if word in _BEFORE_WORDS:
                cues = cues.with_window(None, m.start)
            elif word in _AFTER_WORDS:
                cues = cues.with_window(_mention_end(m) if word != "from" else m.start, None)
            else:
                cues = cues.with_window(m.start, _mention_end(m))
        return cues
