"""Rewriting first and second person to the names of the speakers."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from memforest.text.lexicon import ADVERBS, CAPITALS, COMMON_VERBS, IRREGULAR_PAST, MODALS, NOT_VERBS
from memforest.text.person_keys import KIN_TITLE, NAME, names_someone
from memforest.text.state_words import KIN
from memforest.text.subject_pairs import CLAUSE_OPENING

__all__ = ["introduced_person", "rewrite_persons", "third_person"]


# the speaker's relative or friend, introduced by name ("my brother Anders", "our new neighbour Oli")
_INTRODUCED = re.compile(
    rf"\b(?i:my|our)\s+(?:(?i:new|old|little|big|older|younger|elder|eldest|oldest|youngest|best|twin|dear)\s+)?"
    rf"(?i:{KIN})\s+(?P<name>[{CAPITALS}](?<![\w'-][{CAPITALS}])[\w-]*)(?![\w'-])"
)


def introduced_person(sentence: str) -> str | None:
    """The one person ``sentence`` introduces as the speaker's relative or friend by name ("Can you
    help me write a card for my sister Priya?": Priya), whom a "she" or "he" of the next sentence
    means even where the sentence itself states nothing; None when it introduces nobody or several."""
    names = {m["name"] for m in _INTRODUCED.finditer(sentence)}
    return names.pop() if len(names) == 1 else None


def third_person(verb: str) -> str:
    """The third person singular of a verb in the present ("live" -> "lives", "have" -> "has"); a word
    that is no such verb (a modal, a past tense, a contraction) as it is."""
    low = verb.lower()
    special = {
        "am": "is",
        "are": "is",
        "were": "was",
        "have": "has",
        "do": "does",
        "go": "goes",
        "don't": "doesn't",
        "haven't": "hasn't",
        "aren't": "isn't",
        "weren't": "wasn't",
        "ain't": "isn't",
        "dont": "doesn't",
    }
    if low in special:
        return special[low]
    if (
        "'" in low
        or low in MODALS
        or low in IRREGULAR_PAST
        or low in NOT_VERBS
        or low.endswith(("ed", "ing", "ly"))
        or not low.isalpha()
        or len(low) < 2
    ):
        return verb
    if low.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if low.endswith("y") and len(low) > 2 and low[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def _possessive(name: str) -> str:
    return name + "'s"


def _expand_contractions(text: str) -> str:
    def had_or_would(m: re.Match[str]) -> str:
        nxt = (m["next"] or "").lower()
        aux = (
            "had"
            if nxt in ("been", "gone", "seen", "done", "never", "already", "just") or nxt.endswith("ed")
            else "would"
        )
        return f"{m['pro']} {aux}{m['sp'] or ''}{m['next'] or ''}"

    text = re.sub(r"\b(?P<pro>[Ii]|[Ww]e|[Yy]ou)'d\b(?P<sp>\s+)?(?P<next>[A-Za-z]+)?", had_or_would, text)
    text = re.sub(r"\b([Ii])'m\b", r"\1 am", text)
    text = re.sub(r"\bIm\b", "I am", text)
    text = re.sub(r"\b([Ii]|[Ww]e|[Yy]ou)'ve\b", r"\1 have", text)
    text = re.sub(r"\b([Ii]|[Ww]e|[Yy]ou)'ll\b", r"\1 will", text)
    text = re.sub(r"\b([Ww]e|[Yy]ou)'re\b", r"\1 are", text)
    return text


# "Ines and I", "my sister and I" opening a clause: the speaker second in a subject of two, whose
# verb stays plural ("I left London and I live in Bath" coordinates clauses, not subjects)
_COORDINATED = re.compile(
    rf"(?:^|[,;:.!?]\s*|\b(?i:my|our)\s+)(?:[{CAPITALS}][\w'-]*|(?i:{KIN}|wife|husband|partner|girlfriend|boyfriend))\s+and\s+$"
)
_COORDINATED_SPAN = 40  # characters read back for it
_QUANTIFIERS = frozenset({"both", "all", "together", "each"})
# a pronoun as a word of its own: not a part of a hyphenated compound ("hand-me-down", "me-time"),
# though a dash may stand before it ("happening--I am")
_PRONOUN = r"(?<!\w)(?<!\w-)(?:{})(?!\w|-\w)"


# a subject of two persons the speaker is the second of, opening a clause ("Ines and Ana moved",
# "Ana's husband and Ana joined", written from "Ines and I", "my husband and I")
_OTHER_THEN = rf"(?P<open>{CLAUSE_OPENING})"
# ("Ana's best friend", "Ana's sister Rosa", "Aunt Rosa")
_OTHER = (
    rf"(?P<other>(?:{KIN_TITLE}\s+)?[{CAPITALS}][\w-]*+(?:'s\s+(?:[a-z][\w-]*\s+){{0,2}}?[a-z][\w-]*(?:\s+{NAME})?)?)"
)


@lru_cache(maxsize=256)
def _speaker_second(speaker: str) -> re.Pattern[str]:
    """A subject of two persons that opens a clause and ends with ``speaker``."""
    return re.compile(rf"{_OTHER_THEN}{_OTHER}\s+and\s+{re.escape(speaker)}(?![\w'-])(?=\s+[a-z])")


def _speaker_first(text: str, speaker: str) -> str:
    """``text`` with a subject of two persons that opens a clause and ends with the speaker written
    with the speaker first ("Ines and Ana moved to X" -> "Ana and Ines moved to X"): the clause
    states the speaker's own state, as "we" does, and the other person stays named."""

    def swap(m: re.Match[str]) -> str:
        if m["other"] == speaker or not names_someone(m["other"]):  # ("Oh and I", "since Monday and I", "He and I")
            return m.group(0)
        return f"{m['open']}{speaker} and {m['other']}"

    return _speaker_second(speaker).sub(swap, text)


