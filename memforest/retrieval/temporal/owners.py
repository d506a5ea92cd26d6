"""Whom a question names and asks nothing of: the words that open a question and name no one, and
the asker named only as the owner of a named relative ("Where did my cousin Mia work?")."""

from __future__ import annotations

import re

from memforest.text.lexicon import CAPITALS
from memforest.text.state_words import KIN

# words a capitalised run of a question may open with that are no part of a name ("When Ana ...")
QUESTION_WORDS = frozenset(
    str.split(
        """which what where who whom whose when why how did does do is was were has have had the a an once after
        before following since until till prior now currently so and or but then in on at as of by for from with
        while whilst during
        to also around roughly tell remember recall please hey ok back way just still even actually"""
    )
)


# the asker's whole name before "'s <kin> <Name>" ("Tamsin Ekwueme's cousin Oriel"), at most four words
_OWNER_RUN = re.compile(
    rf"(?<![\w'-])(?P<owner>[{CAPITALS}][\w-]*(?:\s+[{CAPITALS}][\w-]*){{0,3}}+)'s\s+(?i:{KIN})\s+[{CAPITALS}]"
)


def askers_owned(question: str, speaker: str | None) -> frozenset[str]:
    """The words of the asker's name when the question names the asker only as the owner of a named
    relative ("Where did my cousin Mia work?", "my" read as the asker's name): it asks nothing of
    the asker. Empty otherwise: another person named as an owner may still be asked about ("Did
    Ana's brother Tom visit before she moved?")."""
    if not speaker or len(re.findall(rf"(?<![\w']){re.escape(speaker)}(?![\w-])", question)) != 1:
        return frozenset()
    owned = any(m["owner"] == speaker or m["owner"].endswith(" " + speaker) for m in _OWNER_RUN.finditer(question))
    return frozenset(speaker.split()) if owned else frozenset()
