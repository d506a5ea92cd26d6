"""Whether a question asks what held at a time (a state: "what was my dentist in May 2023?",
"which bike did Ana have two years ago?", "where did I live in 2021?") rather than what happened
or was going on then ("what did Ana find in May 2023?", "what is Ana learning in May?", "what was
the book Ana read in May?", "what was her favourite show, as mentioned in May?"): read from its
verb, a form of "be" (not of a progressive, nor before a clause of its own), a "have" or "own" of
the noun the question names, or a verb of dwelling or working. The question is read with its time
expressions cut out (``timecues.without_times``). Pure functions."""

from __future__ import annotations

import re

__all__ = ["asks_what_held"]

_BE = r"(?i:am|is|are|was|were)"
# a subject of a clause: a name (not a possessive: "Bruno's landlord") or a personal pronoun
_SUBJECT = r"(?:[A-Z][\w-]*\b(?!['’]s)|I|you|he|she|we|they)"

# "what was ...", "which bike was ...", "who is ...": the asked thing is a form of "be" away
_WH_BE = re.compile(rf"^\s*(?i:what|which|who|where)\b(?:\s+[\w'-]+){{0,3}}?\s+{_BE}\b")
# "which bike did Ana have", "what phone does she use": a wh-word with its own noun, then the
# verb, in the same clause
_WH_NOUN_HAVE = re.compile(
    r"^\s*(?:what|which)\s+[\w'-]+(?:\s+[\w'-]+){0,2}?\s+(?:did|does|do)\s+[^?,;]*?\b(?:have|own)\b", re.I
)
# "where did I live", "where does Ana work", "where was Ana living"
_WHERE_DWELL = re.compile(
    r"^\s*where\s+(?:(?:did|does|do)\s+[^?,;]*?\b(?:live|stay|work|study)\b"
    rf"|{_BE}\s+{_SUBJECT}\s+(?:living|staying|working|studying)\b)",
    re.I,
)
# a progressive ("is Ana learning", "was she visiting") or a verb of saying ("as mentioned in
# May"): what went on or was said then, no state
_GOING_ON = re.compile(
    rf"\b{_BE}\s+(?:{_SUBJECT}\s+)?(?:(?i:still|also|just)\s+)?"
    r"(?!(?i:spring|morning|evening|during|thing|something|anything|nothing|wedding|building)\b)[a-z]\w+ing\b"
    r"|\b(?i:mentioned|said|told|shared)\b"
)
# "what was the book Ana read", "what was the name of the cafe she tried": after the form of
# "be", a noun with a clause of its own (a subject and its verb) tells an event
_CLAUSE_AFTER_BE = re.compile(
    rf"\b{_BE}\s+(?i:the|a|an)\s+(?:[\w'-]+\s+){{0,5}}?{_SUBJECT}\s+"
    r"(?!(?i:in|on|at|as|of|for|from|to|and|or|during|around|back|last|this|that|before|after|now|then)\b)[a-z]+\b"
)


def asks_what_held(question: str) -> bool:
    """``question`` asks for a state by its verb (module doc): a form of "be" after its wh-word
    (no clause of its own after it), a wh-word with a noun of its own that the subject has or
    owns, or where someone lives or works; and nothing in it goes on or is said (``_GOING_ON``)."""
    question = question.lstrip(" ,;:-")
    if _WHERE_DWELL.search(question):
        return True
    if _GOING_ON.search(question):
        return False
    if _WH_BE.search(question):
        return not _CLAUSE_AFTER_BE.search(question)
    return bool(_WH_NOUN_HAVE.search(question))
