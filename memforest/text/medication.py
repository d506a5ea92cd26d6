"""A medicine someone takes now, told by its generic name: "Ana is on sertraline now", "the GP
started Ana on metformin", "switched Ana from citalopram to sertraline", "Ana's mum takes
warfarin", "Ana's levothyroxine dose went up". It is an open-ended state of its holder, in the slot
``medication``: a switch supersedes the medicine before it (one chain per person, as a pet is).

A generic name is known by the stem that international nonproprietary names share for a class of
drug (-pril, -olol, -statin, -oxetine, ...), or as one of the few common medicines and drug classes
that have none (aspirin, insulin, antidepressants); a brand name is not known. A medicine stopped
("came off X", "stopped taking X") or taken once ("took ibuprofen") matches no pattern here; one
named in a sentence of mood (weighed, wished, denied, recalled, planned) is none.
"""

from __future__ import annotations

import re

from memforest.text.mood import mood_near
from memforest.text.state_words import HOLDER

__all__ = ["find_medication", "is_medicine"]

# endings of generic names shared by a class of drug, lower case (a word of at least six letters)
_STEMS = (
    "pril", "sartan", "olol", "alol", "statin", "prazole", "oxetine", "traline", "opram", "afaxine", "azepam",
    "azolam", "cillin", "mycin", "cycline", "oxacin", "triptan", "tidine", "formin", "gliptin", "gliflozin",
    "glutide", "dipine", "thiazide", "semide", "nisone", "tisone", "asone", "olone", "thyroxine", "profen",
    "fenac", "coxib", "afil", "tinib", "umab", "imab", "ovir", "avir", "conazole", "parin", "farin", "xaban",
    "gatran", "setron", "lukast", "terol", "apine", "idone", "triptyline", "ipramine", "tadine", "rizine",
    "dronate", "pentin", "gabalin", "amadol", "trexate", "zepine", "trigine", "racetam", "phenidate",
    "amfetamine", "amphetamine", "chloroquine", "tropium",
)  # fmt: skip
# common medicines without such a stem, and the names of drug classes people say they are on
_COMMON = frozenset(
    [
        "aspirin",
        "paracetamol",
        "acetaminophen",
        "naproxen",
        "codeine",
        "morphine",
        "lithium",
        "melatonin",
        "methadone",
        "insulin",
        "metformin",
        "levothyroxine",
        "antidepressants",
        "antibiotics",
        "statins",
        "steroids",
        "antihistamines",
        "painkillers",
        "bupropion",
        "hrt",
    ]
)
_ADVERBS = r"(?:(?:now|still|currently|back|just|also|finally|already)\s+)?"
_DOSE = r"(?:\d+(?:\.\d+)?\s?(?:mg|mcg|ml|g)\s+(?:of\s+)?)?"
# a medicine's name, or anything taken in a medicine's form ("iron tablets", "vitamin D")
_FORMS = r"tablets|pills|capsules|supplements|tabs|injections|patches|drops|inhaler"
_VALUE = rf"(?P<val>(?i:vitamin)\s+[A-Ka-k]\d{{0,2}}|[A-Za-z][\w-]{{2,40}}(?:\s+(?i:{_FORMS}))?)(?![\w-])"
_FORM_WORD = re.compile(rf"\s(?i:{_FORMS})$|^(?i:vitamin)\s")
_FROM = r"(?:from\s+[\w-]+\s+)?"
# the holder on a medicine now, put or switched onto one ("Ana is on X", "Ana was put on X", "Ana
# switched from A to B"), or taking one by habit ("Ana takes X", "Ana has been taking X")
_HOLDER_ON = re.compile(
    HOLDER
    + r"\s+"
    + _ADVERBS
    + r"(?:(?:is|are|'s|has\s+been|have\s+been)\s+"
    + _ADVERBS
    + r"(?:on|taking)|(?:was|were|got|has\s+been|have\s+been|'s\s+been)\s+(?:put|started|switched|moved|changed)\s+"
    + _FROM
    + r"(?:on|onto|to)|(?:started|switched|moved|changed|went)\s+"
    + _FROM
    + r"(?:on|onto|to)|takes|started\s+taking|began\s+taking)\s+"
    + _DOSE
    + _VALUE
)
# someone putting the holder on one ("the GP started Ana on X", "switched Ana from A to B")
_PUT_ON = re.compile(
    r"\b(?:started|put|switched|moved|changed)\s+" + HOLDER + r"\s+" + _FROM + r"(?:on|onto|to)\s+" + _DOSE + _VALUE
)
# a medicine prescribed to the holder ("prescribed Ana a course of X")
_PRESCRIBED = re.compile(r"\bprescribed\s+" + HOLDER + r"\s+(?:a\s+course\s+of\s+)?" + _DOSE + _VALUE)
# a sentence of one's own with its subject left out, as people write of themselves ("Started on X
# on Tuesday", "Been on X since May", "Now taking X")
_OPENING = re.compile(
    r"^(?:(?i:just|now|finally|also)\s+)?(?:(?i:started|been|went|switched|back)\s+(?:back\s+)?" + _FROM
    + r"(?:on|onto|to)|(?i:been|now|started|still)\s+taking|(?i:taking|still\s+on))\s+" + _DOSE + _VALUE
)  # fmt: skip
# the holder's dose or prescription of one ("Ana's sertraline dose went up")
_DOSE_OF = re.compile(HOLDER + r"'s\s+" + _VALUE + r"\s+(?i:dose|dosage|prescription|tablets|pills)\b")


def is_medicine(word: str) -> bool:
    """``word`` is a generic medicine's name, a drug class or a thing taken in a medicine's form
    ("iron tablets", "vitamin D"; see module doc)."""
    lower = word.casefold()
    return lower in _COMMON or (len(lower) >= 6 and lower.endswith(_STEMS)) or _FORM_WORD.search(word) is not None


def find_medication(text: str, speaker: str) -> tuple[str, str, str] | None:
    """(holder, ``medication``, medicine) where a person-rewritten sentence says someone is on a
    medicine now (see module doc), the speaker when the sentence names no subject; else None."""
    for pattern in (_HOLDER_ON, _PUT_ON, _PRESCRIBED, _DOSE_OF, _OPENING):
        for m in pattern.finditer(text):
            if not is_medicine(m["val"]):
                continue
            if mood_near(text[: m.end()], m.start("val")) is not None:
                return None  # (its own clause's mood: "... so she can't have grapefruit" denies no medicine)
            holder = m["subj"] if "subj" in pattern.groupindex else speaker
            return holder, "medication", m["val"].lower()
    return None
