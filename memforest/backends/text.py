"""Small, fast text utilities shared by the built-in backends: tokens, stopwords, stems, sentences."""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = [
    "STOPWORDS",
    "content_terms",
    "split_sentences",
    "stem",
    "tokenize",
]

# Words: runs of letters/digits (any script), allowing inner apostrophes ("don't", "bob's").
# Numbers keep inner separators ("3.5", "10,000", "2023-05-07" splits on "-" on purpose).
_TOKEN_RE = re.compile(r"\d+(?:[.,]\d+)*|[^\W_]+(?:'[^\W_]+)*")
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "`": "'"})


def _words(text: str) -> frozenset[str]:
    """Whitespace-separated word list -> frozenset (keeps the long lists readable)."""
    return frozenset(text.split())


STOPWORDS: frozenset[str] = _words(
    """
    a about above after again against all almost also am among an and any are aren't around as at
    be because been before being below between both but by can can't cannot could couldn't did
    didn't do does doesn't doing don't done down during each either else ever every few for from
    further get gets got had hadn't has hasn't have haven't having he he'd he'll he's her here
    here's hers herself him himself his how how's however i i'd i'll i'm i've if in into is isn't
    it it'd it'll it's its itself just let let's like ll may maybe me might mine more most much
    must mustn't my myself neither no nor not now of off oh ok okay on once one only or other
    ought our ours ourselves out over own per quite rather re really s same shall shan't she she'd
    she'll she's should shouldn't since so some such t than that that's the their theirs them
    themselves then there there's these they they'd they'll they're they've this those though
    through thus to too toward towards um under until up upon us ve very via was wasn't we we'd
    we'll we're we've well were weren't what what's whatever when when's where where's whether
    which while who who's whoever whom whose why why's will with within without won't would
    wouldn't yeah yes yet you you'd you'll you're you've your yours yourself yourselves
    """
)

# Words ending in "s" that are not plurals (or whose plural reading would hurt matching).
_KEEP_S: frozenset[str] = _words(
    """
    always news series species physics mathematics economics politics athletics gymnastics
    ethics linguistics genetics diabetes measles mumps lens chaos thesis basis crisis
    analysis paris texas christmas perhaps whereas besides sometimes afterwards various
    previous serious famous nervous anxious obvious delicious gorgeous jealous curious
    """
)

# Nouns whose plural is "-ies" but whose singular ends in "-ie" (movie -> movies, not "movy").
_IE_NOUNS: frozenset[str] = _words(
    """
    movie cookie selfie rookie hoodie zombie brownie smoothie calorie genie freebie goalie
    sweetie auntie indie veggie foodie newbie birdie collie prairie lingerie rotisserie
    pixie hippie groupie bootie roomie techie yuppie budgie bookie junkie
    """
)

# "-ing" words that are nouns in their own right.
_KEEP_ING: frozenset[str] = _words(
    """
    morning evening wedding something nothing anything everything ceiling during pudding
    darling sibling stocking duckling dumpling
    """
)

_VOWELS = frozenset("aeiouy")


def tokenize(text: str) -> list[str]:
    """Lowercase word tokens (unicode letters and digits; inner apostrophes kept)."""
    return _TOKEN_RE.findall(text.translate(_APOSTROPHES).lower())


def _has_vowel(s: str) -> bool:
    return any(c in _VOWELS for c in s)


def _restore_e(stem_: str) -> str:
    """Undo the dropped silent "e" of short consonant-vowel-consonant stems (hik -> hike)."""
    if (
        len(stem_) == 3
        and stem_[0] not in _VOWELS
        and stem_[1] in "aeiou"
        and stem_[2] not in _VOWELS
        and stem_[2] not in "wx"
    ):
        return stem_ + "e"
    return stem_


def _undouble(stem_: str) -> str:
    """running -> runn -> run; but keep "ll", "ss", "zz" (falling -> fall)."""
    if len(stem_) >= 3 and stem_[-1] == stem_[-2] and stem_[-1] not in "lsz" and stem_[-1] not in _VOWELS:
        return stem_[:-1]
    return stem_


@lru_cache(maxsize=65536)
def stem(token: str) -> str:
    """Light, conservative English suffix stripping: possessives, plurals, -ing, -ed.

    Only alphabetic words longer than three characters are touched, so numbers, short words and
    most names survive unchanged. The goal is matching ("hikes", "hiking", "hiked" -> "hike"),
    not linguistics.
    """
    w = token
    if w.endswith("'s"):
        w = w[:-2]
    elif w.endswith("'"):
        w = w[:-1]
    if len(w) <= 3 or not w.isalpha() or w in _KEEP_S:
        return w
    # plurals
    if w.endswith("ies") and len(w) > 4:
        return w[:-1] if w[:-1] in _IE_NOUNS else w[:-3] + "y"
    if w.endswith("sses"):
        return w[:-2]
    if w.endswith(("xes", "ches", "shes", "zzes")):
        return w[:-2]
    if w.endswith("s") and not w.endswith(("ss", "us", "is")):
        return w[:-1]
    # progressive / past
    if w.endswith("ing") and w not in _KEEP_ING:
        base = w[:-3]
        if len(base) >= 3 and _has_vowel(base):
            undoubled = _undouble(base)
            return undoubled if undoubled != base else _restore_e(base)
        return w
    if w.endswith("ied") and len(w) > 4:
        return w[:-3] + "y"
    if w.endswith("ed") and not w.endswith("eed"):
        base = w[:-2]
        if len(base) >= 3 and _has_vowel(base):
            undoubled = _undouble(base)
            return undoubled if undoubled != base else _restore_e(base)
        return w
    return w


def content_terms(text: str) -> list[str]:
    """Tokens of ``text`` without stopwords, stemmed, in order (repeats kept)."""
    out: list[str] = []
    for tok in tokenize(text):
        if tok in STOPWORDS:
            continue
        s = stem(tok)
        if s and s not in STOPWORDS:
            out.append(s)
    return out


# ---------------------------------------------------------------- sentences

# Abbreviations that (almost) never end a sentence, lowercase, without the final period.
_NEVER_END: frozenset[str] = _words(
    """
    mr mrs ms dr prof sr jr st mt ft rev gen col lt sgt capt gov sen rep hon
    vs e.g i.e cf al approx dept est fig no nos vol ch pp
    jan feb mar apr jun jul aug sep sept oct nov dec
    mon tue tues wed thu thur thurs fri sat
    inc ltd co corp ave blvd rd
    """
)
# Abbreviations that end a sentence only when an uppercase word follows.
_MAYBE_END: frozenset[str] = _words("etc a.m p.m u.s u.k u.s.a ph.d b.a m.a b.sc m.sc")

_BOUNDARY_RE = re.compile(r"([.!?\u2026]+)([\"'\u201d\u2019)\]]*)(\s+)")
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
    for m in _BOUNDARY_RE.finditer(line):
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


def split_sentences(text: str) -> list[str]:
    """Split ``text`` into sentences; line breaks are boundaries too.

    Handles common abbreviations ("Dr.", "e.g."), initials, decimals ("3.5") and ellipses
    (an ellipsis ends a sentence only before a capitalised word).
    """
    out: list[str] = []
    for line in _LINE_SPLIT_RE.split(text.strip()):
        if line:
            out.extend(_split_line(line))
    return out
