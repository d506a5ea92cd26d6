"""The grammar of a state announced in one sentence and named in the next: "Changed banks.
Everything's with Harrow Mutual now", "Joined a choir! The Vale Singers." (``changes.find_announced_kind``
reads it). Every pattern reads a person-rewritten sentence and is linear in its length
(``tests/db/test_text_complexity.py``)."""

from __future__ import annotations

import re

from memforest.text.change_grammar import UNTIMED_VALUE
from memforest.text.change_subjects import ADV, NAME, SUBJ
from memforest.text.lexicon import CAPITALS

__all__ = ["ANNOUNCED", "ANNOUNCED_VALUE"]

_VALUE = UNTIMED_VALUE.pattern  # a name none of whose words is a time (group ``v``)
# a product's name alone, numbers in it ("A Veltrix Aero 14.")
_PRODUCT = rf"(?<![\w.'&-])(?P<v>[{CAPITALS}][\w'&+-]*+(?:\s+(?:[{CAPITALS}][\w'&+-]*+|\d[\w.-]*+)){{0,4}})"
_ART = r"(?:(?:a|an|the|some)\s+)?"
_NOUN = r"[a-z][a-z-]*(?:\s+(?!alert\b)[a-z][a-z-]*)?"

# a sentence that announces a new state of a kind and names no value ("Changed banks.", "Joined a
# choir!", "Ana got a new phone.", "New dentist.", "Hairdresser update:")
ANNOUNCED = re.compile(
    rf"^(?:{SUBJ}\s+)?{ADV}(?:(?i:switched|changed|swapped)\s+(?:(?:{NAME}'s|his|her|their)\s+)?(?P<plural>[a-z][a-z-]*?)s?|"
    r"(?i:joined|found|got|bought|started\s+(?:at|with)|signed\s+up\s+(?:with|for|at)|registered\s+with)\s+"
    rf"(?:a|an)\s+(?:new\s+)?(?P<noun>{_NOUN})|"
    rf"(?i:new)\s+(?P<new>{_NOUN})(?:\s+alert)?|(?P<update>[A-Za-z][a-z-]*)\s+update)\s*[.!:]*$"
)
# the value a sentence after an announcement names: alone ("The Vale Singers."), as what it is
# called, or as where the subject is now ("Everything's with X now", "Ana goes to X these days")
ANNOUNCED_VALUE = (
    re.compile(rf"^(?:(?i:the|an?)\s+)?{_PRODUCT}\s*(?:[.,;:!?(]|$)"),
    re.compile(
        r"^(?i:it's|it\s+is|they're|they\s+are|she's|she\s+is|he's|he\s+is|(?:his|her|their|its)\s+name(?:'s|\s+is))\s+"
        r"(?:(?i:called|named)\s+)?"
        rf"{_ART}{_VALUE}"
    ),
    re.compile(
        rf"\b(?:with|to|at|on|for)\s+{_ART}{_VALUE}(?=[^.;!?]{{0,80}}?\b(?:now|these\s+days|nowadays|instead)\b)"
    ),
    # the one found, named first as the doer of what they did ("Adaeze at Crown & Coil did my braids")
    re.compile(
        rf"^(?P<v>[{CAPITALS}][\w'-]*+)(?:\s+at\s+[{CAPITALS}][^.;!?]{{0,40}}?)?\s+"
        r"(?:did|does|cut|cuts|sorted|fixed|coloured|colored|trimmed|styled|treated|saw|checked)\s+[a-zA-Z]"
    ),
)
