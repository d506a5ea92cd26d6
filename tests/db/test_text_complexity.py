"""Issue 14, hole 1: every built-in text path is linear on adversarial 20 KB input, and CPU-bound
text work stays off the event loop (``/healthz`` answers while the worker extracts)."""

from __future__ import annotations

import asyncio
import importlib
import pkgutil
import random
import re
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.apps import app_client, tenant_key
from support.auth import admin_settings
from support.sessions import session_body

import memforest.text
from memforest.backends.base import SummaryInput
from memforest.backends.rule_based import RuleBasedExtractor
from memforest.backends.summarize import ExtractiveSummarizer
from memforest.db.engine import Database
from memforest.domain import CellTurn, CellView, TreeKind
from memforest.retrieval.timecues import CUE_PREFIX_CHARS, parse_time_cues
from memforest.settings import Settings
from memforest.text import cleaning, date_parts, dates, extractor, sentences
from memforest.text.dates import resolve_time_expressions
from memforest.text.extractor import extract_cell
from memforest.text.offload import TextBudgetExceededError
from memforest.text.sentences import sentence_spans, split_sentences

T = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
SIZE = 20_000
# A complexity guard, not a speed target (speed is bench.faults' business): linear code takes well
# under a second on 20 KB here, the quadratic paths it replaced took 20 s to minutes.
BOUND_S = 5.0
# The event loop froze for 5-13 s before the text work moved off it; the 250 ms p99 target is measured
# by bench.faults, this guard only catches a loop blocked again. A full suite on two busy cores has
# seen one /healthz of 1.05 s (2 runs of 6; 20-27 ms alone): the guard sits below any freeze, above that.
HEALTHZ_GUARD_S = 2.0


