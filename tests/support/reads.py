"""Read-path probes: record what the query service asked of its stages, without changing it."""

from __future__ import annotations

from typing import Any

import pytest

from memforest.retrieval import service
from memforest.retrieval.browse import Leaf, leaf_cap
from memforest.store.browse.descent import Descent


def record_leaf_caps(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The live-leaf cap of every emb browse the query service runs from now on (0: every leaf),
    appended to the returned list, whether the descent runs on its own (``browse_emb``, a query
    with a source filter) or in assembly's statement (``emb_descent``); browse itself runs as before."""
    caps: list[int] = []
    real_browse, real_descent = service.browse_emb, service.emb_descent

    async def browsing(*args: Any, live_only: bool = False) -> list[Leaf]:
        preset, cues = args[5], args[6]
        caps.append(leaf_cap(preset, cues, live_only=live_only))
        return await real_browse(*args, live_only=live_only)

    def descending(*args: Any, live_only: bool = False) -> Descent | None:
        preset, cues = args[1], args[2]
        caps.append(leaf_cap(preset, cues, live_only=live_only))
        return real_descent(*args, live_only=live_only)

    monkeypatch.setattr(service, "browse_emb", browsing)
    monkeypatch.setattr(service, "emb_descent", descending)
    return caps
