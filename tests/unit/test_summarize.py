"""Extractive summariser: header, budget, order, determinism, centrality."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from memforest.backends.base import Summarizer, SummaryInput, UsageLedger
from memforest.backends.hashed import HashedEmbedder
from memforest.backends.summarize import CHUNK, ExtractiveSummarizer, strip_header, truncate_text
from memforest.domain import TreeKind
from memforest.text import summarize as summarize_module

T0 = datetime(2023, 5, 7, 13, 0, tzinfo=UTC)


def _item(children: list[str], *, days: int = 25, kind: TreeKind = TreeKind.SESSION) -> SummaryInput:
    return SummaryInput(
        tree_kind=kind,
        tree_label="s1",
        t_start=T0,
        t_end=T0 + timedelta(days=days),
        child_texts=tuple(children),
        level=1,
    )


def test_protocol_and_name() -> None:
    s = ExtractiveSummarizer()
    assert isinstance(s, Summarizer)
    assert s.name == "extractive"
    assert s.max_chars == 600


def test_header_format() -> None:
    assert ExtractiveSummarizer.header(T0, T0 + timedelta(days=25)) == "[2023-05-07 .. 2023-06-01]"
    assert ExtractiveSummarizer.header(T0, T0 + timedelta(hours=3)) == "[2023-05-07]"
    tz = timezone(timedelta(hours=-7))
    assert ExtractiveSummarizer.header(T0.astimezone(tz), T0.astimezone(tz)) == "[2023-05-07]"


def test_strip_header_and_truncate() -> None:
    assert strip_header("[2023-05-07 .. 2023-06-01] Alice moved.") == "Alice moved."
    assert strip_header("[2023-05-07] [x] Bob: hi") == "Bob: hi"
    assert strip_header("No header [here].") == "No header [here]."
    cut = truncate_text("one two three four five six", 12)
    assert len(cut) <= 12 and cut.endswith("…")
    assert truncate_text("short", 10) == "short"


async def test_short_input_is_kept_whole_with_header() -> None:
    out = await ExtractiveSummarizer().summarize(
        _item(["[2023-05-07] Alice: I adopted a cat.", "Bob: Nice! What is its name?"])
    )
    assert out == "[2023-05-07 .. 2023-06-01] Alice: I adopted a cat. Bob: Nice! What is its name?"


async def test_empty_children_give_header_only() -> None:
    assert await ExtractiveSummarizer().summarize(_item(["", "[2023-05-07]"], days=0)) == "[2023-05-07]"


def _long_children() -> list[str]:
    return [
        "[2023-05-07] Priya went to a chess club meetup on May 7. The weather was fine. "
        "Priya said the support group made her feel accepted.",
        "[2023-05-20] Tomas painted a sunrise over the lake. Priya liked the painting a lot. "
        "They chatted about nothing in particular.",
        "[2023-06-01] Priya plans to apply to adoption agencies next month. "
        "Priya wants to give a child a loving home, like the support group gave her. Okay.",
    ]


async def test_budget_respected_and_order_kept() -> None:
    children = _long_children()
    for max_chars in (80, 150, 250, 400):
        out = await ExtractiveSummarizer(max_chars=max_chars).summarize(_item(children))
        assert len(out) <= max_chars
        assert out.startswith("[2023-05-07 .. 2023-06-01] ")
        body = out.split("] ", 1)[1]
        assert body
        # every picked sentence appears in source order
        source = " ".join(strip_header(c) for c in children)
        sentences = [s for s in body.replace("…", "").split(". ") if s]
        positions = [source.find(s.rstrip(".")) for s in sentences]
        assert all(p >= 0 for p in positions), (body, sentences)
        assert positions == sorted(positions)


async def test_deterministic() -> None:
    item = _item(_long_children())
    outs = {await ExtractiveSummarizer(max_chars=200).summarize(item) for _ in range(3)}
    assert len(outs) == 1


async def test_prefers_central_sentences() -> None:
    children = [
        "Alice trains for the Boston marathon every morning. The cafeteria served soup.",
        "Alice ran twenty miles in her marathon training. Quantum chromodynamics is hard.",
        "Alice hopes to finish the marathon in under four hours. My printer jammed again.",
    ]
    out = await ExtractiveSummarizer(max_chars=200).summarize(_item(children))
    body = out.split("] ", 1)[1]
    assert "marathon" in body
    assert "cafeteria" not in body and "Quantum" not in body and "printer" not in body


async def test_redundant_sentences_are_not_repeated() -> None:
    children = [
        "Bob moved to Davis in 2022.",
        "Bob moved to Davis in 2022.",
        "Bob moved to Davis, California in 2022.",
        "Bob adopted a dog named Rex.",
        "Bob started a new job at a bakery.",
    ]
    out = await ExtractiveSummarizer(max_chars=120).summarize(_item(children))
    body = out.split("] ", 1)[1]
    assert body.count("Bob moved to Davis") == 1


async def test_single_overlong_sentence_is_truncated() -> None:
    long_sentence = "Alice described " + " and ".join(f"item {i}" for i in range(100)) + "."
    out = await ExtractiveSummarizer(max_chars=100).summarize(_item([long_sentence]))
    assert len(out) <= 100
    assert out.endswith("…")


async def test_ledger_counts_calls() -> None:
    ledger = UsageLedger()
    await ExtractiveSummarizer().summarize(_item(["Alice adopted a cat."]), ledger=ledger)
    assert ledger.as_dict()["summarize"]["calls"] == 1
    assert ledger.as_dict()["summarize"]["prompt_tokens"] == 0


def _overlapping_items() -> list[SummaryInput]:
    """Summaries of a growing right edge: each item shares most child texts with the one before."""
    pool = [
        f"{name} {verb} {place} on {day}. {name} said it was {adj}."
        for name, verb, place, day, adj in (
            ("Alice", "hiked", "Mount Tam", "Monday", "windy"),
            ("Bob", "cooked", "at home", "Tuesday", "spicy"),
            ("Carol", "visited", "Lisbon", "last week", "sunny"),
            ("Dan", "bought a bike in", "Oakland", "Friday", "expensive"),
            ("Erin", "moved to", "Denver", "2023-05-02", "exciting"),
            ("Frank", "painted", "the fence", "yesterday", "tiring"),
        )
    ]
    children = [f"[2023-05-0{1 + i % 9}] " + " ".join(pool[(i + j) % len(pool)] for j in range(3)) for i in range(24)]
    return [_item(children[max(0, k - 8) : k + 1], kind=TreeKind.ENTITY) for k in range(len(children))]


def test_sentence_caches_do_not_change_summaries(monkeypatch: pytest.MonkeyPatch) -> None:
    """The per-instance sentence caches (hits, misses, evictions when full) give exactly the
    summaries that a fresh summariser without any cached sentence gives."""
    items = _overlapping_items()
    fresh = [ExtractiveSummarizer(max_chars=160).summarize_sync(item) for item in items]
    warm = ExtractiveSummarizer(max_chars=160)
    assert [warm.summarize_sync(item) for item in items] == fresh
    assert [warm.summarize_sync(item) for item in items] == fresh  # every sentence cached now
    assert warm._sentence_features and warm._child_sentences
    monkeypatch.setattr(summarize_module, "_SENTENCE_CACHE_MAX", 5)
    monkeypatch.setattr(summarize_module, "_CHILD_CACHE_MAX", 2)
    tiny = ExtractiveSummarizer(max_chars=160)
    assert [tiny.summarize_sync(item) for item in items] == fresh
    assert len(tiny._child_sentences) == 2 and len(tiny._sentence_features) == 5


async def test_a_batch_gives_each_items_own_summary_in_order() -> None:
    """``summarize_many`` (one thread hand-off per chunk) gives what ``summarize`` gives item by item,
    over more items than a chunk, and the ledger counts one call per item."""
    items = _overlapping_items() + _overlapping_items()[:15]
    assert len(items) > CHUNK
    s, ledger = ExtractiveSummarizer(max_chars=160), UsageLedger()
    assert await s.summarize_many(items, ledger=ledger) == [await s.summarize(i) for i in items]
    assert ledger.as_dict()["summarize"]["calls"] == len(items)
    assert await s.summarize_many([]) == []


async def test_summaries_written_in_a_text_worker_process_equal_those_of_the_threads() -> None:
    """With ``processes``, ``summarize`` and ``summarize_many`` hand the nodes to the text worker
    processes (``text.processes``): the same summaries, the same ledger calls."""
    items = _overlapping_items() + _overlapping_items()[:15]
    in_threads = ExtractiveSummarizer(max_chars=160)
    in_process, ledger = ExtractiveSummarizer(max_chars=160, processes=1), UsageLedger()
    assert in_process.processes == 1
    expected = [in_threads.summarize_sync(i) for i in items]
    assert await in_process.summarize_many(items, ledger=ledger) == expected
    assert await in_process.summarize(items[0]) == expected[0]
    assert ledger.as_dict()["summarize"]["calls"] == len(items)
    assert ExtractiveSummarizer(embedder=HashedEmbedder(64), processes=1).processes == 0  # (its own vectors)
