"""Whose an animal or a partner named by apposition is: the possessor right before its noun.

"Priya's dog Waffles chewed my charger" tells of Priya's dog, and "Marco's girlfriend Lena is
coming over" of Marco's partner: whoever else the sentence names, the possessive before the noun
that introduces the value holds it. A relative's possessive names the relative ("Ana's sister's
cat Rex": "Ana's sister"). The speaker's own ("my dog Rufus", rewritten "Dana's dog Rufus") names
the speaker, as it should. An animal the sentence's subject took in from its possessor ("we took
in Priya's cat Miso") and a business's ("Harbour Clinic's cat") are left to the subject reader.
"""

from __future__ import annotations

import re

from memforest.text.lexicon import CAPITALS, WORD_START
from memforest.text.state_words import ANIMALS, KIN, PARTNER_NOUNS

__all__ = ["name_ends_before", "possessor_of"]

_NAME = rf"[{CAPITALS}][\w-]*"
# "Priya's", "Ana's sister's", "Ana's older brother Tom's"; then up to two describing words and the noun
_OWNED_BEFORE = re.compile(
    rf"{WORD_START}(?P<owner>{_NAME}(?:'s\s+(?:\w+\s+)?(?P<kin>{KIN})(?:\s+(?P<kin_name>{_NAME}))?)?)'s\s+"
    rf"(?:[a-z][\w-]*\s+){{0,2}}?(?:{ANIMALS}|{PARTNER_NOUNS}),?\s+(?:called\s+|named\s+)?$"
)


# a verb of taking the animal in right before the possessive: the one who took it in holds it
# ("We took in Priya's cat Miso for good")
_TAKEN_IN = re.compile(
    r"\b(?i:took\s+in|taken\s+in|taking\s+in|adopted|adopting|rehomed|inherited|got|have|has|kept|keeping)\s+$"
)
# a capitalised word right before the possessor: a business's name ("Harbour Clinic's cat")
_NAME_BEFORE = re.compile(rf"(?<![\w'&-])[{CAPITALS}][\w'&-]*+\s++$")


def name_ends_before(text: str, at: int) -> bool:
    """A capitalised word ends right before ``at``: what follows ends a business's or place's name
    ("Harbour Clinic's"), not a person's possessive (read in a short window: linear in the text)."""
    return _NAME_BEFORE.search(text, max(0, at - 40), at) is not None


def possessor_of(text: str, value: str) -> str | None:
    """The holder the possessive before ``value``'s noun names, or None when no possessive,
    animal or partner noun comes right before ``value`` (read in a short window: linear in the text)."""
    for m in re.finditer(rf"(?<![\w']){re.escape(value)}(?![\w-])", text):
        owned = _OWNED_BEFORE.search(text, max(0, m.start() - 80), m.start())
        if owned is None:
            continue
        start = owned.start("owner")
        if _TAKEN_IN.search(text, max(0, start - 30), start) or name_ends_before(text, start):
            return None
        if owned["kin_name"]:
            return owned["kin_name"]  # "Ana's brother Tom's dog Rex": Tom's
        if owned["kin"]:
            return f"{owned['owner'].split(chr(39))[0]}'s {owned['kin'].lower()}"
        return owned["owner"]
    return None
