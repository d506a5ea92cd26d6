"""``lexicon.folded``: a word as people type it who leave out its accents and marks."""

from __future__ import annotations

import pytest

from memforest.text.lexicon import folded


@pytest.mark.parametrize(
    ("written", "typed"),
    [("Dúnlaith", "dunlaith"), ("Łukasz", "lukasz"), ("Søndervig", "sondervig"), ("Þóra", "thora"),
     ("Đức Anh", "duc anh"), ("İpek", "ipek"), ("Straße", "strasse"), ("plain", "plain")],
)  # fmt: skip
def test_folded_drops_case_and_marks(written: str, typed: str) -> None:
    assert folded(written) == typed
