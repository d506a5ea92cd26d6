"""A thing someone has, named by its make or model with the kind of thing after it: "Ana's new
Kerera e-bike says 60km range", "Ana's Talvik hoover keeps losing suction", "Brand new Velora
espresso machine already leaking". Telling what one's thing does is the thing's consequence (issue
48, item 5): its holder has it now, and the first mention is its start. The slot is the kind of
thing ("e-bike", "espresso machine"), so a new one of a kind supersedes the last.

The kind must be a thing people own and use (a closed list of vehicles, devices, appliances, gear
and instruments; one lowercase word may stand between make and kind: "Ana's Nestora double stroller"):
"Ana's Spanish teacher", "Ana's Amazon order" or "Ana's Monday class" name no thing. An old or former
thing ("Ana's old X bike") is none, as is one disposed of ("sold Ana's X bike").

Coming to have it says so too: "Ana and others just bought a Nestora stroller" (the speaker's "we"
holds it), "Mia got Ana a Vireo smartwatch" (Ana holds it), "the Kawaru washing machine Ana bought
last week is leaking", "The Nordvarma heat pump got installed yesterday" (the speaker's).
"""

from __future__ import annotations

import re

from memforest.text.changes import slot_key
from memforest.text.lexicon import CAPITALS, WORD_START
from memforest.text.mood import leaves, mood_near
from memforest.text.state_words import KIN

__all__ = ["ASKED_OWN", "find_owned_thing", "owned_in_question"]

_THINGS = (
    r"e-bike|ebike|bike|bicycle|scooter|e-scooter|moped|motorbike|motorcycle|car|van|hatchback|estate|campervan|"
    r"caravan|kayak|canoe|phone|smartphone|mobile|laptop|tablet|smartwatch|watch|headphones|earbuds|earphones|"
    r"speaker|camera|console|telly|tv|monitor|printer|router|e-reader|hoover|vacuum|dishwasher|washing\s+machine|"
    r"washer|dryer|tumble\s+dryer|fridge|freezer|oven|cooker|hob|microwave|kettle|toaster|blender|air\s+fryer|"
    r"espresso\s+machine|coffee\s+machine|coffee\s+maker|grinder|boiler|heat\s+pump|thermostat|mattress|sofa|pram|"
    r"buggy|stroller|tent|rucksack|backpack|trainers|running\s+shoes|boots|helmet|guitar|piano|keyboard|violin|"
    r"cello|drum\s+kit|amp|synth|sewing\s+machine|lawnmower|mower|drill|barbecue|bbq|hearing\s+aid|wheelchair|"
    r"rice\s+cooker|slow\s+cooker|robot\s+vacuum|cargo\s+bike|mobility\s+scooter|treadmill|exercise\s+bike|"
    r"rowing\s+machine|air\s+purifier|dehumidifier|bread\s+maker|stand\s+mixer|food\s+processor|projector|drone|"
    r"standing\s+desk|car\s+seat|baby\s+monitor|doorbell|hot\s+tub|paddleboard|surfboard|snowboard|skis|"
    r"e-reader|games\s+console|smart\s+speaker|dashcam|sat\s+nav"
)
_CONDITION = r"(?:(?i:new|brand[- ]new|shiny|trusty|little|second-hand|secondhand|used|refurbished)\s+)?"
_MAKE = rf"(?P<v>[{CAPITALS}][\w-]*(?:\s+(?:[{CAPITALS}][\w-]*|\d[\w.-]*)){{0,2}})"
_KIND = rf"\s+(?:[a-z]+\s+)??(?P<kind>(?i:{_THINGS}))(?![\w-])"
# "Ana's new Kerera e-bike", "Ana's nan's Talvik hoover"
_OWNED = re.compile(rf"{WORD_START}(?P<subj>[{CAPITALS}][\w'-]*(?:'s\s+(?i:{KIN}))?)'s\s+{_CONDITION}{_MAKE}{_KIND}")
# a sentence of one's own that opens with the thing, its owner left out ("Brand new Velora espresso machine ...")
_OPENING = re.compile(rf"^(?i:brand[- ]new|new|my\s+new)\s+{_MAKE}{_KIND}")
_PERSON = rf"[{CAPITALS}][\w'-]*+(?:\s+and\s+others)?"
# the speaker's own thing in a sentence as written ("does my Kamado rice cooker ...?")
ASKED_OWN = re.compile(rf"(?<![\w'])(?i:my|our)\s+{_CONDITION}{_MAKE}{_KIND}")
# bought, given, fitted: "Ana and others just bought a Nestora stroller", "Mia got Ana a Vireo watch"
_BOUGHT = re.compile(
    rf"{WORD_START}(?P<subj>{_PERSON})\s+(?:(?i:just|finally|recently)\s+)?(?i:bought|got|ordered|purchased|picked\s+up)\s+"
    rf"(?:(?P<for>[{CAPITALS}][\w'-]*+)\s+)?(?i:an?|the)\s+{_CONDITION}{_MAKE}{_KIND}"
)
_THE_ONE_BOUGHT = re.compile(
    rf"(?<![\w'])(?i:the)\s+{_CONDITION}{_MAKE}{_KIND}\s+(?:(?i:that|which)\s+)?(?P<subj>{_PERSON})\s+"
    r"(?:(?i:just|finally|recently)\s+)?(?i:bought|got|ordered|purchased|picked\s+up|had\s+(?:fitted|installed|put\s+in))\b"
)
_THE_ONE_FITTED = re.compile(
    rf"^(?i:the|our)\s+{_CONDITION}{_MAKE}{_KIND}\s+(?:(?i:got|was|has\s+been|have\s+been)\s+)(?:(?i:finally|just)\s+)?"
    r"(?i:installed|fitted|delivered|put\s+in)\b"
)


