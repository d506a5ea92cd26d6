"""The grammar of change that ``changes`` reads: the patterns of a state whose kind a sentence
names (``NAMED``: "Ana's new dentist is Dr. Ruiz", "switched dentists, from A to B") and of one
told by a general verb of joining, acquiring, going to or switching, or by a consequence
(``GENERIC``, each with the verb's class), built from the fragments of ``change_words``. Every
pattern reads a person-rewritten sentence ("I" already replaced by the speaker's name) and is
linear in its length (``tests/db/test_text_complexity.py``)."""

from __future__ import annotations

import re

from memforest.text import change_words as cw
from memforest.text.change_joining import JOINING
from memforest.text.change_parts import APPOSITION_END as _APPOSITION_END
from memforest.text.change_parts import HABIT as _HABIT
from memforest.text.change_parts import KIN_RE, NOT_NOUN, PARTNERS
from memforest.text.change_parts import NOT_HELD as _NOT_HELD
from memforest.text.change_parts import NOT_ONE_OFF as _NOT_ONE_OFF
from memforest.text.change_parts import NOT_PERSON as _NOT_PERSON
from memforest.text.change_parts import NOT_UPDATE as _NOT_UPDATE
from memforest.text.change_parts import PART as _PART
from memforest.text.change_parts import SERVICE as _SERVICE
from memforest.text.change_parts import SINCE as _SINCE
from memforest.text.change_parts import TAKE_UP as _TAKE_UP
from memforest.text.change_parts import WHERE_BETWEEN as _WHERE
from memforest.text.change_services import SEEN_NAMED, SERVICE_USE
from memforest.text.change_subjects import ADV as _ADV
from memforest.text.change_subjects import ADVERBS_RUN as _ADVERBS
from memforest.text.change_subjects import NAME as _NAME
from memforest.text.change_subjects import PERSON as _PERSON
from memforest.text.change_subjects import SUBJ as _SUBJ
from memforest.text.change_words import CALLED as _CALLED
from memforest.text.change_words import ENDED as ENDED
from memforest.text.change_words import SWITCHED_KIND as SWITCHED_KIND
from memforest.text.lexicon import CAPITALS
from memforest.text.state_words import INTRODUCING, POINTING

__all__ = ["ENDED", "GENERIC", "KIN_RE", "NAMED", "NOT_NOUN", "PARTNERS", "POINTED", "SWITCHED_KIND", "UNTIMED_VALUE"]


# the prepositions of a place gone to, from or through
_PLACE_BEFORE = r"(?:to|into|in|at|from|near|around|through|via|towards?|onto|across|of)"
# verbs that end a holding, or tell of one ended ("lost Bruno, our dog", "broke up with X, her
# girlfriend", "had to put down X")
_NOT_HOLDING = (
    r"(?:lost|lose|losing|sold|sell|selling|rehomed|rehome|rehoming|fired|sacked|divorced|divorcing|dumped|ditched|"
    r"left|leaving|quit|buried|down|missed|miss|missing|mourn|mourning|replaced|swapped|traded)"
)

