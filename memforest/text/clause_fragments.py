"""Clauses with no subject of their own: the third-person verbs that open a clause sharing the
subject of the one before it (``VERB_S``: "and moves to York"), and the short verbless fragments
that do the same ("X has moved again, this time down to Y": ``verbless``)."""

from __future__ import annotations

import re

from memforest.text.lexicon import COMMON_VERBS, IRREGULAR_PAST, words
from memforest.text.state_words import KIN

__all__ = ["ADV", "ADVERBS_RUN", "VERB_S", "has_verb", "main_clause_start", "verbless"]

# auxiliaries and adverbs between a subject and its verb ("has just", "finally", "eventually")
ADVERBS_RUN = (
    r"(?:(?:(?i:just|finally|recently|now|officially|also|already|actually|eventually|both|all)|[a-z]+ly)\s+){0,4}+"
)
ADV = rf"{ADVERBS_RUN}(?:(?:has|have|had)\s+{ADVERBS_RUN})?"

# verbs in the third person that open a clause with no subject of its own ("and moves to York"); a
# lower-case word ending in -s is no verb in general ("and parents relocated", "as his boss")
VERB_S = (
    r"(?:moves|lives|works|joins|enrols|enrolls|studies|starts|leaves|quits|switches|gets|buys|drives|owns|"
    r"goes|rents|teaches|plays|attends|uses|sees|keeps|takes|sells|adopts|trains|volunteers|stays|banks|"
    r"commutes|relocates|signs|transfers|begins)"
)
# a clause of at most this many words before the value, none of them a verb, is a fragment of the
# clause before it and shares its subject
_FRAGMENT_WORDS = 5
_WORD = re.compile(r"[A-Za-z][\w'-]*")
_AUXILIARIES = words("is are am be been being has have will would can could may might must shall should does")
_VERB_S_WORD = re.compile(VERB_S)
_OWNERS = words("his her their its our my your")
_KIN_WORD = re.compile(rf"(?i:{KIN})s?")


def verbless(fragment: str) -> bool:
    """A short stretch of words with no verb in it (see ``_FRAGMENT_WORDS``) and no one of its own:
    no name, possessive or relative ("this time down to "; not "her son finally at ")."""
    found = _WORD.findall(fragment)
    return 0 < len(found) <= _FRAGMENT_WORDS and not any(_verb_like(w) or _someone_like(w) for w in found)


def has_verb(fragment: str) -> bool:
    """Any word of ``fragment`` may be a verb (``_verb_like``): "Ana retired and " has one, "Ana's
    son and " none."""
    return any(_verb_like(w) for w in _WORD.findall(fragment))


def _someone_like(word: str) -> bool:
    return word[:1].isupper() or word.endswith("'s") or word.lower() in _OWNERS or _KIN_WORD.fullmatch(word) is not None


def _verb_like(word: str) -> bool:
    w = word.lower()
    return (
        w in COMMON_VERBS
        or w in IRREGULAR_PAST
        or w in _AUXILIARIES
        or _VERB_S_WORD.fullmatch(w) is not None
        or (len(w) > 3 and w.endswith(("ed", "ing")))
    )


# an adverbial clause opening a sentence, up to its comma ("Because X meets far away now, ...")
_LEADING_ADVERBIAL = re.compile(
    r"^\W*(?:(?:And|So|Also|But|Plus)\b,?\s+)?(?i:because|since|as|although|though|when|whenever|while|once|"
    r"now\s+that)\s[^,;:.!?]{3,120},\s+"
)


# a heading of a few words before a colon ("Renewal time: ...", "Quick update: ...")
_HEADING = re.compile(r"^\W*[A-Z][\w'-]*(?:\s+[\w'-]+){0,3}\s*:\s+")


def main_clause_start(text: str) -> int:
    """Where the main clause of ``text`` begins: after a heading or an adverbial clause opening
    it, else 0."""
    lead = _HEADING.match(text) or _LEADING_ADVERBIAL.match(text)
    return lead.end() if lead is not None else 0