def rewrite_persons(text: str, speaker: str, other: str | None) -> str:
    """Rewrite first person to ``speaker`` and (when known) second person to ``other``.

    "I love my dog" by Priya -> "Priya loves Priya's dog"; "we" -> "Priya and others".
    """
    text = _expand_contractions(text.replace("’", "'"))

    def subject(name: str, known_verbs_only: bool) -> Callable[[re.Match[str]], str]:
        def repl(m: re.Match[str]) -> str:
            verb = m["verb"]
            adv = m["adv"] or ""
            if verb is None:
                return name + adv
            low = verb.lower()
            conj = verb
            window = max(0, m.start() - _COORDINATED_SPAN)  # ("^" is the text's start only, "$" the end given)
            if low in _QUANTIFIERS or _COORDINATED.search(m.string, window, m.start()):
                return f"{name}{adv} {verb}"  # "Ines and I both joined": a plural subject, no verb after it
            if (
                not known_verbs_only
                or low in COMMON_VERBS
                or low in ("am", "are", "were", "have", "do", "don't", "haven't", "aren't", "weren't")
            ):
                conj = third_person(verb)
            return f"{name}{adv} {conj}"

        return repl

    adv_group = rf"(?P<adv>(?:\s+(?:{ADVERBS}))*)"
    text = re.sub(
        _PRONOUN.format("I|i(?![.'’]\\w)") + rf"{adv_group}(?:\s+(?P<verb>[A-Za-z]+(?:n't)?)(?![\w']))?",
        subject(speaker, known_verbs_only=False),
        text,
    )
    we_sub = f"{speaker} and others"
    replacements: list[tuple[str, str]] = [
        ("[Mm]yself", "themself"),
        ("[Mm]ine", _possessive(speaker)),
        ("[Mm]y", _possessive(speaker)),
        ("[Mm]e", speaker),
        ("[Oo]urselves", "themselves"),
        ("[Oo]urs", _possessive(speaker)),
        ("[Oo]ur", _possessive(speaker)),
        ("[Ww]e", we_sub),
        ("us|Us", we_sub),
    ]
    if other:
        replacements += [
            ("[Yy]ourself", "themself"),
            ("[Yy]ours", _possessive(other)),
            ("[Yy]our", _possessive(other)),
        ]
    for word, repl in replacements:
        text = re.sub(_PRONOUN.format(word), repl, text)
    text = _speaker_first(text, speaker)
    if other:
        text = re.sub(
            _PRONOUN.format("[Yy]ou") + rf"(?!\s+guys){adv_group}(?:\s+(?P<verb>[A-Za-z]+(?:n't)?)(?![\w']))?",
            subject(other, known_verbs_only=True),
            text,
        )
    return text
