"""A thing told, as the subject of its sentence, as one's former one in the past tense: "Ana's old
flat on Quill Street was tiny", "Ana's previous house in X had a garden", "Ana's last car was a Y",
"the old house in X was freezing" (issue 48, item 3: nostalgia about a past state does not re-open
it). Only the past tense tells it ("Ana's old flat is tiny" may be the flat Ana has); an old or
former person is still a person ("Ana's old friend moved to X" is the friend's move); a clause after
the past one states its own ("Ana's old car was a wreck, so Ana bought a Y")."""

from __future__ import annotations

import re

from memforest.text.lexicon import IRREGULAR_PAST, WORD_START
from memforest.text.person_keys import NAME
from memforest.text.state_words import KIN, KIN_PLURALS, PERSON_NOUNS

__all__ = ["told_as_former"]

# any word for a person ("the old man next door", "my old school friend")
_PERSON_WORD = rf"(?:(?i:(?:{KIN})s?|{PERSON_NOUNS}|timer)|{KIN_PLURALS})"
_PAST = rf"(?:{'|'.join(sorted(IRREGULAR_PAST))}|[a-z]+ed)"
# the sentence's subject: an owner (or "the") and a word of a former thing, no name and no person in
# its next words, and the past-tense verb that ends it (at most six words on), with the word after
_FORMER_SUBJECT = re.compile(
    rf"^\W*(?:(?:(?i:my|our|his|her|their)|{NAME}'s)\s+(?P<adj>(?i:old|previous|former|last|childhood))"
    rf"|(?i:the)\s+(?i:old|previous|former|childhood))\s+(?!{NAME}\b)(?!(?:[\w'-]+\s+){{0,3}}?{_PERSON_WORD}\b)"
    rf"(?:[\w'&-]+\s+){{1,6}}?(?P<verb>{_PAST})\b(?:\s+(?P<next>[\w'-]+))?"
)
# a verb of being or having whose complement tells what the former thing was ("was a Y", "had a
# garden"), not a passive ("was upgraded to a Y")
_COPULA = frozenset({"was", "were", "had"})
_PARTICIPLE = re.compile(
    rf"{WORD_START}(?:[a-z]+ed|been|gone|done|taken|given|seen|known|stolen|driven|broken|chosen|sold|bought|made)"
)
# where the past verb's clause ends: a mark, or a conjunction that opens another clause
_CLAUSE_END = re.compile(r"[,;:.!?]|\s(?:so|and|but|because|now|then|while|when|after|which|who|until)\s")


def told_as_former(text: str, value: str) -> bool:
    """``value`` (a state's value in ``text``) is part of a former thing that opens the sentence in
    the past tense ("Ana's old job at X paid better"; not after "last", which may be the latest:
    "Ana's last payslip from X arrived"), or the complement of its verb of being or having, in the
    same clause ("Ana's last car was a Y"); not what the verb did to someone ("Ana's previous
    company moved Ana to X", "Ana's old team at X hired Ana back", "Ana's old phone was upgraded
    to a Y")."""
    m = _FORMER_SUBJECT.match(text)
    at = text.find(value)
    if m is None or at < 0 or (m["next"] or "")[:1].isupper():
        return False  # (what the thing did to a person: "Ana's old team at X hired Ana back")
    if at < m.start("verb"):
        return (m["adj"] or "").lower() != "last"
    if m["verb"].lower() not in _COPULA or (m["next"] is not None and _PARTICIPLE.fullmatch(m["next"].lower())):
        return False
    end = _CLAUSE_END.search(text, m.end("verb"))
    return at < (end.start() if end is not None else len(text))
