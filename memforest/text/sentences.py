"""The one sentence splitter (the extractor, the summariser and date tense all use it)."""

from __future__ import annotations

import re
from functools import lru_cache

from memforest.text.lexicon import words

__all__ = ["EMOJI_CLASS", "sentence_bounds", "sentence_spans", "split_sentences"]

# Emoji and pictographs (a run of them ends a sentence when a capital follows).
EMOJI_CLASS = "\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff\ufe0f\u200d\u2190-\u21ff\u2300-\u23ff"

_BOUNDARY_RE = re.compile(rf"(?P<p>[.!?…]+|[{EMOJI_CLASS}]+)(?P<q>[\"'”’)\]]*)(?=\s|$)")
# read at a boundary's end (after punctuation); entered at a whitespace run's first character only
_NEXT_CHAR_RE = re.compile(r"(?<!\s)\s*(\S)")
# Abbreviations (lowercase, without the final period) after which a period does not end a sentence.
_ABBREVIATIONS: frozenset[str] = words(
    """
    mr mrs ms dr prof st jr sr vs etc e.g i.e eg ie a.m p.m am pm u.s u.k no mt ft approx inc ltd co
    dept est fig jan feb mar apr jun jul aug sep sept oct nov dec mon tue wed thu fri sat sun ave rd blvd yr yrs
    min mins hr hrs tues thur thurs al govt misc ref dra sra srta mme mlle rev dott"""
)
# ... unless a capitalised word follows one of these.
_MAYBE_END: frozenset[str] = words("etc a.m p.m u.s u.k")
_NEVER_END: frozenset[str] = _ABBREVIATIONS - _MAYBE_END


def _word_before(text: str, start: int, end: int) -> str:
    """The run of non-space characters ending at ``end`` (not before ``start``), else ""."""
    i = end
    while i > start and not text[i - 1].isspace():
        i -= 1
    return text[i:end]


def _period_ends(word: str, nxt: str) -> bool:
    """Whether a period after ``word`` (lowercase) ends the sentence, ``nxt`` the next character."""
    if word in _MAYBE_END:
        return nxt.isupper()  # "in the U.S. It is big." but "at 5 p.m. and"
    # "Dr. Smith", "J. Smith", "J.K. Rowling"
    return not (word in _NEVER_END or "." in word or (len(word) == 1 and word.isalpha()))


def _ends(text: str) -> list[int]:
    """End offsets (exclusive, after closing quotes) of the sentences of ``text`` but the last."""
    out: list[int] = []
    start = 0
    for m in _BOUNDARY_RE.finditer(text):
        punct = m["p"]
        end = m.end()
        following = _NEXT_CHAR_RE.match(text, end)
        if following is not None:
            nxt = following[1]
            if punct[0] == "…" and nxt.islower():
                continue  # "I was like… whatever"
            if punct[0] not in ".!?…" and not (nxt.isupper() or nxt.isdigit()):
                continue  # emoji mid-sentence
            if punct == "." and not _period_ends(_word_before(text, start, m.start()).lower().lstrip("(\"'"), nxt):
                continue
            if punct.startswith("..") and nxt.islower():
                continue  # "so... anyway": a trailing-off, not an end
        out.append(end)
        start = end
    return out


@lru_cache(maxsize=1024)
def sentence_spans(text: str) -> tuple[tuple[int, int], ...]:
    """``(start, end)`` offsets into ``text`` of its sentences, surrounding whitespace excluded."""
    spans: list[tuple[int, int]] = []
    start = 0
    for end in [*_ends(text), len(text)]:
        s, e = start, end
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        if s < e:
            spans.append((s, e))
        start = end
    return tuple(spans)


@lru_cache(maxsize=64)
def sentence_bounds(text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The starts and the ends of :func:`sentence_spans` of ``text``, each ascending (for bisect)."""
    spans = sentence_spans(text)
    return tuple(s for s, _ in spans), tuple(e for _, e in spans)


def split_sentences(text: str) -> list[str]:
    """Split ``text`` into sentences; abbreviations ("Dr.", "e.g."), decimals and "..." stay intact.

    A boundary is a run of ``.!?…`` or of emoji, optionally closed by quotes or brackets, followed
    by whitespace or the end. A period splits before a lower-case word too (chat: "my GP is Dr. X
    now. she ..."), but an ellipsis or a run of periods before one does not ("so... anyway"), nor
    an emoji before anything but a capital or a digit, nor a period after an abbreviation or an
    initial or a dotted word ("Dr. Smith", "J.K. Rowling", "Harbour Ave. last month"); after
    "U.S.", "U.K.", "a.m.", "p.m." and "etc." a period splits only before a capital. Line breaks
    are whitespace. Linear in the length of ``text``.
    """
    return [text[s:e] for s, e in sentence_spans(text)]
