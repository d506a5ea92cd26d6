"""One slot for the words that name one kind of person who serves or shares with someone:
"physiotherapist" and "physio", "GP" and "doctor", "roommate" and "flatmate". A slot's last word is
spelled the one way wherever a slot is named (``changes.slot_key``: the write side's readers and the
read path's asked noun alike; migration 0030 files the facts stored before under it too), so a chain
told with one word is found by a question with the other.
"""

from __future__ import annotations

import re
from types import MappingProxyType
from typing import Final

__all__ = ["ONE_SPELLING", "one_spelling", "other_spellings", "spelled_otherwise"]

# a word (lower case, singular) -> the slot word it is filed under
ONE_SPELLING: Final = MappingProxyType(
    {
        "physiotherapist": "physio",
        "gp": "doctor",
        "counselor": "counsellor",
        "landlady": "landlord",
        "roommate": "flatmate",
        "housemate": "flatmate",
        "veterinarian": "vet",
        "optometrist": "optician",
    }
)


def one_spelling(word: str) -> str:
    """The slot word ``word`` (lower case, singular) is filed under: itself unless it is another spelling."""
    return ONE_SPELLING.get(word, word)


def other_spellings(word: str) -> tuple[str, ...]:
    """The words other than slot word ``word`` that are filed under it ("doctor": gp)."""
    return tuple(other for other, one in ONE_SPELLING.items() if one == word and other != word)


def spelled_otherwise(word: str) -> str:
    """A pattern source for the other spellings of slot word ``word``, each a whole word, with its
    plural; a short one's plural only in lower case ("GPs", never "GPS"). Empty when there are none."""
    return "|".join(
        rf"{re.escape(other)}(?-i:s)?" if len(other) <= 3 else rf"{re.escape(other)}s?"
        for other in other_spellings(word)
    )
