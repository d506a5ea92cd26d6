"""A refresh's summaries: the built-in summariser's batch path gives each node what one call per node
gives, leaves keep their own text."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from memforest.backends.base import SummaryInput, UsageLedger
from memforest.backends.hashed import HashedEmbedder
from memforest.backends.summarize import CHUNK, ExtractiveSummarizer
from memforest.pipeline.refresh_levels import LevelRead, summarise_levels

T0 = datetime(2022, 9, 4, 8, 0, tzinfo=UTC)
WORDS = ["kayak", "lantern", "orchard", "violin", "glacier", "pottery", "harbor", "meadow", "comet", "fern"]


class OneAtATime:
    """The built-in summariser without its batch path (as a model-backed summariser is called)."""

    name = "one-at-a-time"

    def __init__(self) -> None:
        self.inner = ExtractiveSummarizer(max_chars=140)

    async def summarize(self, item: SummaryInput, *, ledger: UsageLedger | None = None) -> str:
        return await self.inner.summarize(item, ledger=ledger)


def _node(node_id: int, summary: str | None = None) -> dict[str, object]:
    return {
        "node_id": node_id, "kind": "entity", "label": f"tree {node_id % 3}", "t_start": T0,
        "t_end": T0 + timedelta(days=node_id), "summary": summary, "no_embedding": True, "embedded_hash": None,
    }  # fmt: skip


def _reads() -> list[LevelRead]:
    leaves = LevelRead(0, [_node(i, f"Gus fixed the {WORDS[i % 10]} on day {i}.") for i in range(5)], {})
    inner = [_node(100 + i) for i in range(CHUNK + 9)]
    children = {
        100 + i: [f"Ivy saw a {WORDS[(i + j) % 10]} near the {WORDS[(i * j) % 10]} on trip {j}." for j in range(i % 6)]
        for i in range(CHUNK + 9)
    }
    return [leaves, LevelRead(1, inner, children, over_leaves=True)]


async def test_the_batch_path_gives_the_summaries_of_one_call_per_node() -> None:
    embedder = HashedEmbedder(32)
    batched = await summarise_levels(_reads(), ExtractiveSummarizer(max_chars=140), embedder, 4, None)
    single = await summarise_levels(_reads(), OneAtATime(), embedder, 4, None)
    assert [w.summaries for w in batched] == [w.summaries for w in single]
    assert [w.hashes for w in batched] == [w.hashes for w in single]
    assert batched[0].summaries[2] == "Gus fixed the orchard on day 2."
    assert all(len(s) <= 140 and s.startswith("[2022-09-") for s in batched[1].summaries)
    for b, s in zip(batched, single, strict=True):
        assert all((x == y).all() for x, y in zip(b.vectors, s.vectors, strict=True))
