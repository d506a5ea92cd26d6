"""Emphatic "do" read as the plain verb, for the readers of states: "Rasa did move to Riga" states
what "Rasa moved to Riga" does, "Ana does live in Leeds now" what "Ana lives in Leeds now" does.

Only a lower-case "did" / "does" after a word that is no question word, with an optional adverb,
before a word that is no pronoun, article or negation: "Did she move?", "where did she move", "did
not move" and "did it" stay as they are."""

from __future__ import annotations

import re

from memforest.text.lexicon import words
from memforest.text.persons import third_person

__all__ = ["plain_verbs"]

# past tenses that are not the base form + "ed"
_IRREGULAR = {
    "leave": "left", "buy": "bought", "get": "got", "go": "went", "quit": "quit", "sell": "sold",
    "take": "took", "find": "found", "begin": "began", "become": "became", "make": "made", "come": "came",
    "have": "had", "give": "gave", "keep": "kept", "lose": "lost", "meet": "met", "pay": "paid", "win": "won",
    "choose": "chose", "ride": "rode", "drive": "drove", "set": "set", "put": "put",
    "run": "ran", "swim": "swam", "sing": "sang", "split": "split",
}  # fmt: skip
_NOT_VERBS = words(
    """not never it that this so too i you he she we they me him her us them my his our their the a an
    some any all both well"""
)
_EMPHATIC = re.compile(
    r"(?<![\w'])(did|does)\s+((?:(?:actually|really|finally|indeed|eventually|in\s+fact)\s+)?)([a-z]+)\b"
)
_ASKING = re.compile(r"\b(?i:what|where|when|why|how|who|which|whom|whether|if)\s+$")


def _past(verb: str) -> str:
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb.endswith("e"):
        return verb + "d"
    if verb.endswith("y") and len(verb) > 2 and verb[-2] not in "aeiou":
        return verb[:-1] + "ied"
    if re.fullmatch(r"[^aeiou]*[aeiou][bdgklmnprt]", verb):  # (one short syllable: "stop", "plan")
        return verb + verb[-1] + "ed"
    return verb + "ed"


def plain_verbs(text: str) -> str:
    """``text`` with each emphatic "did <verb>" / "does <verb>" as the verb's own tense."""

    def plain(m: re.Match[str]) -> str:
        aux, adverb, verb = m[1], m[2], m[3]
        if (
            verb in _NOT_VERBS
            or verb.endswith(("ed", "ing"))
            or _ASKING.search(text, max(0, m.start() - 10), m.start())
        ):
            return m[0]
        return adverb + (_past(verb) if aux == "did" else third_person(verb))

    return _EMPHATIC.sub(plain, text)
