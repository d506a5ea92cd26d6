"""Rule-based resolution of time expressions ("yesterday", "last week", "May 7th, 2023") to absolute times.

Everything here is regex driven and deterministic; no expression search over whole texts by an
external parser. Conventions (documented because English is ambiguous):

* weeks start on Monday; "last week" is the Monday-to-Monday week before the one holding ``ref``;
* "last Friday" is the most recent Friday strictly before ``ref``'s date, "next Friday" the first
  one strictly after it, "this Friday" the Friday of ``ref``'s week;
* "on Friday" looks backwards unless the sentence speaks of the future ("will", "going to", ...);
* a month or day without a year takes ``ref``'s year (the year of the utterance), moved back (past
  tense) or forward (future tense) a year when that is needed to put it on the right side of
  ``ref``; the date of the object of "for" keeps ``ref``'s year whatever the act's tense ("in
  August 2024: I signed up for the Chicago Marathon in October" is October 2024: signing up is
  past, the marathon is not);
* seasons are meteorological and northern: spring = Mar-May, summer = Jun-Aug, fall = Sep-Nov,
  winter = Dec-Feb (the winter of 2022 runs from December 2022 to February 2023);
* "N weeks/months/years ago" names the whole week/month/year it falls in; "a few", "several" and
  "a couple of" are read as 3, 3 and 2 and marked approximate.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from datetime import datetime

from memforest.text.date_handlers import GATE, PATTERNS, Handler
from memforest.text.date_parts import format_day
from memforest.text.lexicon import MONTH_NAMES, WEEKDAY_NAMES

__all__ = [
    "MONTH_NAMES",
    "WEEKDAY_NAMES",
    "TimeMention",
    "TimeScan",
    "format_day",
    "resolve_time_expressions",
    "rewrite_relative",
    "scan_time_expressions",
]

_PREP_BEFORE_RE = re.compile(
    r"\b(since|until|till|by|from|before|after|on|in|of|during|around|for|through|to|between|at)\s+$",
    re.IGNORECASE,
)
_PREP_MAX_LEN = 7  # "between", "through"


@dataclass(frozen=True, slots=True)
class TimeMention:
    """One time expression found in a text, resolved against a reference time.

    ``span_start``/``span_end`` index ``text`` in the original string; ``start`` is the first
    instant the expression names; ``end`` is the exclusive end when it names a period longer
    than a day (a week, month, year, season or weekend), else ``None``. ``relative`` is true
    when the expression needed ``ref`` to be resolved (so rewriting changes it); ``absolute_text``
    is a readable absolute phrasing ("on 7 May 2023", "in the week of 1 May 2023").
    """

    span_start: int
    span_end: int
    text: str
    start: datetime
    end: datetime | None
    granularity: str  # day | week | month | year | season
    relative: bool = True
    approximate: bool = False
    absolute_text: str = ""


# ------------------------------------------------------------------ public API


def resolve_time_expressions(text: str, ref: datetime) -> list[TimeMention]:
    """Find the time expressions in ``text`` and resolve them against the tz-aware ``ref``.

    Returns non-overlapping mentions in text order (longer matches win over shorter ones they
    overlap). Results are tz-aware in ``ref``'s timezone.
    """
    return scan_time_expressions(text).resolve(ref)


def scan_time_expressions(text: str) -> TimeScan:
    """The pattern matches of ``text``, found once and resolvable against any reference time
    (:meth:`TimeScan.resolve`): the scan is the costly part, a resolution only reads the matches."""
    if not text or not GATE.search(text):
        return TimeScan(text, ())
    return TimeScan(text, tuple((m, handler) for pattern, handler in PATTERNS for m in pattern.finditer(text)))


@dataclass(frozen=True, slots=True)
class TimeScan:
    """The matches of the time patterns in ``text``, each with its handler, in pattern order."""

    text: str
    matches: tuple[tuple[re.Match[str], Handler], ...]

    def resolve(self, ref: datetime) -> list[TimeMention]:
        """The mentions the matches name against the tz-aware ``ref``, as
        :func:`resolve_time_expressions` returns them."""
        if ref.tzinfo is None:
            raise ValueError("ref must be timezone-aware")
        text = self.text
        found: list[TimeMention] = []
        for m, handler in self.matches:
            try:
                res = handler(m, ref, text)
            except (ValueError, OverflowError, KeyError):
                res = None
            if res is None:
                continue
            s = res.span_start if res.span_start is not None else m.start()
            found.append(
                TimeMention(
                    span_start=s,
                    span_end=m.end(),
                    text=text[s : m.end()],
                    start=res.start,
                    end=res.end,
                    granularity=res.granularity,
                    relative=res.relative,
                    approximate=res.approximate,
                    absolute_text=res.absolute_text,
                )
            )
        found.sort(key=lambda t: (-(t.span_end - t.span_start), t.span_start))
        return _non_overlapping(found)


def _non_overlapping(found: list[TimeMention]) -> list[TimeMention]:
    """Keep each mention of ``found`` (in priority order) that overlaps none kept before it; return
    them in text order. The kept spans stay sorted and disjoint, so each test is a bisection."""
    starts: list[int] = []
    chosen: list[TimeMention] = []
    for mention in found:
        i = bisect_right(starts, mention.span_start)
        if i > 0 and chosen[i - 1].span_end > mention.span_start:
            continue  # overlaps the kept span starting at or before it
        if i < len(chosen) and chosen[i].span_start < mention.span_end:
            continue  # overlaps the kept span starting after it
        starts.insert(i, mention.span_start)
        chosen.insert(i, mention)
    return chosen


def _space_before(text: str, at: int) -> int:
    """Start of the run of whitespace that ends at ``at``."""
    while at > 0 and text[at - 1].isspace():
        at -= 1
    return at


def _after_preposition(text: str, at: int) -> bool:
    """Whether ``text[:at]`` ends with a preposition and whitespace ("since ", "in "); looks back
    only over that whitespace and the longest preposition, not the whole prefix."""
    word_end = _space_before(text, at)
    return word_end < at and _PREP_BEFORE_RE.search(text, max(0, word_end - _PREP_MAX_LEN), at) is not None


def _starts_sentence(text: str, at: int) -> bool:
    """Whether ``text[:at]`` is empty (or one line break) or ends with ``.``, ``!`` or ``?`` and whitespace."""
    word_end = _space_before(text, at)
    if word_end == 0:
        return at == 0 or (at == 1 and text[0] == "\n")
    return word_end < at and text[word_end - 1] in ".!?"


def rewrite_relative(text: str, ref: datetime) -> tuple[str, list[TimeMention]]:
    """Replace relative time expressions in ``text`` by readable absolute ones.

    "yesterday" -> "on 6 May 2023", "last week" -> "in the week of 1 May 2023", "two years ago"
    -> "in 2021", "last Friday" -> "on Friday 5 May 2023". Absolute dates with a year are left as
    written. Returns the new text and the mentions (spans refer to the original ``text``).
    """
    mentions = resolve_time_expressions(text, ref)
    out: list[str] = []
    pos = 0
    for mention in mentions:
        out.append(text[pos : mention.span_start])
        pos = mention.span_end
        if not mention.relative:
            out.append(mention.text)
            continue
        replacement = mention.absolute_text
        if _after_preposition(text, mention.span_start) and replacement.startswith(("on ", "in ")):
            replacement = replacement[3:]
        if mention.text[:1].isupper() and _starts_sentence(text, mention.span_start):
            replacement = replacement[:1].upper() + replacement[1:]
        out.append(replacement)
    out.append(text[pos:])
    return "".join(out), mentions
