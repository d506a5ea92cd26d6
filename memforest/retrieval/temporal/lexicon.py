"""Words that mark a statement as a state of an attribute when the extractor wrote no slot.

The read path's fallback classifier: a fact about the subject that names none of the attribute's
slot fields still counts as a state of that attribute when its words (stemmed) are cues of it
and of no other attribute more. General vocabulary (moving house, changing jobs, animals and
their common breeds, car makes), not the benchmark's phrasings; the write path's slots, when
present, take precedence.
"""

from __future__ import annotations

import re
from types import MappingProxyType
from typing import Final

from memforest.attributes import ATTRIBUTE_WORDS
from memforest.retrieval.temporal.memo import per_question
from memforest.text.state_words import ANIMAL_WORDS, CAR_WORDS
from memforest.text.terms import content_terms

_EXTRA: Final = {
    "residence": """live lived living move moved moving relocate relocated relocation home house flat apartment
        condo lease rent rental renting address neighbourhood neighborhood settle settled unpack unpacking
        landlord landlady roommate flatmate housemate movers place city town suburb downtown boxes resident
        mortgage keys studio townhouse bungalow cottage loft""",
    "employer": """work worked working job hired hire hiring employer employed company office contract offer
        position joined join colleague colleagues team boss manager onboarding hr badge salary notice resign
        resigned interview career firm promotion startup coworkers workplace payroll paycheck payslip
        orientation induction probation employee staff intern internship recruiter recruited""",
    "pet": """pet pets dog dogs cat cats puppy pup kitten kitty rescue adopt adopted adoption shelter breeder vet
        tabby beagle terrier retriever labrador poodle greyhound spaniel bulldog collie dachshund husky
        parrot rabbit bunny hamster guinea goldfish fish turtle tortoise bird budgie lizard snake ferret
        horse pony leash litter breed breeder walkies fur furry paw paws purr bark """
    + ANIMAL_WORDS,
    "device": """phone smartphone laptop tablet computer battery charger screen cracked app apps camera
        storage keyboard trackpad touchscreen sim ringtone reboot booting crashed""",
    "school": """class classes lecture lectures exam exams semester term campus professor tutor homework
        assignment thesis dissertation course courses module enrolled enrolment enrollment tuition dorm
        graduate graduated graduation degree major seminar""",
    "diet": """meat dairy gluten carbs sugar keto paleo vegan vegetarian pescatarian fasting calories protein
        meal meals plant-based""",
    "health": """doctor diagnosis diagnosed symptoms medication meds prescription physio hospital surgery
        recovery chronic allergy asthma diabetes migraine sprained""",
    "vehicle": """car cars drive drove driving vehicle bike motorbike motorcycle scooter truck van suv sedan
        hatchback dealer dealership mileage garage dmv registration leased honda toyota kia subaru ford volvo
        mazda tesla skoda nissan jeep fiat hyundai renault audi peugeot volkswagen vw dacia bmw
        electric hybrid charging parked parking ride wheels lease leasing mechanic gearbox clutch brakes tyres
        tires exhaust windscreen windshield petrol diesel refuel refuelled """
    + CAR_WORDS,
}


def _cues() -> dict[str, frozenset[str]]:
    out: dict[str, frozenset[str]] = {}
    for attribute, words in ATTRIBUTE_WORDS.items():
        text = " ".join(words) + " " + _EXTRA.get(attribute, "")
        out[attribute] = frozenset(content_terms(text))
    return out


CUES: Final = MappingProxyType(_cues())


def _shares() -> dict[str, int]:
    out: dict[str, int] = {}
    for cues in CUES.values():
        for c in cues:
            out[c] = out.get(c, 0) + 1
    return out


_SHARES: Final = MappingProxyType(_shares())


# a dwelling word heading a compound of a venue's trade ("coffee place", "yoga studio") names no home
_COMPOUND_HEAD = re.compile(
    r"\b(coffee|tea|pizza|burger|taco|noodle|ramen|sushi|curry|kebab|brunch|lunch|breakfast|dinner|lunchtime|"
    r"sandwich|bagel|juice|smoothie|cocktail|wine|beer|cake|dessert|ice\s+cream|yoga|pilates|dance|barre|"
    r"spin|boxing|climbing|fitness|martial\s+arts|tattoo|nail|hair|beauty|massage|recording|music|photo|art|"
    r"pottery|design|meeting|parking|camping|hiding)\s+(?:place|studio|spot)s?\b",
    re.IGNORECASE,
)


def cue_scores(text: str) -> dict[str, float]:
    """attribute -> the text's (stemmed) cue words of it, each counted 1 / (attributes it cues), so a
    word specific to one attribute weighs more than a shared one; attributes with none left out. A
    dwelling word heading a compound ("coffee place") is no cue."""
    terms = set(content_terms(_COMPOUND_HEAD.sub(r"\1", text)))
    scores = {a: sum(1.0 / _SHARES[t] for t in terms & cues) for a, cues in CUES.items()}
    return {a: s for a, s in scores.items() if s > 0}


@per_question  # (the temporal walk asks each text again after each node read)
def is_state_of(text: str, attribute: str) -> bool:
    """The text's cue words point to ``attribute`` at least as much as to any other attribute."""
    scores = cue_scores(text)
    return attribute in scores and scores[attribute] >= max(scores.values())