NAMED: tuple[re.Pattern[str], ...] = (
    # "Ana switched dentists, from Dr. A to Dr. B"
    re.compile(
        rf"\b(?i:switched|changed|swapped)\s+(?:{cw.OWNER}\s+)?{cw.NOUN}s?,?\s+(?:from\s+{cw.PREV}\s+)?to\s+(?:the\s+)?{cw.VALUE}"
    ),
    # "Ana's new dentist is Dr. Ruiz", "Ana's go-to bakery these days is Crumbs", "Ana's phone is a
    # Pinecone 5" (a product: a name after "a"), "Ana's doctor in Kelby is Dr. Amsel" (where, between)
    re.compile(
        rf"{cw.OWNER}\s+{cw.ADJ}{cw.NOUN}{_WHERE}{cw.NOW}(?:\s+(?:is|has\s+become|became|has\s+been|will\s+be|:)|'s(?=\s+an?\s))\s+(?:now\s+)?(?:the\s+|an?\s+(?=[{CAPITALS}])|{_CALLED})?"
        rf"{cw.VALUE}"
    ),
    # "Ana's electricity has been with X since May", "her savings are with X now": a provider held
    re.compile(
        rf"{cw.OWNER}\s+{cw.ADJ}{cw.NOT_LIVING}{_NOT_HELD}{cw.NOUN}{cw.NOW}\s+(?:is|are|has\s+been|have\s+been)\s+(?:now\s+)?(?:with|at)\s+"
        rf"{cw.ART}{cw.VALUE}"
    ),
    # "Ana is in a book club now, it's called X", "plays five-a-side with a team called X": a kind
    # the subject's own clause takes part in, named (no person: "a guy called X" is no kind)
    re.compile(
        rf"{cw.LEAD}{_ADV}(?:(?:is|are|am)\s+{_ADV})?(?:{_PART}\s+(?:[a-z][\w-]*+\s+){{0,3}}?)?(?:in|with|at|for|to|on|joined|joins)\s+"
        rf"(?:a|an)\s+{cw.NOT_FORMER}{cw.ADJ}{_NOT_PERSON}{cw.NOUN}{cw.NOW},?\s+(?:(?:it's|it\s+is|they're|they\s+are)\s+)?"
        rf"(?:called|named)\s+{cw.ART}{cw.VALUE}"
    ),
    # "the team Ana plays for is now the Otters": the noun's relative clause names its subject
    re.compile(
        rf"\b(?i:the)\s+{cw.ADJ}{cw.NOUN}\s+{_SUBJ}\s+(?:[a-z][\w'-]*\s+){{1,5}}?"
        rf"(?:(?:is|has\s+become|became)\s+(?:now\s+)?(?:the\s+|an?\s+(?=[{CAPITALS}]))?|(?:right\s+now|now|these\s+days|lately)?:\s+)"
        rf"{cw.VALUE}"
    ),
    # "Podcast Ana is obsessed with right now: X": the kind opening the sentence, its value after a colon
    re.compile(
        rf"^(?P<noun>[A-Za-z][a-z-]*(?:\s+[a-z][a-z-]*)?)\s+{_SUBJ}\s+(?:[a-z][\w'-]*\s+){{1,5}}?"
        rf"(?:right\s+now|now|these\s+days|lately|at\s+the\s+moment)?:\s+{cw.VALUE}"
    ),
    # "Ana moved her phone number over to X", "moved her gas and electric to X": the thing moved is the kind
    re.compile(
        rf"\b(?i:switched|changed|moved|moving|transferred|transferring|ported)\s+{cw.OWNER}\s+{cw.NOT_LIVING}{cw.NOUN}(?:\s+and\s+{cw.MOVED_SERVICE})?\s+"
        rf"(?:over\s+|across\s+)?to\s+"
        rf"(?:the\s+)?{cw.VALUE}"
    ),
    # "Ana's home insurance switched from A to B", "her broadband moved over to X", "my morning
    # coffee has migrated to X": the thing that changed is the kind
    re.compile(
        rf"{cw.OWNER}\s+{cw.ADJ}{cw.NOT_LIVING}{cw.NOUN}\s+{_ADV}(?i:switched|changed|moved|migrated)\s+(?:over\s+|across\s+)?"
        rf"(?:from\s+{cw.ART}{cw.PREV}\s+)?to\s+(?:the\s+)?{cw.VALUE}"
    ),
    *SEEN_NAMED,
    # "sees a physio called X", "found a bakery named X", "launched a podcast called the X": a kind the
    # subject has, named
    re.compile(
        rf"{cw.LEAD}{_ADV}(?:been\s+|is\s+|are\s+|am\s+)?(?i:seeing|sees|see|saw|found|use|uses|using|has|have|got|"
        rf"go\s+to|goes\s+to|registered\s+with|launched|started|hosts?|hosting|runs?|running|set\s+up|founded)\s+"
        rf"(?:a|an)\s+(?:(?i:lil|little|small|tiny)\s+)?{cw.ADJ}{cw.NOUN}\s+(?:called|named)\s+(?:the\s+)?{cw.VALUE}"
    ),
    # "set up her own studio called X", "started Ana's own band called the X" (the rewritten "my own"):
    # a venture of the subject's own, only by a verb of starting one ("saw her own studio" is hers)
    re.compile(
        rf"{cw.LEAD}{_ADV}(?i:launched|started|set\s+up|founded|opened|formed)\s+(?:(?i:his|her|their)|[{CAPITALS}][\w'-]*'s)"
        rf"\s+own\s+{cw.ADJ}{cw.NOUN}\s+(?:called|named)\s+(?:the\s+)?{cw.VALUE}"
    ),
    # "registered with a GP after putting it off: Dr. Nicholls", "found a dentist at last: Dr. Ruiz"
    # (the value alone, or with a place: "got a message: Acme offered me the job" names no kind)
    re.compile(
        rf"{cw.LEAD}{_ADV}(?i:found|chose|picked|registered\s+with|signed\s+up\s+with)\s+(?:a|an)\s+{cw.NOT_FORMER}{cw.ADJ}"
        rf"{cw.NOUN}(?:\s+[^:.;!?]{{1,60}}?)?:\s+{cw.ART}{cw.VALUE}(?=\s*(?:[.,;!?)]|$)|\s+(?:at|in|on|near|from)\s)"
    ),
    # "Dr. Ruiz is Ana's dentist now", "Crumbs has become her bakery"
    re.compile(
        rf"{cw.AT_WORD}{cw.VALUE}\s+(?:is|has\s+become|became)\s+(?:now\s+)?{cw.OWNER}\s+{cw.ADJ}{cw.NOUN}(?!'s|\w)"
    ),
    # "X has been Ana's mechanic for years" (no pastime: "Gaming has been Ana's focus")
    re.compile(
        rf"{cw.AT_WORD}(?![{CAPITALS}][a-z]+ing\s){cw.VALUE}\s+(?:has|have|['\u2019]s)\s+been\s+(?:always\s+)?{cw.OWNER}\s+"
        rf"{cw.ADJ}{cw.NOUN}(?!'s|\w)"
    ),
    # "started going to Dr. Ruiz, her new dentist"
    re.compile(
        rf"{cw.AT_WORD}{cw.VALUE},\s+{cw.OWNER}\s+(?:new|current|usual|regular|go-to|latest)\s+{cw.NOUN}(?!'s|\w)"
    ),
    # "write to Ana's GP, Dr. Mensah at X", "her dentist, Dr. Roy, says": the kind and its value side by side
    re.compile(rf"{cw.OWNER}\s+{cw.NOT_FORMER}{cw.ADJ}{cw.NOT_LIVING}{cw.NOUN},\s+{cw.VALUE}(?={_APPOSITION_END})"),
    # "found a new bakery: Crumbs", "got a new phone, a Fairphone 5", "a great bakery called Crumbs";
    # one bare word after a comma that a verb follows opens a clause ("at the new place, Ana was
    # right"), a longer name or one with a number is the value ("my new gym, Kestrel Fitness is great")
    re.compile(
        rf"\b(?i:new)\s+{_NOT_ONE_OFF}{cw.NOUN}(?:\s+{_SINCE})?\s*(?::|(?P<appos>,|-)|\(|called|named)\s*{cw.ART}"
        rf"(?P<named>(?={cw.WORD}\s+(?:{cw.JOIN}\s+)?{cw.WORD}|[^\s,.]*\d))?{cw.VALUE}(?(appos)(?(named)|{cw.BOUNDARY}))"
    ),
    # "Hairdresser update: Ana has moved to X at Y": the kind announced before a colon
    re.compile(
        rf"^{_NOT_UPDATE}(?P<noun>[A-Za-z][a-z-]*(?:\s+[a-z][a-z-]*)?)\s+update\s*:\s+(?:[^.;!?:]{{0,60}}?\s(?:to|with|at|is)\s+)?{cw.ART}{cw.VALUE}"
    ),
    re.compile(
        rf"\b(?:great|good|nice|lovely|local|decent|brilliant|little)\s+{cw.NOUN}\s+(?:called|named)\s+{cw.VALUE}"
    ),
    # "joined a book club, the Thursday Readers", "joined the Monday choir at St Jude's, the Vox
    # Singers", "sings in a choir called Vox"
    re.compile(
        rf"\b(?i:joined|joins|found|chose|picked|downloaded|installed|subscribed\s+to|plays?\s+in|sings?\s+in|member\s+of|runs|owns|opened|manages|hired|"
        rf"enrolled\s+in|been\s+with|registered\s+with|signed\s+up\s+(?:with|for|to)|welcomed\s+into|"
        rf"(?:started|been|keeps?)\s+going\s+to|(?:is|are)\s+(?:now\s+)?in)\s+(?:a|an|the)\s+"
        rf"(?:new\s+|same\s+)?(?:[{CAPITALS}][a-z]+\s+|(?:tiny|little|small|big|local)\s+)?(?:[a-z][a-z-]*\s+){{0,2}}?{cw.NOUN}"
        rf"(?:\s+(?:in|on|at|from|last|this|during|over)\s+[^,.;:!?]{{1,30}}?|\s+(?:yesterday|today|recently)|"
        rf"\s+(?:he|she|they|{_NAME})\s+(?:likes|loves|trusts|rates|found))?(?:,\s+|\s+(?:called|named)\s+)(?:the\s+)?{cw.VALUE}"
    ),
    # "The physio Ana sees, Rangi W., has ...", "the gym Ana uses, Brawnhaven, is ...": the kind of the
    # subject's own relative clause, its value in apposition
    re.compile(
        rf"\b(?i:the)\s+{cw.ADJ}{_NOT_ONE_OFF}{cw.NOUN}\s+{_SUBJ}\s+{_ADV}(?:[a-z][\w'-]*\s+){{0,3}}?[a-z][\w'-]*,\s+{cw.ART}{cw.VALUE}\s*[,)]"
    ),
    # "Hexley Dental is where Ana goes for check-ups": a place one goes to, by its use
    re.compile(
        rf"^{cw.VALUE}\s+is\s+where\s+{_SUBJ}\s+(?:goes|go|gets|get|takes|take)\s+(?:\w+\s+)?for\s+{cw.ART}"
        r"(?!(?:work|school|lunch|dinner|breakfast|walks?|holidays?|fun|shopping|drinks)\b)"
        rf"{cw.NOUN}"
    ),
    # "swapped A for B as Ana's bakery", "hired X as Ana's accountant"
    re.compile(rf"\bfor\s+{cw.ART}{cw.VALUE}\s+as\s+{cw.OWNER}\s+{cw.ADJ}{cw.NOUN}(?!'s|\w)"),
    re.compile(
        rf"\b(?i:hired|chose|picked|took\s+on|signed)\s+{cw.ART}{cw.VALUE}\s+as\s+{cw.OWNER}\s+{cw.ADJ}{cw.NOUN}(?!'s|\w)"
    ),
    # in apposition, closed by a comma or parenthesis: "Ana's dentist, Dr. Ruiz, says", "Dr. Ruiz, her GP,"
    re.compile(rf"{cw.OWNER}\s+{cw.NOT_FORMER}{cw.ADJ}{cw.NOUN},\s+{cw.ART}{cw.VALUE}\s*[,)]"),
    re.compile(
        rf"(?:^|(?<=[.!?;:]\s))(?!(?i:{INTRODUCING}|{POINTING}|on|in|at|last|this|next)\b)(?![{CAPITALS}][a-z]*ly\b)"
        rf"{cw.UNTIMED},\s+{cw.OWNER}\s+{cw.NOT_FORMER}{cw.ADJ}{cw.NOUN},"
        r"(?!\s+(?:(?:has|have|had)\s+)?(?:finished|left|quit|retired|stopped|died|passed\s+away|moved\s+(?:out|away))\b)"
    ),  # ("Blessing, our nanny, finished with us on Friday": one who was)
    # ... or after the verb whose object it is, up to the clause's end: "Ana adores Lotte, her
    # hairdresser.", "met Tom (Ana's new flatmate) today" (a place one goes to is described, no
    # one's: "relocated to X, Y's hometown"; no verb of ending a holding: "lost Bruno, our dog")
    re.compile(
        rf"(?<![\w'-])(?<!up\s)(?<!fell\sout\s)(?<!ways\s)(?!(?:{_PLACE_BEFORE}|{_NOT_HOLDING})\b)[a-z][\w'-]*+\s++{cw.UNTIMED}(?:,\s+|\s+\(){cw.OWNER}\s+{cw.NOT_FORMER}{cw.ADJ}{cw.NOUN}(?:\)|\s*+(?=[.;!]|$))"
    ),
)
# a capitalised word with no digit, and the words that open a sentence without naming anyone
_CAPWORD = rf"[{CAPITALS}][a-zA-Z.'&-]*+"
_OPENER = r"(?i:in|on|at|an?|last|this|next|after|before|when|so|and|but|then|today|yesterday)\b"
GENERIC: tuple[tuple[re.Pattern[str], str], ...] = (
    # switches name the value replaced: the read path gives them the kind of that value
    (re.compile(rf"\b(?i:from)\s+{cw.ART}{cw.PREV}\s+to\s+{cw.ART}{cw.VALUE}"), "change"),
    (
        re.compile(
            rf"\b(?i:quit|quits|left|leaves|ditched|dropped|cancell?ed|closed|gave\s+up\s+on|done\s+with)\s+{cw.ART}{cw.PREV}[,;]?\s+"
            rf"(?:and\s+|then\s+)?(?:\w+\s+)?(?:joined|joins|switched\s+to|went\s+to|started\s+(?:at|with|"
            rf"going\s+to|seeing)|signed\s+up\s+(?:with|for|at))\s+{cw.ART}{cw.VALUE}"
        ),
        "change",
    ),
    # "renewed the car with B instead of A": a provider taken in place of another, after a verb of
    # renewing, insuring, banking, registering or switching only ("went with B instead of A" may be
    # a person or a trip)
    (
        re.compile(
            rf"\b(?i:renew(?:ed|s)?|insured|banked|switched|registered)"
            rf"\s+(?:[\w'-]+\s+){{0,3}}?(?i:with)\s+{cw.ART}{cw.VALUE}\s+(?i:instead\s+of)\s+{cw.ART}{cw.PREV}{cw.BOUNDARY}"
        ),
        "change",
    ),
    # "left A for B": a switch that names what it left, when B ends the clause or a later state
    # ("for good", "instead") or a time a switch is told by follows ("last month", "in 2021"); a
    # trip ("left A for B on Tuesday", "... at noon", from an airport or a station) or a time
    # ("quit A for Lent", "for May") is none
    (
        re.compile(
            rf"\b(?i:left|quit|ditched|dropped)\s+{cw.ART}{cw.PREV}(?<!Airport)(?<!Station)(?<!Terminal)\s+for\s+{cw.ART}"
            rf"{cw.UNTIMED}(?=\s*(?:[.!?;,)]|$)|\s+(?:for\s+good|instead|now|and\s+never|(?i:{cw.SEASON_AGO}))\b)"
        ),
        "change",
    ),
    (
        # "swapped his old flip phone for a Nexaro Pebble": the thing replaced names the kind
        re.compile(
            rf"\b(?i:traded\s+in|traded|swapped|replaced|exchanged|upgraded)\s+(?:{cw.OWNER}\s+|the\s+|an?\s+)(?:[a-z][a-z-]*\s+){{0,2}}?"
            rf"(?P<prevkind>[a-z][a-z-]*)\s+(?:for|with|to)\s+{cw.ART}(?:new\s+)?{cw.VALUE}"
        ),
        "change",
    ),
    (
        # "sold her A and now cycles a B", "traded A for B": what is done with the new one names it
        re.compile(
            rf"\b(?i:traded\s+in|traded|sold|swapped|replaced|exchanged)\s+(?:{cw.OWNER}\s+|the\s+|an?\s+)?(?:old\s+)?{cw.PREV}"
            rf"(?:\s+(?P<prevkind>[a-z][a-z-]*))?\s+(?:for|with|and\s+(?:now\s+|then\s+)?{_TAKE_UP})\s+{cw.ART}(?:new\s+)?{cw.VALUE}"
        ),
        "change",
    ),
    *JOINING,
    # a customer of a place, or a bill from it, says one uses it: "is officially a Pebble Mobile
    # customer", "became a patient at Fernwood Clinic", "opened my first bill from X", "my contents
    # insurance renewal from X", "my first X bill"
    (
        re.compile(
            rf"{cw.LEAD}{_ADV}(?i:is|am|are|became|become)\s+{_ADVERBS}(?i:an?)\s+(?:(?i:new|happy|loyal|paying)\s+)?"
            rf"{cw.VALUE}\s+(?i:customer|client|subscriber|patient)\b"
        ),
        "patronage",
    ),
    (
        re.compile(
            rf"{cw.LEAD}{_ADV}(?i:is|am|are|became|become)\s+{_ADVERBS}(?i:an?)\s+(?:(?i:new|happy|loyal|paying)\s+)?"
            rf"(?i:customer|client|subscriber|patient)\s+(?i:of|at|with)\s+{cw.ART}{cw.VALUE}"
        ),
        "patronage",
    ),
    (  # ... or the letter that carries it: "my renewal notice from X", "the renewal letter from X came"
        re.compile(
            rf"(?:{cw.OWNER}|\b(?i:the))\s+(?:[a-z]+\s+){{0,2}}?(?i:bill|invoice|statement|renewal|premium|receipt)s?\s+"
            rf"(?:(?i:letter|notice|reminder|email|e-mail|pack|quote|documents)s?\s+)?(?i:from)\s+{cw.ART}{cw.VALUE}"
        ),
        "patronage",
    ),
    (  # the provider named before the bill or the contract: "my first Harrow Energy bill landed", "my Vell
        # contract", "paid the first Corvo fee"
        re.compile(
            rf"(?:{cw.OWNER}\s+|\b(?i:the)\s+(?=(?i:first)\s))(?:(?i:first|new|latest|monthly|quarterly|annual)\s+)?"
            rf"{cw.NOT_TIME}{cw.VALUE}\s+"
            r"(?i:bill|invoice|statement|renewal|premium|contract|membership|subscription|policy|tariff|fee|payment)s?\b"
            rf"(?!\s+(?:for|to)\s+[{CAPITALS}])"  # (a fee paid for someone else is theirs)
            r"(?!\s+(?:(?:has|had|have)\s+)?(?:ended|expired|lapsed|finished|go|ran\s+out|runs\s+out|is\s+up|was\s+up|"
            r"came\s+to\s+an\s+end|ends|expires))"
        ),
        "patronage",
    ),
    # a habit of getting one's things from a place: "gets her weekend loaf from Crumbs" (the present
    # tense: "bought my car from X" was once)
    (
        re.compile(
            rf"{cw.LEAD}{_ADV}(?:been\s+)?(?i:gets|get|getting|buys|buy|buying|orders|order|picks\s+up|pick\s+up)\s+{cw.OWNER}\s+"
            rf"(?:[a-z][a-z-]*\s+){{1,3}}?(?i:from)\s+{cw.ART}{cw.VALUE}"
        ),
        "patronage",
    ),
    # idioms of coming to have a thing: "walked out with the X", "came home with an X", "took
    # delivery of the X", "splashed out on an X"; a noun after the name says it was something used
    # up or passing ("came home with a Glastonbury hangover", "splashed out on a Ryanair flight")
    (
        re.compile(
            rf"{cw.LEAD}{_ADV}(?<!nearly\s)(?<!almost\s)(?i:walked\s+out\s+with|came\s+(?:home|away|back)\s+with|"
            rf"went\s+home\s+with|took\s+delivery\s+of|splashed\s+out\s+on|opted\s+for|settled\s+on|plumped\s+for|"
            rf"chose|went\s+(?:for|with)(?=\s+an?\s+(?-i:[{CAPITALS}][\w-]*\s+[{CAPITALS}]?\d)))\s+(?:an?|the)\s+"
            rf"(?:(?:new|used|second-hand|secondhand|refurbished|brand\s+new|shiny|gorgeous|lovely)\s+){{0,2}}{cw.VALUE}"
            rf"(?!\s+(?!{cw.AFTER_THING}\b)[a-z])"
        ),
        "possession",
    ),
    (
        re.compile(
            rf"{cw.LEAD}{_ADV}(?i:bought|buys|got|gets|picked\s+up|purchased|ordered)\s+(?:{cw.OWNER}\s+|(?:themself|herself|himself)\s+)?"
            rf"{cw.ART}(?:(?:new|used|second-hand|secondhand|refurbished|brand\s+new)\s+)?{cw.VALUE}"
        ),
        "possession",
    ),
    # a thing one uses as one's own, named with its kind after it: "rides a Brennwald bike to work",
    # "treated herself to a Lumeo X40 camera", "owns a Sato M3 camera" (the kind is read after the value)
    (
        re.compile(
            rf"{cw.LEAD}{_ADV}(?:been\s+)?(?i:owns|rides|riding|uses|using|drives|driving|wears|wearing|"
            rf"paddles|strums|(?:sews|sewing|shoots|commutes|commuting|typing)\s+(?:\w+\s+)?on|"
            rf"(?:has|have)(?=\s+an?\s+new\b)|treated\s+\w+\s+to|ended\s+up\s+with|"
            rf"upgraded\s+to|inherited)\s+(?:a|an)\s+(?:new\s+)?{cw.VALUE}(?=\s+[a-z])"
        ),
        "possession",
    ),
    # a thing named with the relative clause of buying it: "typing on the Orion Slate 14 Ana bought on
    # Friday" (a product's name: two words or a number; "the Uber I got", "the Thai I ordered" are none)
    (
        re.compile(
            rf"(?<![\w'])(?i:the|my|that)\s+(?P<v>{cw.WORD}(?:\s+(?:{cw.JOIN}\s+)?{cw.WORD}){{1,4}})\s+(?:(?i:that|which)\s+)?"
            rf"{_SUBJ}\s+{_ADV}(?i:bought|picked\s+up|purchased)\b"
        ),
        "possession",
    ),
    (
        re.compile(
            rf"{cw.LEAD}{_ADV}(?i:started|began|has\s+started|has\s+been|been|is|am|are)\s+{_ADVERBS}(?:going\s+to|seeing|using|"
            rf"attending|visiting|with|at)\s+(?:the\s+)?{cw.VALUE}"
        ),
        "patronage",
    ),
    (
        # a pronoun's present place ("Priya switched gyms, she's at X now"): the person named before it
        re.compile(
            rf"(?:^|(?<=[.!?;:,]\s)|(?<=\band\s)|(?<=\bso\s))(?P<pron>(?i:she|he|they))(?:'s|'re|\s+is|\s+are)\s+"
            rf"(?:now\s+)?(?:at|with|on)\s+(?:the\s+)?{cw.VALUE}(?=\s+(?:now|these\s+days|nowadays|instead))"
        ),
        "patronage",
    ),
    (
        re.compile(
            rf"{cw.LEAD}{_ADV}(?i:signed\s+(?:up\s+)?with|registered\s+(?:with|at)|goes\s+to|go\s+to|sees|uses|using|"
            rf"banks\s+with|shops\s+at|is\s+on|am\s+on|are\s+on|(?:has|have)\s+been\s+on)\s+(?:the\s+|an?\s+)?{cw.VALUE}"
            r"(?=(?:\s+(?:for|as)\s+[^.;!?,]{1,30}?)?\s+(?:now|these\s+days|nowadays|instead|since)\b|"
            r"\s+for\s+(?:ages|years|months|a\s+while|a\s+long\s+time)\b)"
        ),
        "patronage",
    ),
    (
        re.compile(
            rf"{_SUBJ}\s+{_ADV}(?:went|ended\s+up\s+going|is\s+going|decided\s+to\s+go|chose|settled\s+on)\s+"
            rf"(?:with\s+)?(?:the\s+)?{cw.VALUE}"
        ),
        "patronage",
    ),
    (
        # a present-state marker and a name after a preposition: "I take my car to X these days"
        re.compile(
            rf"{_SUBJ}\s+(?:(?!(?:and|but|because|when|if|or)\b)[\w'-]+\s+){{1,6}}?(?:at|with|to|for)\s+(?:the\s+)?"
            rf"{cw.VALUE}(?=[^.;!?]{{0,80}}\b(?:now|these\s+days|nowadays|currently|at\s+the\s+moment|since)\b)"
        ),
        "patronage",
    ),
    (
        # a habit said before the value: "is doing pottery on Wednesday evenings at X"
        re.compile(
            rf"{_SUBJ}\s+(?=[^.;!?]{{0,80}}?{_HABIT})(?:(?!(?:and|but|because|when|if|or)\b)[\w'-]+\s+){{1,8}}?"
            rf"at\s+(?:the\s+)?{cw.VALUE}"
        ),
        "patronage",
    ),
    (
        # a present-state marker before the verb: "I now get my coffee at X", "these days I train with X"
        re.compile(
            rf"{cw.LEAD}(?i:now|currently|nowadays|these\s+days)\s+(?:(?!(?:and|but|because|when|if|or)\b)[\w'-]+\s+)"
            rf"{{1,7}}?(?:at|with|to|from)\s+(?:the\s+)?{cw.VALUE}"
        ),
        "patronage",
    ),
    (
        # starting an activity with or at someone: "started piano lessons with X", "became a regular at X"
        re.compile(
            rf"{cw.LEAD}{_ADV}(?i:started|began|took\s+up|became\s+a\s+regular|is\s+a\s+regular)\s+"
            rf"(?:[a-z][\w-]*\s+){{0,3}}?(?:at|with)\s+(?:the\s+)?{cw.VALUE}"
        ),
        "patronage",
    ),
    (
        re.compile(
            rf"{cw.LEAD}{_ADV}(?:been\s+|got\s+)?(?i:switched|changed|moved|transferred|upgraded|went\s+over|made\s+the\s+(?:switch|move|jump))\s+"
            r"(?:over\s+|across\s+)?to\s+"
            rf"(?:the\s+|an?\s+)?{cw.VALUE}"
        ),
        "change",
    ),
    # a switch told in a clause of time before the one it concerns: "Since switching to X, Ana sleeps
    # better", "After moving over to X Ana never looked back" (the main clause's subject made it)
    (
        re.compile(
            rf"\b(?i:since|after|ever\s+since)\s+(?i:switching|moving|changing)\s+(?:(?:it|them|everything)\s+)?"
            rf"(?:over\s+|across\s+)?to\s+(?:the\s+)?{cw.VALUE},?\s+{_SUBJ}(?![\w-])"
        ),
        "change",
    ),
    # a provider doing the subject's service now: "Quell Pharmacy does Ana's prescriptions now"
    (
        re.compile(
            rf"^(?:(?i:the)\s+)?{cw.VALUE}\s+(?:does|do|handles|handle|is\s+handling|are\s+handling|cuts|sorts|looks\s+after|services|insures|teaches|treats)\s+"
            rf"{cw.OWNER}\s+(?:[\w-]+\s+){{0,2}}?[\w-]+(?=[^.;!?]{{0,40}}\b(?:now|these\s+days|nowadays)\b)"
        ),
        "patronage",
    ),
    # statements by consequence: a place the subject goes to by habit ("my usual trim at X") and a
    # thing named as the subject's own ("spilled tea on my X", or a part of it: "my X's screen
    # cracked", also opening the sentence): the first mention is the start
    (
        re.compile(
            rf"{cw.OWNER}\s+(?:usual|regular|weekly|daily|monthly)\s+(?:[\w-]+\s+){{0,3}}?(?:at|with|from|in)\s+"
            rf"(?:the\s+)?{cw.VALUE}"
        ),
        "patronage",
    ),
    # the first of a service that recurs ("my first cut at X", "my first lesson with X"; opening the
    # sentence with no owner, the service named: "First cut with X was yesterday"): the start
    # of a habit; a one-off first (a time, a visit, a trip) is none, a first thing "from" X
    # ("my first pay slip from X") names a source, not a service, and a first anything else "with"
    # X ("her first dance with Tom", "his first game with the Tigers") names a companion
    (
        re.compile(
            rf"(?:{cw.OWNER}\s+first\s+(?!(?:time|visit|trip|day|night|week|weekend|holiday|go|look|date)\b)"
            rf"(?:[\w-]+\s+){{0,2}}?(?:at|(?P<service>{_SERVICE})s?\s+with)|^First\s+(?:{_SERVICE})s?\s+(?:at|with))"
            rf"\s+(?:the\s+)?{cw.VALUE}"
        ),
        "patronage",
    ),
    (
        re.compile(
            rf"(?<=\s){cw.OWNER}\s+(?:(?:new|old|trusty|beloved|little)\s+)?{cw.NOT_SERVICE_ACRONYM}{cw.NOT_TIME}{cw.VALUE}"
            rf"(?:{cw.PARTS_AFTER}|(?!'s|[\w']))"
        ),
        "possession",
    ),
    (
        re.compile(
            rf"^{cw.OWNER}\s+(?:(?:new|old|trusty|beloved|little)\s+)?{cw.NOT_SERVICE_ACRONYM}{cw.NOT_TIME}{cw.VALUE}{cw.PARTS_AFTER}"
        ),
        "possession",
    ),
    # a thing named as the object of a verb only vehicles take ("filled up the Kestrel Vantra",
    # "got a flat on Ana's X"): possessed, of the kind its name is known as, like a thing bought
    (
        re.compile(
            rf"{cw.LEAD}{_ADV}(?:(?P<ride>(?i:drove|drives|rode|rides|serviced))|(?i:parked|parks|filled\s+up|fills\s+up|"
            rf"got\s+a\s+(?:flat|puncture)\s+on))\s+(?:the\s+|{cw.OWNER}\s+)(?:(?:new|old|trusty)\s+)?{cw.VALUE}"
        ),
        "possession",
    ),
    # what only an animal does ("Biscuit chewed Ana's slippers again"): whose things, their pet
    (
        re.compile(
            rf"(?:^|(?<=[,;:]\s)|(?<=\bbecause\s)|(?<=\bwhen\s))(?P<v>{_NAME})(?P<animal>)\s+(?:has\s+|had\s+|keeps\s+)?"
            rf"(?i:chewed|chews|barked|barks|purred|purrs|meowed|meows|wagged|sniffed|growled|hissed|pounced)\b"
            rf"(?:\s+(?:through|on|at|up|into)\b)?(?:\s+{cw.OWNER}(?!\w))?"
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
    *SERVICE_USE,
)
# a kind said of what the sentence (or the one before) named: "so that's my vet now", "they're her
# dentist these days" (the value is the last thing named before it)
POINTED = re.compile(
    rf"(?<![\w'])(?i:that|they|it)(?:'s|'re|\s+is|\s+are)\s+{cw.OWNER}\s+{cw.NOT_FORMER}{cw.ADJ}"
    r"(?!(?:problem|fault|issue|job|responsibility|thing|turn|call|business|concern|headache|life)\b)"
    rf"{cw.NOUN}"
    r"(?=\s+(?:now|these\s+days|nowadays|from\s+now\s+on|for\s+good)\b)"
)
# a value none of whose words is a time ("Wychwood Clinic", not "18 January 2023")
UNTIMED_VALUE = re.compile(rf"{cw.AT_WORD}{cw.UNTIMED}")
