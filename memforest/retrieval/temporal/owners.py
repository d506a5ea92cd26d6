"""Whom a question names and asks nothing of: the words that open a question and name no one, and
a name the question uses only as the owner of a named relative ("Ana" of "Where does Ana's cousin
Mia work?")."""

from __future__ import annotations

import re

from memforest.text.lexicon import CAPITALS
from memforest.text.state_words import KIN

# words a capitalised run of a question may open with that are no part of a name ("When Ana ...")
QUESTION_WORDS = frozenset(
    str.split(
        """which what where who whom whose when how did does do is was were has have had the a an once after
        before following since until till prior now currently so and but then in on at as of by for from with
        while whilst during
        to also around roughly tell remember recall please hey ok back way just still even actually"""
    )
)


# the whole name before "'s <kin> <Name>" ("Tamsin Ekwueme's cousin Oriel")
_OWNER_RUN = re.compile(rf"(?P<owner>[{CAPITALS}][\w-]*(?:\s+[{CAPITALS}][\w-]*)*)'s\s+(?i:{KIN})\s+[{CAPITALS}]")


def only_owning(name: str, question: str) -> bool:
    """``name`` is (part of) a name the question names once, as the owner of a named relative: it
    asks nothing of them ("Where did Ana's cousin Mia work?")."""
    for m in _OWNER_RUN.finditer(question):
        words = m["owner"].split()
        while words and words[0].lower() in QUESTION_WORDS:
            words.pop(0)
        owner = " ".join(words)
        if (
            owner
            and set(name.split()) <= set(words)
            and len(re.findall(rf"(?<![\w']){re.escape(owner)}(?![\w-])", question)) == 1
        ):
            return True
    return False
