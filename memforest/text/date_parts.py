"""Calendar arithmetic and phrasing shared by the date-expression handlers (see ``dates``)."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache

from dateutil.relativedelta import relativedelta

from memforest.text.lexicon import MONTH_NAMES
from memforest.text.sentences import sentence_bounds

MONTH_LOOKUP: dict[str, int] = {}
for _i, _name in enumerate(MONTH_NAMES, start=1):
    MONTH_LOOKUP[_name.lower()] = _i
    MONTH_LOOKUP[_name[:3].lower()] = _i
MONTH_LOOKUP["sept"] = 9

SEASON_START: dict[str, int] = {"spring": 3, "summer": 6, "fall": 9, "autumn": 9, "winter": 12}

NUMBER_WORDS: dict[str, int] = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "twenty": 20,
    "thirty": 30,
}
APPROX_NUMBERS: dict[str, int] = {"a few": 3, "few": 3, "several": 3, "a couple of": 2, "a couple": 2}

FUTURE_RE = re.compile(
    r"\b(?:will|won't|shall|gonna|going\s+to|plan(?:s|ning)?\s+to|planning|intend(?:s|ing)?|"
    r"hop(?:e|ing)\s+to|want(?:s)?\s+to|wanna|looking\s+forward|can't\s+wait|cannot\s+wait|about\s+to|"
    r"upcoming|tomorrow|next)\b|['’]ll\b",
    re.IGNORECASE,
)
# first words of the two-word future markers, the only markers that can span a removed mention
_PAIR_FIRST = frozenset(
    ["going", "plan", "plans", "planning", "hope", "hoping", "want", "wants", "looking", "can't", "cannot", "about"]
)
JUNCTION_REACH = 24  # characters either side of a mention searched for a marker spanning it
_SPACE_RE = re.compile(r"\s")
PAST_RE = re.compile(
    r"\b(?:was|were|went|did|had|ago|yesterday|last|got|saw|made|took|came|met|bought|felt|told|"
    r"said|found|left|spent|\w{3,}ed)\b",
    re.IGNORECASE,
)


# ------------------------------------------------------------------ formatting helpers


def format_day(dt: datetime) -> str:
    """Render a date as "7 May 2023"."""
    return f"{dt.day} {MONTH_NAMES[dt.month - 1]} {dt.year}"


def format_month(dt: datetime) -> str:
    return f"{MONTH_NAMES[dt.month - 1]} {dt.year}"


def format_season(name: str, start: datetime) -> str:
    if name == "winter":
        return f"the winter of {start.year}/{str(start.year + 1)[-2:]}"
    return f"{name} {start.year}"


# ------------------------------------------------------------------ calendar helpers


def midnight(ref: datetime) -> datetime:
    return ref.replace(hour=0, minute=0, second=0, microsecond=0)


def make_date(ref: datetime, year: int, month: int, day: int) -> datetime | None:
    try:
        return datetime(year, month, day, tzinfo=ref.tzinfo)
    except ValueError:
        return None


def week_start(day: datetime) -> datetime:
    return midnight(day) - timedelta(days=day.weekday())


def month_start(day: datetime) -> datetime:
    return midnight(day).replace(day=1)


def year_start(day: datetime) -> datetime:
    return midnight(day).replace(month=1, day=1)


def _sentence_around(text: str, start: int, end: int) -> tuple[int, int]:
    """``(left, right)``: from the start of the sentence holding ``start`` to the end of the one
    holding ``end`` (the text's ends when none), found by bisection over the cached sentence bounds."""
    starts, ends = sentence_bounds(text)
    k = bisect_left(ends, end)  # the first sentence ending at or after ``end``
    right = ends[k] if k < len(ends) else len(text)
    i = min(bisect_right(starts, start) - 1, k, len(starts) - 1)
    left = starts[i] if i >= 0 else 0
    return left, right


# "going to" after a verb of beginning, going on or stopping is a habit's gerund, no intent and no
# future ("started going to X", "has been going to X", "I keep going to X", "stopped going to X");
# "I'm going to X in June" stays a future (the fact kinds read the same expression, text.kinds)
HABIT_GOING = re.compile(
    r"\b(?:start(?:s|ed|ing)?|beg[au]n|begins?|keep(?:s|ing)?|kept|been|stop(?:s|ped|ping)?|quit(?:s|ting)?|"
    r"resum(?:e|es|ed|ing)|carr(?:y|ies|ied|ying)\s+on)\s+going\s+to\b",
    re.IGNORECASE,
)
_HABIT_REACH = 24  # characters read back from a "going to" for the verb that governs it


def _is_habit(text: str, m: re.Match[str]) -> bool:
    """Whether the future marker ``m`` is the "going to" of :data:`HABIT_GOING`."""
    return any(h.end() == m.end() for h in HABIT_GOING.finditer(text, max(0, m.start() - _HABIT_REACH), m.end()))


@lru_cache(maxsize=16)
def _tense_marks(text: str) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], tuple[tuple[int, ...], tuple[int, ...]]]:
    """The (starts, ends) of the future and of the past markers of ``text``, one pass each."""
    future = [m.span() for m in FUTURE_RE.finditer(text) if not _is_habit(text, m)]
    past = [m.span() for m in PAST_RE.finditer(text)]
    return (
        (tuple(a for a, _ in future), tuple(b for _, b in future)),
        (tuple(a for a, _ in past), tuple(b for _, b in past)),
    )


