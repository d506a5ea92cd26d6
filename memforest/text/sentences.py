"""The one sentence splitter."""

from __future__ import annotations

import re

from memforest.text.lexicon import words

__all__ = ["EMOJI_CLASS", "split_sentences"]

# Emoji and pictographs (a run of them ends a sentence when a capital follows).
EMOJI_CLASS = "\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff\ufe0f\u200d\u2190-\u21ff\u2300-\u23ff"

_BOUNDARY_RE = re.compile(rf"(?P<p>[.!?…]+|[{EMOJI_CLASS}]+)(?P<q>[\"'”’)\]]*)(?=\s|$)")
_NEXT_CHAR_RE = re.compile(r"\s*(\S)")
# Abbreviations (lowercase, without the final period) after which a period never ends a sentence.
_ABBREVIATIONS: frozenset[str] = words(
    """
    mr mrs ms dr prof st jr sr vs etc e.g i.e eg ie a.m p.m am pm u.s u.k no mt ft approx inc ltd co
    dept est fig jan feb mar apr jun jul aug sep sept oct nov dec mon tue wed thu fri sat sun"""
)


def _word_before(text: str, start: int, end: int) -> str:
    """The run of non-space characters ending at ``end`` (not before ``start``), else ""."""
    i = end
    while i > start and not text[i - 1].isspace():
        i -= 1
    return text[i:end]


def split_sentences(text: str) -> list[str]:
    """Split ``text`` into sentences; abbreviations ("Dr.", "e.g."), decimals and "..." stay intact.

    A boundary is a run of ``.!?…`` or of emoji, optionally closed by quotes or brackets, followed
    by whitespace or the end. A period or ellipsis before a lowercase word does not split, nor does
    an emoji before anything but a capital or a digit, nor a period after an abbreviation, an
    initial or a dotted word ("U.S."). Linear in the length of ``text``.
    """
    text = text.strip()
    if not text:
        return []
    out: list[str] = []
    start = 0
    for m in _BOUNDARY_RE.finditer(text):
        punct = m["p"]
        end = m.end()
        following = _NEXT_CHAR_RE.match(text, end)
        if following is not None:
            nxt = following[1]
            if punct[0] in ".…" and nxt.islower():
                continue
            if punct[0] not in ".!?…" and not (nxt.isupper() or nxt.isdigit()):
                continue  # emoji mid-sentence
            if punct == ".":
                word = _word_before(text, start, m.start()).lower().lstrip("(\"'")
                if word in _ABBREVIATIONS or (len(word) == 1 and word.isalpha()) or "." in word:
                    continue
        sentence = text[start:end].strip()
        if sentence:
            out.append(sentence)
        start = end
    tail = text[start:].strip()
    if tail:
        out.append(tail)
    return out


# ---- TEMPORARY: the summariser's former splitter, kept for the pure-move step only
# Abbreviations that (almost) never end a sentence, lowercase, without the final period.
_NEVER_END: frozenset[str] = words(
    """
    mr mrs ms dr prof sr jr st mt ft rev gen col lt sgt capt gov sen rep hon
    vs e.g i.e cf al approx dept est fig no nos vol ch pp
    jan feb mar apr jun jul aug sep sept oct nov dec
    mon tue tues wed thu thur thurs fri sat
    inc ltd co corp ave blvd rd
    """
)
# Abbreviations that end a sentence only when an uppercase word follows.
_MAYBE_END: frozenset[str] = words("etc a.m p.m u.s u.k u.s.a ph.d b.a m.a b.sc m.sc")

_LEGACY_BOUNDARY_RE = re.compile(r"([.!?\u2026]+)([\"'\u201d\u2019)\]]*)(\s+)")
_LAST_WORD_RE = re.compile(r"([\w.]+)$")
_LINE_SPLIT_RE = re.compile(r"\s*\n\s*")


def _next_starts_upper(text: str, pos: int) -> bool:
    for ch in text[pos : pos + 4]:
        if ch.isalpha():
            return ch.isupper()
        if ch.isdigit():
            return True
        if ch not in "\"'\u201c\u2018([":
            return False
    return False


def _split_line(line: str) -> list[str]:
    out: list[str] = []
    start = 0
    for m in _LEGACY_BOUNDARY_RE.finditer(line):
        punct = m.group(1)
        end = m.end(2)
        nxt = m.end()
        split = True
        if punct == ".":
            w = _LAST_WORD_RE.search(line, start, m.start(1))
            word = w.group(1).lower() if w else ""
            if word in _NEVER_END:
                split = False
            elif word in _MAYBE_END or (len(word) == 1 and word.isalpha()) or "." in word:
                # initials ("J. Smith"), dotted abbreviations ("U.S."): only before a capital
                split = _next_starts_upper(line, nxt) and len(word) != 1
        elif punct in ("...", "\u2026") or (len(punct) > 1 and set(punct) <= {".", "\u2026"}):
            split = _next_starts_upper(line, nxt)
        if split:
            piece = line[start:end].strip()
            if piece:
                out.append(piece)
            start = nxt
    tail = line[start:].strip()
    if tail:
        out.append(tail)
    return out


def split_lines_legacy(text: str) -> list[str]:
    """Split ``text`` into sentences; line breaks are boundaries too.

    Handles common abbreviations ("Dr.", "e.g."), initials, decimals ("3.5") and ellipses
    (an ellipsis ends a sentence only before a capitalised word).
    """
    out: list[str] = []
    for line in _LINE_SPLIT_RE.split(text.strip()):
        if line:
            out.extend(_split_line(line))
    return out
