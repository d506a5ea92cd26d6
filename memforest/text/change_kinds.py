"""The kind a value of a change is named as, read right after the value (``changes`` reads it
for the states of ``change_grammar.GENERIC``)."""

from __future__ import annotations

import re

from memforest.text import change_words as cw
from memforest.text.change_subjects import NAME as _NAME

__all__ = ["KIND_AFTER"]

# services a provider is taken for ("for the gas", "for the car insurance"); a thing ("for the
# phone") is none
_SERVICE_TAKEN = r"(?:gas|electric(?:ity)?|broadband|internet|wifi|insurance|pension|water|energy|mortgage)\b"

# the kind a value is named as: a noun right after it ("a Solano e-bike", "a Norrland 7 phone"),
# an appositive after it ("Marlow Paddlers, a rowing club"), its owner's use of it ("X as my
# accountant"; "as a designer" is the subject's role, not the value's kind) or the thing it
# replaced; a run of whitespace
# is tried from its first character only (linear on long runs)
KIND_AFTER = (
    re.compile(rf"(?<!\s)\s+{cw.NOT_KIND}{cw.NOUN}{cw.BOUNDARY}"),
    re.compile(
        rf",\s+(?:an?|the|{_NAME}'s|his|her|their)\s+{cw.ADJ}{cw.THEN}{cw.NOUN3}"
        rf"(?:\s+(?:on|in|at|near|by|down|round|around|off)\s+[^,.;:!?]{{1,30}})?(?=\s*(?:[.,;:!?)]|$))"
    ),
    # ("joined X as their drummer": the role the subject takes at X, no kind of X)
    re.compile(rf"(?<!\s)\s+(?:as|for)\s+(?:{_NAME}'s|his|her)\s+{cw.ADJ}{cw.NOUN}{cw.BOUNDARY}"),
    # the thing it replaced ("got a Fernway 7 to replace my cracked phone"): of the same kind
    re.compile(
        rf"(?<!\s)\s+(?:to\s+replace|in\s+place\s+of|instead\s+of)\s+(?:{_NAME}'s|my|his|her|their|the|an?)\s+"
        rf"(?:(?:old|broken|cracked|dead|stolen|lost|ancient|battered|tired|failing)\s+)?{cw.NOUN}{cw.BOUNDARY}"
    ),
    # a service it is taken for ("signed up with X for the electricity"; "for the price" names none)
    re.compile(
        rf"(?<!\s)\s+for\s+(?:the|{_NAME}'s|his|her|their)\s+(?P<noun>(?:[a-z][a-z-]*\s+)?{_SERVICE_TAKEN}){cw.BOUNDARY}"
    ),
)
