"""A switch of a kind named in the plural whose new value is the subject of the next clause:
"switched barbers, X cuts my hair now", "changed vets; Y sees the dog these days".

The kind is the plural noun switched; the value is the name that opens the next clause and acts
on the switcher in the present tense, no copula and no past verb (the clause names them, as the
person-rewritten text does: "Ana's hair", "sees Ana"). The switcher is the person named before
the verb of switching, else the speaker. A value in a mood other than the plain statement
(``mood.mood_near``) gives none.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memforest.text.change_subjects import PERSON, subject_key
from memforest.text.changes import slot_key
from memforest.text.lexicon import CAPITALS, words
from memforest.text.mood import mood_near
from memforest.text.state_values import clean_cap
from memforest.text.state_words import KIN

__all__ = ["find_switch_clause"]

# a word of a name is read whole (possessive: linear on long capitalised runs)
_WORD = rf"(?:[{CAPITALS}][\w.'&-]*+|\d[\w.-]*+)"
_VALUE = rf"(?P<v>{_WORD}(?:\s+(?:of|and|on|&|the)\s+{_WORD}|\s+{_WORD}){{0,4}})"
_SWITCH = re.compile(
    rf"(?:(?P<subj>{PERSON})\s+(?:(?:just|recently|finally|also)\s+)?)?"
    r"\b(?i:switched|changed|swapped)\s+(?:(?:his|her|their)\s+)?(?P<plural>[a-z][a-z-]*s)\s*[,;:]\s+"
    r"(?:(?i:and|so|now)\s+)*(?:the\s+)?"
    rf"{_VALUE}\s+(?:now\s+)?(?P<verb>[a-z]+)\b(?P<rest>[^.;!?]*)"
)
# a copula says what the value is ("switched gyms, X is cheaper"), a past verb what it did once
_NOT_VERB = frozenset({"was", "is", "were", "are"})
_KIN_WORD = re.compile(rf"^(?i:{KIN})s?$")
_PRONOUN = r"(?:him|her|his|them|their)"
# verbs of one person acting on another: their subject is a person beside the switcher, not a new value
_PERSON_ACTS = words(
    """drives coaches teaches tutors sits says tells helps walks texts calls visits babysits picks meets hugs
    loves likes misses joins"""
)
_PRESENT = re.compile(r"\b(?:now|these\s+days|nowadays)\b")


def find_switch_clause(text: str, speaker: str, participants: Sequence[str] = ()) -> tuple[str, str, str] | None:
    """(subject, slot, value) of "switched <kinds>, <value> <verb>s <the switcher> ..."; else None.
    The new value is never a person the text already has (the speaker, the switcher, a participant),
    nor the subject of a verb one person does to another unless the kind switched is its doer
    ("switched teams, Sarah coaches him" names the coach, not the team)."""
    m = _SWITCH.search(text)
    if m is None or m["verb"] in _NOT_VERB or m["verb"].endswith("ed"):
        return None
    subject = m["subj"] or speaker
    value = clean_cap(m["v"])
    plural = m["plural"]
    if not value or _is_known_person(value, (speaker, subject, subject_key(subject), *participants)):
        return None
    if _KIN_WORD.match(value.split()[0]) or _acts_on_a_person(m["verb"], plural):
        return None
    if plural.endswith(("ings", "eds", "lys")) or not plural[:-1].isalpha():
        return None
    # the clause acts on the switcher (it names them, or a pronoun stands for one named before),
    # or says it holds now, of a name of several words (one word may be a person: "Mia goes now")
    person = rf"(?<![\w']){re.escape(subject)}(?![\w-])" + (rf"|\b{_PRONOUN}\b" if m["subj"] else "")
    present = " " in value and _PRESENT.search(m["rest"]) is not None
    if not (re.search(person, m["rest"]) or present) or mood_near(text, m.start("v")) is not None:
        return None
    return subject, slot_key(plural), value


def _is_known_person(value: str, persons: Sequence[str]) -> bool:
    """``value`` is one of ``persons``, or their first name ("Mia" of "Mia's sister")."""
    folded = value.casefold()
    return any(folded in (p.casefold(), p.split("'")[0].split()[0].casefold()) for p in persons if p)


def _acts_on_a_person(verb: str, plural: str) -> bool:
    """``verb`` is one a person does to another and the kind switched (``plural``) is not its
    doer: "switched coaches, X coaches him" may name a coach; "switched teams" may not."""
    if verb not in _PERSON_ACTS:
        return False
    stem = verb[:-2] if verb.endswith(("ches", "shes", "sses")) else verb[:-1]
    return not plural.startswith(stem)