def fill(unit: str, head: str = "") -> str:
    """``head`` followed by ``unit`` repeated, cut to :data:`SIZE` characters."""
    return (head + unit * (SIZE // len(unit) + 1))[:SIZE]


ADVERSARIAL = {
    "abbreviations": fill(" Dr. A", "a" * 1500),
    "period-capital": fill(". A"),
    "may-1": fill("May 1 "),
    "may-1-sentences": fill("May 1. "),
    "yesterday-sentences": fill("I went there yesterday. "),
    "one-word": fill("a"),
    "dotted-word": fill("a."),
    "unclosed-caption": fill("[image: "),
    "caption-then-spaces": fill(" ", "[image:"),
    "joined-pronoun": fill("and joined It "),
    "capital-run": fill("A"),
    "capital-words": fill("Ab"),
    "first-person-run": fill("I go "),
    "announced-then-withs": fill("with Ab ", "Changed banks. "),
    # a capitalised adverb is also a name: an unbounded run of adverbs after it was quadratic
    "capital-adverbs-then-group": fill("All ")[:-6] + " club.",
    "colon-headers": fill("Gym: to the "),
    # a match could start at every letter after a hyphen and re-scan the rest: 12.5 s to extract
    "job-then-hyphenated-capitals": fill("-Ab", "My job at "),
    "hyphenated-letters": fill("a-"),
}


def cell_of(text: str) -> CellView:
    return CellView("s1", T, (CellTurn(0, "Ann", text, T), CellTurn(1, "Bob", "Sounds good.", T)))


def timed(fn: Callable[[], Any]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


PATHS: dict[str, Callable[[str], Any]] = {
    "split": split_sentences,
    "dates": lambda text: resolve_time_expressions(text, T),
    "extract": lambda text: extract_cell(cell_of(text)),
    "summarise": lambda text: ExtractiveSummarizer().summarize_sync(
        SummaryInput(TreeKind.SCENE, "x", T, T, (text, "Ann moved to Lisbon."), 1)
    ),
    "time-cues": lambda text: parse_time_cues(text, T),
}


@pytest.mark.parametrize("path", sorted(PATHS))
@pytest.mark.parametrize("name", sorted(ADVERSARIAL))
def test_adversarial_input_is_fast(name: str, path: str) -> None:
    text = ADVERSARIAL[name]
    elapsed = timed(lambda: PATHS[path](text))
    assert elapsed < BOUND_S, f"{path} on {name!r} took {elapsed:.2f} s"


async def test_rule_based_extractor_port_is_fast_on_adversarial_turn() -> None:
    t0 = time.perf_counter()
    await RuleBasedExtractor().extract(cell_of(ADVERSARIAL["may-1"]))
    assert time.perf_counter() - t0 < BOUND_S


# ---------------------------------------------------------------- every pattern of memforest.text


def _module_patterns() -> dict[str, re.Pattern[str]]:
    """Every module-level compiled pattern of ``memforest.text`` and of the temporal modules that
    search fact texts: the loose plan, the cue lexicon and the worded states, and of two that read
    questions: the services asked by what is done and the states counted back (also inside lists,
    tuples and dicts)."""
    found: dict[str, re.Pattern[str]] = {}

    def add(name: str, value: object) -> None:
        if isinstance(value, re.Pattern):
            found[name] = value
        elif isinstance(value, list | tuple | frozenset | set):
            for i, item in enumerate(value):
                add(f"{name}[{i}]", item)
        elif isinstance(value, dict):
            for key, item in value.items():
                add(f"{name}[{key!r}]", item)

    names = [f"memforest.text.{info.name}" for info in pkgutil.iter_modules(memforest.text.__path__)]
    temporal = [f"memforest.retrieval.temporal.{m}" for m in ("loose", "lexicon", "worded", "asked_service", "counted")]
    for name in [*names, *temporal]:
        for attr, value in vars(importlib.import_module(name)).items():
            add(f"{name.rsplit('.', 1)[-1]}.{attr}", value)
    return found


PATTERNS = _module_patterns()
# nested-quantifier and unclosed-bracket shapes: runs a pattern's quantifiers can each enter from
# every start, and openings whose close never comes
SHAPES = {
    "unclosed-caption": fill("[image:"),
    "caption-then-spaces": fill(" ", "[image:"),
    "caption-then-words": fill("a ", "[photo: "),
    "open-parens": fill("("),
    "open-brackets": fill("["),
    "letters-then-bang": "a" * (SIZE - 1) + "!",
    "spaces": fill(" "),
    "whitespace-mix": fill(" \n\t"),
    "words": fill("a "),
    "digits": fill("1"),
    "numbers": fill("1 "),
    "dots": fill("."),
    "dotted-words": fill("a."),
    "initials": fill("A. "),
    "commas": fill(", "),
    "quotes": fill("'"),
    "quoted-words": fill('"a'),
    "hyphens": fill("-"),
    "hyphenated-letters": fill("a-"),
    "hyphenated-capitals": fill("-Ab"),
    "mixed-case": fill("Aa "),
    "capital-run": fill("A"),
    "capital-words": fill("Ab"),
    "dates": fill("May 1 "),
}
# a linear scan of 20 KB takes at most 0.05 s; a pattern that re-scans the rest of the text from
# every start takes 0.4 to 20 s on these shapes, so the bound sits below the quick end of that
# range and such a pattern fails here rather than only on a slower machine
PATTERN_BOUND_S = 0.25


def _pattern_shapes(pattern: re.Pattern[str]) -> dict[str, str]:
    """The shared shapes plus a few built from the pattern's own words (a word repeated, a word
    followed by a run of spaces), where its alternatives and quantifiers meet."""
    shapes = dict(SHAPES)
    for word in sorted(set(re.findall(r"[A-Za-z]{2,}", pattern.pattern)))[:6]:
        shapes[f"{word}-repeated"] = fill(word + " ")
        shapes[f"{word}-glued"] = fill(word)
        shapes[f"{word}-then-spaces"] = fill(" ", word)
    return shapes


def test_fuzz_finds_the_patterns() -> None:
    assert len(PATTERNS) > 100
    assert {"extractor._CAPTION_RE", "cleaning._YOU_KNOW_RE", "sentences._NEXT_CHAR_RE"} <= set(PATTERNS)
    assert {"loose._RELATIVE", "loose._ENDED"} <= set(PATTERNS)


@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_every_text_pattern_is_linear_on_adversarial_shapes(name: str) -> None:
    pattern = PATTERNS[name]
    slow = []
    for shape, text in _pattern_shapes(pattern).items():
        t0 = time.perf_counter()
        for _ in pattern.finditer(text):
            pass
        elapsed = time.perf_counter() - t0
        if elapsed > PATTERN_BOUND_S:
            slow.append(f"{shape}: {elapsed:.2f} s")
    assert not slow, f"{name} on 20 KB: {', '.join(slow)}"


_OLD_YOU_KNOW = re.compile(r",?\s*\byou know\b,?", re.IGNORECASE)
_OLD_NEXT_CHAR = re.compile(r"\s*(\S)")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["you know", "You Know", ",", " ", "  ", "\n", "a", "x.", "(", "know"]), max_size=14))
def test_linear_you_know_removes_what_the_old_pattern_removed(parts: list[str]) -> None:
    text = "".join(parts)
    assert cleaning._YOU_KNOW_RE.sub("", text) == _OLD_YOU_KNOW.sub("", text)