def _marked(marks: tuple[tuple[int, ...], tuple[int, ...]], lo: int, hi: int) -> bool:
    """Whether a marker lies wholly inside ``[lo, hi)`` (markers are sorted and disjoint)."""
    starts, ends = marks
    k = bisect_left(starts, lo)
    return k < len(starts) and ends[k] <= hi


def _junction(text: str, left: int, start: int, end: int, right: int) -> str:
    """The words just before ``start`` and just after ``end`` (within the sentence), joined by a
    space: where a marker could span the removed mention ("going [May 1] to")."""
    lo, hi = left, right
    if start - left > JUNCTION_REACH:
        cut = _SPACE_RE.search(text, start - JUNCTION_REACH, start)
        lo = cut.start() if cut is not None else start
    if right - end > JUNCTION_REACH:
        hi = end + JUNCTION_REACH
        while hi > end and not text[hi].isspace():
            hi -= 1
    return text[lo:start] + " " + text[end:hi]


# where one clause of a sentence ends and another begins: a comma, semicolon, colon or dash, or a
# conjunction ("I started on Monday and want to ask ...": the Monday is the starting's)
_CLAUSE_CUT = re.compile(
    r"[,;:](?=\s)|(?<=\s)[-\u2013\u2014](?=\s)|"
    r"(?<=\s)(?i:and|but|so|because|which|although|though|while|whereas)(?=\s)"
)


