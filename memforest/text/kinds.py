"""The kind of a fact (plan, preference, opinion, state, event, other) from its wording and times."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from memforest.domain import FactKind
from memforest.text.date_parts import HABIT_GOING
from memforest.text.dates import TimeMention
from memforest.text.lexicon import ADJECTIVE_ED, CAPITALS, IRREGULAR_PAST
from memforest.text.state_words import PRODUCT_PLAN

__all__ = ["fact_kind"]

_PLAN_RE = re.compile(
    rf"\b(?:will|shall|gonna|going\s+to|{PRODUCT_PLAN}plan(?:s|ning)?\s+(?:to|on)|planning|intend(?:s|ing)?\s+to|"
    r"hop(?:e|ing)\s+to|want(?:s)?\s+to|wanna|about\s+to|looking\s+forward|can't\s+wait|cannot\s+wait|"
    r"next\s+(?:week|weekend|month|year|time|summer|spring|fall|winter|monday|tuesday|wednesday|"
    r"thursday|friday|saturday|sunday)|tomorrow|thinking\s+(?:of|about)\s+\w+ing)\b|['’]ll\b",
    re.IGNORECASE,
)
_PREFERENCE_RE = re.compile(
    r"\b(?:i|we|really|also|just|totally|absolutely|do|still|always|truly|so)\s+"
    r"(?:love|like|enjoy|prefer|hate|adore|dislike|can't\s+stand)\b|\bfavou?rite\b|\bfan\s+of\b|"
    r"\bpassionate\s+about\b|\b(?:i'm|i\s+am|we're)\s+(?:really\s+|so\s+)?into\b",
    re.IGNORECASE,
)
_OPINION_LEAD_RE = re.compile(
    r"^(?:i|we)\s+(?:really\s+|honestly\s+|personally\s+|do\s+)?(?:think|believe|feel|guess|reckon|suppose)\b|"
    r"^in\s+my\s+opinion\b",
    re.IGNORECASE,
)
_OPINION_RE = re.compile(
    r"\b(?:think|believe|feel|guess|reckon|suppose)\b|\bin\s+my\s+opinion\b|\bseems?\s+(?:like|to)\b",
    re.IGNORECASE,
)
_STATE_STRONG_RE = re.compile(
    r"\b(?:lives?|lived|living)\s+in\b|\b(?:works?|worked|working)\s+(?:at|for|as)\b|\bused\s+to\b|"
    r"\b(?:single|married|engaged|divorced|widowed)\b|\byears?\s+old\b|\b(?:is|am|was|are)\s+from\b|"
    r"\bhave\s+been\s+(?:living|working)\b|\b(?:has|have|own|owns)\s+(?:a|an|two|three|four|\d+)\b|"
    rf"\b(?:named|called)\s+[{CAPITALS}]",
    re.IGNORECASE,
)
_STATE_WEAK_RE = re.compile(
    r"\b(?:i\s+am|i'm|we\s+are|we're|i\s+have|i've\s+got|we\s+have|has|have|is|are|am|own|owns)\b",
    re.IGNORECASE,
)
# a habit told as a refusal ("the kitten will not stop climbing the curtains", "Bo won't eat his
# biscuits"): what goes on now, no plan
_REFUSING = re.compile(
    r"\b(?:will\s+not|won't|wont|will\s+never)\s+(?:stop\s+[a-z]+ing|eat|sleep|settle|listen|behave)\b", re.IGNORECASE
)
_EVENT_RE = re.compile(r"\b(?:" + "|".join(sorted(IRREGULAR_PAST)) + r"|[a-z]{3,}ed)\b", re.IGNORECASE)


def fact_kind(original: str, mentions: list[TimeMention], turn_time: datetime) -> FactKind:
    low = original.replace("’", "'")
    day_start = turn_time.replace(hour=0, minute=0, second=0, microsecond=0)
    future_mention = any(m.start >= day_start + timedelta(days=1) for m in mentions)
    past_mention = any((m.end or m.start + timedelta(days=1)) <= day_start for m in mentions)
    unplanned = _REFUSING.sub("_", HABIT_GOING.sub("_", low))
    if _PLAN_RE.search(unplanned) or (future_mention and not past_mention):
        return FactKind.PLAN
    if _PREFERENCE_RE.search(low):
        return FactKind.PREFERENCE
    if _OPINION_LEAD_RE.search(low):
        return FactKind.OPINION
    if _STATE_STRONG_RE.search(low):
        return FactKind.STATE
    if past_mention or any(m.group(0).lower() not in ADJECTIVE_ED for m in _EVENT_RE.finditer(low)):
        return FactKind.EVENT
    if _STATE_WEAK_RE.search(low):
        return FactKind.STATE
    if _OPINION_RE.search(low):
        return FactKind.OPINION
    return FactKind.OTHER