# used as one's own, the subject left out ("Filled up the Oberon estate on the way home")
_USED_OWN = re.compile(
    rf"^(?:(?i:just|finally)\s+)?(?i:filled\s+up|parked|washed|cleaned|charged|serviced|fuelled\s+up)\s+(?i:the)\s+"
    rf"{_CONDITION}{_MAKE}{_KIND}"
)


def _came_to_have(text: str, speaker: str) -> tuple[str, re.Match[str]] | None:
    """(holder, match) where the sentence tells of someone coming to have a thing by make and kind."""
    m = _BOUGHT.search(text)
    if m is not None:
        return (m["for"] or m["subj"]).removesuffix(" and others"), m
    m = _THE_ONE_BOUGHT.search(text)
    if m is not None:
        return m["subj"].removesuffix(" and others"), m
    m = _THE_ONE_FITTED.search(text) or _USED_OWN.search(text)
    return (speaker, m) if m is not None else None


def find_owned_thing(text: str, speaker: str) -> tuple[str, str, str] | None:
    """(holder, kind, make) where a person-rewritten sentence names a thing its holder has by make
    and kind (see module doc); the speaker for a sentence that opens with the thing; else None."""
    m = _OWNED.search(text)
    holder = m["subj"] if m is not None else speaker
    m = m or _OPENING.search(text)
    if m is None and (came := _came_to_have(text, speaker)) is not None:
        holder, m = came
    return _held(text, m, holder) if m is not None else None


def owned_in_question(text: str) -> tuple[str, str, str] | None:
    """(holder, kind, make) where a person-rewritten question or request asks about a thing its
    holder has, by make and kind ("does Ana's Kamado rice cooker use much power?": Ana has one);
    one asked of as given up or weighed is none."""
    m = _OWNED.search(text)
    return _held(text, m, m["subj"]) if m is not None else None


def _held(text: str, m: re.Match[str], holder: str) -> tuple[str, str, str] | None:
    """(holder, kind, make) of the thing ``m`` names, unless weighed, wished or denied, or given
    away or sold ("gave away Ana's X scooter")."""
    if mood_near(text[: m.end()], m.start("v")) is not None or leaves(text, m.start("v")):
        return None
    return holder, slot_key(re.sub(r"\s+", " ", m["kind"].lower())), m["v"]
