"""The time point a question names by counting back ("two years ago", "two summers back") or by a
part of a year or a feast ("early 2023", "the end of last year", "Q3 2023", "Christmas 2021"): pure functions
over the question text, ``now`` the time it is asked."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from memforest.text.lexicon import NUMBER_WORDS

__all__ = ["COUNT_WORDS", "ago_point", "part_point"]

COUNT_WORDS = "|".join(sorted((w for w in NUMBER_WORDS if w != "zero"), key=len, reverse=True))
# "two years ago", "eighteen months back", "a year and a half ago", "a couple of weeks ago"
_AGO = re.compile(
    rf"\b(?P<n>\d{{1,3}}|an?|{COUNT_WORDS}|a\s+couple\s+of|couple\s+of|a\s+few|several)\s+"
    r"(?P<unit>minute|hour|day|week|fortnight|month|year|decade|spring|summer|autumn|fall|winter)s?"
    r"(?P<half>\s+and\s+a\s+half)?\s+"
    r"(?:ago|back|earlier|before\s+now)\b",
    re.IGNORECASE,
)
_UNIT_DAYS = {"minute": 1 / 1440, "hour": 1 / 24, "day": 1.0, "week": 7.0, "fortnight": 14.0, "month": 30.44,
              "year": 365.25, "decade": 3652.5}  # fmt: skip


def ago_point(question: str, now: datetime) -> datetime | None:
    """The time "<n> <units> ago" names, counted back from ``now``; None when the question names none."""
    m = _AGO.search(question)
    if m is None:
        return None
    n_text = " ".join(m["n"].lower().split())
    n: float = int(n_text) if n_text.isdigit() else NUMBER_WORDS.get(n_text, 0)
    if not n:  # "a", "an": one; "a couple of": two; "a few", "several": three
        n = 2 if "couple" in n_text else 3 if n_text in ("a few", "several") else 1
    if m["half"]:
        n += 0.5
    unit = m["unit"].lower()
    if unit in _SEASON_MONTHS:
        return _season_ago(unit, int(n), now)
    return now - timedelta(days=n * _UNIT_DAYS[unit])


# a season's first month and how many months it lasts (winter starts in December)
_SEASON_MONTHS = {"spring": 3, "summer": 6, "autumn": 9, "fall": 9, "winter": 12}


def _season_ago(season: str, n: int, now: datetime) -> datetime:
    """The middle of the ``n``-th last ``season`` before ``now`` ("two summers ago" in June 2026:
    summer 2024; a season under way is not yet the last one)."""
    first = _SEASON_MONTHS[season]

    def ends(year: int) -> datetime:  # the first day after the season that starts in ``year``
        return datetime(year + (first + 3 > 12), (first + 2) % 12 + 1, 1, tzinfo=now.tzinfo)

    last = next(y for y in (now.year, now.year - 1, now.year - 2) if ends(y) <= now)
    return datetime(last - (max(n, 1) - 1), first, 1, tzinfo=now.tzinfo) + timedelta(days=45)


_PART = re.compile(
    r"\b(?:(?:the\s+)?(?P<qword>first|second|third|fourth|last|final|1st|2nd|3rd|4th)\s+quarter(?:\s+of)?|"
    r"Q(?P<qnum>[1-4])(?:\s+of|,)?)[\s-]*(?:the\s+year\s+)?(?P<qyear>(?:19|20)\d{2}|last\s+year|this\s+year)\b|"
    r"\b(?P<qyear2>(?:19|20)\d{2})\s+Q(?P<qnum2>[1-4])\b|"
    r"\b(?P<part>early|mid|late|(?:the\s+)?(?:start|beginning|end|middle|first\s+half|second\s+half)\s+of)"
    r"[\s-]*(?:the\s+year\s+)?(?P<year>(?:19|20)\d{2}|last\s+year|this\s+year)\b|"
    r"\b(?P<xmas>christmas|easter|new\s+year'?s?)\s+(?P<y2>(?:19|20)\d{2})\b|"
    r"\b(?:last|this)\s+(?P<feast>christmas|easter)\b|\bthis\s+time\s+last\s+year\b",
    re.IGNORECASE,
)
# the month and day a part of a year names
_PART_DAY = {"early": (2, 15), "start": (1, 15), "beginning": (1, 15), "mid": (7, 1), "middle": (7, 1),
             "late": (11, 1), "end": (12, 1), "first": (4, 1), "second": (10, 1)}  # fmt: skip
_QUARTER = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "last": 4,
            "final": 4}  # fmt: skip
# the month and day of a feast (Easter moves: the middle of its range)
_FEAST_DAY = {"christmas": (12, 25), "easter": (4, 8), "new": (1, 1)}


def part_point(question: str, now: datetime) -> datetime | None:
    """The time a part of a year names ("early 2023", "the end of last year", "the third quarter of
    2023", "Q1 2024", "Christmas 2021", "last Easter", "this time last year"), or None."""
    m = _PART.search(question)
    if m is None:
        return None
    if m["xmas"]:
        month, day = _FEAST_DAY[m["xmas"].lower().split()[0]]
        return datetime(int(m["y2"]), month, day, tzinfo=now.tzinfo)
    if m["feast"]:  # the latest one before now
        month, day = _FEAST_DAY[m["feast"].lower()]
        this_year = datetime(now.year, month, day, tzinfo=now.tzinfo)
        return this_year if this_year <= now else this_year.replace(year=now.year - 1)
    if m["qyear"] or m["qyear2"]:  # the middle of the quarter
        quarter = int(m["qnum"] or m["qnum2"] or _QUARTER[str(m["qword"]).lower()])
        return datetime(_year(m["qyear"] or m["qyear2"], now), 3 * quarter - 1, 15, tzinfo=now.tzinfo)
    if m["part"] is None:
        return now - timedelta(days=365.25)
    word = m["part"].lower().replace("the ", "").split()[0]
    month, day = _PART_DAY[word]
    return datetime(_year(m["year"], now), month, day, tzinfo=now.tzinfo)


def _year(text: str, now: datetime) -> int:
    """The year "2023", "last year" or "this year" names, asked at ``now``."""
    year = text.lower()
    return now.year - 1 if year.startswith("last") else now.year if year.startswith("this") else int(year)
