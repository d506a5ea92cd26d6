"""Breadth: does a question ask for several things?

"Which harbours has X sailed to?", "What board games does X own?", "What do X and Y have in
common?", "How many violins does X repair?", "What has X knitted?" ask for a set (or its size), so
their answer is spread over several places of a conversation, and its members are found by
different signals: some repeat the question's words ("the board games club"), others only mean
what it asks ("a game of Go"), which the model's similarity sees and term overlap does not. With a
real embedding model such a question is ranked by the reciprocal-rank fusion of the rerank's order
and of the order with part of the term-overlap weight moved to similarity (:func:`fused_with_shift`,
the preset's ``several_shift``; ADR 0076): an item high in either order comes up, so the first
places hold members of both kinds. Both orders rank the same scored pool: no statement is added.

The test reads the question's words only (no model, no forest): a "what"/"which" phrase that
names a plural noun followed by its verb ("what books has", "which cities did"), "what are/were",
a wh-word followed by "has"/"have" (the perfect of experience: "where has X camped?"), or a word
of number or comparison ("both", "in common", "how many", "similar").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from operator import attrgetter
from typing import Protocol, TypeVar

from memforest.text.lexicon import words

__all__ = ["asks_for_several", "fused_with_shift"]

_WORD = re.compile(r"[A-Za-z][A-Za-z'/-]*")
# the verbs that close a "what/which" phrase ("what books HAS ...")
_AUX = words("is are was were do does did has have had can could will would should may might am be been being")
# the words after which a plural noun still ends its phrase ("what areas OF the city")
_AFTER_NOUN = _AUX | {"of"}
# words of a "what kind of" phrase, skipped on the way to its noun ("kinds of" is a plural)
_KIND = words("kind type sort of")
# words ending in -s that are no plural noun
_NOT_PLURAL = words("this his its yes always perhaps sometimes news series species")
# phrases of number or comparison: the answer is a set or its size
_SEVERAL = re.compile(r"\b(?:both|in common|how many|similar)\b", re.IGNORECASE)
# the words read after a wh-word for its noun
_PHRASE_WORDS = 4


def _plural(word: str) -> bool:
    """``word`` reads as a plural noun: ends in -s but not -ss/-us/-is, not a possessive, not short."""
    w = word.lower().split("/")[0]
    if "'" in w or len(w) <= 3 or w in _NOT_PLURAL:
        return False
    return w.endswith("s") and not w.endswith(("ss", "us", "is"))


def _plural_phrase(words: list[str]) -> bool:
    """The words after a "what"/"which" name a plural noun that ends the phrase (its verb, "of",
    or the question's end follows): "what video games does", not "what motivates X"."""
    if words and words[0].lower() in ("are", "were"):
        return True
    for j, word in enumerate(words):
        low = word.lower()
        if low in _AUX:
            return False
        if low in _KIND:
            continue
        after = words[j + 1].lower() if j + 1 < len(words) else ""
        if _plural(word) and (after in _AFTER_NOUN or not after):
            return True
    return False


def asks_for_several(text: str) -> bool:
    """The question asks for a set of things or its size (module docstring)."""
    if _SEVERAL.search(text):
        return True
    words = _WORD.findall(text)
    for i, word in enumerate(words):
        low, rest = word.lower(), words[i + 1 : i + 1 + _PHRASE_WORDS]
        if low in ("what", "which", "where", "who") and rest and rest[0].lower() in ("has", "have"):
            return True
        if low in ("what", "which") and _plural_phrase(rest):
            return True
    return False


class Scored(Protocol):
    """What the fusion reads of a reranked item."""

    kind: str
    source_id: int
    start: datetime
    score: float
    sim: float
    lexical: float


S = TypeVar("S", bound=Scored)
_TIES = attrgetter("start", "kind", "source_id")  # the rerank's order among equal scores


def fused_with_shift(ranked: Sequence[S], shift: float, k: int) -> list[S]:
    """``ranked`` (best first, by ``score``) in the order of the reciprocal-rank fusion (constant
    ``k``) of that order and of the order by ``score + shift * (sim - lexical)``: the score with
    ``shift`` of the term-overlap weight moved to similarity. Ties keep ``ranked``'s order; the
    scores are not changed. A ``shift`` of 0 (or a single item) keeps ``ranked`` as it is."""
    if shift <= 0.0 or len(ranked) < 2:
        return list(ranked)
    moved = sorted(
        ranked, key=lambda it: (-(it.score + shift * (it.sim - it.lexical)), it.start, it.kind, it.source_id)
    )
    fused = {id(it): 1.0 / (k + rank) for rank, it in enumerate(ranked, start=1)}
    for rank, it in enumerate(moved, start=1):
        fused[id(it)] += 1.0 / (k + rank)
    return sorted(ranked, key=lambda it: -fused[id(it)])
