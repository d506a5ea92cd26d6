"""A name pattern begins with its capital, the boundary checked behind it (ADR 0094): ``re`` can
then skip to the capitals of a sentence instead of trying the whole pattern at every position,
and it matches exactly where the boundary-first form matches."""

from __future__ import annotations

import random
import re

from memforest.text import slots
from memforest.text.change_subjects import NAME
from memforest.text.lexicon import CAPITALS

_BOUNDARY_FIRST = rf"(?<![\w'-])[{CAPITALS}][\w-]*"
_ALPHABET = ["Q", "Zed", "x", "y7", " ", "'", "-", "_", "3", ".", ",", "é", "Ölm", "\n", "'s "]


def _texts(n: int) -> list[str]:
    rng = random.Random(94)
    return ["".join(rng.choice(_ALPHABET) for _ in range(rng.randint(0, 14))) for _ in range(n)]


def test_name_starts_with_its_capital() -> None:
    assert NAME.startswith(f"[{CAPITALS}]")
    assert slots._SUBJ.startswith(f"(?P<subj>[{CAPITALS}]")


def test_name_matches_where_the_boundary_first_form_matches() -> None:
    for flags in (0, re.IGNORECASE):
        ours, theirs = re.compile(NAME, flags), re.compile(_BOUNDARY_FIRST, flags)
        for text in [*_texts(3000), "Zed", "x-Zed y'Zed _Zed 3Zed Zed's", ""]:
            assert [m.span() for m in ours.finditer(text)] == [m.span() for m in theirs.finditer(text)], text
            for pos in range(len(text) + 1):
                a, b = ours.match(text, pos), theirs.match(text, pos)
                assert (a and a.span()) == (b and b.span()), (text, pos)


def test_subject_matches_where_the_boundary_first_form_matches() -> None:
    theirs = re.compile(rf"(?P<subj>(?<![\w'-])[{CAPITALS}][\w'-]*(?:\s+[{CAPITALS}][\w'-]*){{0,2}})")
    ours = re.compile(slots._SUBJ)
    for text in [*_texts(3000), "Zed Qy Xo Wu", "o'Zed Qy", "-Zed"]:
        assert [m.span("subj") for m in ours.finditer(text)] == [m.span("subj") for m in theirs.finditer(text)], text
