"""A programme someone takes part in at a named place: "Tomás is doing a coding bootcamp at ByteForge
Academy", "Zayan started Quran classes at Masjid an-Noor", "Ana's mum has begun dialysis at
Parkhaven Renal Unit", "Ana is on a training scheme with Corrib Rail". The place is the state's
value and the programme's noun its slot (an open-ended kind: "coding bootcamp", "quran class"), so
a second bootcamp supersedes the first; the holder is the one named, or the speaker when the
sentence opens with the verb. The programme nouns are kinds of taking part over time (a course, a
class, a treatment), not attributes; a one-off ("a talk at X", "a shift at X") is none, as is a
programme named in a sentence of mood.
"""

from __future__ import annotations

import re

from memforest.text.changes import slot_key
from memforest.text.lexicon import CAPITALS
from memforest.text.mood import mood_near
from memforest.text.state_words import HOLDER
from memforest.text.topics import singular

__all__ = ["find_programme_at"]

# nouns of taking part in something over weeks or months
_PROGRAMMES = (
    r"course|courses|class|classes|lessons|bootcamp|degree|diploma|masters|phd|apprenticeship|internship|"
    r"traineeship|residency|placement|programme|program|training|scheme|therapy|treatment|dialysis|chemo|"
    r"chemotherapy|rehab|physiotherapy|counselling|counseling"
)
# a place's name: capitalised words, joined by "&", "and", "of", or a particle ("Masjid an-Noor")
_PLACE = (
    rf"(?P<val>[{CAPITALS}][\w'-]*(?:\s++(?:&\s++|and\s++|of\s++(?:the\s++)?|"
    rf"(?:de|da|del|di|du|des|dos|das|na|van|von|der|la|le|al|an|el|bin)[\s-])?[{CAPITALS}][\w'-]*){{0,3}})"
)
# a word before a programme's noun that modifies it ("coding", "Quran"), no preposition ("a talk on
# therapy at X" is a talk)
_MODIFIER = r"(?!(?i:on|about|of|for|in|at|with|to|from|into|and|or)\b)[\w-]++"
# (each run of spaces is entered at its start only and read whole: linear on long runs)
_PROGRAMME_AT = re.compile(
    rf"(?:^(?:(?i:just|now|finally|also|so)\s++)?|{HOLDER}\s++(?:(?:now|just|finally|also|still)\s++)?)"
    r"(?:(?:is|are|has\s++been|have\s++been)\s++)?(?:(?:now|just|still)\s++)?"
    r"(?i:doing|taking|attending|started|starting|began|has\s++begun|have\s++begun|has\s++started|have\s++started|"
    r"is\s++on|are\s++on|enrolled\s++(?:in|on))\s++"
    r"(?:(?:a|an|the|his|her|their|some|weekly|evening|morning|night)\s++)*+"
    rf"(?P<what>(?:{_MODIFIER}\s++){{0,2}}?(?i:{_PROGRAMMES}))\s++(?:at|with|through)\s++(?:the\s++)?"
    rf"{_PLACE}(?![\w'-])"
)


def find_programme_at(text: str, speaker: str) -> tuple[str, str, str] | None:
    """(holder, programme slot, place) where a person-rewritten sentence says someone takes part in
    a programme at a named place (see the module doc); None otherwise."""
    m = _PROGRAMME_AT.search(text)
    if m is None or m["val"].endswith("'s") or mood_near(text[: m.end()], m.start("val")) is not None:
        return None
    words = m["what"].lower().split()
    return m["subj"] or speaker, slot_key(" ".join([*words[:-1], singular(words[-1])])), m["val"]
