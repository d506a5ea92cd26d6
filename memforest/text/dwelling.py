"""Whether a dwelling word tells the kind of someone's home: one held ("our flat", "Ana's new
house", "it's a bungalow") or lived, moved, rented or bought in ("we live in a studio", "moved
into a townhouse"). "The house is so much quieter now" speaks of a house and states no home."""

from __future__ import annotations

import re

from memforest.text.lexicon import CAPITALS

__all__ = ["dwelling_held", "dwelling_of_a_kind", "home_type_value"]

# a possessive a few words before the dwelling word ("Ana's 4th floor flat")
_HELD = re.compile(r"(?:\b(?i:my|our|his|her|their)|'s)\s+(?:[\w-]+\s+){0,3}$")
# a verb of living in, moving into, renting or buying, in the same clause before it
_LIVED_IN = re.compile(
    r"\b(?i:liv(?:e|es|ed|ing)|mov(?:e|es|ed|ing)|rent\w*|leas\w*|bought|buy\w*|settl\w*|own|owns|shar\w*|"
    r"downsiz\w*|upsiz\w*|unpack\w*|home|place|house-?hunting|(?:am|are|is)\s+in|'(?:m|re)\s+in)\b[^.!?;]{0,40}$"
)


def dwelling_held(text: str, at: int) -> bool:
    """The dwelling word at ``at`` is held or lived in (see module doc); read in a short window."""
    window = text[max(0, at - 60) : at]
    return _HELD.search(window) is not None or _LIVED_IN.search(window) is not None


# an indefinite article a few words before the dwelling word ("for a 2 bedroom flat")
_A_KIND = re.compile(r"\b(?i:an?)\s+(?:[\w-]+\s+){0,3}$")


def dwelling_of_a_kind(text: str, at: int) -> bool:
    """The dwelling word at ``at``, held by no one, names a kind of home, no one home ("heat pump
    or gas boiler for a 2 bedroom flat?"); "the flat was too small" names one."""
    return _A_KIND.search(text[max(0, at - 40) : at]) is not None


_NAME_HEADED = re.compile(rf"(?<![\w'-])[{CAPITALS}][\w'-]*\s+$")


def home_type_value(text: str, m: re.Match[str]) -> str | None:
    """The kind of home a dwelling word names; None when the word is capitalised after a
    capitalised word: it heads a proper name ("Rose Cottage", "the Tannery Loft"), a place or a
    business, and a kind of home is a common noun ("a loft", "our cottage")."""
    word = m.group(0)
    if word[:1].isupper() and _NAME_HEADED.search(text, max(0, m.start() - 40), m.start()):
        return None
    return word.lower()
