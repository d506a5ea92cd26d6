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
        "vehicle": _words(
            "car, cars, drive, drives, drove, driving, driven, vehicle, ride, wheels, bike, motorbike, e-bike, "
            "bicycle, sedan, saloon, hatchback, coupe, convertible, roadster, suv, minivan, campervan, motorcycle, "
            "scooter"
        ),
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

# the slots of a state whose sentence names no kind of thing: the class of its verb of change
# (joining, acquiring, starting to go to, switching: ``memforest.text.changes``). Two such states
# may be of any two kinds (a choir joined, a gym joined), so they form no timeline on the write side
# (``rules.timeline_slot``); the read path links them by the values they name.
VERB_CLASSES: Final = ("membership", "possession", "patronage", "change")


# head nouns that name no kind of thing of their own: in "furry friend" or "four-legged pal" the
# word before them says what kind of thing is meant
_STAND_INS = frozenset(
    _words(
        "friend, friends, companion, companions, buddy, buddies, pal, pals, one, ones, thing, things, guy, guys, "
        "girl, boy, baby, babies, fella, member, members"
    )
)


def _attribute_of(word: str) -> str | None:
    for attribute, names in ATTRIBUTE_WORDS.items():
        if word in names:
            return attribute
    return None


def named_attribute(noun: str) -> str | None:
    """The named attribute a noun phrase is a word for, if any: the whole phrase, else its head
    (last word: "home city" -> residence, "work laptop" -> device). A compound is the kind its
    head names, so "dog walker" or "bike shop" is none; only a head that names no kind ("furry
    friend", "the furry one") takes the kind of a word before it."""
    words = noun.lower().replace("_", " ").split()
    if not words:
        return None
    whole = _attribute_of(" ".join(words)) or _attribute_of(words[-1])
    if whole is not None or words[-1] not in _STAND_INS:
        return whole
    return next((a for a in map(_attribute_of, reversed(words[:-1])) if a is not None), None)
