"""Relative and absolute time expressions resolved against a fixed reference time."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from memforest.text.dates import TimeMention, format_day, resolve_time_expressions, rewrite_relative

# Monday 8 May 2023, 13:56 UTC
REF = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)


def _d(year: int, month: int, day: int) -> datetime:
    return datetime(year, month, day, tzinfo=UTC)


def _one(text: str, ref: datetime = REF) -> TimeMention:
    mentions = resolve_time_expressions(text, ref)
    assert len(mentions) == 1, mentions
    return mentions[0]


@pytest.mark.parametrize(
    ("text", "start", "end", "granularity"),
    [
        ("yesterday", _d(2023, 5, 7), None, "day"),
        ("today", _d(2023, 5, 8), None, "day"),
        ("tomorrow", _d(2023, 5, 9), None, "day"),
        ("the day before yesterday", _d(2023, 5, 6), None, "day"),
        ("last night", _d(2023, 5, 7), None, "day"),
        ("this morning", _d(2023, 5, 8), None, "day"),
        ("last Friday", _d(2023, 5, 5), None, "day"),
        ("last Monday", _d(2023, 5, 1), None, "day"),  # strictly before ref's date
        ("next Friday", _d(2023, 5, 12), None, "day"),
        ("three days ago", _d(2023, 5, 5), None, "day"),
        ("two weeks ago", _d(2023, 4, 24), _d(2023, 5, 1), "week"),
        ("2 months ago", _d(2023, 3, 1), _d(2023, 4, 1), "month"),
        ("last week", _d(2023, 5, 1), _d(2023, 5, 8), "week"),
        ("next week", _d(2023, 5, 15), _d(2023, 5, 22), "week"),
        ("last month", _d(2023, 4, 1), _d(2023, 5, 1), "month"),
        ("next month", _d(2023, 6, 1), _d(2023, 7, 1), "month"),
        ("last year", _d(2022, 1, 1), _d(2023, 1, 1), "year"),
        ("this year", _d(2023, 1, 1), _d(2024, 1, 1), "year"),
        ("last weekend", _d(2023, 5, 6), _d(2023, 5, 8), "day"),
        ("in May 2023", _d(2023, 5, 1), _d(2023, 6, 1), "month"),
        ("in 2022", _d(2022, 1, 1), _d(2023, 1, 1), "year"),
        ("7 May 2023", _d(2023, 5, 7), None, "day"),
        ("May 7th, 2023", _d(2023, 5, 7), None, "day"),
        ("2023-05-07", _d(2023, 5, 7), None, "day"),
        ("last summer", _d(2022, 6, 1), _d(2022, 9, 1), "season"),
        ("last winter", _d(2022, 12, 1), _d(2023, 3, 1), "season"),
    ],
)
def test_resolves_expression(text: str, start: datetime, end: datetime | None, granularity: str) -> None:
    mention = _one(text)
    assert mention.start == start
    assert mention.end == end
    assert mention.granularity == granularity
    assert mention.text == text
    assert (mention.span_start, mention.span_end) == (0, len(text))


def test_word_numbers_and_approximations() -> None:
    few = _one("a few days ago")
    assert few.start == _d(2023, 5, 5)
    assert few.approximate
    couple = _one("a couple of weeks ago")
    assert couple.start == _d(2023, 4, 24)
    assert couple.approximate
    assert not _one("two weeks ago").approximate


def test_span_inside_sentence() -> None:
    text = "I went to a chess club meetup yesterday and it was such fun."
    mention = _one(text)
    assert text[mention.span_start : mention.span_end] == "yesterday"
    assert mention.text == "yesterday"


def test_on_weekday_uses_tense() -> None:
    assert _one("I went hiking on Friday").start == _d(2023, 5, 5)
    assert _one("I will go hiking on Friday").start == _d(2023, 5, 12)


def test_month_without_year_uses_tense() -> None:
    assert _one("We went there in June").start == _d(2022, 6, 1)
    assert _one("We'll go there in June").start == _d(2023, 6, 1)
    assert _one("in May").start == _d(2023, 5, 1)


def test_results_keep_ref_timezone() -> None:
    tz = timezone(timedelta(hours=-7))
    ref = datetime(2023, 5, 8, 20, 0, tzinfo=tz)
    mention = _one("yesterday", ref)
    assert mention.start == datetime(2023, 5, 7, tzinfo=tz)
    assert mention.start.utcoffset() == timedelta(hours=-7)


def test_naive_ref_is_rejected() -> None:
    with pytest.raises(ValueError):
        resolve_time_expressions("yesterday", datetime(2023, 5, 8))


def test_no_false_positives() -> None:
    assert resolve_time_expressions("You may 2 times call me, at 3 pm, it costs 3.5 dollars.", REF) == []
    assert resolve_time_expressions("", REF) == []


def test_format_day() -> None:
    assert format_day(_d(2023, 5, 7)) == "7 May 2023"
    assert format_day(_d(2021, 12, 25)) == "25 December 2021"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I went there yesterday.", "I went there on 7 May 2023."),
        ("Yesterday I went there.", "On 7 May 2023 I went there."),
        ("We met last week.", "We met in the week of 1 May 2023."),
        ("I graduated two years ago.", "I graduated in 2021."),
        ("I saw it last Friday.", "I saw it on Friday 5 May 2023."),
        ("I've been sick since last week.", "I've been sick since the week of 1 May 2023."),
        ("I'm starting next month.", "I'm starting in June 2023."),
        ("It was on May 20.", "It was on 20 May 2022."),
        ("I moved in May 2023.", "I moved in May 2023."),
    ],
)
def test_rewrite_relative(text: str, expected: str) -> None:
    rewritten, mentions = rewrite_relative(text, REF)
    assert rewritten == expected
    assert mentions


def test_rewrite_returns_original_spans() -> None:
    text = "Yesterday and two years ago."
    rewritten, mentions = rewrite_relative(text, REF)
    assert rewritten == "On 7 May 2023 and in 2021."
    assert [text[m.span_start : m.span_end] for m in mentions] == ["Yesterday", "two years ago"]


@pytest.mark.parametrize(
    ("text", "year"),
    [
        # "since" a month: the state began before the utterance, whatever the tense says
        ("We have been going to the allotment since February.", 2024),
        ("Since February the twins are going to a new nursery.", 2024),
        # "going to" that a verb of habit governs goes somewhere: the sentence's past tense decides
        ("Dara started going to evening Welsh classes in February.", 2024),
        ("I stopped going to the sauna in February.", 2024),
        # a plan stays a plan
        ("I am going to the coast in February.", 2025),
        ("We are going to repaint the hall in February.", 2025),
    ],
)
def test_month_alone_since_and_habitual_going(text: str, year: int) -> None:
    ref = datetime(2024, 6, 3, tzinfo=UTC)
    (mention,) = resolve_time_expressions(text, ref)
    assert mention.start == datetime(year, 2, 1, tzinfo=UTC)


def test_keep_going_to_is_a_habit_not_a_future() -> None:
    ref = datetime(2024, 6, 3, tzinfo=UTC)
    (mention,) = resolve_time_expressions("I keep going to the rowing club I joined in February.", ref)
    assert mention.start == datetime(2024, 2, 1, tzinfo=UTC)
