"""When someone works, as a state of its own: a shift ("Ana is on nights now", "Ana has gone onto
the early shift", "Ana moved to the night shift"), a pattern of days ("Ana works 3 nights a week",
"switched to a four-day week") or hours ("went part-time"). The slot is ``shift`` for shifts (as
a question asks: "what shift do I work") and ``working_hours`` for the rest: a new arrangement
supersedes the last. Read only when the sentence states nothing else (``state_slot``
reads it last); one weighed or denied is none.
"""

from __future__ import annotations

import re

from memforest.text.mood import mood_near
from memforest.text.state_words import HOLDER

__all__ = ["find_work_hours"]

_NUMBER = r"(?:\d|one|two|three|four|five|six)"
_SCHEDULE = (
    r"(?:(?:early|late|night|day|evening|morning|weekend|twilight|split|rotating|graveyard|swing)\s+shifts?|"
    r"nights|earlies|lates|"
    + _NUMBER
    + r"\s+(?:nights|days|mornings|evenings|shifts)\s+a\s+week|"
    + _NUMBER
    + r"-day\s+(?:week|fortnight)|part[- ]time|full[- ]time|flexi-?time|compressed\s+hours)"
)
# a value told as shifts ("night shift", "nights", "lates"), asked of as a shift; else as hours
# the schedule ends its phrase ("went part-time after ...", not "a part-time diploma")
_ENDS = (
    r"(?=\s*(?:[.,;:!?)]|$)|\s+(?:at|for|in|on|now|since|this|these|so|and|but|because|after|from|until|till|again|"
    r"with|as|last|next|every|each)\b)"
)
_SHIFT = re.compile(r"shifts?$|^(?:nights|earlies|lates)$")
_HOLDER = (
    HOLDER + r"(?:\s+and\s+others)?"  # ("we": "Ana and others")
)
_ADVERBS = r"(?:(?:now|still|currently|back|just|also|finally|mostly)\s+)?"
# "Ana is on nights", "Ana has gone onto the early shift", "Ana switched to a four-day week", "Ana
# works 3 nights a week", "Ana went part-time"
_HOLDER_WORKS = re.compile(
    _HOLDER + r"\s+" + _ADVERBS
    + r"(?:(?:is|are|'s|has\s+been|have\s+been)\s+" + _ADVERBS + r"(?:on|working|doing)|"
    r"(?:has\s+|have\s+)?" + _ADVERBS + r"(?:gone|went|moved|switched|changed)\s+(?:back\s+)?(?:on|onto|to|over\s+to)|"
    r"works|work|went|has\s+gone)\s+"
    + r"(?:the\s+|an?\s+)?(?P<val>" + _SCHEDULE + r")" + _ENDS
)  # fmt: skip
# a sentence of one's own with its subject left out ("Been on the early shift at X", "On nights this week")
_OPENING = re.compile(
    r"^(?:(?i:just|now|finally|also|still)\s+)?(?:(?i:been|back|started|switched|moved)\s+(?:on|onto|to)\s+|(?i:on)\s+)"
    r"(?:the\s+|an?\s+)?(?P<val>" + _SCHEDULE + r")" + _ENDS
)
# a schedule opening a fragment of its own that says it holds now ("Day shifts for now, 7 to 3")
_FRAGMENT = re.compile(
    r"^(?P<val>(?i:early|late|night|day|evening|morning|weekend)\s+shifts?|(?i:nights|earlies|lates))"
    r"\s+(?:for\s+now|now|these\s+days|at\s+the\s+moment|this\s+(?:week|month))\b"
)
# put on one by someone else ("Ana's been put on night shifts", "Ana was moved onto lates")
_PUT_ON = re.compile(
    _HOLDER + r"(?:'s|\s+has|\s+have|\s+was|\s+were)\s+(?:been\s+)?(?:put|moved|switched)\s+(?:on|onto|to)\s+"
    r"(?:the\s+|an?\s+)?(?P<val>" + _SCHEDULE + r")" + _ENDS
)


def find_work_hours(text: str, speaker: str) -> tuple[str, str, str] | None:
    """(holder, ``shift`` or ``working_hours``, schedule) where a person-rewritten sentence says when someone
    works now (see module doc); the speaker for a sentence that leaves its subject out; else None."""
    m = _HOLDER_WORKS.search(text) or _PUT_ON.search(text)
    holder = m["subj"] if m is not None else speaker
    m = m or _OPENING.search(text) or _FRAGMENT.search(text)
    if m is None or mood_near(text[: m.end()], m.start("val")) is not None:
        return None
    value = m["val"].lower()
    return holder, "shift" if _SHIFT.search(value) else "working_hours", value
