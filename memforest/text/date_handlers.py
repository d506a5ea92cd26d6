"""The date-expression patterns and the handler that resolves each match (see ``dates``)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta

from dateutil.relativedelta import relativedelta

from memforest.text.date_parts import (
    MONTH_LOOKUP,
    NUMBER_WORDS,
    Resolved,
    format_day,
    format_season,
    make_date,
    midnight,
    parse_number,
    period,
    season_instance,
    season_period,
    tense_near,
    unit_containing,
    week_start,
    year_for,
)
from memforest.text.lexicon import MONTH_NAMES, WEEKDAY_NAMES

__all__ = ["GATE", "PATTERNS", "Handler"]

_FULL_MONTHS = "|".join(m.lower() for m in MONTH_NAMES)
_ANY_MONTH = rf"(?:{_FULL_MONTHS}|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)"
_WEEKDAYS = "|".join(w.lower() for w in WEEKDAY_NAMES)
_SEASONS = r"(?:spring|summer|fall|autumn|winter)"
_NUM = (
    r"(?P<num>\d{1,3}|a\s+few|a\s+couple(?:\s+of)?|couple\s+of|several|few|an?|"
    + "|".join(k for k in NUMBER_WORDS if k not in ("a", "an"))
    + r")"
)
_ORD = r"(?:st|nd|rd|th)?"

# ------------------------------------------------------------------ pattern handlers

Handler = Callable[[re.Match[str], datetime, str], "Resolved | None"]


def _h_iso(m: re.Match[str], ref: datetime, text: str) -> Resolved | None:
    day = make_date(ref, int(m["y"]), int(m["m"]), int(m["d"]))
    if day is None:
        return None
    return Resolved(day, None, "day", "on " + format_day(day), relative=False)


# "for <a noun phrase>" just before a date: the date is that of the thing the act was for ("signed
# up for the Chicago Marathon in October"), which lies on no side of the utterance the act's tense
# tells; a subject pronoun inside the phrase means a clause of its own ("for a while I lived ...")
_FOR_OBJECT = re.compile(
    r"\bfor\s+(?:(?:the|a|an|my|his|her|their|our|your|\w+'s)\s+)?(?!(?:i|he|she|we|they|you|it)\b)"
    r"(?:(?!(?:i|he|she|we|they|you)\b)[\w'-]+\s+){0,4}$",
    re.IGNORECASE,
)
_FOR_REACH = 80  # characters read back for that phrase
# the act that "for" follows must arrange the thing for a date of its own (signing up, booking,
# training for it); a stay or a trip "for a week in November" is dated by the sentence's tense
_ARRANGED = re.compile(
    r"\b(?:sign(?:s|ed|ing)?\s+up|regist(?:er|ers|ered|ering)|book(?:s|ed|ing)?|enter(?:s|ed|ing)?|"
    r"enrol(?:s|led|ling)?|reserv(?:e|es|ed|ing)|tickets?|schedul(?:e|es|ed|ing)|train(?:s|ed|ing)?|"
    r"prepar(?:e|es|ed|ing)|qualif(?:y|ies|ied|ying))\b",
    re.IGNORECASE,
)
_DURATION = re.compile(
    r"^for\s+(?:an?|one|two|three|four|five|six|seven|eight|nine|ten|\d+|a\s+few|a\s+couple\s+of|several)\s+"
    r"(?:days?|nights?|weeks?|weekends?|months?|years?|while|bit|hours?)\b",
    re.IGNORECASE,
)


def _date_tense(text: str, start: int, end: int) -> str | None:
    """The tense that moves a date without a year to one side of the utterance: none for the date
    of the object of "for" after an act that arranges it (see :data:`_FOR_OBJECT`), else the
    sentence's (``tense_near``)."""
    before = text[max(0, start - _FOR_REACH) : start]
    m = _FOR_OBJECT.search(before)
    if m is not None and not _DURATION.match(m.group(0)) and _ARRANGED.search(before, 0, m.start()):
        return None
    return tense_near(text, start, end)


