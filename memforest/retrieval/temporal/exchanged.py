"""Questions told by an exchange of one state for another, with no word of before or after: "what did
I swap X for?" and "what did I replace X with?" ask what came after X; "which club did I leave for
X?" and "which phone did X replace?" ask what came before X."""

from __future__ import annotations

import re

from memforest.text.lexicon import CAPITALS

# the anchor between the verb and its closing preposition ("swap the Fairphone 4 for?"), bounded
_INSIDE = r"(?P<x>[^?.!,;]{1,120}?)"
_AT_END = r"\s*[?.!]?\s*$"
# X given up for what came next: "swap X for", "trade X in for", "replace X with"
_GIVEN_UP_FOR = re.compile(
    r"\b(?:swap(?:ped)?|trad(?:e|ed)|exchang(?:e|ed)|replac(?:e|ed)|substitut(?:e|ed))\s+"
    rf"{_INSIDE}\s+(?:in\s+|out\s+)?(?:for|with){_AT_END}",
    re.IGNORECASE,
)
# what was given up for X: "leave for X", "drop for X", "give up for X"
_LEFT_FOR = re.compile(
    r"\b(?:leave|left|drop(?:ped)?|ditch(?:ed)?|dump(?:ed)?|quit|abandon(?:ed)?|give\s+up|gave\s+up)\s+for\s+"
    r"(?P<x>[^?.!,;]{1,120})",
    re.IGNORECASE,
)
# X as the subject of a verb of replacing, the asked one its object: "which phone did X replace?"
_REPLACED_BY = re.compile(
    rf"\bdid\s+{_INSIDE}\s+(?:replace|succeed|supersede|take\s+over\s+from){_AT_END}", re.IGNORECASE
)
# a value: a capitalised word, or a thing one has ("the banjo", "my old Kindle")
_NAMED = re.compile(rf"(?<![\w'])(?!I\b)[{CAPITALS}]|^\s*(?i:the|my|his|her|their|our|a|an)\s+\w")


def exchanged(question: str) -> tuple[str, str] | None:
    """(operator, anchor phrase) of a question that asks across an exchange, the anchor naming a
    value (``_NAMED``: "leave for work" names none); else None."""
    for operator, rx in (("after", _GIVEN_UP_FOR), ("before", _LEFT_FOR), ("before", _REPLACED_BY)):
        m = rx.search(question)
        if m is not None and _NAMED.search(m["x"]):
            return operator, m["x"]
    return None
