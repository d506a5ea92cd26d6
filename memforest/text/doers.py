"""Who or what may be the doer in a state read from its consequence (``changes.find_change``).

A consequence names a value by what it did or what was done with it, and ordinary chat has the
same shape with people in it. The value is taken only when its grammar says it is no person:

* an animal's doing ("X barked", "X chewed ...") is a pet's only when X is no one taking part in
  the conversation;
* a provider who did something for a person ("X fixed Ana's wheel", "Dr. X said Ana's fillings
  look fine") is a business by the form of its name (an article, an ampersand, a business's head
  noun), or a doctor who did something to the person's own things; a first and last name alone
  is a person, whatever they did;
* a vehicle taken by its verb ("drove/rode/serviced the X") is the subject's only when it is
  theirs ("rode Ana's X") or its name is a vehicle's ("drove the Honda Civic"): trains, planes and
  other people's cars are ridden and driven too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from memforest.text.state_values import thing_kind
from memforest.text.state_words import KIN

__all__ = ["plausible_doer"]

# the head nouns of a business's name ("Bramblewick Cycles", "Harbourline Mutual", "Oakline Vets")
_BUSINESS_HEADS = frozenset(
    str.split(
        """cycles bikes motors autos garage tyres tires salon barbers barber hair cuts dental dentistry
        clinic surgery practice vets veterinary pharmacy chemist chemists opticians optical physio physiotherapy
        insurance assurance mutual bank ltd ltd. inc inc. co co. company services group studio studios gym
        fitness spa bakery cafe café kitchen shop store repairs plumbing electrical builders cleaners tailors
        laundry movers removals"""
    )
)
_DOCTOR = re.compile(r"^(?:Dr\.?|Doctor)\s")
_KIN_RE = re.compile(rf"^(?:{KIN})$", re.IGNORECASE)
_ARTICLE = re.compile(r"^(?i:the)\s")


def _business(value: str) -> bool:
    """A name no person has: an ampersand in it, a business's head noun last, or an article before
    it, unless the article stands before one plural name ("the Smiths": a family or a band)."""
    words = value.split()
    if "&" in value or words[-1].lower() in _BUSINESS_HEADS:
        return True
    return _ARTICLE.match(value) is not None and not (len(words) == 2 and words[1].endswith("s"))


def _own_thing(m: re.Match[str]) -> bool:
    """The doer acted on a person's own thing ("Ana's fillings"), not on a person ("Ana's son")."""
    thing = m["thing"]
    return thing is not None and _KIN_RE.match(thing.split()[-1]) is None


def _names_one_of(value: str, names: Iterable[str]) -> bool:
    words = {w.casefold() for w in value.split()}
    return any(n.casefold() in words for n in names if n)


def plausible_doer(m: re.Match[str], value: str, names: Iterable[str]) -> bool:
    """False when the rule that matched ``m`` read a value its grammar does not allow (see the
    module doc); ``names`` are the speaker and the other participants. True for other rules."""
    groups = m.re.groupindex
    if "animal" in groups or "thing" in groups:
        if _names_one_of(value, names):
            return False  # a participant is never an animal, a business or a doctor
        if "animal" in groups:
            return True
        return _business(value) or (_DOCTOR.match(value) is not None and _own_thing(m))
    if "service" in groups and m["service"] is not None and _names_one_of(value, names):
        return False  # "my first lesson with Tom", Tom in the conversation: a companion, not a service
    if "ride" in groups and m["ride"] is not None:
        return bool(m["owner"] or m["pron"]) or thing_kind(value) == "vehicle"
    return True