def _h_day_month(m: re.Match[str], ref: datetime, text: str) -> Resolved | None:
    if not m["y"] and m["mon"] in ("may", "march", "mar"):
        return None  # "you may 2 ..." / "march 3 miles": lowercase verb, not a month
    month = MONTH_LOOKUP[m["mon"].lower().rstrip(".")]
    dnum = int(m["d"])
    if m["y"]:
        year, relative = int(m["y"]), False
    else:
        year, relative = year_for(ref, month, dnum, _date_tense(text, m.start(), m.end())), True
    day = make_date(ref, year, month, dnum)
    if day is None:
        return None
    return Resolved(day, None, "day", format_day(day), relative=relative)


def _h_month_year(m: re.Match[str], ref: datetime, text: str) -> Resolved | None:
    start = datetime(int(m["y"]), MONTH_LOOKUP[m["mon"].lower().rstrip(".")], 1, tzinfo=ref.tzinfo)
    res = period(start, "month")
    return Resolved(res.start, res.end, "month", res.absolute_text, relative=False)


def _prep_span(m: re.Match[str], inner: str) -> int | None:
    """Keep "in"/"during"/"throughout" inside the span, leave other prepositions ("since", "by") outside."""
    prep = (m["prep"] or "").lower()
    return None if prep in ("in", "during", "throughout", "") else m.start(inner)


def _h_month_alone(m: re.Match[str], ref: datetime, text: str) -> Resolved | None:
    month = MONTH_LOOKUP[m["mon"].lower()]
    # a state held "since" a month began before the utterance, whatever the sentence's tense
    tense = "past" if m["prep"].lower() == "since" else _date_tense(text, m.start(), m.end())
    year = ref.year
    if tense == "past" and month > ref.month:
        year -= 1
    elif tense == "future" and month < ref.month:
        year += 1
    res = period(datetime(year, month, 1, tzinfo=ref.tzinfo), "month")
    return Resolved(res.start, res.end, "month", res.absolute_text, span_start=_prep_span(m, "inner"))


def _h_rel_month(m: re.Match[str], ref: datetime, text: str) -> Resolved | None:
    rel = re.sub(r"\s+", " ", m["rel"].lower())
    if rel == "this" and m["mon"] in _VERB_MONTHS:
        return None  # ("this may cost more": the verb)
    month = MONTH_LOOKUP[m["mon"].lower()]
    year = ref.year
    if rel == "this":  # (the one the sentence's tense points to: "this January" said in December)
        rel = {"past": "last", "future": "next"}.get(tense_near(text, m.start(), m.end()) or "", "this")
    if rel in ("last", "this past") and month >= ref.month:
        year -= 1
    elif rel in ("next", "this coming") and month <= ref.month:
        year += 1
    return period(datetime(year, month, 1, tzinfo=ref.tzinfo), "month")


def _h_year(m: re.Match[str], ref: datetime, text: str) -> Resolved | None:
    res = period(datetime(int(m["y"]), 1, 1, tzinfo=ref.tzinfo), "year")
    return Resolved(res.start, res.end, "year", res.absolute_text, relative=False, span_start=_prep_span(m, "inner"))


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


def _h_day_word(m: re.Match[str], ref: datetime, text: str) -> Resolved | None:
    offset, prefix = _DAY_WORDS[re.sub(r"\s+", " ", m[0].lower())]
    day = midnight(ref) + timedelta(days=offset)
    return Resolved(day, None, "day", prefix + format_day(day))


def _h_weekday(m: re.Match[str], ref: datetime, text: str) -> Resolved | None:
    target = WEEKDAY_NAMES.index(m["wd"].capitalize())
    rel = re.sub(r"\s+", " ", m["rel"].lower())
    today = midnight(ref)
    if rel == "on":
        rel = "next" if tense_near(text, m.start(), m.end()) == "future" else "last"
    if rel in ("last", "this past"):
        back = (today.weekday() - target) % 7 or 7
        day = today - timedelta(days=back)
    elif rel in ("next", "this coming", "coming"):
        ahead = (target - today.weekday()) % 7 or 7
        day = today + timedelta(days=ahead)
    else:  # this
        day = week_start(today) + timedelta(days=target)
    return Resolved(day, None, "day", f"on {WEEKDAY_NAMES[target]} {format_day(day)}")


