"""A thing told, as the subject of its sentence, as one's former one in the past tense: "Ana's old
flat on Quill Street was tiny", "Ana's previous house in X had a garden", "Ana's last car was a Y",
"the old house in X was freezing" (issue 48, item 3: nostalgia about a past state does not re-open
it). Only the past tense tells it ("Ana's old flat is tiny" may be the flat Ana has); an old or
former person is still a person ("Ana's old friend moved to X" is the friend's move); a clause after
the past one states its own ("Ana's old car was a wreck, so Ana bought a Y")."""

from __future__ import annotations

import re

from memforest.text.lexicon import IRREGULAR_PAST
from memforest.text.person_keys import NAME
from memforest.text.state_words import KIN, KIN_PLURALS

__all__ = ["told_as_former"]

# words for a person that are no relation ("the old man next door")
_PERSONS = r"man|men|woman|women|lady|ladies|guy|gent|couple|boy|girl|fellow|chap|timer"
_PAST = rf"(?:{'|'.join(sorted(IRREGULAR_PAST))}|[a-z]+ed)"
# the sentence's subject: an owner (or "the") and a word of a former thing, no person after it, and
# the past-tense verb that ends it (at most six words on)
_FORMER_SUBJECT = re.compile(
    rf"^\W*(?:(?:(?i:my|our|his|her|their)|{NAME}'s)\s+(?i:old|previous|former|last|childhood)"
    rf"|(?i:the)\s+(?i:old|previous|former|childhood))\s+(?!(?:(?i:{KIN}|{_PERSONS})s?|{KIN_PLURALS}|{NAME})\b)"
    rf"(?:[\w'&-]+\s+){{1,6}}?(?P<verb>{_PAST})\b"
)
# where the past verb's clause ends: a mark, or a conjunction that opens another clause
_CLAUSE_END = re.compile(r"[,;:.!?]|\s(?:so|and|but|because|now|then)\s")


def told_as_former(text: str, value: str) -> bool:
    """``value`` (a state's value in ``text``) is part of, or said of, a former thing that opens the
    sentence in the past tense, in the same clause."""
    m = _FORMER_SUBJECT.match(text)
    at = text.find(value)
    if m is None or at < 0:
        return False
    end = _CLAUSE_END.search(text, m.end("verb"))
    return at < (end.start() if end is not None else len(text))
