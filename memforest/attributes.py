"""The state attributes MemForest keeps supersession chains for, and the words that name them.

A fact that states a value of a person's attribute carries (subject, attribute, value); facts of
one (subject, attribute) form a chain ordered by ``valid_from`` (see ``rules.supersession_slot``).
The extractor writes these attribute names; the temporal read path maps a question's words to
them. Both sides use this one vocabulary.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

# attribute -> words a question may use for it (lower case, single words or short phrases)
ATTRIBUTE_WORDS: Final = MappingProxyType(
    {
        "residence": ("live", "lives", "lived", "living", "home", "city", "town", "move", "moved", "based"),
        "employer": ("work", "works", "worked", "working", "employer", "company", "job at", "employed"),
        "job": ("job", "job title", "position", "role", "occupation", "profession"),
        "school": ("school", "study", "studies", "studied", "university", "college", "student"),
        "partner": ("partner", "dating", "date", "girlfriend", "boyfriend", "wife", "husband", "married", "with"),
        "pet": ("pet", "dog", "cat", "puppy", "kitten", "rescue"),
        "vehicle": ("car", "drive", "drives", "drove", "vehicle", "bike", "motorbike"),
        "home_type": ("flat", "apartment", "house", "home type", "condo"),
        "diet": ("diet", "eat", "eats", "vegan", "vegetarian"),
        "health": ("health", "condition", "diagnosed", "illness", "injury"),
        "hobby": ("hobby", "sport", "pastime", "play", "plays", "into"),
        "device": ("phone", "laptop", "device", "computer", "tablet"),
        "relationship_status": ("single", "married", "engaged", "divorced", "relationship status"),
        "origin": ("from", "grew up", "origin", "born"),
    }
)

STATE_ATTRIBUTES: Final = frozenset(ATTRIBUTE_WORDS)