def _h_ago(m: re.Match[str], ref: datetime, text: str) -> Resolved | None:
    n, approx = parse_number(m["num"])
    unit = m["unit"].lower()
    today = midnight(ref)
    if unit == "day":
        moment = today - timedelta(days=n)
    elif unit == "week":
        moment = today - timedelta(weeks=n)
    elif unit == "month":
        moment = today - relativedelta(months=n)
    else:
        moment = today - relativedelta(years=n)
    return period(unit_containing(moment, unit), unit, approx)


def _h_in_n(m: re.Match[str], ref: datetime, text: str) -> Resolved | None:
    n, approx = parse_number(m["num"])
    unit = m["unit"].lower()
    today = midnight(ref)
    delta = {
        "day": relativedelta(days=n),
        "week": relativedelta(weeks=n),
        "month": relativedelta(months=n),
        "year": relativedelta(years=n),
    }[unit]
    return period(unit_containing(today + delta, unit), unit, approx)


def _h_rel_unit(m: re.Match[str], ref: datetime, text: str) -> Resolved | None:
    rel = re.sub(r"\s+", " ", m["rel"].lower())
    unit = m["unit"].lower()
    step = {"last": -1, "this past": -1, "past": -1, "previous": -1, "the previous": -1, "this": 0}.get(rel, 1)
    today = midnight(ref)
    if unit == "weekend":
        saturday = week_start(today) + timedelta(days=5 + 7 * step)
        return Resolved(saturday, saturday + timedelta(days=2), "day", "on the weekend of " + format_day(saturday))
    start = unit_containing(today, unit)
    if unit == "week":
        start += timedelta(weeks=step)
    elif unit == "month":
        start += relativedelta(months=step)
    else:
        start += relativedelta(years=step)
    return period(start, unit)


def _h_rel_season(m: re.Match[str], ref: datetime, text: str) -> Resolved | None:
    rel = re.sub(r"\s+", " ", m["rel"].lower())
    which = {"last": "last", "this past": "last", "next": "next", "this coming": "next"}.get(rel, "this")
    return season_period(ref, m["s"].lower(), which)


