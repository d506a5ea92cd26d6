"""The follow-on's rank is a deployment setting: the preset a deployment reads with carries it."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from memforest.retrieval.preset import RetrievalPreset
from memforest.settings import Settings


def test_the_deployment_preset_carries_the_configured_follow_on_rank() -> None:
    assert RetrievalPreset.for_settings(Settings()).follow_on_rank == 3
    off = Settings.model_validate({"retrieval": {"follow_on_rank": 0}})
    assert RetrievalPreset.for_settings(off).follow_on_rank == 0


def test_a_negative_follow_on_rank_is_refused() -> None:
    with pytest.raises(ValidationError):
        Settings.model_validate({"retrieval": {"follow_on_rank": -1}})
