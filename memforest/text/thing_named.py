"""A thing got in one sentence and named only in the next: "Got a new phone today. It's a
Pinecone 5.", "Picked up a new bike yesterday! Second-hand Vejas Gravel 2, green." The first
sentence names the kind of thing (a word of a named attribute: a phone is a device, a bike a
vehicle) and no name; the next opens with the name (after "It's a", an article, or words of
condition), so the name is the speaker's new state of that attribute."""

from __future__ import annotations

import re

from memforest.attributes import named_attribute
from memforest.text.change_subjects import subjects_named
from memforest.text.lexicon import CAPITALS, ENTITY_EXCLUDE

__all__ = ["thing_named"]

_CONDITION = r"(?:(?:new|brand[- ]new|used|second[- ]hand|secondhand|refurbished|shiny|little|old)\s+)*"
# getting a thing of a kind, no name after it ("got a new phone", "picked up a used bike")
_GOT_THING = re.compile(
    rf"\b(?i:got|bought|picked\s+up|ordered|treated\s+\w+\s+to)\s+(?:a|an)\s+(?i:{_CONDITION})"
    rf"(?P<kind>[a-z][a-z-]+)\s*(?:[.!]|$|\s+(?:today|yesterday|tonight|this|last|at|from|for|on)\b)"
)
# the next sentence opening with a name ("It's a Pinecone 5", "Second-hand Vejas Gravel 2, green")
_NAME_FIRST = re.compile(
    rf"^(?:It(?:'s|\s+is)\s+)?(?:(?i:a|an)\s+)?(?i:{_CONDITION})"
    rf"(?P<name>[{CAPITALS}][\w.-]*(?:\s+(?:[{CAPITALS}][\w.-]*|\d[\w.]*)){{0,3}})(?=[\s,.!]|$)"
)
_THINGS = ("device", "vehicle")  # attributes whose states are things one gets and names by model


def thing_named(text: str, before: str | None, speaker: str) -> tuple[str, str, str] | None:
    """(holder, attribute, name) when ``before`` got a thing of a device's or a vehicle's kind with
    no name and ``text`` opens with its name; else None. The holder is the one other person
    ``before`` names as a subject ("Ana got a new phone"), else the speaker; None when it names more."""
    got = _GOT_THING.search(before or "")
    if got is None or named_attribute(got["kind"].lower()) not in _THINGS:
        return None
    named = _NAME_FIRST.match(text)
    if named is None:
        return None
    name = named["name"].rstrip(".")
    if name.split()[0].lower() in ENTITY_EXCLUDE or name.casefold() == speaker.casefold():
        return None
    others = subjects_named((before or "")[: got.end()], speaker)
    if len(others) > 1:
        return None
    return (others.pop() if others else speaker), str(named_attribute(got["kind"].lower())), name
