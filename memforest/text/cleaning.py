"""Sentence clean-up and the test of whether a chat sentence states anything."""

from __future__ import annotations

import re

from memforest.text.lexicon import CAPITALS, CHAT_STOPWORDS, FILLER
from memforest.text.sentences import EMOJI_CLASS

__all__ = ["WORD_RE", "clean_sentence", "content_tokens", "informative", "is_known_name", "strip_emoji"]

_EMOJI_RE = re.compile(f"[{EMOJI_CLASS}]+")
_LEAD_INTERJECTION_RE = re.compile(
    r"^(?:(?i:hey|hi|hello|oh|ohh|ah|aw+|wow|well|so|yeah|yes|yep|yup|no|nope|ok|okay|haha+|hah|lol|omg|"
    r"um+|hmm+|great|cool|nice|sure|thanks|thank\s+you|awesome|amazing|congrats|congratulations|ooh|"
    r"right|true|totally|absolutely|definitely|honestly|anyway|anyways|btw|also|and|but|dear)"
    rf"(?:\s+[{CAPITALS}][a-z]+)?\s*[,!.:;\-]+\s*)+"
)
# a whitespace run is entered at its first character only (the lookbehind), so a long run is scanned
# once, not once from each of its characters
_YOU_KNOW_RE = re.compile(r"(?:,\s*|(?<!\s)\s*)\byou know\b,?", re.IGNORECASE)
WORD_RE = re.compile(r"[A-Za-z][A-Za-z'-]*")
_FIRST_PERSON_RE = re.compile(r"\b(?:I|i(?![.'’]\w))\b|\b(?:me|my|mine|myself|we|us|our|ours)\b", re.IGNORECASE)
_QUESTION_START_RE = re.compile(
    r"^(?:what|who|whom|whose|where|when|why|how|which|do|does|did|is|are|was|were|have|has|had|can|could|"
    r"will|would|should|shall|may|might|any)\b",
    re.IGNORECASE,
)


def strip_emoji(text: str) -> str:
    return re.sub(r"\s{2,}", " ", _EMOJI_RE.sub(" ", text)).strip()


def is_known_name(word: str, names: dict[str, str]) -> bool:
    low = word.lower()
    return low in names or any(len(low) >= 3 and n.startswith(low) for n in names)


def clean_sentence(sentence: str, names: dict[str, str]) -> str:
    s = strip_emoji(sentence.replace("’", "'"))
    s = _LEAD_INTERJECTION_RE.sub("", s)
    s = _YOU_KNOW_RE.sub("", s)
    trailing = re.search(rf",\s*([{CAPITALS}][a-z]+)\s*([.!?]*)$", s)
    if trailing and is_known_name(trailing.group(1), names):
        s = s[: trailing.start()] + trailing.group(2)
    s = s.strip(" ,;:-")
    if s and not s.endswith((".", "!", "?", '"', "'", ")", "…")):
        s += "."
    return s[:1].upper() + s[1:] if s else s


def content_tokens(sentence: str, names: dict[str, str]) -> list[str]:
    out = []
    for word in WORD_RE.findall(sentence):
        low = word.lower().strip("'-")
        if low in CHAT_STOPWORDS or low in FILLER or is_known_name(low, names) or len(low) < 2:
            continue
        out.append(low)
    return out


def informative(sentence: str, names: dict[str, str]) -> bool:
    words = WORD_RE.findall(sentence)
    if len(words) < 2:
        return False
    if not content_tokens(sentence, names):
        return False
    if sentence.rstrip().endswith("?") or (
        _QUESTION_START_RE.match(sentence) and not sentence.rstrip().endswith((".", "!"))
    ):
        if _QUESTION_START_RE.match(sentence):
            return False  # an inverted question asks, it does not state
        return bool(_FIRST_PERSON_RE.search(sentence)) and len(content_tokens(sentence, names)) >= 2
    return True
