"""Using a service told by its verb alone, with no mark of the present: ways of saying one is a
provider's customer that say nothing else ("Ana banks with X", "registered her cat with X Vets",
"her energy comes from X"). ``change_grammar.GENERIC`` reads them last, so every pattern that
tells more (a switch, a kind named) is read first. Each reads a person-rewritten sentence and is
linear in its length."""

from __future__ import annotations

import re

from memforest.text import change_words as cw
from memforest.text.change_subjects import ADV as _ADV
from memforest.text.change_subjects import PERSON as _PERSON
from memforest.text.change_subjects import SUBJ as _SUBJ
from memforest.text.lexicon import CAPITALS, TITLES
from memforest.text.state_words import INSTRUMENTS

__all__ = ["SEEN_NAMED", "SERVICE_USE"]

# a practitioner one started seeing, named in apposition after the kind ("started seeing a therapist,
# Dr. Ilunga, for ...", "is seeing a physio in April 2023 - Amrit Sethi"): ``change_grammar.NAMED``
SEEN_NAMED: tuple[re.Pattern[str], ...] = (
    re.compile(
        rf"(?:{cw.LEAD}{_ADV}|^)(?:been\s+|is\s+|are\s+|am\s+|started\s+|begun\s+)?(?i:seeing|sees|see)\s+(?:a|an)\s+"
        rf"{cw.ADJ}{cw.NOUN}(?:\s+(?:in|on|since|last|this)\s+[^,.;:!?]{{1,24}}?)?\s*(?:,|\s[-\u2013\u2014]|:)\s+"
        rf"{cw.VALUE}{cw.BOUNDARY}"
    ),
)
# what one registers with a practice besides oneself: a pet, a child, a pronoun for either
_REGISTERED_ONE = rf"(?:(?:(?:{_PERSON})'s|his|her|their)\s+[a-z][\w-]*|her|him|them|it)\s+"
SERVICE_USE: tuple[tuple[re.Pattern[str], str], ...] = (
    # "banks with X", "has been banking with X since May", "registered the dog with X Vets"
    (
        re.compile(
            rf"{cw.LEAD}{_ADV}(?:been\s+|is\s+|am\s+|are\s+)?(?i:banks|banking|banked|insures|insured|"
            rf"registered\s+{_REGISTERED_ONE}|signed\s+{_REGISTERED_ONE}up)\s*(?i:with|at)\s+{cw.ART}{cw.VALUE}"
        ),
        "patronage",
    ),
    # "Ana is a Larkspur Ramblers member now": a member named before the word, as a customer is
    (
        re.compile(
            rf"{cw.LEAD}{_ADV}(?i:is|am|are|became|become)\s+(?i:an?)\s+(?:(?i:new|proud|paid-up|full)\s+)?{cw.VALUE}\s+"
            r"(?i:member)\b"
        ),
        "membership",
    ),
    # a habit told in its doer's present tense ("grabs a flat white at X before her run", "swims at
    # X on Tuesdays", "gets her hair cut at X"): a place used now; a past tense tells a visit, a
    # verb of saying, thinking or wanting tells no use, and one of going from a place tells a way,
    # not a place used ("commutes from X", "drives in from X")
    (
        re.compile(
            rf"{_SUBJ}\s+{_ADV}(?!(?:is|was|has|does|says|thinks|wants|needs|hopes|plans|seems|looks|feels|means|"
            r"costs|misses|loves|likes|hates|knows|remembers|wishes|lives|works|stays|meets|sees|classes|lessons)\b)"
            r"(?!(?:commutes|travels|drives|walks|cycles|flies|comes|heads)\s+(?:[\w'-]+\s+){0,4}?from\s)[a-z]{2,}s\s+"
            rf"(?:[\w'-]+\s+){{0,4}}?(?:at|from)\s+{cw.ART}{cw.VALUE}"
        ),
        "patronage",
    ),
    (
        # an ongoing doing told in the present perfect: "has been running with X", "has been training at
        # X" (what is only talked, looked at or waited on is no use of X)
        re.compile(
            rf"(?:{_SUBJ}\s+{_ADV}(?:has|have)\s+|^)(?i:been)\s+(?!(?:going|looking|thinking|talking|chatting|speaking|"
            r"arguing|waiting|emailing|texting|messaging|fighting|struggling|dealing|comparing|meaning|trying|"
            r"planning|hoping|saving|queuing|queueing)\b)[a-z]{3,}ing\s+(?:[\w'-]+\s+){0,3}?(?:at|with)\s+"
            rf"(?:the\s+)?{cw.VALUE}"
        ),
        "patronage",
    ),
    # "Ana plays trumpet in X", "has been learning the cello", "picked up bass guitar": an instrument
    # played now (a past "played" tells no current one; "picked up the guitar from X", "the keys" fetched)
    (
        re.compile(
            rf"{cw.LEAD}{_ADV}(?:(?:has|have)\s+been\s+|is\s+|am\s+|are\s+)?(?i:plays|play|playing|learning|learns|"
            rf"learn|practi[sc]ing|practi[sc]es|picked\s+up(?!\s+(?:the|my|his|her|their|our|spare)\s+keys\b))\s+(?:the\s+|a\s+)?"
            rf"(?P<v>(?:{INSTRUMENTS})(?:\s+guitar)?)\b(?!\s+(?:player|teacher|shop|case|from|off|back|to|for)\b)"
        ),
        "instrument",
    ),
    # "started shakuhachi lessons", "Ana is taking driving lessons": lessons one takes now, by their subject
    # (classes are a group's: ``change_common``)
    (
        re.compile(
            rf"{cw.LEAD}{_ADV}(?:(?:is|am|are|has\s+been|have\s+been)\s+)?(?i:started|starting|began|booked|taking|takes|"
            r"doing|signed\s+up\s+for)\s+(?:(?i:weekly|private|group|evening|online|adult|some)\s+)?"
            r"(?P<v>[A-Za-z][\w-]+(?:\s+(?!(?:evening|morning|night|weekend|online|group|private)\b)[a-z][\w-]+)?)"
            r"(?:\s+(?:evening|morning|night|weekend|online|group|private))?\s+(?i:lessons)\b"
        ),
        "lessons",
    ),
    # "The ukulele Ana bought last month", "got herself a cello": an instrument come by is one played
    (
        re.compile(
            rf"(?<![\w'])(?i:the)\s+(?:new\s+)?(?P<v>(?:{INSTRUMENTS}))\s+(?:(?:that|which)\s+)?{_SUBJ}\s+(?:just\s+)?"
            r"(?:bought|got)\b"
        ),
        "instrument",
    ),
    (
        re.compile(
            rf"{cw.LEAD}{_ADV}(?i:bought|got)\s+(?:(?:herself|himself|themself|myself)\s+)?an?\s+(?:new\s+)?"
            rf"(?P<v>(?:{INSTRUMENTS}))\b(?!\s+(?:lesson|teacher|case|stand|book|strings?)s?\b)"
        ),
        "instrument",
    ),
    # "renewed the home insurance with X": a provider kept for another term
    (
        re.compile(
            rf"{cw.LEAD}{_ADV}(?i:renewed|renews)\s+(?:the|{cw.OWNER})\s+(?:[a-z]+\s+){{0,2}}?(?i:insurance|cover|policy|"
            rf"contract|membership|subscription|mortgage|plan)\s+with\s+{cw.ART}{cw.VALUE}"
        ),
        "patronage",
    ),
    # "First day at X", "Another week at X", "Back at Ana's desk at X": a workplace told by its days (an
    # adjective before the day would be read as a person: "Long week at X")
    (
        re.compile(
            r"^(?:(?i:first|another|second)\s+)(?i:day|week|shift)\s+"
            rf"at\s+(?:the\s+)?{cw.VALUE}"
        ),
        "employer",
    ),
    (re.compile(rf"^(?i:back)\s+at\s+{cw.OWNER}\s+desk\s+at\s+(?:the\s+)?{cw.VALUE}"), "employer"),
    # "Ana is on Nimbus Mobile": a supply one is on, named by what it supplies
    (
        re.compile(
            rf"{cw.LEAD}{_ADV}(?i:is|am|are)\s+(?:(?i:now|still|currently)\s+)?on\s+(?:the\s+)?(?P<v>(?:[A-Z][\w'&-]*\s+){{1,3}}"
            r"(?:Mobile|Energy|Broadband|Fibre|Fiber|Telecom|Wireless|Network|Power|Gas|Electric))\b"
        ),
        "patronage",
    ),
    # "Ana is on X's green tariff", "has been on X's fixed plan": a provider's offer one is on (a
    # "family plan" is a person's as often: "on Ravi's family plan" names no provider)
    (
        re.compile(
            rf"{cw.LEAD}{_ADV}(?:(?:has|have)\s+been\s+|is\s+|am\s+|are\s+)(?:(?i:now|still|currently)\s+)?on\s+"
            rf"(?P<v>(?:[A-Z][\w&-]*\s+){{0,2}}[A-Z][\w&-]*)'s\s+(?:(?!family\b)[a-z][\w-]*\s+){{0,2}}?(?i:tariff|plan|contract|"
            r"package|deal|policy|subscription|bundle)\b"
        ),
        "patronage",
    ),
    # "Ana dropped X and went with Y", "quit X, went with Y": a provider gone with after leaving one
    (
        re.compile(
            rf"{cw.LEAD}{_ADV}(?i:dropped|ditched|quit|left|cancelled|canceled|dumped)\s+{cw.ART}"
            rf"(?:[A-Z][\w&'-]*\s+){{0,3}}[A-Z][\w&'-]*,?\s+(?:and\s+)?(?:then\s+)?(?i:went)\s+with\s+{cw.ART}{cw.VALUE}"
            r"(?!\s+to\b)"
        ),
        "patronage",
    ),
    # "Ana sees Dr. Oyelaran for her back", "goes to Dr. Okafor about her migraines": a practitioner seen now
    (
        re.compile(
            rf"{cw.LEAD}{_ADV}(?i:sees|see|goes\s+to|go\s+to)\s+(?P<v>{TITLES}\.?\s+[{CAPITALS}][\w'-]*"
            rf"(?:\s+[{CAPITALS}][\w'-]*)?)\s+(?i:for|about)\b"
        ),
        "patronage",
    ),
    # "Ana uses X for everything", "uses X for her broadband": a provider used now, told with its use
    (
        re.compile(rf"{cw.LEAD}{_ADV}(?i:uses|use)\s+{cw.ART}{cw.VALUE}\s+for\s+(?!(?i:a|an|the|one)\b)"),
        "patronage",
    ),
    # "Got them from X, where Ana has been going for years": the place of a relative clause of going
    (
        re.compile(
            rf"{cw.AT_WORD}{cw.VALUE},\s+where\s+{_SUBJ}\s+(?:has|have|had)\s+been\s+going(?=\s+(?:for|since)\b)"
        ),
        "patronage",
    ),
    # "opened an account with X", "opened joint accounts at X": a bank or a lender one now has
    (
        re.compile(
            rf"{cw.LEAD}{_ADV}(?i:opened|opens|set\s+up)\s+(?:(?:an?|my|our|\w+'s|a\s+new|new)\s+)?(?:[a-z]+\s+)?"
            rf"(?i:account|accounts)\s+(?i:with|at)\s+{cw.ART}{cw.VALUE}"
        ),
        "patronage",
    ),
    # "went with X for the car insurance", "went with X for our broadband": a provider chosen for a supply
    (
        re.compile(
            rf"{cw.LEAD}{_ADV}(?i:went|have\s+gone|has\s+gone)\s+with\s+{cw.ART}{cw.VALUE}\s+for\s+"
            r"(?:(?:the|my|our|his|her|their|\w+'s)\s+)?(?:[a-z]+\s+)?(?i:insurance|cover|broadband|internet|energy|"
            r"electricity|gas|mortgage|pension|phone|mobile|contract|plan|policy|account|savings|loan|vet|bank)\b"
        ),
        "patronage",
    ),
    # "Ana's health cover's with X now", "her phone contract is with X": a supply named with its provider
    (
        re.compile(
            rf"{cw.OWNER}\s+(?:[a-z]+\s+)?(?i:insurance|cover|broadband|internet|energy|electricity|gas|mortgage|"
            r"pension|phone|mobile|contract|plan|policy|account|accounts|savings|banking|bank\s+account|sim)"
            rf"(?:'s|\s+is|\s+are)\s+(?:(?i:now|all|still)\s+)?with\s+{cw.ART}{cw.VALUE}"
        ),
        "patronage",
    ),
    # "Ana is on a £10 sim-only deal with X", "on a fixed tariff from X": a provider's offer one is on
    (
        re.compile(
            rf"{cw.LEAD}{_ADV}(?:(?:has|have)\s+been\s+|is\s+|am\s+|are\s+)(?:(?i:now|still|currently)\s+)?on\s+an?\s+"
            r"(?:[\w£$€.-]+\s+){0,3}?(?i:tariff|plan|contract|package|deal|policy|subscription|bundle)\s+"
            rf"(?i:with|from)\s+{cw.ART}{cw.VALUE}"
        ),
        "patronage",
    ),
    # "ported Ana's number to X", "ported the number from A to X": a phone provider moved to
    (
        re.compile(
            rf"{cw.LEAD}{_ADV}(?i:ported|moved|transferred)\s+(?:{cw.OWNER}|the)\s+(?i:number)\s+(?:from\s+{cw.ART}"
            rf"(?:[{CAPITALS}][\w&'-]*\s+){{0,3}}?[{CAPITALS}][\w&'-]*\s+)?(?i:to|over\s+to)\s+{cw.ART}{cw.VALUE}"
        ),
        "patronage",
    ),
    # "Ana's energy comes from X", "her prescriptions all go through X": a supply and its provider
    (
        re.compile(
            rf"{cw.OWNER}\s+(?i:energy|electricity|gas|power|broadband|internet|wifi|wi-fi|phone\s+contract|mobile|"
            rf"prescriptions?|pension|mortgage|savings)\s+(?:all\s+)?(?i:comes?|goes|go)\s+(?i:from|through|via)\s+"
            rf"{cw.ART}{cw.VALUE}"
        ),
        "patronage",
    ),
)
