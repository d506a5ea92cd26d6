"""Values indexed by what a text must hold to name them: the capitalised phrases of a text that may
name a value (``named_values``), an index of a subject's values for ``chains.link_generic``
(``Named``: whole-word mentions, "from A to B", a value left) and one for values that may be the
same as a name (``SharingWords``). Each value's pattern is compiled once per index."""

from __future__ import annotations

import re
from collections.abc import Sequence

from memforest.text.lexicon import CAPITALS, ENTITY_EXCLUDE, STOPWORDS

__all__ = ["Named", "SharingWords", "named_values"]

_NAMED = re.compile(
    rf"(?<![\w'])[{CAPITALS}][\w.&-]*(?:\s+(?:(?:of|and|on|the|&)\s+)?[{CAPITALS}][\w.&-]*){{0,4}}(?!['\w])"
)
# ordinary words that may open a capitalised phrase and are not part of the value it names
_OPENERS = ENTITY_EXCLUDE | STOPWORDS


def named_values(text: str, skip: Sequence[str]) -> list[str]:
    """The capitalised phrases of ``text`` that may name a value: ordinary words that open a
    phrase dropped ("After Rex" -> "Rex"), none of ``skip`` (the subject, the state's own value)."""
    out: list[str] = []
    skipped = {s.casefold() for s in skip}
    for m in _NAMED.finditer(text):
        words = m.group(0).rstrip(".").split()
        while words and words[0].lower() in _OPENERS:
            words.pop(0)
        phrase = " ".join(words)
        if phrase and phrase.casefold() not in skipped and not any(_mentions(phrase, s) for s in skip if s):
            out.append(phrase)
    return out


def _mentions(text: str, value: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(value)}(?!\w)", text, re.IGNORECASE) is not None


_RUN = re.compile(r"\w+")
# the characters other than ASCII that an ASCII letter matches ignoring case, each to that letter
# (dotted and dotless i, the long s, the Kelvin sign; tests/unit/test_temporal_link_index.py checks
# every character); all four are word characters, as their letters are
_ASCII_ALIKE = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"})
_FROM = re.compile(r"\bfrom\s", re.IGNORECASE)


class Named:
    """The values of one call to ``chains.link_generic`` indexed by what a text must hold to name them,
    and their patterns, each compiled once.

    Ignoring case, an ASCII character matches only ASCII characters and ``_ASCII_ALIKE``; so for
    an ASCII value, a whole-word match (``names_value``, and the value between "from" and "to" of
    ``switched_from``) makes every word (``\\w`` run) of the value, lower-cased, a whole word of the
    text, with ``_ASCII_ALIKE`` made their letters, lower-cased: a value is indexed by its longest
    word. A short form ("Ironbark" of "Ironbark Climbing Gym") shares the value's first word
    exactly: a value of several words is indexed by that too. Any other value is a candidate for
    every text, so the candidates are never fewer than the values the checks accept."""

    def __init__(self, values: Sequence[str | None]) -> None:
        self.by_word: dict[str, list[int]] = {}
        self.by_first: dict[str, list[int]] = {}
        self.always: list[int] = []
        self.patterns: dict[tuple[str, str], re.Pattern[str]] = {}
        self.phrases: dict[str, list[str]] = {}
        for j, value in enumerate(values):
            if not value:
                continue
            words = _RUN.findall(value.lower())
            if value.isascii() and words:
                self.by_word.setdefault(max(words, key=len), []).append(j)
            else:
                self.always.append(j)
            if len(value.split()) > 1:
                self.by_first.setdefault(value.split()[0], []).append(j)

    def candidates(self, i: int, text: str, *, generic: bool) -> list[int]:
        """The indexes before ``i``, newest first, of the values ``text`` may name (``generic``: as
        ``names_value`` does) or may say it switched from."""
        if not generic and _FROM.search(text) is None:
            return []
        found = set(self.always)
        for word in {w.lower() for w in _RUN.findall(text.translate(_ASCII_ALIKE))}:
            found.update(self.by_word.get(word, ()))
        if generic:
            for phrase in self.named(text):
                found.update(self.by_first.get(phrase.split()[0], ()))
        return sorted((j for j in found if j < i), reverse=True)

    def named(self, text: str) -> list[str]:
        """``named_values(text, ())``, worked out once per text."""
        if text not in self.phrases:
            self.phrases[text] = named_values(text, ())
        return self.phrases[text]

    def pattern(self, kind: str, value: str) -> re.Pattern[str]:
        key = (kind, value)
        if key not in self.patterns:
            shape = {"whole": _WHOLE, "switched": _SWITCHED, "left": _LEFT}[kind]
            self.patterns[key] = re.compile(shape.format(v=re.escape(value)), re.IGNORECASE)
        return self.patterns[key]

    def mentions(self, text: str, value: str) -> bool:
        """As ``_mentions``."""
        return self.pattern("whole", value).search(text) is not None

    def names_value(self, text: str, value: str) -> bool:
        """``text`` names ``value`` whole, or by a short form that keeps its first words ("quit
        Ironbark" names "Ironbark Climbing Gym")."""
        if self.mentions(text, value):
            return True
        words = value.split()
        return len(words) > 1 and any(
            p.split()[0] == words[0] and self.mentions(value, p)
            for p in self.named(text)
            if p.casefold() != value.casefold()
        )

    def switched_from(self, text: str, value: str) -> bool:
        """``text`` says it switched from ``value`` ("from A to B")."""
        return self.pattern("switched", value).search(text) is not None

    def left(self, text: str, value: str) -> bool:
        """``text`` says its subject left ``value`` or that ``value`` closed or retired."""
        return self.pattern("left", value).search(text) is not None


