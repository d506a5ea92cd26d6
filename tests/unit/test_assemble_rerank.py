"""Assembly's per-candidate work (rerank, visibility, deduplication, the candidate row) gives what
the plain formulas give: the shortcuts it takes change no order, score or filter."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

from memforest.retrieval.assemble import (
    AssembleOptions,
    _Item,
    _item,
    _lexical,
    _same_text,
    _shown,
    _visible,
    rerank,
)
from memforest.retrieval.preset import RetrievalPreset
from memforest.retrieval.timecues import TimeCues
from memforest.text.terms import content_terms

T0 = datetime(2024, 5, 1, tzinfo=UTC)
TEXTS = ["Ana moved to Lisbon", "Ana likes Lisbon", "Bo moved", "Lisbon trams", "nothing here", "Ana moved"]


def _items() -> list[_Item]:
    """Twelve items with repeated texts, times and trees, so that scores and their ties repeat."""
    return [
        _Item("fact" if i % 3 else "cell", i, TEXTS[i % len(TEXTS)], T0 + timedelta(days=i % 4), None, None, None,
              None, (), 0.1 * (i % 5), (i % 3 + 1,))
        for i in range(12)
    ]  # fmt: skip


def _plain_lexical(items: list[_Item], terms: list[str]) -> list[float]:
    """The lexical share summed item by item, in the query terms' set order."""
    query = frozenset(terms)
    order = list(query)
    hits = [query & _lexical_terms(it.text) for it in items]
    df = {t: sum(t in h for h in hits) for t in order}
    idf = {t: math.log(1.0 + (len(hits) - d + 0.5) / (d + 0.5)) for t, d in df.items()}
    total = sum(idf.values()) or 1.0
    return [sum([idf[t] for t in order if t in h]) / total if h else 0.0 for h in hits]


def _lexical_terms(text: str) -> frozenset[str]:
    return frozenset(content_terms(text))


def test_lexical_shares_equal_the_item_by_item_sums() -> None:
    items, terms = _items(), ["ana", "lisbon", "moved", "trams"]
    assert _lexical(items, frozenset(terms)) == _plain_lexical(items, terms)
    assert _lexical(items, frozenset()) == [0.0] * len(items)


def test_rerank_orders_by_score_then_time_kind_and_id() -> None:
    items = _items()
    ranked = rerank(list(items), ["ana", "lisbon"], {1: 0.5, 2: 0.5, 3: 0.2}, TimeCues(), RetrievalPreset())
    assert ranked == sorted(items, key=lambda it: (-it.score, it.start, it.kind, it.source_id))
    assert len({it.score for it in ranked}) < len(ranked)  # (ties were there to break)


def test_only_hidden_items_are_checked_and_the_rest_pass() -> None:
    items = _items()
    items[2].retracted_at, items[5].superseded, items[7].superseded = T0, True, True
    window = TimeCues(after=T0 + timedelta(days=2))
    for opts in (AssembleOptions(top_k=5), AssembleOptions(top_k=5, include_superseded=True),
                 AssembleOptions(top_k=5, as_of=T0 + timedelta(days=1))):  # fmt: skip
        for cues, pinned in ((TimeCues(), {}), (window, {}), (TimeCues(), {("fact", 5): "answer"})):
            want = [it for it in items if _visible(it, opts, cues, pinned.get((it.kind, it.source_id)))]
            assert _shown(items, opts, cues, pinned) == want
    clean = _items()
    assert _shown(clean, AssembleOptions(top_k=5), TimeCues(), {}) == clean


def test_a_plans_answer_is_shown_as_of_a_time_after_its_slot_was_closed() -> None:
    # a verb-class slot ("change") closed by a later change of another kind: the plan's own chain
    # says the state still held, so its answer stays; a neighbour or a plain item so closed does not
    closed = _Item("fact", 40, "Quin left the Lark Choir and joined the Wrenfield Singers", T0, T0 + timedelta(days=3),
                   T0, T0 + timedelta(days=3), None, (), 0.5, (1,), superseded=True)  # fmt: skip
    opts = AssembleOptions(top_k=5, as_of=T0 + timedelta(days=30))
    assert _visible(closed, opts, TimeCues(), "answer")
    assert not _visible(closed, opts, TimeCues(), "earlier")
    assert not _visible(closed, opts, TimeCues())
    assert not _visible(closed, AssembleOptions(top_k=5, as_of=T0 - timedelta(days=1)), TimeCues(), "answer")


def test_deduplication_compares_case_folded_text_with_single_spaces() -> None:
    assert _same_text("  Ana\tmoved\n to  LISBON ") == "ana moved to lisbon"


def test_a_candidate_row_becomes_its_item() -> None:
    row = {"kind": "fact", "id": 7, "text": "Ana moved", "t_start": T0, "t_end": None, "trees": None,
           "sim": float("nan"), "session_ext": None, "in_trees": [3, 4], "first_tree": 3, "time_text": "",
           "superseded_by": 9, "recorded_at": T0, "retracted_at": None}  # fmt: skip
    it = _item(row)
    assert (it.kind, it.source_id, it.text, it.valid_from, it.sim, it.tree_ids) == (
        "fact",
        7,
        "Ana moved",
        T0,
        0.0,
        (3, 4),
    )
    assert (it.superseded, it.has_time_text, it.session_id, it.label) == (True, False, None, "")
    cell = _item(row | {"kind": "cell", "session_ext": "s1", "sim": 0.5, "in_trees": None, "superseded_by": None})
    assert (cell.valid_from, cell.session_id, cell.sim, cell.tree_ids, cell.superseded) == (None, "s1", 0.5, (), False)