def _h_before_last(m: re.Match[str], ref: datetime, text: str) -> Resolved | None:
    """ "the year before last", "the summer before last": the one before the last; "the week after
    next": the one after the next."""
    unit = m["unit"].lower()
    step = -2 if m["rel"].lower().startswith("before") else 2
    if unit in ("week", "month", "year"):
        start = unit_containing(midnight(ref), unit)
        delta = {"week": relativedelta(weeks=step), "month": relativedelta(months=step)}
        return period(start + delta.get(unit, relativedelta(years=step)), unit)
    shifted = ref + relativedelta(years=step // 2)
    return season_period(shifted, unit, "last" if step < 0 else "next")


def _h_season_year(m: re.Match[str], ref: datetime, text: str) -> Resolved | None:
    name = m["s"].lower()
    name = "fall" if name == "autumn" else name
    start = season_instance(ref, name, int(m["y"]))
    return Resolved(
        start, start + relativedelta(months=3), "season", "in " + format_season(name, start), relative=False
    )


def _h_in_season(m: re.Match[str], ref: datetime, text: str) -> Resolved | None:
    prep = m["prep"].lower()
    tense = "past" if prep == "since" else tense_near(text, m.start(), m.end())  # "since the autumn" began already
    which = {"future": "current-or-next", "past": "current-or-last"}.get(tense or "", "this")
    res = season_period(ref, m["s"].lower(), which)
    return Resolved(res.start, res.end, "season", res.absolute_text, span_start=_prep_span(m, "inner"))


# month names that are also verbs: read as months only when written as names ("May", not "may")
_VERB_MONTHS = frozenset(("may", "march"))


def _named_in_year(m: re.Match[str], ref: datetime, year: int, day: datetime | None = None) -> Resolved | None:
    """The month or season ``m["name"]`` of ``year``, as an absolute period (the winter of a year
    starts in its December); with ``day``, a winter is the one in progress or last begun then. None
    for "may" or "march" written in lower case (the verbs)."""
    if m["name"] in _VERB_MONTHS:
        return None
    name = m["name"].lower().rstrip(".")
    if name in MONTH_LOOKUP:
        res = period(datetime(year, MONTH_LOOKUP[name], 1, tzinfo=ref.tzinfo), "month")
        return Resolved(res.start, res.end, "month", res.absolute_text)
    name = "fall" if name == "autumn" else name
    if name == "winter" and day is not None:
        year = day.year if day.month == 12 else day.year - 1
    start = season_instance(ref, name, year)
    return Resolved(start, start + relativedelta(months=3), "season", "in " + format_season(name, start))


def _h_named_rel_year(m: re.Match[str], ref: datetime, text: str) -> Resolved | None:
    """ "May last year", "the summer of this year", "the winter two years ago": that month or season
    of the year the rest names (a winter: the one in progress or last begun at that time back)."""
    rel = re.sub(r"\s+", " ", m["rel"].lower())
    n = 1 if rel.startswith("last") else 0 if rel.startswith("this") else parse_number(m["num"])[0]
    back = midnight(ref) - relativedelta(years=n)
    return _named_in_year(m, ref, back.year, back)


def _h_named_short_year(m: re.Match[str], ref: datetime, text: str) -> Resolved | None:
    """ "spring '23", "May '24": a two-digit year, of this century unless that is more than ten years
    ahead ("'99": 1999)."""
    yy = int(m["yy"])
    year = 2000 + yy if 2000 + yy <= ref.year + 10 else 1900 + yy
    res = _named_in_year(m, ref, year)
    return replace(res, relative=False) if res is not None else None


_FLAGS = re.IGNORECASE
PATTERNS: tuple[tuple[re.Pattern[str], Handler], ...] = (
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
        re.compile(
            rf"\b(?P<rel>last|this\s+past|this\s+coming|this|next)\s+(?P<mon>{_FULL_MONTHS})\b(?!\.?\s*\d)", _FLAGS
        ),
        _h_rel_month,
    ),
    (
        re.compile(
            r"\b(?P<prep>in|during|throughout|since|until|till|by|from|of|before|after|around|back\s+in)\s+"
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
        re.compile(
            rf"\b(?P<rel>last|this\s+past|this\s+coming|coming|this|next|on)\s+(?P<wd>{_WEEKDAYS})\b"
            # "on Wednesday evenings" is a habit, not a day
            r"(?!\s+(?:mornings|afternoons|evenings|nights|lunchtimes)\b)",
            _FLAGS,
        ),
        _h_weekday,
    ),
    (re.compile(rf"(?<![\d.,])\b{_NUM}\s+(?P<unit>day|week|month|year)s?\s+(?:ago|back)\b", _FLAGS), _h_ago),
    (
        re.compile(rf"\b(?:in|within)\s+{_NUM}\s+(?P<unit>day|week|month|year)s?\b(?!\s+(?:ago|back))", _FLAGS),
        _h_in_n,
    ),
    (
        re.compile(
            rf"\b(?:(?:in|during)\s+)?(?:the\s+)?(?P<name>{_FULL_MONTHS}|{_SEASONS})\s+(?:of\s+)?"
            rf"(?P<rel>last\s+year|this\s+year|{_NUM}\s+years?\s+(?:ago|back))\b",
            _FLAGS,
        ),
        _h_named_rel_year,
    ),
    (
        re.compile(
            rf"\b(?:(?:in|during)\s+)?(?:the\s+)?(?P<name>{_ANY_MONTH}|{_SEASONS})\.?\s+(?:of\s+)?['\u2019](?P<yy>\d{{2}})\b",
            _FLAGS,
        ),
        _h_named_short_year,
    ),
    (
        re.compile(
            r"\bthe\s+(?P<unit>week|month|year|spring|summer|autumn|fall|winter)\s+(?P<rel>before\s+last|after\s+next)\b",
            _FLAGS,
        ),
        _h_before_last,
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
GATE = re.compile(
    rf"\d|yesterday|today|tonight|tomorrow|morning|afternoon|evening|night|ago|back|last|next|this|week|"
    rf"month|year|{_FULL_MONTHS}|{_ANY_MONTH}|{_WEEKDAYS}|{_SEASONS}",
    _FLAGS,
)
