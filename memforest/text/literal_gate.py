"""A necessary condition for a pattern to match, read from the pattern itself: the literal strings
one of which every match contains ("joined", "signed" or "switched" for a pattern of joining).

Python's ``re`` tries a pattern that begins with a word boundary, a lookaround or an optional
subject at every position of the text, even when the verb the pattern is about occurs nowhere in
it. :func:`may_match` answers, with a few substring tests, "could the pattern match anywhere in
this text?" from the pattern's :func:`literals`; when it answers no, no search of that pattern can
find anything, so the caller skips it. :class:`Gates` answers it for a whole family of patterns at
once, testing each distinct string once. It never answers no for a text the pattern matches: the
strings are read from the parsed pattern (a run of plain literals, a group, an alternation each
branch of which has its own strings, a repetition taken at least once), matched
case-insensitively where the pattern's flags say so, and only on an ASCII text (on any other text
every pattern may match: Unicode case folding maps some non-ASCII letters to ASCII ones). A
pattern whose every candidate string is shorter than :data:`MIN_LITERAL` characters has no gate
("at", "is" occur in nearly every sentence).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["MIN_LITERAL", "Gates", "Literals", "Probe", "gates", "literals", "may_match", "probe"]

MIN_LITERAL = 3
# the parser of the standard library's ``re`` (``re._parser``, ``re._constants`` from Python 3.11)
sre: Any = importlib.import_module("re._constants")
sre_parse: Any = importlib.import_module("re._parser")
_REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT)


@dataclass(frozen=True, slots=True)
class Literals:
    """Strings one of which every match of a pattern contains: ``exact`` as written (matched
    case-sensitively), ``folded`` lower-cased (matched case-insensitively)."""

    exact: tuple[str, ...]
    folded: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Probe:
    """A text made ready for :func:`may_match`: ``folded`` is its lower-cased form when it is
    ASCII, None otherwise (every pattern may match it)."""

    text: str
    folded: str | None


def probe(text: str) -> Probe:
    """``text`` made ready for :func:`may_match` (lower-cased once for all the patterns tried on it)."""
    return Probe(text, text.lower() if text.isascii() else None)


def may_match(needs: Literals | None, text: Probe) -> bool:
    """False only when a pattern whose :func:`literals` are ``needs`` cannot match anywhere in ``text``."""
    if needs is None or text.folded is None:
        return True
    folded = text.folded
    return any(s in folded for s in needs.folded) or any(s in text.text for s in needs.exact)


@dataclass(frozen=True, slots=True)
class Gates:
    """The gates of a family of patterns, tried on a text in one pass over the family's strings:
    bit ``i`` of :meth:`open` is :func:`may_match` of pattern ``i``'s literals. ``always`` has the
    bits of the patterns without a gate; ``folded`` and ``exact`` pair each distinct string with the
    bits of the patterns it opens."""

    size: int
    always: int
    folded: tuple[tuple[str, int], ...]
    exact: tuple[tuple[str, int], ...]

    def open(self, text: Probe) -> int:
        """The patterns that may match ``text``, as bits (every bit on a text that is not ASCII)."""
        if text.folded is None:
            return (1 << self.size) - 1
        folded, raw, mask = text.folded, text.text, self.always
        for string, bits in self.folded:
            if string in folded:
                mask |= bits
        for string, bits in self.exact:
            if string in raw:
                mask |= bits
        return mask


def gates(family: Sequence[Literals | None]) -> Gates:
    """The :class:`Gates` of patterns whose :func:`literals` are ``family``, in order."""
    always, folded, exact = 0, dict[str, int](), dict[str, int]()
    for i, needs in enumerate(family):
        if needs is None:
            always |= 1 << i
            continue
        for string in needs.folded:
            folded[string] = folded.get(string, 0) | 1 << i
        for string in needs.exact:
            exact[string] = exact.get(string, 0) | 1 << i
    return Gates(len(family), always, tuple(folded.items()), tuple(exact.items()))


def literals(pattern: re.Pattern[str]) -> Literals | None:
    """The strings one of which every match of ``pattern`` contains, or None when the pattern has
    none of at least :data:`MIN_LITERAL` characters (or cannot be read). Parsing a pattern takes
    milliseconds: callers read the literals of their patterns once and keep them beside them."""
    try:
        parsed = sre_parse.parse(pattern.pattern, pattern.flags)
    except (re.error, TypeError, ValueError):  # (a bytes pattern; the parser's own refusals)
        return None
    found = _sequence(list(parsed), bool(pattern.flags & re.IGNORECASE))
    if not found or min(len(s) for s, _ in found) < MIN_LITERAL:
        return None
    return Literals(
        exact=tuple(sorted(s for s, folded in found if not folded)),
        folded=tuple(sorted(s for s, folded in found if folded)),
    )


_Found = frozenset[tuple[str, bool]]  # (string, matched case-insensitively)


def _sequence(items: list[tuple[Any, Any]], icase: bool) -> _Found | None:
    """What a sequence of parsed items requires: the most selective of its items' requirements
    (every item of a sequence is part of every match), a run of ASCII literals counting as one."""
    options: list[_Found] = []
    run: list[str] = []

    def close_run() -> None:
        if run:
            text = "".join(run)
            options.append(frozenset({(text.lower() if icase else text, icase)}))
            run.clear()

    for op, av in items:
        if op is sre.LITERAL and av < 128:
            run.append(chr(av))
            continue
        close_run()
        found = _item(op, av, icase)
        if found:
            options.append(found)
    close_run()
    return max(options, key=_selectivity, default=None)


def _item(op: Any, av: Any, icase: bool) -> _Found | None:
    """What one parsed item other than a literal requires (None: nothing)."""
    if op is sre.BRANCH:
        branches = [_sequence(list(branch), icase) for branch in av[1]]
        if not branches or any(not b for b in branches):
            return None  # (a branch that requires nothing lets the alternation match without any)
        return frozenset().union(*branches)  # type: ignore[arg-type]
    if op is sre.SUBPATTERN:
        _group, add, remove, body = av
        inner = (icase or bool(add & re.IGNORECASE)) and not remove & re.IGNORECASE
        return _sequence(list(body), inner)
    if op in _REPEATS:
        low, _high, body = av
        return _sequence(list(body), icase) if low >= 1 else None
    if op is sre.ATOMIC_GROUP:
        return _sequence(list(av), icase)
    return None  # classes, any, assertions, backreferences: no literal of their own


def _selectivity(found: _Found) -> tuple[int, int]:
    """Longer shortest string first (a rarer string), then fewer strings."""
    return min(len(s) for s, _ in found), -len(found)
