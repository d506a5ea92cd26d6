"""A person one goes to, lives with or is with, named by apposition to their role: "Ana's
hairdresser Lotte cut it too short" tells that Lotte is Ana's hairdresser now, "Ana's flatmate
Oskar" that Oskar is her flatmate. Such a role is an open-ended state of its holder (a new
hairdresser supersedes the last); the slot is the role's noun, a few spellings made one ("GP" is a
doctor, "gf" a partner). A former one ("Ana's old physio Anders") and one named in a sentence of
mood (weighed, wished, denied, recalled) are none, as are one told as over ("Ana's physio Anders
retired"), a business's ("Harbour Clinic's physio Anders") and one who switches a kind ("Ana's
flatmate Priya switched gyms": the sentence announces Priya's switch, named in the next clause).
"""

from __future__ import annotations

import re

from memforest.text.change_words import SWITCHED_KIND
from memforest.text.changes import slot_key
from memforest.text.lexicon import CAPITALS, TIME_WORDS, TITLES, WORD_START
from memforest.text.mood import mood_near
from memforest.text.possessor import name_ends_before
from memforest.text.state_words import KIN

__all__ = ["ASKED_ROLE_NAMED", "LISTED_ROLES", "ROLES", "find_role_named", "role_apposed", "role_slot"]

# the role nouns filed under another noun's slot (any other is its own slot, in its one spelling:
# ``changes.slot_key``, which files "GP" as a doctor)
_SLOT_OF = {
    **dict.fromkeys(("girlfriend", "boyfriend", "gf", "bf", "partner", "wife", "husband", "hubby"), "partner"),
    **dict.fromkeys(("fiance", "fiancé", "fiancee", "fiancée", "spouse"), "partner"),
    "boss": "manager",  # (a person: "boss" alone names the employer, an organisation)
}
# nouns that end like a doer's but name a relative, a thing, a state or a time ("my brother Ali",
# "my computer Dell", "my heater Dyson", "my summer Ritual", "after my shower I ...")
_NOT_AGENTS = (
    r"(?:grand|step|great-?)?(?:mother|father|brother|sister|daughter)|other|co-?worker|older|elder|younger|after|never|ever|"
    r"order|number|summer|winter|dinner|computer|water|letter|paper|corner|cover|power|matter|member|"
    r"character|chapter|register|monitor|radiator|calculator|indicator|elevator|generator|sensor|motor|"
    r"error|horror|mirror|colour|color|favour|favor|honour|honor|floor|door|poor|major|junior|senior|interior|"
    r"heater|speaker|blender|controller|charger|cooker|tumbler|sticker|poster|printer|router|scooter|boiler|"
    r"freezer|dryer|washer|shower|transfer|cancer|disorder|starter|layover|leather|hunter|foster|better|latter|"
    r"quarter|semester|folder|container|holder|filter|timer|counter|browser|sweater|jumper|trainers|sneaker|"
    r"blazer|slipper|diaper|nappy|locker|drawer|tower|flower|river|border|tractor|trailer|camper|stroller|"
    r"vector|factor|sector|tumor|tumour|humor|humour|razor|tutorial|playlist|list|wrist|twist|mist"
)
# the roles named by a noun of their own
LISTED_ROLES = (
    r"hairdresser|barber|stylist|dentist|hygienist|orthodontist|doctor|gp|physio|physiotherapist|therapist|"
    r"counsell?or|psychologist|psychiatrist|vet|optician|osteopath|chiropractor|podiatrist|nutritionist|dietitian|"
    r"acupuncturist|midwife|trainer|landlord|landlady|flatmate|roommate|housemate|"
    r"accountant|lawyer|solicitor|mechanic|nanny|babysitter|childminder|cleaner|dog\s+walker|"
    r"girlfriend|boyfriend|gf|bf|partner|wife|husband|hubby|fianc[eé]e?|spouse|boss|"
    r"(?:[a-z]+\s+)?(?:teacher|tutor|coach|instructor)"
)
ROLES = (
    LISTED_ROLES + "|"
    # any other noun of one who does a job for someone, by its ending ("my dog walker Tash", "my
    # building manager Pan Z", "my supervisor Dr. Ng"), not a relative's or a thing's noun
    # (lower case only: "my Manchester United shirt" names no manager; no former one: "my old X")
    rf"(?-i:(?:(?!(?:old|former|ex|late|previous|last)\b)[a-z]+\s+)?(?!(?:{_NOT_AGENTS})\b)[a-z]{{3,}}(?:er|or|ist))"
)
_NAME = rf"[{CAPITALS}][\w'-]*"
# the one named: no "I" (the speaker, in a sentence as written: "after my shower I ..."), no day,
# month or other time word ("I emailed my advisor Friday")
_NOT_NAMED = rf"(?!(?:I|{'|'.join(sorted(w.capitalize() for w in TIME_WORDS))})\b)"
# "Ana's (new) hairdresser Lotte", "Ana's GP, Dr. Osei,", "Ana's brother's flatmate Jo"
_ROLE_NAMED = re.compile(
    rf"{WORD_START}(?P<subj>{_NAME}(?:'s\s+(?i:{KIN}))?)'s\s+(?:(?i:new|current|regular|usual|lovely|amazing)\s+)?"
    rf"(?P<role>(?i:{ROLES}))(?:,\s+|\s+){_NOT_NAMED}(?P<val>(?:{TITLES}\.?\s+)?{_NAME}(?:\s+(?!(?i:and|or)\b){_NAME})?)(?![\w'-])"
)
# what tells the role is over: the one named left it, or is told of in the past ("Ana's physio
# Anders retired", "Ana's flatmate Oskar moved out in June", "Ana's landlord Greg sold the building")
_ENDED_AFTER = re.compile(
    r"(?<!\s)\s++(?:\w++\s++)?(?i:retired|moved\s+out|moved\s+away|left|quit|passed\s+away|died|broke\s+up|sold|"
    r"stopped|was|used\s+to)\b"
)
# the same, but for one who left a place ("my barber Tomi left X, so I'm following him"): still
# theirs, read alone (``role_apposed``); the whole sentence's reading would take "left" as its end
_OVER_AFTER = re.compile(
    rf"(?<!\s)\s++(?:\w++\s++)?(?i:retired|moved\s+out|moved\s+away|left(?!\s+(?:the\s+)?(?-i:[{CAPITALS}]))|quit|"
    r"passed\s+away|died|broke\s+up|sold|stopped|was|used\s+to)\b"
)
_MOODS = frozenset({"considered", "turned_down", "negation", "nostalgia", "hypothetical", "wish"})
# the one named is the subject of the verb of mood right after them (a run of spaces is entered at
# its start only: a search never rescans it from each of its spaces)
_THEIR_MOOD = re.compile(
    r"(?:,|(?<!\s))\s++(?:wants|would\s+like|plans|is\s+planning|thinks|reckons|suggested|suggests)\b"
)
# the speaker's own one named so in a sentence as written ("my barber Tomi left X, so I'm following him")
_MY_ROLE_NAMED = re.compile(
    rf"(?<![\w'-])(?i:my|our)\s++(?:(?i:new|current|regular|usual|lovely|amazing)\s++)?(?:(?i:{ROLES}))(?:,\s++|\s++)"
    rf"{_NOT_NAMED}(?:{TITLES}\.?\s++)?{_NAME}(?:\s++(?!(?i:and|or)\b){_NAME})?(?![\w'\u2019-])"
)


