"""Rule-based resolution of time expressions ("yesterday", "last week", "May 7th, 2023") to absolute times.

Everything here is regex driven and deterministic; no expression search over whole texts by an
external parser. Conventions (documented because English is ambiguous):

* weeks start on Monday; "last week" is the Monday-to-Monday week before the one holding ``ref``;
* "last Friday" is the most recent Friday strictly before ``ref``'s date, "next Friday" the first
  one strictly after it, "this Friday" the Friday of ``ref``'s week;
* "on Friday" looks backwards unless the sentence speaks of the future ("will", "going to", ...);
* a month or day without a year takes ``ref``'s year, moved back (past tense) or forward (future
  tense) a year when that is needed to put it on the right side of ``ref``;
* seasons are meteorological and northern: spring = Mar-May, summer = Jun-Aug, fall = Sep-Nov,
  winter = Dec-Feb (the winter of 2022 runs from December 2022 to February 2023);
* "N weeks/months/years ago" names the whole week/month/year it falls in; "a few", "several" and
  "a couple of" are read as 3, 3 and 2 and marked approximate.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from dateutil.relativedelta import relativedelta

__all__ = ["TimeMention", "format_day", "resolve_time_expressions", "rewrite_relative"]

MONTH_NAMES: tuple[str, ...] = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
WEEKDAY_NAMES: tuple[str, ...] = (
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
)

_MONTH_LOOKUP: dict[str, int] = {}
for _i, _name in enumerate(MONTH_NAMES, start=1):
    _MONTH_LOOKUP[_name.lower()] = _i
    _MONTH_LOOKUP[_name[:3].lower()] = _i
_MONTH_LOOKUP["sept"] = 9

_SEASON_START: dict[str, int] = {"spring": 3, "summer": 6, "fall": 9, "autumn": 9, "winter": 12}

_NUMBER_WORDS: dict[str, int] = {
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
_APPROX_NUMBERS: dict[str, int] = {"a few": 3, "few": 3, "several": 3, "a couple of": 2, "a couple": 2}

_FULL_MONTHS = "|".join(m.lower() for m in MONTH_NAMES)
_ANY_MONTH = rf"(?:{_FULL_MONTHS}|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)"
_WEEKDAYS = "|".join(w.lower() for w in WEEKDAY_NAMES)
_SEASONS = r"(?:spring|summer|fall|autumn|winter)"
_NUM = (
    r"(?P<num>\d{1,3}|a\s+few|a\s+couple(?:\s+of)?|couple\s+of|several|few|an?|"
    + "|".join(k for k in _NUMBER_WORDS if k not in ("a", "an"))
    + r")"
)
_ORD = r"(?:st|nd|rd|th)?"

_FUTURE_RE = re.compile(
    r"\b(?:will|won't|shall|gonna|going\s+to|plan(?:s|ning)?\s+to|planning|intend(?:s|ing)?|"
    r"hop(?:e|ing)\s+to|want(?:s)?\s+to|wanna|looking\s+forward|can't\s+wait|cannot\s+wait|about\s+to|"
    r"upcoming|tomorrow|next)\b|['’]ll\b",
    re.IGNORECASE,
)
_PAST_RE = re.compile(
    r"\b(?:was|were|went|did|had|ago|yesterday|last|got|saw|made|took|came|met|bought|felt|told|"
    r"said|found|left|spent|\w{3,}ed)\b",
    re.IGNORECASE,
)
_PREP_BEFORE_RE = re.compile(
    r"\b(since|until|till|by|from|before|after|on|in|of|during|around|for|through|to|between|at)\s+$",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"[.!?]+\s+(?=[A-Z])|\n")


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


# ------------------------------------------------------------------ formatting helpers


def format_day(dt: datetime) -> str:
    """Render a date as "7 May 2023"."""
    return f"{dt.day} {MONTH_NAMES[dt.month - 1]} {dt.year}"


def _format_month(dt: datetime) -> str:
    return f"{MONTH_NAMES[dt.month - 1]} {dt.year}"


def _format_season(name: str, start: datetime) -> str:
    if name == "winter":
        return f"the winter of {start.year}/{str(start.year + 1)[-2:]}"
    return f"{name} {start.year}"


# ------------------------------------------------------------------ calendar helpers


def _midnight(ref: datetime) -> datetime:
    return ref.replace(hour=0, minute=0, second=0, microsecond=0)


def _date(ref: datetime, year: int, month: int, day: int) -> datetime | None:
    try:
        return datetime(year, month, day, tzinfo=ref.tzinfo)
    except ValueError:
        return None


def _week_start(day: datetime) -> datetime:
    return _midnight(day) - timedelta(days=day.weekday())


def _month_start(day: datetime) -> datetime:
    return _midnight(day).replace(day=1)


def _year_start(day: datetime) -> datetime:
    return _midnight(day).replace(month=1, day=1)


def _tense(text: str, start: int, end: int) -> str | None:
    """'future', 'past' or None, judged from the sentence around ``text[start:end]``."""
    left, right = 0, len(text)
    for b in _SENTENCE_END.finditer(text):
        if b.end() <= start:
            left = b.end()
        elif b.start() >= end:
            right = b.start()
            break
    window = text[left:start] + " " + text[end:right]
    if _FUTURE_RE.search(window):
        return "future"
    if _PAST_RE.search(window):
        return "past"
    return None


def _parse_number(raw: str) -> tuple[int, bool]:
    key = re.sub(r"\s+", " ", raw.lower())
    if key in _APPROX_NUMBERS:
        return _APPROX_NUMBERS[key], True
    if key == "couple of":
        return 2, True
    if key.isdigit():
        return int(key), False
    return _NUMBER_WORDS.get(key, 1), False


@dataclass(frozen=True, slots=True)
class _Resolved:
    start: datetime
    end: datetime | None
    granularity: str
    absolute_text: str
    relative: bool = True
    approximate: bool = False
    span_start: int | None = None  # override the match span start (to leave a preposition out)


def _period(start: datetime, unit: str, approx: bool = False) -> _Resolved:
    """A whole day/week/month/year period starting at ``start`` with its readable phrase."""
    pre = "around " if approx else ""
    if unit == "day":
        return _Resolved(start, None, "day", (pre or "on ") + format_day(start), approximate=approx)
    if unit == "week":
        text = f"{pre or 'in '}the week of {format_day(start)}"
        return _Resolved(start, start + timedelta(days=7), "week", text, approximate=approx)
    if unit == "month":
        return _Resolved(
            start,
            start + relativedelta(months=1),
            "month",
            (pre or "in ") + _format_month(start),
            approximate=approx,
        )
    return _Resolved(start, start + relativedelta(years=1), "year", f"{pre or 'in '}{start.year}", approximate=approx)


def _unit_containing(day: datetime, unit: str) -> datetime:
    if unit == "week":
        return _week_start(day)
    if unit == "month":
        return _month_start(day)
    if unit == "year":
        return _year_start(day)
    return _midnight(day)


def _season_instance(ref: datetime, name: str, year: int) -> datetime:
    return datetime(year, _SEASON_START[name], 1, tzinfo=ref.tzinfo)


def _current_season_start(ref: datetime) -> datetime:
    month = ref.month
    if month == 12:
        return datetime(ref.year, 12, 1, tzinfo=ref.tzinfo)
    if month <= 2:
        return datetime(ref.year - 1, 12, 1, tzinfo=ref.tzinfo)
    return datetime(ref.year, ((month - 3) // 3) * 3 + 3, 1, tzinfo=ref.tzinfo)


def _season(ref: datetime, name: str, which: str) -> _Resolved:
    """Resolve a season against ``ref``; ``which``: last, next, this, current-or-next, current-or-last."""
    name = "fall" if name == "autumn" else name
    current = _current_season_start(ref)
    instances = [_season_instance(ref, name, y) for y in range(ref.year - 2, ref.year + 2)]
    if which == "this":
        chosen = current if current.month == _SEASON_START[name] else _season_instance(ref, name, ref.year)
    elif which in ("last", "current-or-last"):
        bound = current + timedelta(days=1) if which == "current-or-last" else current
        chosen = max(s for s in instances if s < bound)
    else:
        bound = current - timedelta(days=1) if which == "current-or-next" else current
        chosen = min(s for s in instances if s > bound)
    return _Resolved(chosen, chosen + relativedelta(months=3), "season", "in " + _format_season(name, chosen))


def _year_for(ref: datetime, month: int, day: int, tense: str | None) -> int:
    """Year for a month/day given without one, moved to the side of ``ref`` the tense implies."""
    year = ref.year
    key, ref_key = (month, day), (ref.month, ref.day)
    if tense == "past" and key > ref_key:
        return year - 1
    if tense == "future" and key < ref_key:
        return year + 1
    return year


# ------------------------------------------------------------------ pattern handlers

_Handler = Callable[[re.Match[str], datetime, str], "_Resolved | None"]


def _h_iso(m: re.Match[str], ref: datetime, text: str) -> _Resolved | None:
    day = _date(ref, int(m["y"]), int(m["m"]), int(m["d"]))
    if day is None:
        return None
    return _Resolved(day, None, "day", "on " + format_day(day), relative=False)


def _h_day_month(m: re.Match[str], ref: datetime, text: str) -> _Resolved | None:
    if not m["y"] and m["mon"] in ("may", "march", "mar"):
        return None  # "you may 2 ..." / "march 3 miles": lowercase verb, not a month
    month = _MONTH_LOOKUP[m["mon"].lower().rstrip(".")]
    dnum = int(m["d"])
    if m["y"]:
        year, relative = int(m["y"]), False
    else:
        year, relative = _year_for(ref, month, dnum, _tense(text, m.start(), m.end())), True
    day = _date(ref, year, month, dnum)
    if day is None:
        return None
    return _Resolved(day, None, "day", format_day(day), relative=relative)


def _h_month_year(m: re.Match[str], ref: datetime, text: str) -> _Resolved | None:
    start = datetime(int(m["y"]), _MONTH_LOOKUP[m["mon"].lower().rstrip(".")], 1, tzinfo=ref.tzinfo)
    res = _period(start, "month")
    return _Resolved(res.start, res.end, "month", res.absolute_text, relative=False)


def _prep_span(m: re.Match[str], inner: str) -> int | None:
    """Keep "in"/"during" inside the span, leave other prepositions ("since", "by") outside."""
    prep = (m["prep"] or "").lower()
    return None if prep in ("in", "during", "") else m.start(inner)


def _h_month_alone(m: re.Match[str], ref: datetime, text: str) -> _Resolved | None:
    month = _MONTH_LOOKUP[m["mon"].lower()]
    tense = _tense(text, m.start(), m.end())
    year = ref.year
    if tense == "past" and month > ref.month:
        year -= 1
    elif tense == "future" and month < ref.month:
        year += 1
    res = _period(datetime(year, month, 1, tzinfo=ref.tzinfo), "month")
    return _Resolved(res.start, res.end, "month", res.absolute_text, span_start=_prep_span(m, "inner"))


def _h_rel_month(m: re.Match[str], ref: datetime, text: str) -> _Resolved | None:
    month = _MONTH_LOOKUP[m["mon"].lower()]
    rel = re.sub(r"\s+", " ", m["rel"].lower())
    year = ref.year
    if rel in ("last", "this past") and month >= ref.month:
        year -= 1
    elif rel in ("next", "this coming") and month <= ref.month:
        year += 1
    return _period(datetime(year, month, 1, tzinfo=ref.tzinfo), "month")


def _h_year(m: re.Match[str], ref: datetime, text: str) -> _Resolved | None:
    res = _period(datetime(int(m["y"]), 1, 1, tzinfo=ref.tzinfo), "year")
    return _Resolved(res.start, res.end, "year", res.absolute_text, relative=False, span_start=_prep_span(m, "inner"))


_DAY_WORDS: dict[str, tuple[int, str]] = {
    "the day before yesterday": (-2, "on "),
    "the day after tomorrow": (2, "on "),
    "yesterday": (-1, "on "),
    "today": (0, "on "),
    "earlier today": (0, "earlier on "),
    "tonight": (0, "on the night of "),
    "tomorrow": (1, "on "),
    "this morning": (0, "on the morning of "),
    "this afternoon": (0, "on the afternoon of "),
    "this evening": (0, "on the evening of "),
    "last night": (-1, "on the night of "),
}


def _h_day_word(m: re.Match[str], ref: datetime, text: str) -> _Resolved | None:
    offset, prefix = _DAY_WORDS[re.sub(r"\s+", " ", m[0].lower())]
    day = _midnight(ref) + timedelta(days=offset)
    return _Resolved(day, None, "day", prefix + format_day(day))


def _h_weekday(m: re.Match[str], ref: datetime, text: str) -> _Resolved | None:
    target = WEEKDAY_NAMES.index(m["wd"].capitalize())
    rel = re.sub(r"\s+", " ", m["rel"].lower())
    today = _midnight(ref)
    if rel == "on":
        rel = "next" if _tense(text, m.start(), m.end()) == "future" else "last"
    if rel in ("last", "this past"):
        back = (today.weekday() - target) % 7 or 7
        day = today - timedelta(days=back)
    elif rel in ("next", "this coming", "coming"):
        ahead = (target - today.weekday()) % 7 or 7
        day = today + timedelta(days=ahead)
    else:  # this
        day = _week_start(today) + timedelta(days=target)
    return _Resolved(day, None, "day", f"on {WEEKDAY_NAMES[target]} {format_day(day)}")


def _h_ago(m: re.Match[str], ref: datetime, text: str) -> _Resolved | None:
    n, approx = _parse_number(m["num"])
    unit = m["unit"].lower()
    today = _midnight(ref)
    if unit == "day":
        moment = today - timedelta(days=n)
    elif unit == "week":
        moment = today - timedelta(weeks=n)
    elif unit == "month":
        moment = today - relativedelta(months=n)
    else:
        moment = today - relativedelta(years=n)
    return _period(_unit_containing(moment, unit), unit, approx)


def _h_in_n(m: re.Match[str], ref: datetime, text: str) -> _Resolved | None:
    n, approx = _parse_number(m["num"])
    unit = m["unit"].lower()
    today = _midnight(ref)
    delta = {
        "day": relativedelta(days=n),
        "week": relativedelta(weeks=n),
        "month": relativedelta(months=n),
        "year": relativedelta(years=n),
    }[unit]
    return _period(_unit_containing(today + delta, unit), unit, approx)


def _h_rel_unit(m: re.Match[str], ref: datetime, text: str) -> _Resolved | None:
    rel = re.sub(r"\s+", " ", m["rel"].lower())
    unit = m["unit"].lower()
    step = {"last": -1, "this past": -1, "past": -1, "previous": -1, "the previous": -1, "this": 0}.get(rel, 1)
    today = _midnight(ref)
    if unit == "weekend":
        saturday = _week_start(today) + timedelta(days=5 + 7 * step)
        return _Resolved(saturday, saturday + timedelta(days=2), "day", "on the weekend of " + format_day(saturday))
    start = _unit_containing(today, unit)
    if unit == "week":
        start += timedelta(weeks=step)
    elif unit == "month":
        start += relativedelta(months=step)
    else:
        start += relativedelta(years=step)
    return _period(start, unit)


def _h_rel_season(m: re.Match[str], ref: datetime, text: str) -> _Resolved | None:
    rel = re.sub(r"\s+", " ", m["rel"].lower())
    which = {"last": "last", "this past": "last", "next": "next", "this coming": "next"}.get(rel, "this")
    return _season(ref, m["s"].lower(), which)


def _h_season_year(m: re.Match[str], ref: datetime, text: str) -> _Resolved | None:
    name = m["s"].lower()
    name = "fall" if name == "autumn" else name
    start = _season_instance(ref, name, int(m["y"]))
    return _Resolved(
        start, start + relativedelta(months=3), "season", "in " + _format_season(name, start), relative=False
    )


def _h_in_season(m: re.Match[str], ref: datetime, text: str) -> _Resolved | None:
    tense = _tense(text, m.start(), m.end())
    which = {"future": "current-or-next", "past": "current-or-last"}.get(tense or "", "this")
    res = _season(ref, m["s"].lower(), which)
    return _Resolved(res.start, res.end, "season", res.absolute_text, span_start=_prep_span(m, "inner"))


_FLAGS = re.IGNORECASE
_PATTERNS: tuple[tuple[re.Pattern[str], _Handler], ...] = (
    (re.compile(r"\b(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})\b"), _h_iso),
    (
        re.compile(rf"\b(?P<mon>{_ANY_MONTH})\.?\s+(?P<d>\d{{1,2}}){_ORD}(?:,?\s+(?P<y>\d{{4}}))?(?![\d:])\b", _FLAGS),
        _h_day_month,
    ),
    (
        re.compile(
            rf"\b(?:the\s+)?(?P<d>\d{{1,2}}){_ORD}(?:\s+of)?\s+(?P<mon>{_ANY_MONTH})\b\.?(?:,?\s+(?P<y>\d{{4}})\b)?",
            _FLAGS,
        ),
        _h_day_month,
    ),
    (
        re.compile(
            rf"\b(?:(?:in|during)\s+)?(?:(?:early|mid|late)[\s-]+)?(?P<mon>{_ANY_MONTH})\.?,?\s+(?:of\s+)?(?P<y>\d{{4}})\b",
            _FLAGS,
        ),
        _h_month_year,
    ),
    (
        re.compile(
            r"\b(?P<prep>in|during|since|until|till|by|from|of|before|after|around)\s+"
            rf"(?P<inner>(?:the\s+)?(?:(?:early|mid|late)[\s-]+(?:of\s+)?)?(?P<mon>{_FULL_MONTHS}))\b(?!\.?\s*\d)",
            _FLAGS,
        ),
        _h_month_alone,
    ),
    (
        re.compile(rf"\b(?P<rel>last|this\s+past|this\s+coming|next)\s+(?P<mon>{_FULL_MONTHS})\b(?!\.?\s*\d)", _FLAGS),
        _h_rel_month,
    ),
    (
        re.compile(
            r"\b(?P<prep>in|during|since|until|till|by|from|of|before|after|around|back\s+in)\s+"
            r"(?P<inner>(?:the\s+year\s+)?(?P<y>(?:19|20)\d{2}))\b(?!\s*[-/:]\s*\d)",
            _FLAGS,
        ),
        _h_year,
    ),
    (
        re.compile(
            r"\b(?:the\s+day\s+before\s+yesterday|the\s+day\s+after\s+tomorrow|earlier\s+today|yesterday|"
            r"today|tonight|tomorrow|this\s+(?:morning|afternoon|evening)|last\s+night)\b",
            _FLAGS,
        ),
        _h_day_word,
    ),
    (
        re.compile(rf"\b(?P<rel>last|this\s+past|this\s+coming|coming|this|next|on)\s+(?P<wd>{_WEEKDAYS})\b", _FLAGS),
        _h_weekday,
    ),
    (re.compile(rf"(?<![\d.,])\b{_NUM}\s+(?P<unit>day|week|month|year)s?\s+(?:ago|back)\b", _FLAGS), _h_ago),
    (
        re.compile(rf"\b(?:in|within)\s+{_NUM}\s+(?P<unit>day|week|month|year)s?\b(?!\s+(?:ago|back))", _FLAGS),
        _h_in_n,
    ),
    (
        re.compile(
            r"\b(?P<rel>last|this\s+past|this\s+coming|this|next|the\s+previous|previous|the\s+following)\s+"
            r"(?P<unit>weekend|week|month|year)\b",
            _FLAGS,
        ),
        _h_rel_unit,
    ),
    (
        re.compile(rf"\b(?P<rel>last|this\s+past|this\s+coming|this|next)\s+(?P<s>{_SEASONS})\b", _FLAGS),
        _h_rel_season,
    ),
    (
        re.compile(
            rf"\b(?:(?:in|during)\s+)?(?:the\s+)?(?P<s>{_SEASONS})\s+(?:of\s+)?(?P<y>(?:19|20)\d{{2}})\b",
            _FLAGS,
        ),
        _h_season_year,
    ),
    (
        re.compile(
            rf"\b(?P<prep>in|during|since|until|by)\s+(?P<inner>(?:the\s+)?(?P<s>{_SEASONS}))\b(?!\s+(?:of\s+)?\d)",
            _FLAGS,
        ),
        _h_in_season,
    ),
)

# cheap gate: texts without any of these cannot contain a supported expression
_GATE = re.compile(
    rf"\d|yesterday|today|tonight|tomorrow|morning|afternoon|evening|night|ago|back|last|next|this|week|"
    rf"month|year|{_FULL_MONTHS}|{_ANY_MONTH}|{_WEEKDAYS}|{_SEASONS}",
    _FLAGS,
)


# ------------------------------------------------------------------ public API


def resolve_time_expressions(text: str, ref: datetime) -> list[TimeMention]:
    """Find the time expressions in ``text`` and resolve them against the tz-aware ``ref``.

    Returns non-overlapping mentions in text order (longer matches win over shorter ones they
    overlap). Results are tz-aware in ``ref``'s timezone.
    """
    if ref.tzinfo is None:
        raise ValueError("ref must be timezone-aware")
    if not text or not _GATE.search(text):
        return []
    found: list[TimeMention] = []
    for pattern, handler in _PATTERNS:
        for m in pattern.finditer(text):
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
    chosen: list[TimeMention] = []
    for mention in found:
        if all(mention.span_end <= c.span_start or mention.span_start >= c.span_end for c in chosen):
            chosen.append(mention)
    chosen.sort(key=lambda t: t.span_start)
    return chosen


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
        if _PREP_BEFORE_RE.search(text, 0, mention.span_start) and replacement.startswith(("on ", "in ")):
            replacement = replacement[3:]
        if mention.text[:1].isupper() and re.search(r"(?:^|[.!?]\s+)$", text[: mention.span_start]):
            replacement = replacement[:1].upper() + replacement[1:]
        out.append(replacement)
    out.append(text[pos:])
    return "".join(out), mentions
