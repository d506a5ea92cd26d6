"""Topic words of a fact: frequent content nouns (else verbs), plurals folded."""

from __future__ import annotations

from collections import Counter

from memforest.text.cleaning import WORD_RE, is_known_name
from memforest.text.lexicon import (
    CHAT_STOPWORDS,
    COMMON_VERBS,
    FILLER,
    IRREGULAR_PAST,
    MODALS,
    NUMBER_WORDS,
    TIME_WORDS,
    TOPIC_SKIP,
)

__all__ = ["singular", "topics"]


def singular(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("sses", "ches", "shes", "xes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is", "'s")):
        return word[:-1]
    return word


def _verbish(word: str) -> bool:
    if word.endswith("ing") and (word[:-3] in COMMON_VERBS or word[:-3] + "e" in COMMON_VERBS):
        return True
    return (
        word in IRREGULAR_PAST
        or word in COMMON_VERBS
        or (len(word) > 4 and word.endswith("ed"))
        or word.endswith("ly")
        or word in MODALS
    )


def topics(text: str, names: dict[str, str]) -> tuple[str, ...]:
    nouns: Counter[str] = Counter()
    verbs: Counter[str] = Counter()
    first: dict[str, int] = {}
    for i, word in enumerate(WORD_RE.findall(text)):
        low = word.lower().strip("'-")
        if "'" in low or len(low) < 3 or low in CHAT_STOPWORDS or low in TIME_WORDS or low in FILLER:
            continue
        if is_known_name(low, names) or low in TOPIC_SKIP or low in NUMBER_WORDS:
            continue
        stem = singular(low)
        first.setdefault(stem, i)
        (verbs if _verbish(low) else nouns)[stem] += 1
    ranked = sorted(nouns, key=lambda w: (-nouns[w], first[w]))
    if not ranked:
        ranked = sorted(verbs, key=lambda w: (-verbs[w], first[w]))
    return tuple(ranked[:5])