class SharingWords:
    """Values indexed by their words, to find those that may be the same as a name (``pick.same``:
    equal ignoring case, or one a whole-word part of the other). Between ASCII strings one's words,
    lower-cased, are then all words of the other: the name holds the value's longest word, or the
    value the name's longest word. A value that is not ASCII or has no word may be any name's, and
    every value may be a name's that is not ASCII or has no word."""

    def __init__(self, values: Sequence[str]) -> None:
        self.values = list(values)
        self.by_longest: dict[str, list[int]] = {}
        self.by_word: dict[str, list[int]] = {}
        self.always: list[int] = []
        for k, value in enumerate(self.values):
            words = {w.lower() for w in _RUN.findall(value)}
            if not value.isascii() or not words:
                self.always.append(k)
                continue
            self.by_longest.setdefault(max(sorted(words), key=len), []).append(k)
            for word in words:
                self.by_word.setdefault(word, []).append(k)

    def sharing(self, name: str) -> list[str]:
        """The values that may be the same as ``name``, in their order."""
        words = {w.lower() for w in _RUN.findall(name)}
        if not name.isascii() or not words:
            return self.values
        found = set(self.always)
        found.update(self.by_word.get(max(sorted(words), key=len), ()))
        for word in words:
            found.update(self.by_longest.get(word, ()))
        return [self.values[k] for k in sorted(found)]


_WHOLE = r"(?<!\w){v}(?!\w)"
_SWITCHED = r"\bfrom\s+(?:the\s+)?{v}\s+to\b"
# a value left by its holder, or gone: "quit A", "stepped away from A", "A closed down", "A retired"
_LEFT = (
    r"\b(?:left|quit|stepped\s+(?:away|down)\s+from|walked\s+away\s+from|moved\s+on\s+from|gave\s+up(?:\s+on)?|"
    r"dropped|ditched|dumped|cancell?ed|parted\s+ways\s+with)\s+(?:the\s+|(?:my|our|his|her|their)\s+)?{v}(?!\w)|"
    r"(?<!\w){v}\s+(?:has\s+|had\s+)?(?:closed|shut|retired|folded|went\s+bust|went\s+under)\b"
)
