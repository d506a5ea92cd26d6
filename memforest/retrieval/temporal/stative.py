"""Whether a question asks what held at a time (a state: "what was my dentist in May 2023?",
"which bike did Ana have two years ago?", "where did I live in 2021?") rather than what happened
or was going on then ("what did Ana find in May 2023?", "what is Ana learning in May?", "what was
her favourite show, as mentioned in May?"): read from its verb, a form of "be" (not of a
progressive), a "have" or "own" of the noun the question names, or a verb of dwelling or working.
Pure functions."""

from __future__ import annotations

import re

__all__ = ["asks_what_held"]

# "what was ...", "which bike was ...", "who is ...": the asked thing is a form of "be" away
_WH_BE = re.compile(r"^\s*(?:what|which|who|where)\b(?:\s+[\w'-]+){0,3}?\s+(?:am|is|are|was|were)\b", re.I)
# "which bike did Ana have", "what phone does she use": a wh-word with its own noun, then the verb
_WH_NOUN_HAVE = re.compile(
    r"^\s*(?:what|which)\s+[\w'-]+(?:\s+[\w'-]+){0,2}?\s+(?:did|does|do)\s+[^?]*?\b(?:have|own)\b", re.I
)
# a progressive ("is Ana learning to", "was Tim visiting in", "is she working on?") or a time that is
# when something was said ("as mentioned in May"): what went on or was said then, no state
_GOING_ON = re.compile(
    r"\b(?!(?:spring|morning|evening|during|thing|something|anything|nothing|wedding|building)\b)\w{2,}ing"
    r"\s+(?:to|for|on|in|at|with|about|ready|up|out)\b|\b(?:mentioned|said|told|shared)\b",
    re.I,
)
# "where did I live", "where does Ana work"
_WHERE_DWELL = re.compile(r"^\s*where\s+(?:did|does|do)\s+[^?]*?\b(?:live|stay|work|study)\b", re.I)


def asks_what_held(question: str) -> bool:
    """``question`` asks for a state by its verb (module doc): a form of "be" after its wh-word, a
    wh-word with a noun of its own that the subject has or owns, or where someone lives or works;
    and nothing in it goes on or is said at the time (``_GOING_ON``)."""
    if _GOING_ON.search(question):
        return False
    return any(p.search(question) for p in (_WH_BE, _WH_NOUN_HAVE, _WHERE_DWELL))
