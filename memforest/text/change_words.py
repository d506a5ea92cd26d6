"""The fragments the grammar of change (``change_grammar``) builds its patterns from: how a value,
an owner, a noun phrase and a clause's lead are written, and the words that keep a reading from
what is no state (a time before "bill", a former member, a part of a thing, a service named by its
acronym). Strings, composed into compiled patterns there; ``PART_NEXT``, ``ENDED`` and
``SWITCHED_KIND`` are compiled here, for ``changes`` and ``state_slot`` too."""

from __future__ import annotations

import re

from memforest.text.change_subjects import NAME, PERSON, SUBJ
from memforest.text.lexicon import CAPITALS, TIME_WORDS
from memforest.text.state_values import TIME_NAME
from memforest.text.state_words import ANIMALS, DISPOSAL, KIN, KIN_PLURALS
from memforest.text.subject_pairs import RELATIVE_SECOND

# a pronoun is a whole word ("her" in "brother said" owns nothing)
OWNER = rf"(?:(?P<owner>{PERSON})'s|(?<![\w'-])(?P<pron>his|her|their|its))"
# possessive: a word is read whole or not at all (no backtracking into it: linear on long runs); a
# period inside a word ("St.Ives", "J.K.") or ending a short one ("Dr.", "St.", "Mrs.") is the word's,
# one ending a longer word ends its sentence ("... at Midori Pharmacy. Better hours")
WORD = rf"(?:[{CAPITALS}][a-z]{{0,2}}\.(?!\w)|[{CAPITALS}](?:[\w'&-]|\.(?=\w))*+|\d(?:[\w-]|\.(?=\w))*+)"
# a value that begins a pattern starts at a word's first character, never inside a word
AT_WORD = r"(?<![\w.'&-])"
# (the particles of names in many languages: "Liebres del Paseo", "Huis ter Heide", "Café da Praça";
# no "do" or "y": "... at Leeds do I need")
JOIN = r"(?:of|and|on|&|de|du|la|le|the|up|del|della|dei|di|da|dos|das|des|van|von|der|den|ter)"
VALUE = rf"(?P<v>{WORD}(?:\s+(?:{JOIN}\s+)?{WORD}){{0,4}})"
# the times a switch is told by (a trip is told by a day or an hour: "on Tuesday", "at noon")
SEASON = r"(?:week|month|year|spring|summer|autumn|fall|winter)"
SEASON_AGO = (
    rf"(?:last|this|earlier\s+this|late\s+last|early\s+last)\s+{SEASON}|in\s+(?:\d{{4}}|the\s+{SEASON}|"
    rf"(?:january|february|march|april|may|june|july|august|september|october|november|december)\b)|"
    rf"(?:a|an|\w+)\s+(?:(?:few|couple\s+of)\s+)?{SEASON}s?\s+ago|recently|back\s+in"
)
UNTIMED = rf"(?P<v>{TIME_NAME}{WORD}(?:\s+(?:{JOIN}\s+)?{TIME_NAME}{WORD}){{0,4}})"
PREV = rf"(?P<prev>{WORD}(?:\s+(?:{JOIN}\s+)?{WORD}){{0,4}})"
ART = r"(?:(?:a|an|the|some)\s+)?"
# a time or a holiday is no provider nor a thing ("my February bill", "my Christmas bill")
HOLIDAYS = "christmas|xmas|easter|halloween|thanksgiving|diwali|eid|hanukkah|ramadan|new\\s+year|black\\s+friday"
NOT_TIME = rf"(?!(?i:{'|'.join(sorted(TIME_WORDS))}|{HOLIDAYS})\b)"
NOT_FORMER = r"(?!(?i:old|former|ex|late|previous|last)\b)"  # "her old coach": a state that ended
ADJ = r"(?:(?:new|current|usual|regular|go-to|favou?rite|latest|main|own|local|first)\s+)*"
# a noun phrase: lower-case words, the first one may be an acronym ("GP", "ISP"); a conjunction or a
# verb opens the next clause, no noun ("X is Ana's landlord and they ...")
NOUN = (
    rf"(?P<noun>(?:[a-z][a-z-]*|[{CAPITALS}]{{2,4}}(?![\w'-]))"
    r"(?:\s+(?!(?:and|but|or|so|because|who|which|that|since|then|is|was|are|were|has|had|does|did)\b)[a-z][a-z-]*)?)"
)
# a service that moves to a provider along with another ("her gas and electric"); people and
# animals moved somewhere are no service
MOVED_SERVICE = (
    r"(?:gas|electric(?:ity)?|broadband|internet|wifi|phone|mobile|insurance|savings|checking|pension|isa|"
    r"water|energy|tv|cable|mortgage|account)\b"
)
NOT_LIVING = rf"(?!(?i:{KIN}|{ANIMALS}|{KIN_PLURALS}|in-law|family|stuff|things|belongings)(?:s|es)?\b)"
# a word of time before a kind in apposition says whose it was, not what kind ("X, Ana's old team")
THEN = r"(?:(?:old|former|previous|ex|one-time)\s+)?"
# words before "member" that keep it a current membership ("a fully paid-up member of X"); any
# other ("a former, prospective, suspended member") is none
MEMBER_ADJ = (
    r"(?:(?i:fully|paid-up|fully-paid|proud|card-carrying|founding|active|long-time|longtime|life|lifetime|official|"
    r"full|new|regular|signed-up|bona\s+fide)\s+){0,2}"
)
# parts of a thing one owns ("my X's battery"): the thing is one's own, as "my X" says
PART_OF = (
    r"(?:keyboard|screen|display|battery|charger|trackpad|touchpad|hinge|fan|keys?|camera|lens|speakers?|"
    r"brakes?|chain|gears?|tyres?|tires?|wheels?|saddle|seat|engine|clutch|exhaust|windscreen|windshield|bumper|"
    r"strap|case|cover|cable|remote|handle|blade|motor|pedals?|strings?|neck|bridge|pickups?)"
)
# a part right after a thing's possessive (the possessive read in the value or after it)
PARTS_AFTER = rf"(?:(?<='s)(?=\s+{PART_OF}\b)|(?='s\s+{PART_OF}\b))"
PART_NEXT = re.compile(rf"(?<!\s)\s+{PART_OF}\b")
# a professional or a service named by its acronym ("my GP", "her PT"), or any acronym standing
# alone ("my IBS", "my HbA1c": a condition, a measure; "my HP Spectre" is a thing) is no thing one owns
NOT_SERVICE_ACRONYM = (
    r"(?!(?:GP|ISP|PT|HR|PCP|CPA|IFA|ENT|OB-GYN|OBGYN)\b|[A-Z][A-Za-z]?[A-Z][A-Za-z0-9]{0,3}(?![\w'-]|\s+[A-Z0-9]))"
)
# words that may follow a thing's name in its clause without being a noun of it
AFTER_THING = (
    r"(?:yesterday|today|tonight|last|this|on|in|at|from|for|and|but|after|before|so|which|that|as|to|with|when|"
    r"because|instead|again|too|finally|at\s+last|in\s+the\s+end)"
)
NOUN3 = r"(?P<noun>[a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,2})"
# where a clause's verb may stand: after its subject (a name, or a lower-case pronoun, ``lpron``,
# whose person ``state_slot`` reads from the clause and the sentences before: "in May he switched to
# X"), or first in its clause with the subject left out, as people write of themselves ("Joined X
# last week", "quit A and joined B"), or after a person and "and", a relative of theirs as the second
# of a subject of two (``second``: "Ana and her son joined X" is Ana's)
LEAD = (
    rf"(?:{SUBJ}\s+|(?<![\w'])(?P<lpron>he|she|they)(?:'(?:s|ve|d|re))?\s+|^|(?<=[.!?;:,]\s)|(?<=\band\s)|"
    rf"(?<=\band\s)(?P<second>{RELATIVE_SECOND}(?:\s+{NAME})?)\s+|"
    r"(?<=\bthen\s)|(?<=\bso\s))"
)
NOW = r"(?:\s+(?:now|these\s+days|nowadays|at\s+the\s+moment|for\s+now))?"
# what may follow a noun phrase: punctuation, the end, a preposition, conjunction or time word
BOUNDARY = (
    r"(?=\s*(?:[.,;:!?)]|$)|\s+(?:and|but|from|in|at|for|on|with|since|because|so|that|which|who|to|now|again|"
    r"last|this|yesterday|today|after|before|when|these|every)\b)"
)
# an adverb after a value is no kind of it ("switched to X already"), nor what one is of it ("an X customer")
NOT_KIND = (
    r"(?!(?:[a-z]+ly|already|too|yet|instead|anyway|again|though|now|then|today|tonight|soon|here|there|back|home|"
    r"together|just|still|also|always|never|afterwards?|online|twice|first|meanwhile|myself|themself|customer|"
    r"client|subscriber|patient|member|user|bill|invoice|statement|renewal|premium|contract|membership|"
    r"subscription|policy|tariff|fee|payment|went|came|was|were|is|are|has|had|got|took|made|sent|keeps|"
    r"kept|done|sorted|over|complete|completed)s?\b)"
)


