"""Who holds a value now, by the main clause after an apposition on it ("X, Y's dog, lives with me
now": the speaker): the main clause's person, unless the sentence bounds the stay in time."""

from __future__ import annotations

import re

from memforest.text.clause_fragments import ADV, ADVERBS_RUN
from memforest.text.person_keys import PERSON, names_someone, subject_key

__all__ = ["held_now"]

# the main clause after an apposition on a value (after its relative or resumptive pronoun: "who",
# "she"), when it says who holds the value now: a verb of living or belonging with that person after
# it ("lives with me now", "moved in with us", "belongs to Ana"), a copula with the person's
# possessive as its whole predicate ("is mine now", "has been ours since May"; not "is ours again",
# "is ours too"), or the person as the subject of a verb of getting whose object is the value put
# first ("X, Y's dog, I adopted in May"). The apposition then names a former or another holder; the
# main clause's person holds it.
# (matched at the apposition's closing comma: searched from every start, it is tried at commas only)
_CLAUSE_MARK = re.compile(r"[,.;:!?]")
# an adverbial of time or source that may follow a verb whose object was put first: "in May",
# "from the shelter", "last spring", "two years ago", "when ...", an adverb in -ly first
_TIME_OR_SOURCE = (
    r"(?:[a-z]+ly\s+)*+(?:in|on|at|from|after|before|during|over|since|last|when|once|back|yesterday|today"
    r"|(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|a\s+few|several|\d+)\s+"
    r"(?:days?|weeks?|months?|years?)\s+(?:ago|back))\b"
)
# a verb of getting that has no object or complement of its own after it: the value put first is
# its object ("X, Y's dog, I took in after the flood"). Only verbs whose one sense is coming to hold
# the thing: "got", "found", "kept", "chose", "won" have others ("I got to walk him", "I found
# wandering", "I kept for a fortnight", "I chose his name"). After the verb (and its particle) comes
# the end of the clause or an adverbial of time or source, never an object ("I bought him a toy"),
# an infinitive, a participle, an adjective
# "rescued" (saving: "rescued from the canal") and "took/brought home" (for a night) have other
# senses and are not read; a "for" with a word after it later in the clause ("for Ana's birthday",
# "for a fortnight", "for my nephew") makes the getting a gift, a purpose or a bounded stay, except
# "for good", "for keeps", "for ever", "for life"
_FRONTED_GETTING = (
    r"(?:adopted|bought|purchased|acquired|inherited|fostered|rehomed|(?:took|taken)\s+in)"
    rf"(?=\s*(?:[.,;:!?]|$)|\s+{_TIME_OR_SOURCE})"
    r"(?![^.,;:!?]{0,80}?\b(?i:for)\s+(?!good\b|keeps\b|ever\b|life\b)\w)"
)
_HELD_NOW = re.compile(
    rf",\s+(?:(?:who|which|that|(?i:she|he|it))\s+)?(?:"
    rf"{ADVERBS_RUN}(?:(?:has|have)\s+{ADVERBS_RUN}(?:lived|been\s+living|moved\s+in|come\s+to\s+live)"
    rf"|lives|moved\s+in|came\s+to\s+live|belongs)\s+{ADVERBS_RUN}(?:with|to)\s+(?P<with>{PERSON})(?!'s)\b"
    rf"|{ADVERBS_RUN}(?:is|(?:has|have)\s+{ADVERBS_RUN}been)\s+{ADVERBS_RUN}(?P<owner>{PERSON})'s"
    rf"(?=\s*(?:[.,;:!?]|$)|\s+(?:now|officially|since|from|and|but)\b)"
    rf"|(?P<subj>{PERSON})\s+{ADV}{_FRONTED_GETTING})"
)
# a stay bounded in time or now and then is no holding now: "is ours again this weekend", "moved
# in with us for the summer", "lives with me while Y travels / until Y is back", "on weekends"
# (searched in the rest of the main clause's sentence; "for good", "for keeps" are for ever)
_SENTENCE_END = re.compile(r"[.;!?]")
_BOUNDED = re.compile(
    r"(?<![\w'])(?i:again|while|until|till|temporarily|sometimes|occasionally|now\s+and\s+then"
    r"|for\s+(?!good\b|keeps\b|ever\b|life\b)[a-z]"
    r"|(?:this|that|next|over\s+the|every|on|at)\s+(?:weekends?|week|fortnight|month|summer|winter|holidays?))\b"
)


def held_now(text: str, at: int) -> str | None:
    """The person the main clause after the apposition ending at or after ``at`` says holds the value
    now (see :data:`_HELD_NOW`), or None; None also when the sentence bounds the stay (:data:`_BOUNDED`)."""
    mark = _CLAUSE_MARK.search(text, at)
    m = _HELD_NOW.match(text, mark.start()) if mark is not None else None
    if m is None:
        return None
    end = _SENTENCE_END.search(text, m.end())
    if _BOUNDED.search(text, m.start(), end.start() if end is not None else len(text)):
        return None
    person = m["with"] or m["owner"] or m["subj"]
    return subject_key(person) if names_someone(person) else None
