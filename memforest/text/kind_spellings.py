"""One slot for the words that name one kind of person who serves or shares with someone:
"physiotherapist" and "physio", "GP" and "doctor", "roommate" and "flatmate". A slot's last word is
spelled the one way wherever a slot is named (``changes.slot_key``: the write side's readers and the
read path's asked noun alike), so a chain told with one word is found by a question with the other.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

__all__ = ["ONE_SPELLING", "one_spelling", "spellings"]

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


def spellings(word: str) -> tuple[str, ...]:
    """The words filed under slot word ``word``: itself first, then its other spellings ("doctor":
    doctor, gp), by which a statement may name the kind."""
    return (word, *(other for other, one in ONE_SPELLING.items() if one == word and other != word))