_SENTENCE_PARTS = ["Ann", "went", ".", "!", "?", " ", "  ", "\n", "it", "Dr.", '"', "U.S."]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_SENTENCE_PARTS), max_size=20))
def test_sentence_ends_unchanged_by_the_linear_next_char(parts: list[str]) -> None:
    text = "".join(parts)
    for m in sentences._BOUNDARY_RE.finditer(text):
        new, old = sentences._NEXT_CHAR_RE.match(text, m.end()), _OLD_NEXT_CHAR.match(text, m.end())
        assert (new and new[1]) == (old and old[1])


def test_captions_are_still_read() -> None:
    cell = CellView("s1", T, (CellTurn(0, "Ann", "Look! [image: a photo of a red bike] Nice, right?", T),))
    assert any(c.text.startswith("Ann shared a photo of a red bike") for c in extract_cell(cell))
    long_caption = "[image: " + "x" * (extractor.MAX_CAPTION_CHARS + 1) + "]"
    assert not extractor._CAPTION_RE.search(long_caption)


# ---------------------------------------------------------------- outputs unchanged on normal text


def test_normal_text_outputs_unchanged() -> None:
    (c,) = extract_cell(
        CellView(
            "s1",
            T,
            (
                CellTurn(0, "Priya", "I went to a UNESCO chess club meetup yesterday and it was such fun.", T),
                CellTurn(1, "Tomas", "Wow!", T),
            ),
        )
    )
    assert c.text == "Priya went to a UNESCO chess club meetup on 7 May 2023 and it was such fun."
    assert c.valid_from == datetime(2023, 5, 7, tzinfo=UTC)
    assert split_sentences("Dr. Smith met J.K. Rowling in the U.S. It was 5 p.m. and late.") == [
        "Dr. Smith met J.K. Rowling in the U.S.",
        "It was 5 p.m. and late.",
    ]
    # tense decides the year of a bare day: past moves back, future forward
    (past,) = resolve_time_expressions("We met on June 3 and it was great.", T)
    assert past.start == datetime(2022, 6, 3, tzinfo=UTC)
    (future,) = resolve_time_expressions("I will fly out on March 3, it's booked.", T)
    assert future.start == datetime(2024, 3, 3, tzinfo=UTC)
    # a marker spanning the mention ("going ... to") still counts
    (spanning,) = resolve_time_expressions("I am going June 3 to Paris.", T)
    assert spanning.start == datetime(2023, 6, 3, tzinfo=UTC)
    cues = parse_time_cues("What did Ann do before May 2023?", T)
    assert cues.before == datetime(2023, 5, 1, tzinfo=UTC) and cues.after is None


def test_time_cues_read_a_bounded_prefix() -> None:
    pad = "word " * (CUE_PREFIX_CHARS // 5)
    assert parse_time_cues("In May 2022 " + pad, T).after == datetime(2022, 5, 1, tzinfo=UTC)
    assert not parse_time_cues(pad + " in May 2022", T).has_window


def _naive_tense(text: str, start: int, end: int) -> str | None:
    """The original tense_near: search the whole sentence window around the mention."""
    left, right = 0, len(text)
    for s, e in sentence_spans(text):
        if s <= start:
            left = s
        if e >= end:
            right = e
            break
    window = text[left:start] + " " + text[end:right]
    if date_parts.FUTURE_RE.search(window):
        return "future"
    if date_parts.PAST_RE.search(window):
        return "past"
    return None


_WORDS = ["I", "will", "went", "going", "to", "May", "3", "last", "Friday", "planned", "we", "Dr.", "home", "next"]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from([*_WORDS, ".", "!", "?"]), min_size=1, max_size=30), st.data())
def test_tense_matches_the_whole_window_search(tokens: list[str], data: st.DataObject) -> None:
    text = " ".join(tokens)
    start = data.draw(st.integers(0, len(text) - 1))
    end = data.draw(st.integers(start + 1, len(text)))
    while start > 0 and not text[start - 1].isspace():  # mentions start and end at word edges
        start -= 1
    while end < len(text) and not text[end].isspace():
        end += 1
    assert date_parts.tense_near(text, start, end) == _naive_tense(text, start, end)


def _naive_merge(units: list[extractor._Unit], limit: int) -> list[list[str]]:
    units = [extractor._Unit(list(u.sentences), list(u.entities)) for u in units]
    while len(units) > limit:
        i = min(range(len(units) - 1), key=lambda j: (units[j].words + units[j + 1].words, j))
        units[i] = extractor._Unit(
            units[i].sentences + units[i + 1].sentences, units[i].entities + units[i + 1].entities
        )
        del units[i + 1]
    return [u.sentences for u in units]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=0, max_size=40), st.integers(1, 6))
