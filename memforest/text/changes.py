"""Open-ended states from a general grammar of change: (subject, slot, value) for sentences that
say a person's current X is now V, whatever X is (a dentist, a choir, a phone, a coffee place).

Two layers, both on the person-rewritten sentence ("I" already replaced by the speaker's name):

* ``find_named_change``: the sentence names the kind of thing, and the slot is that noun phrase,
  normalised (:func:`slot_key`): "Ana's new dentist is Dr. Ruiz", "Dr. Ruiz is Ana's dentist now",
  "Ana started going to Dr. Ruiz, her new dentist", "Ana switched dentists, from A to B", "found a
  new bakery: Crumbs", "swapped A for B as Ana's bakery".
* ``find_change``: the sentence names no kind; the slot is the class of the change verb: joining
  or being a member (``membership``), acquiring (``possession``), starting to go to or see
  (``patronage``), or a switch from one value to another (``change``, whose kind the read path
  takes from the value it replaced).

The subject is the person the sentence is about: the possessor of the noun ("Ana's"), else the
grammatical subject ("Ana's sister Mia joined X": Mia; "Ana's sister joined X": "Ana's sister").
Sentences in a mood other than the plain statement (plans, wishes, hypotheticals, things
considered or turned down, suggestions, negations, nostalgia: ``memforest.text.mood``) and
leavings without a successor give no slot.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import islice

from memforest.attributes import VERB_CLASSES
from memforest.text.change_subjects import ADV as _ADV
from memforest.text.change_subjects import ADVERBS_RUN as _ADVERBS
from memforest.text.change_subjects import NAME as _NAME
from memforest.text.change_subjects import PERSON as _PERSON
from memforest.text.change_subjects import SUBJ as _SUBJ
from memforest.text.change_subjects import leading_subject, subject_key
from memforest.text.change_subjects import match_subject as _subject
from memforest.text.doers import plausible_doer
from memforest.text.mood import mood_near
from memforest.text.state_values import TIME_NAME, change_value
from memforest.text.state_words import ANIMALS, DISPOSAL, INTRODUCING, KIN, POINTING
from memforest.text.topics import singular

__all__ = ["VERB_CLASSES", "find_change", "find_named_change", "leading_subject", "slot_key", "subject_key"]

# matches of one pattern read per text: each costs a scan of the text before it for its subject
_MAX_MATCHES = 8


# what one does with a new thing that replaced a sold one ("and now cycles a B", "and then leased a B")
_TAKE_UP = (
    r"(?:got|gets|bought|buys|picked\s+up|leased|leases|rented|rents|financed|ordered|adopted|drives|drove|"
    r"rides|rode|cycles|cycled|uses|used|owns|started\s+(?:driving|riding|using|cycling))"
)
# a service one goes back to, had "with" someone ("my first lesson with X"); a companion is none
_SERVICE = (
    r"(?:lesson|class|appointment|session|trim|cut|haircut|checkup|check-up|consultation|treatment|massage|"
    r"cleaning|fitting|workout|tutorial)"
)
_OWNER = rf"(?:(?P<owner>{_PERSON})'s|(?P<pron>his|her|their|its))"
# possessive: a word is read whole or not at all (no backtracking into it: linear on long runs)
_WORD = r"(?:[A-Z][\w.'&-]*+|\d[\w.-]*+)"
# a value that begins a pattern starts at a word's first character, never inside a word
_AT_WORD = r"(?<![\w.'&-])"
_JOIN = r"(?:of|and|on|&|de|du|la|le|the|up)"
_VALUE = rf"(?P<v>{_WORD}(?:\s+(?:{_JOIN}\s+)?{_WORD}){{0,4}})"
# the times a switch is told by (a trip is told by a day or an hour: "on Tuesday", "at noon")
_SEASON = r"(?:week|month|year|spring|summer|autumn|fall|winter)"
_SEASON_AGO = (
    rf"(?:last|this|earlier\s+this|late\s+last|early\s+last)\s+{_SEASON}|in\s+(?:\d{{4}}|the\s+{_SEASON}|"
    rf"(?:january|february|march|april|may|june|july|august|september|october|november|december)\b)|"
    rf"(?:a|an|\w+)\s+(?:(?:few|couple\s+of)\s+)?{_SEASON}s?\s+ago|recently|back\s+in"
)
_UNTIMED = rf"(?P<v>{TIME_NAME}{_WORD}(?:\s+(?:{_JOIN}\s+)?{TIME_NAME}{_WORD}){{0,4}})"
_PREV = rf"(?P<prev>{_WORD}(?:\s+(?:{_JOIN}\s+)?{_WORD}){{0,4}})"
_ART = r"(?:(?:a|an|the|some)\s+)?"
_NOT_FORMER = r"(?!(?i:old|former|ex|late|previous|last)\b)"  # "her old coach": a state that ended
_ADJ = r"(?:(?:new|current|usual|regular|go-to|favou?rite|latest|main|own|local|first)\s+)*"
# a noun phrase: lower-case words, the first one may be an acronym ("GP", "ISP")
_NOUN = r"(?P<noun>(?:[a-z][a-z-]*|[A-Z]{2,4}(?![\w'-]))(?:\s+[a-z][a-z-]*)?)"
# a service that moves to a provider along with another ("her gas and electric"); people and
# animals moved somewhere are no service
_MOVED_SERVICE = (
    r"(?:gas|electric(?:ity)?|broadband|internet|wifi|phone|mobile|insurance|savings|checking|pension|isa|"
    r"water|energy|tv|cable|mortgage|account)\b"
)
_NOT_LIVING = rf"(?!(?i:{KIN}|{ANIMALS}|children|family|stuff|things|belongings)(?:s|es)?\b)"
_NOUN3 = r"(?P<noun>[a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,2})"
# where a clause's verb may stand: after its subject (a name, or a pronoun after a phrase of time:
# "in May he switched to X", whose the extractor reads from the sentences before), or first in its
# clause with the subject left out, as people write of themselves ("Joined X last week", "quit A
# and joined B")
_LEAD = rf"(?:{_SUBJ}\s+|(?<![\w'])(?:he|she|they)(?:'(?:s|ve|d|re))?\s+|^|(?<=[.!?;:,]\s)|(?<=\band\s)|(?<=\bthen\s))"
_NOW = r"(?:\s+(?:now|these\s+days|nowadays|at\s+the\s+moment|for\s+now))?"

# what may follow a noun phrase: punctuation, the end, a preposition, conjunction or time word
_BOUNDARY = (
    r"(?=\s*(?:[.,;:!?)]|$)|\s+(?:and|but|from|in|at|for|on|with|since|because|so|that|which|who|to|now|again|"
    r"last|this|yesterday|today|after|before|when|these|every)\b)"
)
# an adverb after a value is no kind of it ("switched to X already")
_NOT_KIND = (
    r"(?!(?:[a-z]+ly|already|too|yet|instead|anyway|again|though|now|then|today|tonight|soon|here|there|back|home|"
    r"together)\b)"
)
# the kind a value is named as: a noun right after it ("a Solano e-bike", "a Norrland 7 phone"),
# an appositive after it ("Marlow Paddlers, a rowing club") or its owner's use of it ("X as my
# accountant"; "as a designer" is the subject's role, not the value's kind); a run of whitespace
# is tried from its first character only (linear on long runs)
_KIND_AFTER = (
    re.compile(rf"(?<!\s)\s+{_NOT_KIND}{_NOUN}{_BOUNDARY}"),
    re.compile(
        rf",\s+(?:an?|the|{_NAME}'s|his|her|their)\s+{_ADJ}{_NOUN3}"
        rf"(?:\s+(?:on|in|at|near|by|down|round|around|off)\s+[^,.;:!?]{{1,30}})?(?=\s*(?:[.,;:!?)]|$))"
    ),
    re.compile(rf"(?<!\s)\s+(?:as|for)\s+(?:{_NAME}'s|his|her|their)\s+{_ADJ}{_NOUN}{_BOUNDARY}"),
)
# a value right after a verb of ending is no state ("sold my X", "stopped going to X")
_ENDED = re.compile(
    rf"\b(?i:{DISPOSAL}|quit|left|dropped|gave\s+up\s+on|cancell?ed(?:\s+with)?|"
    r"traded(?:\s+in)?|swapped|exchanged|replaced|"
    r"stopped\s+(?:going\s+to|seeing|using)|lost|returned|crashed|wrote\s+off|broke)\s+"
    r"(?:(?:\w+'s|his|her|their|the|an?|old)\s+){0,2}$"
)
# a switch whose kind is named in the plural or with its owner ("switched dentists", "changed my bank")
_SWITCHED_KIND = re.compile(
    rf"\b(?i:switched|changed|swapped)\s+(?:(?:{_NAME}'s|his|her|their)\s+(?P<noun>[a-z][a-z-]*)|"
    rf"(?P<plural>[a-z][a-z-]*s))\b(?!\s+(?:to|from|for|over)\b)"
)

# words a noun phrase of a state never is (or ends with): function words, adverbs of place and time
_NOT_NOUN = frozenset(
    str.split(
        """is was are were be been being has have had do does did now these those this that the a an and or but
        to of in on at for with from by as so then than when while days day week weeks month months year years
        time name one thing things way lot bit life turn job last next ago yesterday today tonight tomorrow morning
        evening night again instead too yet still every each all some any here there home after before about into
        over under through during without within around since until across behind near off out up down back
        outside inside upstairs downstairs abroad overseas away together alone early late overnight later soon
        nearby downtown uptown everywhere somewhere anywhere forever"""
    )
)
_PARTNERS = frozenset({"wife", "husband", "partner", "girlfriend", "boyfriend", "fiance", "fiancee"})
_KIN_RE = re.compile(rf"^(?:{KIN})$", re.IGNORECASE)

_NAMED: tuple[re.Pattern[str], ...] = (
    # "Ana switched dentists, from Dr. A to Dr. B"
    re.compile(
        rf"\b(?i:switched|changed|swapped)\s+(?:{_OWNER}\s+)?{_NOUN}s?,?\s+(?:from\s+{_PREV}\s+)?to\s+(?:the\s+)?{_VALUE}"
    ),
    # "Ana's new dentist is Dr. Ruiz", "Ana's go-to bakery these days is Crumbs"
    re.compile(
        rf"{_OWNER}\s+{_ADJ}{_NOUN}{_NOW}\s+(?:is|has\s+become|became|will\s+be|:)\s+(?:now\s+)?(?:the\s+)?{_VALUE}"
    ),
    # "the team Ana plays for is now the Otters": the noun's relative clause names its subject
    re.compile(
        rf"\b(?i:the)\s+{_ADJ}{_NOUN}\s+{_SUBJ}\s+(?:[a-z][\w'-]*\s+){{1,3}}?(?:is|has\s+become|became)\s+"
        rf"(?:now\s+)?(?:the\s+)?{_VALUE}"
    ),
    # "Ana moved her phone number over to X", "moved her gas and electric to X": the thing moved is the kind
    re.compile(
        rf"\b(?i:switched|changed|moved|transferred|ported)\s+{_OWNER}\s+{_NOT_LIVING}{_NOUN}(?:\s+and\s+{_MOVED_SERVICE})?\s+"
        rf"(?:over\s+|across\s+)?to\s+"
        rf"(?:the\s+)?{_VALUE}"
    ),
    # "Ana's home insurance switched from A to B", "her broadband moved over to X": the thing
    # that changed is the kind
    re.compile(
        rf"{_OWNER}\s+{_ADJ}{_NOUN}\s+{_ADVERBS}(?i:switched|changed|moved)\s+(?:over\s+|across\s+)?"
        rf"(?:from\s+{_ART}{_PREV}\s+)?to\s+(?:the\s+)?{_VALUE}"
    ),
    # "sees a physio called X", "found a bakery named X": a kind the subject has, named
    re.compile(
        rf"{_LEAD}{_ADV}(?:been\s+|is\s+|are\s+|am\s+)?(?i:seeing|sees|see|saw|found|use|uses|using|has|have|got|"
        rf"go\s+to|goes\s+to|registered\s+with)\s+"
        rf"(?:a|an)\s+{_ADJ}{_NOUN}\s+(?:called|named)\s+{_VALUE}"
    ),
    # "registered with a GP after putting it off: Dr. Nicholls", "found a dentist at last: Dr. Ruiz"
    re.compile(
        rf"{_LEAD}{_ADV}(?i:found|got|chose|picked|registered\s+with|signed\s+up\s+with)\s+(?:a|an)\s+{_ADJ}{_NOUN}"
        rf"(?:\s+[^:.;!?]{{1,60}}?)?:\s+{_ART}{_VALUE}"
    ),
    # "Dr. Ruiz is Ana's dentist now", "Crumbs has become her bakery"
    re.compile(rf"{_AT_WORD}{_VALUE}\s+(?:is|has\s+become|became)\s+(?:now\s+)?{_OWNER}\s+{_ADJ}{_NOUN}(?!'s|\w)"),
    # "started going to Dr. Ruiz, her new dentist"
    re.compile(rf"{_AT_WORD}{_VALUE},\s+{_OWNER}\s+(?:new|current|usual|regular|go-to|latest)\s+{_NOUN}(?!'s|\w)"),
    # "found a new bakery: Crumbs", "got a new phone, a Fairphone 5", "a great bakery called Crumbs"
    re.compile(rf"\b(?i:new)\s+{_NOUN}\s*(?::|,|-|called|named)\s+{_ART}{_VALUE}"),
    re.compile(rf"\b(?:great|good|nice|lovely|local|decent|brilliant|little)\s+{_NOUN}\s+(?:called|named)\s+{_VALUE}"),
    # "joined a book club, the Thursday Readers", "joined the Monday choir at St Jude's, the Vox
    # Singers", "sings in a choir called Vox"
    re.compile(
        rf"\b(?i:joined|joins|found|chose|picked|plays?\s+in|sings?\s+in|member\s+of)\s+(?:a|an|the)\s+(?:new\s+)?(?:[A-Z][a-z]+\s+)?{_NOUN}"
        rf"(?:\s+(?:in|on|at|last|this|during|over)\s+[^,.;:!?]{{1,30}}?|\s+(?:yesterday|today|recently))?(?:,\s+|\s+(?:called|named)\s+)(?:the\s+)?{_VALUE}"
    ),
    # "swapped A for B as Ana's bakery"
    re.compile(rf"\bfor\s+{_ART}{_VALUE}\s+as\s+{_OWNER}\s+{_ADJ}{_NOUN}(?!'s|\w)"),
    # in apposition, closed by a comma or parenthesis: "Ana's dentist, Dr. Ruiz, says", "Dr. Ruiz, her GP,"
    re.compile(rf"{_OWNER}\s+{_NOT_FORMER}{_ADJ}{_NOUN},\s+{_ART}{_VALUE}\s*[,)]"),
    re.compile(
        rf"(?:^|(?<=[.!?;:]\s))(?!(?i:{INTRODUCING}|{POINTING}|on|in|at|last|this|next)\b)(?![A-Z][a-z]*ly\b)"
        rf"{_UNTIMED},\s+{_OWNER}\s+{_NOT_FORMER}{_ADJ}{_NOUN},"
    ),
)
# a capitalised word with no digit, and the words that open a sentence without naming anyone
_CAPWORD = r"[A-Z][a-zA-Z.'&-]*+"
_OPENER = r"(?i:in|on|at|an?|last|this|next|after|before|when|so|and|but|then|today|yesterday)\b"
_GENERIC: tuple[tuple[re.Pattern[str], str], ...] = (
    # switches name the value replaced: the read path gives them the kind of that value
    (re.compile(rf"\b(?i:from)\s+{_ART}{_PREV}\s+to\s+{_ART}{_VALUE}"), "change"),
    (
        re.compile(
            rf"\b(?i:quit|quits|left|leaves|ditched|dropped|gave\s+up\s+on|done\s+with)\s+{_ART}{_PREV}[,;]?\s+"
            rf"(?:and\s+|then\s+)?(?:\w+\s+)?(?:joined|joins|switched\s+to|went\s+to|started\s+(?:at|with|"
            rf"going\s+to|seeing)|signed\s+up\s+(?:with|for|at))\s+{_ART}{_VALUE}"
        ),
        "change",
    ),
    # "left A for B": a switch that names what it left, when B ends the clause or a later state
    # ("for good", "instead") or a time a switch is told by follows ("last month", "in 2021"); a
    # trip ("left A for B on Tuesday", "... at noon", from an airport or a station) or a time
    # ("quit A for Lent", "for May") is none
    (
        re.compile(
            rf"\b(?i:left|quit|ditched|dropped)\s+{_ART}{_PREV}(?<!Airport)(?<!Station)(?<!Terminal)\s+for\s+{_ART}"
            rf"{_UNTIMED}(?=\s*(?:[.!?;,)]|$)|\s+(?:for\s+good|instead|now|and\s+never|(?i:{_SEASON_AGO}))\b)"
        ),
        "change",
    ),
    (
        # "sold her A and now cycles a B", "traded A for B": what is done with the new one names it
        re.compile(
            rf"\b(?i:traded\s+in|traded|sold|swapped|replaced|exchanged)\s+(?:{_OWNER}\s+|the\s+|an?\s+)?(?:old\s+)?{_PREV}"
            rf"(?:\s+(?P<prevkind>[a-z][a-z-]*))?\s+(?:for|with|and\s+(?:now\s+|then\s+)?{_TAKE_UP})\s+{_ART}(?:new\s+)?{_VALUE}"
        ),
        "change",
    ),
    (
        re.compile(
            rf"{_LEAD}{_ADV}(?i:joined|joins|signed\s+up\s+(?:with|for|at)|enrolled\s+(?:in|at|with)|"
            rf"became\s+a\s+member\s+of)\s+(?:the\s+)?{_VALUE}"
        ),
        "membership",
    ),
    (
        re.compile(rf"{_SUBJ}\s+(?:is|are|am|has\s+been)\s+{_ADV}(?:a\s+)?(?:member|part)\s+of\s+(?:the\s+)?{_VALUE}"),
        "membership",
    ),
    (
        re.compile(
            rf"{_LEAD}{_ADV}(?i:got|gets|bought|took\s+out|has|have|renewed)\s+(?:a|an|{_OWNER})\s+(?:[a-z-]+\s+)?"
            rf"membership\s+(?:at|with|to|of|for)\s+(?:the\s+)?{_VALUE}"
        ),
        "membership",
    ),
    (
        # playing or singing in a group: "plays bass for the Otters", "sings with the Chorale" (with
        # whom one played a game or once sang is no group of one's own)
        re.compile(
            rf"{_LEAD}{_ADV}(?:(?i:plays?|played|sings?|sang|performs?|performed)\s+(?:[a-z][a-z-]*\s+)?"
            rf"(?:for\s+(?:the\s+)?|in\s+the\s+)|(?i:plays?|sings?|performs?)\s+with\s+the\s+){_VALUE}"
        ),
        "membership",
    ),
    # a habit of getting one's things from a place: "gets her weekend loaf from Crumbs" (the present
    # tense: "bought my car from X" was once)
    (
        re.compile(
            rf"{_LEAD}{_ADV}(?i:gets|get|buys|buy|orders|order|picks\s+up|pick\s+up)\s+{_OWNER}\s+"
            rf"(?:[a-z][a-z-]*\s+){{1,3}}?(?i:from)\s+{_ART}{_VALUE}"
        ),
        "patronage",
    ),
    (
        re.compile(
            rf"{_LEAD}{_ADV}(?i:bought|buys|got|gets|picked\s+up|purchased|ordered)\s+(?:{_OWNER}\s+|themself\s+)?"
            rf"{_ART}(?:(?:new|used|second-hand|secondhand|refurbished|brand\s+new)\s+)?{_VALUE}"
        ),
        "possession",
    ),
    # a thing named with the relative clause of getting it: "typing on the Orion 14 Ana bought on Friday"
    (
        re.compile(
            rf"(?<![\w'])(?i:the|my|that)\s+{_VALUE}\s+(?:(?i:that|which)\s+)?{_SUBJ}\s+{_ADV}"
            r"(?i:bought|got|picked\s+up|ordered|purchased)\b"
        ),
        "possession",
    ),
    (
        re.compile(
            rf"{_LEAD}{_ADV}(?i:started|began|has\s+started|has\s+been|is|am|are)\s+{_ADVERBS}(?:going\s+to|seeing|using|"
            rf"attending|visiting|with|at)\s+(?:the\s+)?{_VALUE}"
        ),
        "patronage",
    ),
    (
        # a pronoun's present place ("Priya switched gyms, she's at X now"): the person named before it
        re.compile(
            rf"(?:^|(?<=[.!?;:,]\s)|(?<=\band\s)|(?<=\bso\s))(?P<pron>(?i:she|he|they))(?:'s|'re|\s+is|\s+are)\s+"
            rf"(?:now\s+)?(?:at|with|on)\s+(?:the\s+)?{_VALUE}(?=\s+(?:now|these\s+days|nowadays|instead))"
        ),
        "patronage",
    ),
    (
        re.compile(
            rf"{_LEAD}{_ADV}(?i:signed\s+(?:up\s+)?with|registered\s+(?:with|at)|goes\s+to|go\s+to|sees|uses|"
            rf"banks\s+with|shops\s+at|is\s+on|am\s+on|are\s+on)\s+(?:the\s+)?{_VALUE}(?=\s+(?:now|these\s+days|nowadays|instead))"
        ),
        "patronage",
    ),
    (
        re.compile(
            rf"{_SUBJ}\s+{_ADV}(?:went|ended\s+up\s+going|is\s+going|decided\s+to\s+go|chose|settled\s+on)\s+"
            rf"(?:with\s+)?(?:the\s+)?{_VALUE}"
        ),
        "patronage",
    ),
    (
        # a present-state marker and a name after a preposition: "I take my car to X these days"
        re.compile(
            rf"{_SUBJ}\s+(?:(?!(?:and|but|because|when|if|or)\b)[\w'-]+\s+){{1,6}}?(?:at|with|to|for)\s+(?:the\s+)?"
            rf"{_VALUE}(?=[^.;!?]{{0,80}}\b(?:now|these\s+days|nowadays|currently|at\s+the\s+moment|since)\b)"
        ),
        "patronage",
    ),
    (
        # a present-state marker before the verb: "I now get my coffee at X", "these days I train with X"
        re.compile(
            rf"{_LEAD}(?i:now|currently|nowadays|these\s+days)\s+(?:(?!(?:and|but|because|when|if|or)\b)[\w'-]+\s+)"
            rf"{{1,7}}?(?:at|with|to|from)\s+(?:the\s+)?{_VALUE}"
        ),
        "patronage",
    ),
    (
        # starting an activity with or at someone: "started piano lessons with X", "became a regular at X"
        re.compile(
            rf"{_LEAD}{_ADV}(?i:started|began|took\s+up|became\s+a\s+regular|is\s+a\s+regular)\s+"
            rf"(?:[a-z][\w-]*\s+){{0,3}}?(?:at|with)\s+(?:the\s+)?{_VALUE}"
        ),
        "patronage",
    ),
    (
        re.compile(
            rf"{_LEAD}{_ADV}(?i:switched|changed|moved|transferred|upgraded|went\s+over|made\s+the\s+(?:switch|move|jump))\s+(?:over\s+|across\s+)?to\s+"
            rf"(?:the\s+|an?\s+)?{_VALUE}"
        ),
        "change",
    ),
    # statements by consequence: a place the subject goes to by habit ("my usual trim at X") and a
    # thing named as the subject's own ("spilled tea on my X"): the first mention is the start
    (
        re.compile(
            rf"{_OWNER}\s+(?:usual|regular|weekly|daily|monthly)\s+(?:[\w-]+\s+){{0,3}}?(?:at|with|from|in)\s+"
            rf"(?:the\s+)?{_VALUE}"
        ),
        "patronage",
    ),
    # the first of a service that recurs ("my first cut at X", "my first lesson with X"): the start
    # of a habit; a one-off first (a time, a visit, a trip) is none, a first thing "from" X
    # ("my first pay slip from X") names a source, not a service, and a first anything else "with"
    # X ("her first dance with Tom", "his first game with the Tigers") names a companion
    (
        re.compile(
            rf"{_OWNER}\s+first\s+(?!(?:time|visit|trip|day|night|week|weekend|holiday|go|look|date)\b)"
            rf"(?:[\w-]+\s+){{0,2}}?(?:at|(?P<service>{_SERVICE})s?\s+with)\s+(?:the\s+)?{_VALUE}"
        ),
        "patronage",
    ),
    (
        re.compile(rf"(?<=\s){_OWNER}\s+(?:(?:new|old|trusty|beloved|little)\s+)?{_VALUE}(?!'s|[\w'])"),
        "possession",
    ),
    # a thing named as the object of a verb only vehicles take ("filled up the Kestrel Vantra",
    # "got a flat on Ana's X"): possessed, of the kind its name is known as, like a thing bought
    (
        re.compile(
            rf"{_LEAD}{_ADV}(?:(?P<ride>(?i:drove|drives|rode|rides|serviced))|(?i:parked|parks|filled\s+up|fills\s+up|"
            rf"got\s+a\s+(?:flat|puncture)\s+on))\s+(?:the\s+|{_OWNER}\s+)(?:(?:new|old|trusty)\s+)?{_VALUE}"
        ),
        "possession",
    ),
    # what only an animal does ("Biscuit chewed Ana's slippers again"): whose things, their pet
    (
        re.compile(
            rf"(?:^|(?<=[,;:]\s)|(?<=\bbecause\s)|(?<=\bwhen\s))(?P<v>{_NAME})(?P<animal>)\s+(?:has\s+|had\s+|keeps\s+)?"
            rf"(?i:chewed|chews|barked|barks|purred|purrs|meowed|meows|wagged|sniffed|growled|hissed|pounced)\b"
            rf"(?:\s+(?:through|on|at|up|into)\b)?(?:\s+{_OWNER}(?!\w))?"
        ),
        "pet",
    ),
    # a business or a titled professional, opening the sentence, who did something to a person or
    # to a person's things: "Shear Genius gave Ana the best cut", "Dr. Novak said Ana's fillings
    # look fine": the person uses them
    (
        re.compile(
            rf"^(?:(?i:the)\s+[a-z]+\s+(?:at|from)\s+)?(?P<v>(?!{_OPENER}){_CAPWORD}(?:\s+(?:(?:of|on|the|&)\s+)?{_CAPWORD}){{1,4}})"
            rf"\s+(?:has\s+|have\s+)?(?:[a-z]+ed|gave|said|told|cut|sent|took|made|did|found|knows|sorted)\s+"
            rf"(?:out\s+)?(?:(?:for|to|on)\s+)?(?P<owner>{_PERSON})(?!\w)(?P<thing>'s\s+[a-z][\w-]*)?"
        ),
        "patronage",
    ),
)


def slot_key(noun: str) -> str:
    """A noun phrase as a slot name: lower case, the last word singular, words joined by ``_``
    ("coffee places" -> "coffee_place")."""
    words = noun.lower().split()
    if not words:
        return ""
    words[-1] = singular(words[-1])
    return "_".join(words)


def _noun(raw: str) -> str | None:
    words = raw.lower().split()
    while words and words[-1] in _NOT_NOUN:
        words.pop()
    if not words or words[0] in _NOT_NOUN:
        return None
    if len(words) == 1 and _KIN_RE.match(words[0]) and words[0] not in _PARTNERS:
        return None
    return slot_key(" ".join(words))


def _stated(text: str, m: re.Match[str]) -> bool:
    """The match is stated as holding: no question, no mood in its clause (``mood.mood_near``)."""
    return not text.rstrip().endswith("?") and mood_near(text, m.start("v")) is None


def _kind_noun(raw: str) -> str | None:
    """A noun phrase that may name a kind of thing: no verb or function word in it, no adverb,
    participle or gerund at its end."""
    noun = _noun(raw)
    if noun is None or noun.endswith(("ly", "ed", "ing")) or any(w in _NOT_NOUN for w in noun.split("_")):
        return None  # a clause ("the first session was great"), not a noun phrase
    return noun


def _kind_after(text: str, end: int) -> str | None:
    """The kind of thing a value ending at ``end`` is named as, right after it or in an appositive."""
    for regex in _KIND_AFTER:
        m = regex.match(text, end)
        if m is not None:
            return _kind_noun(m["noun"])
    return None


_NEW_OR_NOW = re.compile(r"\b(?i:new|now|these\s+days|nowadays|currently)\b")


def _role(text: str, m: re.Match[str]) -> str | None:
    """A relation one holds by turns (a landlord, a boss, a coach) is a state when the sentence
    says it is new or current ("Ana's landlord is X now"); "Ana's sister is Mia" is none."""
    noun = m["noun"].lower().strip()
    if " " in noun or not _KIN_RE.match(noun) or _NEW_OR_NOW.search(text, m.start(), m.end() + 16) is None:
        return None
    return slot_key(noun)


def _replaced_kind(m: re.Match[str]) -> str | None:
    """The kind named after the value a switch replaced ("traded my Corvan sedan for a Mistral")."""
    raw = m.groupdict().get("prevkind")
    return _kind_noun(raw) if raw else None


def find_named_change(text: str, speaker: str) -> tuple[str, str, str] | None:
    """(subject, slot, value) when ``text`` states that a person's current <noun> is a value and
    names the noun, next to the value or as the kind the sentence says was switched ("switched
    dentists, I go to X now"); None otherwise (see the module doc)."""
    for regex in _NAMED:
        for m in islice(regex.finditer(text), _MAX_MATCHES):
            noun, value = _noun(m["noun"]) or _role(text, m) or _noun(m["noun"].split()[-1]), change_value(m["v"])
            if not (noun and value):
                continue
            subject = _subject(text, m, speaker)
            if subject and _stated(text, m):
                return subject, noun, value
    switched = _SWITCHED_KIND.search(text)
    noun = _kind_noun(switched["noun"] or switched["plural"]) if switched is not None else None
    change = find_change(text, speaker) if noun else None
    return (change[0], str(noun), change[2]) if change is not None else None


def find_change(text: str, speaker: str, participants: Sequence[str] = ()) -> tuple[str, str, str] | None:
    """(subject, slot, value) when ``text`` states a change of state by a general verb of joining,
    acquiring, starting to go to, or switching from one value to another, or by a consequence of
    a state (a habit, a thing named as one's own); the slot is the kind the value is named as
    ("bought a Solano e-bike": e-bike), else the verb's class. A consequence whose doer may be a
    person (``doers.plausible_doer``; ``participants`` are the others in the conversation) gives
    none. None otherwise."""
    for regex, kind in _GENERIC:
        for m in islice(regex.finditer(text), _MAX_MATCHES):
            value = change_value(m["v"])
            if not value or _KIN_RE.match(value.split()[0]) or not plausible_doer(m, value, (speaker, *participants)):
                continue
            subject = _subject(text, m, speaker)
            ended = _ENDED.search(text, max(0, m.start("v") - 60), m.start("v")) is not None
            if subject and not ended and _stated(text, m):
                return subject, _kind_after(text, m.end("v")) or _replaced_kind(m) or kind, value
    return None
