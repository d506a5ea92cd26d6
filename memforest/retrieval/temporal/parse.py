"""Parse a question into the parts of a temporal question: operator, attribute, candidate subject
names and anchor (design 3.1, step 1). Pure functions; the subject is confirmed against the forest
by the caller."""

from __future__ import annotations

import re
from dataclasses import dataclass

from memforest.attributes import ATTRIBUTE_WORDS
from memforest.retrieval.timecues import WHEN_RE

OPERATORS = ("before", "after", "between", "when", "how_long", "first", "latest", "now", "as_of")

_ANCHOR_END = r"(?P<x>[^?.!,;]+)"
_BETWEEN_RE = re.compile(r"\bbetween\s+(?P<x>[^?.!,;]+?)\s+and\s+(?P<y>[^?.!,;]+)", re.IGNORECASE)
_BEFORE_RE = re.compile(r"\b(?:before|prior\s+to|until|till|up\s+to)\s+" + _ANCHOR_END, re.IGNORECASE)
_AFTER_RE = re.compile(
    r"\b(?:after|following|since|once\s+\w+\s+(?:left|moved\s+out\s+of|sold|quit|lost))\s+" + _ANCHOR_END,
    re.IGNORECASE,
)
_HOW_LONG_RE = re.compile(r"\bhow\s+long\b", re.IGNORECASE)
_FIRST_RE = re.compile(r"\b(?:first|originally|initially|original|earliest|at\s+first)\b", re.IGNORECASE)
_LATEST_RE = re.compile(r"\b(?:most\s+recent(?:ly)?|latest|newest|last)\b", re.IGNORECASE)
_NOW_RE = re.compile(
    r"\b(?:now|currently|current|these\s+days|at\s+the\s+moment|nowadays|still|at\s+present|today)\b", re.IGNORECASE
)
# what an anchor phrase starts with before the value itself ("before the move to Miami")
_ANCHOR_LEAD_RE = re.compile(
    r"^(?:(?:the|a|an|his|her|their|its)\s+)?(?:(?:move|moving|relocation|switch|change)\s+(?:to|into)\s+|"
    r"(?:moving|leaving|joining|getting|buying|adopting|selling)\s+)?(?:(?:the|a|an|his|her|their)\s+)?",
    re.IGNORECASE,
)
_NAME_RE = re.compile(r"\b([A-Z][\w-]*(?:\s+[A-Z][\w-]*)*)(?:'s)?")
_HEAD_RE = re.compile(r"^\s*(?:which|what)\s+(?P<head>[a-z]+)|'s\s+(?:\w+\s+)?(?P<head2>[a-z]+)\b", re.IGNORECASE)
_QUESTION_WORDS = frozenset({"which", "what", "where", "who", "when", "how", "did", "does", "is", "was", "the"})


@dataclass(frozen=True, slots=True)
class TemporalQuestion:
    """What a question asks about time. ``operator`` None: it names no time (answer as usual)."""

    operator: str | None
    attribute: str | None
    names: tuple[str, ...]  # capitalised names in the question, candidates for the subject
    anchor: str | None = None  # the value or event X of before / after / when ("Miami", "the wedding")
    anchor_to: str | None = None  # the second anchor of "between X and Y"


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z]+(?:\s+[a-z]+)?", text.lower())


def attribute_of(question: str) -> str | None:
    """The attribute the question asks about: the one its head noun ("which city", "Bob's pet")
    names, else the one most of its words name (ties: the earliest mention)."""
    lowered = question.lower()
    head = _HEAD_RE.search(question)
    heads = [h.lower() for h in (head.group("head"), head.group("head2")) if h] if head else []
    for h in heads:
        for attribute, words in ATTRIBUTE_WORDS.items():
            if h in words:
                return attribute
    best: tuple[int, int, str] | None = None
    for attribute, words in ATTRIBUTE_WORDS.items():
        hits = [m.start() for w in words for m in re.finditer(rf"\b{re.escape(w)}\b", lowered)]
        if hits:
            key = (-len(hits), min(hits), attribute)
            if best is None or key < best:
                best = key
    return best[2] if best else None


def clean_anchor(text: str) -> str:
    """The value or event of an anchor phrase ("the move to Miami" -> "Miami")."""
    text = " ".join(text.split()).strip(" '\"")
    return _ANCHOR_LEAD_RE.sub("", text, count=1).strip() or text


def _names(question: str) -> tuple[str, ...]:
    out: list[str] = []
    for m in _NAME_RE.finditer(question):
        name = m.group(1)
        words = name.split()
        while words and words[0].lower() in _QUESTION_WORDS:
            words.pop(0)
        if words:
            out.append(" ".join(words))
    return tuple(dict.fromkeys(out))


def parse_question(question: str, *, has_as_of: bool = False) -> TemporalQuestion:
    """Operator, attribute, names and anchor of ``question``; ``has_as_of``: the API's as_of is set
    (a question naming no other operator then asks for the state as of that time)."""
    attribute = attribute_of(question)
    names = _names(question)
    m = _BETWEEN_RE.search(question)
    if m is not None:
        return TemporalQuestion("between", attribute, names, clean_anchor(m["x"]), clean_anchor(m["y"]))
    if WHEN_RE.search(question):
        return TemporalQuestion("when", attribute, names, None)
    for op, rx in (("before", _BEFORE_RE), ("after", _AFTER_RE)):
        m = rx.search(question)
        if m is not None:
            return TemporalQuestion(op, attribute, names, clean_anchor(m["x"]))
    if _HOW_LONG_RE.search(question):
        return TemporalQuestion("how_long", attribute, names)
    if _FIRST_RE.search(question):
        return TemporalQuestion("first", attribute, names)
    if _LATEST_RE.search(question):
        return TemporalQuestion("latest", attribute, names)
    if _NOW_RE.search(question):
        return TemporalQuestion("now", attribute, names)
    if has_as_of:
        return TemporalQuestion("as_of", attribute, names)
    return TemporalQuestion(None, attribute, names)