def test_heap_merge_matches_the_pairwise_scan(word_counts: list[int], limit: int) -> None:
    units = [extractor._Unit([" ".join(["w"] * n) + f" s{i}"], []) for i, n in enumerate(word_counts)]
    expected = _naive_merge(units, limit)
    assert [u.sentences for u in extractor._merge_down(units, limit)] == expected


def test_overlap_choice_matches_the_pairwise_scan() -> None:
    rng = random.Random(7)
    for _ in range(200):
        found = []
        for _ in range(rng.randint(0, 30)):
            s = rng.randint(0, 60)
            found.append(dates.TimeMention(s, s + rng.randint(1, 12), "x", T, None, "day"))
        found.sort(key=lambda t: (-(t.span_end - t.span_start), t.span_start))
        naive: list[dates.TimeMention] = []
        for m in found:
            if all(m.span_end <= c.span_start or m.span_start >= c.span_end for c in naive):
                naive.append(m)
        naive.sort(key=lambda t: t.span_start)
        assert dates._non_overlapping(found) == naive


# ---------------------------------------------------------------- off the event loop, with a budget


async def test_cell_over_budget_fails_with_a_clear_error() -> None:
    big = CellView("s9", T, tuple(CellTurn(i, "Ann", ADVERSARIAL["yesterday-sentences"], T) for i in range(20)))
    with pytest.raises(TextBudgetExceededError, match=r"extracting the cell of session 's9'.*time budget"):
        await RuleBasedExtractor(budget_s=0.05).extract(big)


async def _healthz_worst(client: Any, until: asyncio.Future[Any]) -> float:
    worst = 0.0
    while not until.done():
        t0 = time.perf_counter()
        r = await client.get("/healthz")
        assert r.status_code == 200
        worst = max(worst, time.perf_counter() - t0)
        await asyncio.sleep(0.02)
    return worst


async def test_healthz_stays_responsive_during_adversarial_extraction_and_query(
    settings: Settings, db: Database
) -> None:
    s = admin_settings(settings, worker={"poll_interval_s": 0.05})
    async with app_client(s, db, start_worker=True) as (_, client):
        _, h = await tenant_key(client, "acme")
        assert (await client.post("/v1/forests", json={"name": "f"}, headers=h)).status_code == 201
        texts = [ADVERSARIAL[k] for k in ("may-1", "yesterday-sentences", "abbreviations", "period-capital")]
        body = session_body("s1", "2024-05-01T10:00:00Z", texts)
        r = await client.post("/v1/forests/f/sessions", json=body, headers=h)
        assert r.status_code in (200, 201, 202), r.text
        job_id = r.json()["job_id"]

        async def job_done() -> str:
            for _ in range(1200):
                state: str = (await client.get(f"/v1/jobs/{job_id}", headers=h)).json()["state"]
                if state in ("succeeded", "failed"):
                    return state
                await asyncio.sleep(0.05)
            return "stuck"

        job = asyncio.ensure_future(job_done())
        worst = await _healthz_worst(client, job)
        assert job.result() in ("succeeded", "failed")
        assert worst < HEALTHZ_GUARD_S, f"/healthz took {worst * 1000:.0f} ms during extraction"

        query = asyncio.ensure_future(
            client.post("/v1/forests/f/query", json={"query": ADVERSARIAL["may-1"], "top_k": 5}, headers=h)
        )
        worst = await _healthz_worst(client, query)
        assert query.result().status_code == 200, query.result().text
        assert worst < HEALTHZ_GUARD_S, f"/healthz took {worst * 1000:.0f} ms during the query"


def test_question_tense_reads_a_long_word_once() -> None:
    """A question of one long word after its copula (up to the 20,000 characters a query may have)
    is parsed in linear time: the clause-with-its-own-past-verb search starts only where a word does."""
    from memforest.retrieval.temporal import parse

    for shape, text in _pattern_shapes(parse._SUBJECT_PAST).items():
        t0 = time.perf_counter()
        for _ in parse._SUBJECT_PAST.finditer(text):
            pass
        assert time.perf_counter() - t0 < PATTERN_BOUND_S, shape
    t0 = time.perf_counter()
    parse.parse_question("What does " + "a" * (SIZE - 10))
    assert time.perf_counter() - t0 < PATTERN_BOUND_S
    # the same reading as before on ordinary questions
    assert parse._asked_now("Where is Bob based?") and not parse._asked_now("What is the city Bob grew up in?")