@lru_cache(maxsize=16)
def _clause_cuts(text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The (starts, ends) of the clause cuts of ``text``, one pass."""
    cuts = [m.span() for m in _CLAUSE_CUT.finditer(text)]
    return tuple(a for a, _ in cuts), tuple(b for _, b in cuts)


def _clause_around(text: str, left: int, start: int, end: int, right: int) -> tuple[int, int]:
    """The clause of ``text[left:right]`` that holds ``text[start:end]``: from the end of the last
    cut before it to the start of the first cut after it."""
    starts, ends = _clause_cuts(text)
    k = bisect_right(ends, start) - 1
    lo = max(left, ends[k]) if k >= 0 else left
    j = bisect_left(starts, end)
    hi = min(right, starts[j]) if j < len(starts) else right
    return lo, hi


def tense_near(text: str, start: int, end: int) -> str | None:
    """'future', 'past' or None, judged from the clause around ``text[start:end]`` (the mention
    itself left out), else, when its clause has no tense marker, from its sentence: a future marker
    wins over a past one ("I started at X on Monday and want to ask ..." is a past Monday; "I'll
    move on Friday, I've decided" a coming one).

    The markers of the whole text are found once (cached) and looked up by bisection, so resolving
    every mention of a long text stays linear; only a marker spanning the mention is searched for
    in the :data:`JUNCTION_REACH` characters around it.
    """
    left, right = _sentence_around(text, start, end)
    return _tense_within(text, *_clause_around(text, left, start, end, right), start, end) or _tense_within(
        text, left, right, start, end
    )


def _tense_within(text: str, left: int, right: int, start: int, end: int) -> str | None:
    """:func:`tense_near` over ``text[left:right]``."""
    future, past = _tense_marks(text)
    if _marked(future, left, start) or _marked(future, end, right):
        return "future"
    before = text[max(left, start - JUNCTION_REACH) : start].split()
    if before and before[-1].lower() in _PAIR_FIRST and FUTURE_RE.search(_junction(text, left, start, end, right)):
        return "future"
    if _marked(past, left, start) or _marked(past, end, right):
        return "past"  # past markers are single words: none can span the mention
    return None


def parse_number(raw: str) -> tuple[int, bool]:
    key = re.sub(r"\s+", " ", raw.lower())
    if key in APPROX_NUMBERS:
        return APPROX_NUMBERS[key], True
    if key == "couple of":
        return 2, True
    if key.isdigit():
        return int(key), False
    return NUMBER_WORDS.get(key, 1), False


@dataclass(frozen=True, slots=True)
class Resolved:
    start: datetime
    end: datetime | None
    granularity: str
    absolute_text: str
    relative: bool = True
    approximate: bool = False
    span_start: int | None = None  # override the match span start (to leave a preposition out)


def period(start: datetime, unit: str, approx: bool = False) -> Resolved:
    """A whole day/week/month/year period starting at ``start`` with its readable phrase."""
    pre = "around " if approx else ""
    if unit == "day":
        return Resolved(start, None, "day", (pre or "on ") + format_day(start), approximate=approx)
    if unit == "week":
        text = f"{pre or 'in '}the week of {format_day(start)}"
        return Resolved(start, start + timedelta(days=7), "week", text, approximate=approx)
    if unit == "month":
        return Resolved(
            start,
            start + relativedelta(months=1),
            "month",
            (pre or "in ") + format_month(start),
            approximate=approx,
        )
    return Resolved(start, start + relativedelta(years=1), "year", f"{pre or 'in '}{start.year}", approximate=approx)


def unit_containing(day: datetime, unit: str) -> datetime:
    if unit == "week":
        return week_start(day)
    if unit == "month":
        return month_start(day)
    if unit == "year":
        return year_start(day)
    return midnight(day)


def season_instance(ref: datetime, name: str, year: int) -> datetime:
    return datetime(year, SEASON_START[name], 1, tzinfo=ref.tzinfo)


def current_season_start(ref: datetime) -> datetime:
    month = ref.month
    if month == 12:
        return datetime(ref.year, 12, 1, tzinfo=ref.tzinfo)
    if month <= 2:
        return datetime(ref.year - 1, 12, 1, tzinfo=ref.tzinfo)
    return datetime(ref.year, ((month - 3) // 3) * 3 + 3, 1, tzinfo=ref.tzinfo)


def season_period(ref: datetime, name: str, which: str) -> Resolved:
    """Resolve a season against ``ref``; ``which``: last, next, this, current-or-next, current-or-last."""
    name = "fall" if name == "autumn" else name
    current = current_season_start(ref)
    instances = [season_instance(ref, name, y) for y in range(ref.year - 2, ref.year + 2)]
    if which == "this":
        chosen = current if current.month == SEASON_START[name] else season_instance(ref, name, ref.year)
    elif which in ("last", "current-or-last"):
        bound = current + timedelta(days=1) if which == "current-or-last" else current
        chosen = max(s for s in instances if s < bound)
    else:
        bound = current - timedelta(days=1) if which == "current-or-next" else current
        chosen = min(s for s in instances if s > bound)
    return Resolved(chosen, chosen + relativedelta(months=3), "season", "in " + format_season(name, chosen))


def year_for(ref: datetime, month: int, day: int, tense: str | None) -> int:
    """Year for a month/day given without one, moved to the side of ``ref`` the tense implies."""
    year = ref.year
    key, ref_key = (month, day), (ref.month, ref.day)
    if tense == "past" and key > ref_key:
        return year - 1
    if tense == "future" and key < ref_key:
        return year + 1
    return year
