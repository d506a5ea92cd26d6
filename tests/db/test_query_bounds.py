"""Issue 54 item 1 (review H1): a long question costs the event loop little. The full-text term
pairs are built only for a statement that reads them (an indexed forest's full-text candidates),
not for the vector channels or a forest scanned for its text; a long question is embedded off the
event loop."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
import pytest

from memforest.backends.hashed import HashedEmbedder
from memforest.db.engine import Database
from memforest.store import recall_channels as channels
from memforest.store.recall_channels import ChannelLimits, ChannelPart, recall_channels
from memforest.store.tenants import ensure_forest, ensure_tenant

TERMS = [f"term{i}" for i in range(24)]
LIMITS = ChannelLimits(roots=5, facts=5, cells=5, lexical=5, lexical_cap=50, roots_read=13)


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The parameters of every statement recall_channels runs (each still runs on the database)."""
    seen: list[dict[str, Any]] = []
    run = channels.fetch_rows  # type: ignore[attr-defined]

    async def recorded(conn: Any, sql: str, params: dict[str, Any]) -> Any:
        seen.append(params | {"reads_pairs": ":tsq2" in sql})
        return await run(conn, sql, params)

    monkeypatch.setattr(channels, "fetch_rows", recorded)
    return seen


async def test_term_pairs_only_for_a_statement_that_reads_them(db: Database, sent: list[dict[str, Any]]) -> None:
    tenant_id = await ensure_tenant(db, "pairs")
    dim = 384
    q = np.asarray(HashedEmbedder(dim).embed_sync(["term0 term1"])[0], dtype=np.float32)
    async with db.tenant(tenant_id) as conn:
        forest = await ensure_forest(conn, tenant_id, "f")
        variants: list[tuple[bool, bool, tuple[ChannelPart, ...]]] = [
            (True, True, ("vector",)),
            (False, False, ("vector",)),
            (True, True, ("lexical",)),
            (True, True, ("vector", "lexical")),
            (False, False, ("lexical",)),
        ]
        for exact, scan, parts in variants:
            await recall_channels(
                conn, tenant_id, forest.forest_id, q, TERMS, ["session"], [], LIMITS,
                exact=exact, scan_text=scan, as_of=None, parts=parts,
            )  # fmt: skip
    assert [p["reads_pairs"] for p in sent] == [False, False, False, False, True]
    assert all(p["tsq2"] is None for p in sent[:4])
    assert sent[4]["tsq2"].count("&") == len(TERMS) * (len(TERMS) - 1) // 2


@pytest.mark.parametrize(("chars", "off_loop"), [(200, False), (20_000, True)])
async def test_a_long_question_is_embedded_off_the_event_loop(chars: int, off_loop: bool) -> None:
    threads: list[int] = []

    class Recording(HashedEmbedder):
        def embed_sync(self, texts: Any) -> Any:
            threads.append(threading.get_ident())
            return super().embed_sync(texts)

    text = ("word " * chars)[:chars]
    vectors = await Recording(384).embed([text])
    assert len(vectors) == 1 and len(vectors[0]) == 384
    assert (threads[0] != threading.get_ident()) is off_loop
