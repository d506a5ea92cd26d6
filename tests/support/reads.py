"""Read-path probes: record what the query service asked of its stages, without changing it."""

from __future__ import annotations

from typing import Any

import pytest

from memforest.retrieval import service
from memforest.retrieval.browse import Leaf, leaf_cap


def record_leaf_caps(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The live-leaf cap of every emb browse the query service runs from now on (0: every leaf),
    appended to the returned list; browse itself runs as before."""
    caps: list[int] = []
    real = service.browse_emb

    async def recording(*args: Any, live_only: bool = False, **kwargs: Any) -> list[Leaf]:
        preset, cues = args[5], args[6]
        caps.append(leaf_cap(preset, cues, live_only=live_only))
        return await real(*args, live_only=live_only, **kwargs)

    monkeypatch.setattr(service, "browse_emb", recording)
    return caps