ASKED_ROLE_NAMED = _MY_ROLE_NAMED  # (a question or request that names one presupposes them)


def find_role_named(text: str) -> tuple[str, str, str] | None:
    """(holder, slot, person) where a person-rewritten sentence names someone's practitioner,
    flatmate or partner by apposition (see module doc); None otherwise."""
    m = _ROLE_NAMED.search(text)
    if m is not None and SWITCHED_KIND.search(text, m.end()) is not None:
        return None  # "my flatmate Priya switched gyms": her switch, whose value the next clause names
    if m is None:
        return None  # (a former one, "Ana's old physio Anders", has a word between the possessive and the role)
    if _ENDED_AFTER.match(text, m.end()) or name_ends_before(text, m.start()):
        return None
    if mood_near(text[: m.end()], m.start("val")) is not None or mood_near(text, m.start("val")) in _MOODS:
        return None
    return m["subj"], role_slot(m["role"]), m["val"].removesuffix("'s")


def role_slot(role: str) -> str:
    """The slot a role's noun (one of :data:`ROLES`) files under: "GP" a doctor, "gf" a partner."""
    role = re.sub(r"\s+", " ", role.lower())
    return _SLOT_OF.get(role) or slot_key(role)


def role_apposed(sentence: str) -> str | None:
    """The words of ``sentence`` (as written, before persons are rewritten) that name the speaker's
    practitioner, flatmate, partner or teacher by apposition ("my barber Tomi"), to be read alone as
    a state besides what the sentence states of that person ("... left X, so I'm following him to
    Y"); None when there is none, or when the sentence tells the role over or is in a mood."""
    m = _MY_ROLE_NAMED.search(sentence)
    if m is None or _OVER_AFTER.match(sentence, m.end()):
        return None
    if _THEIR_MOOD.match(sentence, m.end()) is None and mood_near(sentence, m.start()) in _MOODS:
        return None  # (the mood of the one named, "my dentist, Dr. Roy, wants to ...", is theirs, not the speaker's)
    return None if mood_near(sentence[: m.end()], m.start()) is not None else m.group(0)
