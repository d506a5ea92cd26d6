"""Joining a group told by its verb: joined, enrolled, elected, picked for, playing in, a
membership taken out, an audition or application that succeeded. ``change_grammar.GENERIC`` reads
them, in this order, after the switches and before a service used. Each reads a person-rewritten
sentence and is linear in its length."""

from __future__ import annotations

import re

from memforest.text import change_words as cw
from memforest.text.change_subjects import ADV as _ADV
from memforest.text.change_subjects import ADVERBS_RUN as _ADVERBS
from memforest.text.change_subjects import SUBJ as _SUBJ
from memforest.text.state_words import GOT_IN, LET_IN, NOT_GETTING_IN

__all__ = ["JOINING"]

# a player's place in a band, a choir or a side (closed classes: the parts one plays or sings, and
# the positions of a team)
_PLACE_IN_GROUP = (
    r"(?:bassist|bass\s+player|guitarist|drummer|singer|vocalist|keyboardist|pianist|violinist|cellist|fiddler|"
    r"saxophonist|trumpeter|alto|soprano|tenor|baritone|(?:bass|guitar|drum|keyboard|piano|violin|cello|sax|"
    r"trumpet|flute|fiddle|rhythm|lead)\s+player|captain|vice-captain|goalkeeper|keeper|"
    r"striker|winger|defender|midfielder|forward|prop|hooker|fly-half|scrum-half|pitcher|catcher|coxswain|cox)"
)

JOINING: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(
            rf"{cw.LEAD}{_ADV}(?:been\s+|was\s+|got\s+|(?:is|am|are)\s+{_ADVERBS}(?=(?i:playing|singing|bowling|drumming)\s))?"
            rf"(?i:joined|joins|signed\s+up\s+(?:with|for|at|to)|enrolled\s+(?:in|at|with)|"
            rf"registered\s+(?:with|at)|became\s+a\s+member\s+of|(?:took|taken|takes|got|bought)\s+(?:out\s+)?an?\s+"
            rf"(?:[\w-]+\s+)?membership\s+(?:at|with|of)|signed\s+up\s+for\s+(?:(?:a|an|the)\s+)?(?:(?!(?i:free|trial|taster|one-off|drop-in|single)\b)[\w-]+\s+){{1,6}}?(?:at|with)|"
            rf"voted\s+onto|elected\s+(?:to|onto)(?:\s+the\s+board\s+of)?|accepted\s+(?:into|onto|by)|got\s+into|picked\s+for|"
            rf"selected\s+for|(?:treasurer|secretary|chair|captain|president)\s+of|volunteers?\s+(?:with|at|for)|"
            rf"(?:plays?|playing|bowls?|bowling|sings?|singing|drums?|drumming|(?:has|have)\s+(?:played|sung|drummed))\s+"
            rf"(?:[\w-]+\s+)?(?:in|for|with(?=\s+the\b)))\s+"
            rf"(?:the\s+)?{cw.VALUE}"
        ),
        "membership",
    ),
    (
        # an audition or application that succeeded joins: "auditioned for X and got in", "applied to
        # X and was accepted" (one still hoping to get in, who did not, or another who got in, joined
        # nothing; "got in touch" is no getting in)
        re.compile(
            rf"{cw.LEAD}{_ADV}(?i:auditioned|applied|tried\s+out|trialled|trialed)\s+(?:for|to|with|at)\s+(?:the\s+)?"
            rf"{cw.VALUE},?\s+and\s+(?:(?P=subj)\s+)?(?i:{GOT_IN}|{LET_IN})\b(?i:{NOT_GETTING_IN})"
        ),
        "membership",
    ),
    (
        re.compile(
            rf"{_SUBJ}\s+(?:is|are|am|has\s+been)\s+{_ADV}(?:an?\s+)?{cw.MEMBER_ADJ}(?:member|part)\s+of\s+(?:the\s+)?{cw.VALUE}"
        ),
        "membership",
    ),
    (
        # a place in a band or a side: "Ana is now the bassist in X", "is a keeper for X" ("a tennis
        # player in Leeds" says where, not with whom)
        re.compile(
            rf"{_SUBJ}\s+(?:is|are|am|has\s+been)\s+{_ADV}(?:the\s+(?:(?i:new|lead|regular|first-choice)\s+)?"
            rf"(?i:{_PLACE_IN_GROUP})\s+(?:in|for|with)|(?:a|an)\s+(?:(?i:new|lead|regular)\s+)?(?i:{_PLACE_IN_GROUP})\s+"
            rf"(?:for|with))\s+(?:the\s+)?{cw.VALUE}"
        ),
        "membership",
    ),
    (
        re.compile(
            rf"{_SUBJ}\s+(?:is|are|am|has\s+been)\s+{_ADV}on\s+the\s+{cw.VALUE}\s+(?:[\w-]+\s+)?"
            r"(?i:team|squad|crew|committee|board|rota|roster)\b"
        ),
        "membership",
    ),
    (
        re.compile(
            rf"{cw.LEAD}{_ADV}(?i:got|gets|bought|took\s+out|has|have|renewed)\s+(?:a|an|{cw.OWNER})\s+(?:[a-z-]+\s+)?"
            rf"membership\s+(?:at|with|to|of|for)\s+(?:the\s+)?{cw.VALUE}"
        ),
        "membership",
    ),
    (
        # playing or singing in a group: "plays bass for the Otters", "sings with the Chorale" (with
        # whom one played a game or once sang is no group of one's own)
        re.compile(
            rf"{cw.LEAD}{_ADV}(?:(?i:plays?|played|sings?|sang|performs?|performed)\s+(?:[a-z][a-z-]*\s+)?"
            rf"(?:for\s+(?:the\s+)?|in\s+the\s+)|(?i:plays?|sings?|performs?)\s+with\s+the\s+){cw.VALUE}"
        ),
        "membership",
    ),
)
