"""Entity names in a sentence: runs of capitalised words, speaker names resolved."""

from __future__ import annotations

import re

from memforest.text.cleaning import is_known_name
from memforest.text.lexicon import CAPITALS, ENTITY_EXCLUDE

__all__ = ["sentence_entities"]


def _split_entity_run(words: list[str]) -> list[list[str]]:
    runs: list[list[str]] = [[]]
    for w in words:
        if w.lower() in ENTITY_EXCLUDE and w.lower() not in ("of", "de", "la", "del", "da", "van", "von"):
            runs.append([])
        else:
            runs[-1].append(w)
    connectors = {"of", "de", "la", "del", "da", "van", "von", "the"}
    cleaned = []
    for run in runs:
        while run and run[0].lower() in connectors:
            run.pop(0)
        while run and run[-1].lower() in connectors:
            run.pop()
        if run:
            cleaned.append(run)
    return cleaned


_CAPS_RE = re.compile(
    rf"\b[{CAPITALS}][\w&'-]*(?:(?:\s+(?:of|de|la|del|da|van|von)(?:\s+the)?)?\s+[{CAPITALS}][\w&'-]*)*"
)


def sentence_entities(sentence: str, names: dict[str, str]) -> list[str]:
    found: list[str] = []
    for m in _CAPS_RE.finditer(sentence):
        words = [re.sub(r"'s$|'$", "", w) for w in m.group(0).split()]
        offset = m.start()
        for run in _split_entity_run(words):
            label = " ".join(run)
            at_start = offset == 0 and run[0] == words[0]
            if at_start and len(run) == 1 and not is_known_name(run[0], names):
                continue
            if len(label) < 2 or label.isdigit():
                continue
            if label.lower() in names:
                label = names[label.lower()]
            found.append(label)
    return found
