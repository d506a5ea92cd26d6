"""Fragments of the grammar of change (``change_grammar``) for the way people talk about their
habits and the groups, places and services they take part in: a habit ("on Wednesday evenings"),
the start of a new state ("as of this week"), verbs of taking part, the nouns of a person met
rather than a kind of thing one has, and the words a kind's noun phrase never is."""

from __future__ import annotations

import re

from memforest.text.lexicon import CAPITALS
from memforest.text.state_words import KIN

__all__ = [
    "APPOSITION_END",
    "HABIT",
    "HELD_THINGS",
    "KIN_RE",
    "NOT_HELD",
    "NOT_NOUN",
    "NOT_ONE_OFF",
    "NOT_PERSON",
    "NOT_UPDATE",
    "PART",
    "PARTNERS",
    "SERVICE",
    "SINCE",
    "TAKE_UP",
    "WHERE_BETWEEN",
]

# a habit: "on Wednesdays", "every week", "twice a month"
HABIT = (
    r"(?i:on\s+(?:mon|tues|wednes|thurs|fri|satur|sun)(?:days|day\s+(?:mornings|afternoons|evenings|nights))|"
    r"every\s+(?:week|weekend|morning|evening|(?:mon|tues|wednes|thurs|fri|satur|sun)day)|(?:once|twice)\s+a\s+(?:week|month)|"
    r"weekly)"
)
SINCE = r"(?i:as\s+of|since|from|starting)\s+[^:.;!?,]{1,40}?"
# verbs of taking part in a group, a place or a service (of the subject's clause)
PART = (
    r"(?i:in|with|at|joined|joins|started|starts|signed\s+up|switched|moved|go|goes|going|use|uses|using|plays?|playing|"
    r"trains?|training|volunteers?|sings?|singing|rides?|works?\s+out|registered|enrolled|belongs?|runs?|running|swims?|"
    r"climbs?|dances?|dancing|studies|study|studying|takes?|taking|been)"
)
# nouns of a person met, not a kind of thing one has ("a guy called X")
NOT_PERSON = (
    r"(?!(?:guy|man|woman|girl|boy|lady|bloke|person|people|friend|chap|kid|fellow|dude|gentleman|someone|"
    r"book|film|movie|show|song|album|game|series|novel|documentary)s?[\s,]+(?:called|named|it's|it\s+is)\b)"
)

# words a noun phrase of a state never is (or ends with): function words, adverbs of place and time
NOT_NOUN = frozenset(
    str.split(
        """is was are were be been being has have had do does did now these those this that the a an and or but
        to of in on at for with from by as so then than when while days day week weeks month months year years
        time name one thing things way lot bit life turn job last next ago yesterday today tonight tomorrow morning
        evening night again instead too yet still every each all some any here there home after before about into
        over under through during without within around since until across behind near off out up down back
        outside inside upstairs downstairs abroad overseas away together alone early late overnight later soon
        nearby downtown uptown everywhere somewhere anywhere forever ever never always already just also even
        only often sometimes anymore twice"""
    )
)
PARTNERS = frozenset({"wife", "husband", "partner", "girlfriend", "boyfriend", "fiance", "fiancee"})
KIN_RE = re.compile(rf"^(?:{KIN})$", re.IGNORECASE)

# what one does with a new thing that replaced a sold one ("and now cycles a B", "and then leased a B")
TAKE_UP = (
    r"(?:got|gets|bought|buys|picked\s+up|leased|leases|rented|rents|financed|ordered|adopted|drives|drove|"
    r"rides|rode|cycles|cycled|uses|used|owns|started\s+(?:driving|riding|using|cycling))"
)
# a service one goes back to, had "with" someone ("my first lesson with X"); a companion is none
SERVICE = (
    r"(?:lesson|class|appointment|session|trim|cut|haircut|checkup|check-up|consultation|treatment|massage|"
    r"cleaning|fitting|workout|tutorial)"
)
# nouns of a person met or a thing seen once, never a kind of state ("the guy I met, Tom, ...",
# "the film we watched, X, ...")
NOT_ONE_OFF = (
    r"(?!(?:guy|man|woman|girl|boy|lady|bloke|person|people|friend|chap|kid|fellow|dude|gentleman|someone|client|"
    r"book|film|movie|show|song|album|game|series|novel|documentary|play|concert|trip|holiday|meal|dish|hotel)s?\b)"
)
# things one owns, which are with or at someone for a while, not a provider of theirs ("my car is
# at X now"), unless a word of a contract follows ("my car insurance is with X", "my phone plan")
HELD_THINGS = r"(?:car|bike|van|phone|laptop|bag|keys|wallet|dog|cat|stuff|things|parcel|package|order)"
NOT_HELD = rf"(?!{HELD_THINGS}s?\b(?!\s+(?:insurance|insurer|finance|loan|lease|plan|contract)\b))"
# words before "update" that name no kind ("Big update:", "Weather update:")
NOT_UPDATE = (
    r"(?!(?i:big|quick|small|little|huge|major|minor|life|news|weather|general|brief|short|mini|exciting|sad|good|bad|"
    r"final|random|fun|family|travel|work|health|status|progress|another|latest|daily|weekly)\b)"
)
# where a value set beside its kind ends ("her GP, Dr. Mensah at X", "her dentist, Dr. Roy, says")
APPOSITION_END = r"\s*(?:[,;.!?)]|$)|\s+(?:at|from)\s"
# where the one named is, between a noun and its value ("in Kelby", "in town")
WHERE_BETWEEN = (
    rf"(?:\s+(?i:in|at|near)\s+(?:(?i:the)\s+)?"
    rf"(?:[{CAPITALS}][\w'-]*+(?:\s+[{CAPITALS}][\w'-]*+)?|(?i:town|the\s+village)))?"
)