# verbs of parting with a thing ("sold", "traded in", "swapped"), and the words between such a verb
# and the thing (its owner, an article, "old"), up to the end of the text searched
PARTING = rf"{DISPOSAL}|traded(?:\s+in)?|swapped|exchanged|replaced"
THING_OPENING = r"(?:(?:\w+'s|his|her|their|the|an?|old)\s+){0,2}$"
# a value right after a verb of ending is no state ("sold my X", "stopped going to X")
ENDED = re.compile(
    rf"\b(?i:{PARTING}|quit|left|dropped|gave\s+up\s+on|cancell?ed(?:\s+with)?|"
    r"stopped\s+(?:going\s+to|seeing|using)|lost|returned|crashed|wrote\s+off|broke)\s+"
    rf"{THING_OPENING}"
)
# a switch whose kind is named in the plural or with its owner ("switched dentists", "changed my bank")
SWITCHED_KIND = re.compile(
    rf"\b(?i:switched|changed|swapped)\s+(?:(?:{NAME}'s|his|her|their)\s+(?P<noun>[a-z][a-z-]*)|"
    rf"(?!(?:his|its|this|was|has|is|us|as|thus|plus)\b)(?P<plural>[a-z][a-z-]*s))\b"
    r"(?=\s*(?:[.,;:!?)]|$)|\s+(?:last|this|in|on|at|after|before|because|since|and|but|so|again|recently|yesterday|today|"
    r"earlier|finally|too|over\s+the)\b)"
)


# a value introduced by what it is ("a guy called Tomasz", "a new place named Crumbs")
CALLED = (
    r"(?:an?|some)\s+(?:[a-z][\w-]*\s+){0,2}?(?:guy|man|woman|lady|bloke|chap|fellow|person|place|one|company|firm|"
    r"business|agency|practice|clinic|shop)"
    r"\s+(?:called|named)\s+"
)
