"""Whether statements name an open-ended kind by its words, and whether a verb-class chain's
answer for such a kind is better left to the statements that name it (ADR 0115)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from memforest.attributes import STATE_ATTRIBUTES
from memforest.retrieval.temporal.chains import GENERIC, names_kind
from memforest.retrieval.temporal.ended import mood_of
from memforest.retrieval.temporal.state import State
from memforest.store.sql import Row

__all__ = ["VAGUE_KIND", "names_whole_kind", "told_elsewhere"]

# words of a kind too vague to tell it by ("new place", "usual spot")
VAGUE_KIND = frozenset({"new", "old", "current", "usual", "regular", "local", "main", "favourite", "favorite"})


def names_whole_kind(text: str, asked: str) -> bool:
    """``text`` names every word of kind ``asked`` ("futsal" and "team" of a futsal team), a word
    counting when it begins one of the text."""
    words = [w for w in asked.split("_") if w not in VAGUE_KIND]
    return bool(words) and all(names_kind(text, w) for w in words)


def told_elsewhere(
    rows: Sequence[Row], asked: str | None, runs: Sequence[Sequence[State]], answer: State, own: Callable[[Row], bool]
) -> bool:
    """For an answer of a verb class's chain (which may hold any open-ended kind: the physio one
    started seeing, for "which futsal team"): none of the chain's states (``runs``) names kind
    ``asked``, while another statement about the subject (``own``) by the answer's speaker, with
    no mood, names all of it. The chain then answers for another kind, and the statements naming
    this one are the better read (the loose plan's). False for a named attribute."""
    if asked is None or asked in STATE_ATTRIBUTES or asked in GENERIC:
        return False
    if any(names_whole_kind(s.text, asked) for run in runs for s in run):
        return False
    in_chain = {s.fact_id for run in runs for s in run}
    said_by = {str(r.get("speaker") or "").casefold() for r in rows if int(r["fact_id"]) == answer.fact_id}
    return any(
        int(r["fact_id"]) not in in_chain
        and str(r.get("speaker") or "").casefold() in said_by
        and names_whole_kind(str(r["text"]), asked)
        and mood_of(str(r["text"])) is None
        and own(r)
        for r in rows
    )
