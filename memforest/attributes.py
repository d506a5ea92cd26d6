"""The state attributes MemForest keeps supersession chains for, and the words that name them.

A fact that states a value of a person's attribute carries (subject, attribute, value); facts of
one (subject, attribute) form a chain ordered by ``valid_from`` (see ``rules.supersession_slot``).
The extractor writes these attribute names; the temporal read path maps a question's words to
them. Both sides use this one vocabulary.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final


def _words(text: str) -> tuple[str, ...]:
    """Comma-separated words or phrases -> tuple (keeps the lists readable)."""
    return tuple(w.strip() for w in text.split(",") if w.strip())


# attribute -> words a question may use for it (lower case, single words or short phrases)
ATTRIBUTE_WORDS: Final = MappingProxyType(
    {
        "residence": _words(
            "live, lives, lived, living, home, city, town, move, moved, based, reside, resides, resided, address, "
            "relocate, relocated, settle, settled, neighbourhood, neighborhood"
        ),
        "employer": _words(
            "work, works, worked, working, employer, employers, company, job at, employed, employ, employs, boss, "
            "hired, hire, join, joined, firm, workplace"
        ),
        "job": _words("job, job title, position, role, occupation, profession"),
        "school": _words("school, study, studies, studied, university, college, student"),
        "partner": _words("partner, dating, girlfriend, boyfriend, wife, husband, married, with"),
        "pet": _words(
            "pet, pets, dog, cat, puppy, kitten, rescue, animal, animals, adopt, adopted, furry, creature, critter"
        ),
        "vehicle": _words("car, cars, drive, drives, drove, driving, driven, vehicle, ride, wheels, bike, motorbike"),
        "home_type": _words("flat, apartment, house, home type, condo"),
        "diet": _words("diet, eat, eats, vegan, vegetarian"),
        "health": _words("health, condition, diagnosed, illness, injury"),
        "hobby": _words("hobby, sport, pastime, play, plays, into"),
        "device": _words("phone, laptop, device, computer, tablet"),
        "relationship_status": _words("single, married, engaged, divorced, relationship status"),
        "origin": _words("from, grew up, origin, born"),
    }
)

STATE_ATTRIBUTES: Final = frozenset(ATTRIBUTE_WORDS)


def named_attribute(noun: str) -> str | None:
    """The named attribute a noun phrase is a word for, if any: the whole phrase, else its head
    (last word), else any of its words ("home city" -> residence, "laptop" -> device)."""
    words = noun.lower().replace("_", " ").split()
    if not words:
        return None
    for candidate in (" ".join(words), words[-1], *words):
        for attribute, names in ATTRIBUTE_WORDS.items():
            if candidate in names:
                return attribute
    return None
