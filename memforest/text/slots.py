"""Supersession slots (residence, employer, relationship status, favourites, age, pets) of a fact."""

from __future__ import annotations

import re

from memforest.text.changes import slot_key
from memforest.text.lexicon import ADVERBS, CAPITALS, ENTITY_EXCLUDE, NUMBER_WORDS, PET_ANIMALS, TIME_WORDS, TITLES
from memforest.text.mood import mood_near
from memforest.text.role_named import ROLES, role_slot
from memforest.text.state_words import KIN
from memforest.text.subject_pairs import TIME_LEAD_AT, first_of_two
from memforest.text.topics import singular

__all__ = ["asks_with_provider", "find_role_at", "find_slot"]

# slots work on the person-rewritten text, where the subject is a capitalised name; it starts at a
# word's first character (a start inside a long capitalised run would rescan the run: quadratic),
# checked behind the capital so `re` skips to capitals (change_subjects.NAME, ADR 0094)
_SUBJ = rf"(?P<subj>[{CAPITALS}](?<![\w'-][{CAPITALS}])[\w'-]*(?:\s+[{CAPITALS}][\w'-]*){{0,2}})"
_ADV = (
    r"(?:\s+(?:just|recently|finally|now|still|currently|also|actually|originally|officially|happily|"
    r"already))*"
)
_VAL = (
    r"(?P<val>[^,.;!?()\[\]]+?)(?=\s+(?:in|on|at|since|last|this|next|with|and|but|because|for|when|after|"
    r"before|from|ago|about|to|now|recently|yesterday|today|around|during|so|which|who|where|while|as|"
    r"near|by|too|also|again|already|instead|permanently|for\s+good)\b|[,.;!?()\[\]]|$)"
)
_OWNER = r"(?:our|my|his|her|their|[\w'-]+'s)"
# a home named so is not the one lived in now: one left, dreamt of, stayed in for a while
_TITLE = re.compile(TITLES)
_ADVERB = re.compile(ADVERBS, re.IGNORECASE)
_NOT_HOME = r"(?:old|former|previous|ex|last|first|childhood|dream|holiday|summer|weekend|future|ideal|next)"
_NAME_VAL = rf"(?P<val>[{CAPITALS}][\w'-]*(?:\s+[{CAPITALS}][\w'-]*)?)"
# a dwelling one lives in ("home" and "place" are said of much else: "brought the dog home on Friday")
_HOME = (
    r"(?:flat|apartment|house|condo|bungalow|townhouse|cottage|cabin|duplex|maisonette|penthouse|houseboat|villa|"
    r"farmhouse|studio|loft|terrace|terraced\s+house|semi|bedsit|new-build|new\s+build)"
)
# where a dwelling is: a place's name after "on", "in", "at" or "off", no day or month
_PLACE = rf"(?:on|in|at|off)\s+(?:the\s+)?(?!(?i:{'|'.join(sorted(TIME_WORDS))})\b){_NAME_VAL}"
# whom one sees at a provider, and the people of one's work: the provider's name is the state's value
# ("Ana's barber at Blade & Bantam says ...": Ana's barber; "an email to Ana's manager at Fernleaf":
# Ana's employer); a former one is none ("Ana's old dentist at X")
_ROLE_AT = {
    **dict.fromkeys(("barber", "hairdresser", "dentist", "doctor", "gp", "physio", "therapist", "vet", "optician")),
    **dict.fromkeys(("manager", "boss", "supervisor", "colleague", "colleagues", "coworker", "coworkers"), "employer"),
    **dict.fromkeys(("coach", "trainer", "instructor"), "membership"),
}
_PROVIDER = rf"(?P<val>[{CAPITALS}][\w'-]*(?:\s+(?:&\s+|and\s+|of\s+(?:the\s+)?)?[{CAPITALS}][\w'-]*){{0,3}})"
# whom one sees at a provider, by the kind of their work ("is seeing a physio at Kinetic Path")
_SEEN = (
    r"barber|hairdresser|stylist|dentist|hygienist|orthodontist|doctor|gp|physio|physiotherapist|therapist|counsellor|"
    r"counselor|psychologist|vet|optician|osteopath|chiropractor|podiatrist|nutritionist|dietitian|acupuncturist"
)
# a person, or a person's relative ("Ana", "Ana's dad")
_HOLDER = rf"(?P<subj>[{CAPITALS}](?<![\w'-][{CAPITALS}])[\w'-]*(?:\s+(?i:{KIN}))?)"
# ... or the sentence's own opening, its subject (the speaker) left out ("Just got referred to a physio at X")
_HOLDER_OR_OPENING = rf"(?:^(?:(?i:just|recently|finally|also)\s+)?|{_HOLDER}{_ADV}\s+)"
_SEEN_AT_RE = re.compile(
    _HOLDER_OR_OPENING + r"(?:is\s+|are\s+|has\s+been\s+|have\s+been\s+|started\s+|began\s+)?"
    r"(?:(?:seeing|sees|see)\s+an?|(?:has|have|got|found)\s+an?\s+new|"
    r"(?:(?i:got|was|were|been)\s+)?referred\s+to\s+an?|(?:registered|signed\s+up)\s+with\s+an?)\s+"
    rf"(?:new\s+)?(?P<role>(?i:{_SEEN}))\s+(?:at|from)\s+(?:the\s+)?{_PROVIDER}(?![\w'-])"
)
# ... any role one goes to by its noun, listed or told by its doer's ending ("Ana's tattoo artist at
# Inkwell", "Ana's mechanic at X"): the slot is the role's (role_named.role_slot); a partner is none
_ROLE_AT_RE = re.compile(
    _HOLDER + rf"'s\s+(?:new\s+|current\s+|regular\s+|usual\s+|line\s+)?(?P<role>(?i:{'|'.join(_ROLE_AT)}|{ROLES}))"
    rf"\s+(?:at|from)\s+(?:the\s+)?{_PROVIDER}(?![\w'-])"
)
# a group one belongs to, named by its kind and where it meets ("Ana's book club at Hollis Books
# picked ...", "Ana's yoga class at the Lotus Room"): the slot is the kind; a former one is none
_GROUP_AT_RE = re.compile(
    _HOLDER + r"'s\s+(?:new\s+|current\s+|regular\s+|usual\s+|local\s+)?"
    r"(?!(?:old|former|last|previous|ex)\b)"
    r"(?P<role>(?:[a-z]+\s+){0,2}?(?:club|choir|band|league|society|circle|gym)|[a-z]+\s+class)\s+at\s+(?:the\s+)?"
    rf"{_PROVIDER}(?![\w'-])"
)
# ... or joined by its kind at where it meets ("Ana just joined the choir at St Olave's", "got into the
# chess club at Hollis Library"; "joined the team at X" is a job, no group)
_GROUP_JOINED_RE = re.compile(
    _HOLDER_OR_OPENING
    + r"(?:(?:has|have)\s+)?(?:joined|joins|got\s+into|signed\s+up\s+(?:for|to)|started\s+going\s+to)\s+"
    r"(?:a|an|the)\s+(?:new\s+|local\s+)?"
    r"(?P<role>(?:[a-z]+\s+){0,2}?(?:club|choir|band|league|society|circle|gym|orchestra|ensemble|crew)|[a-z]+\s+class)"
    rf"\s+at\s+(?:the\s+)?{_PROVIDER}(?![\w'-])"
)
# ... or "the one" joined after another of its kind ("quit the Banino book club and joined the one at X")
_GROUP_ONE_RE = re.compile(
    r"\b(?P<role>(?:[a-z]+\s+){0,2}?(?:club|choir|band|league|society|circle|gym|orchestra|ensemble|crew)|[a-z]+\s+class)"
    r"\s+(?:and|,)\s+(?:then\s+)?(?P<subj>)(?:joined|got\s+into|switched\s+to|moved\s+to|went\s+to)\s+the\s+one\s+at\s+"
    rf"(?:the\s+)?{_PROVIDER}(?![\w'-])"
)
# a group that the sentence says has ended ("Ana's pottery class at X finished in May")
_GROUP_ENDED = re.compile(r"\b(?:ended|finished|closed|shut|folded|disbanded|stopped|broke\s+up|is\s+over)\b")
# moods of the whole sentence that make a provider named with its person no one's now
_ROLE_AT_MOODS = frozenset({"considered", "turned_down", "negation", "nostalgia", "hypothetical", "wish"})
_SLOT_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    # "Ana's flat on Kestrel Lane has draughty windows": the home one speaks of as one's own now
    (
        re.compile(_SUBJ + rf"'s\s+(?!{_NOT_HOME}\b)(?:[a-z-]+\s+){{0,2}}?{_HOME}\s+{_PLACE}"),
        "residence",
    ),
    # "Ana lives in a terraced house on Pelham Row", "moved into a flat in Leith": the place, not the dwelling
    (
        re.compile(
            _SUBJ
            + r"(?:\s+and\s+others)?"
            + _ADV
            + r"\s+(?:live|lives|lived|has\s+lived|is\s+living|moved|has\s+moved|relocated)\s+(?:in|into|to)\s+"
            rf"(?:an?|the|a\s+new|{_OWNER})\s+(?:[\w-]+\s+){{0,3}}?{_HOME}\s+{_PLACE}"
        ),
        "residence",
    ),
    (
        re.compile(
            _SUBJ + _ADV + r"\s+(?:lives|lived|has\s+lived|has\s+been\s+living|is\s+living|was\s+living|"
            r"had\s+lived|is\s+based|has\s+been\s+based|resides)\s+in\s+" + _VAL
        ),
        "residence",
    ),
    # "lives on Tiller Street now": a named street or road (no "on the edge", "on a budget")
    (
        re.compile(_SUBJ + _ADV + r"\s+(?:lives|has\s+lived|has\s+been\s+living|is\s+living)\s+on\s+" + _NAME_VAL),
        "residence",
    ),
    # "teaches at Blackthorn High", "teaches maths at X": teaching at a named place is working there
    (
        re.compile(
            _SUBJ
            + _ADV
            + r"\s+(?:teaches|has\s+taught|is\s+teaching|lectures)\s+(?:[a-z]+\s+){0,2}?at\s+(?:the\s+)?"
            + _NAME_VAL
        ),
        "employer",
    ),
    (
        re.compile(
            _SUBJ + _ADV + r"\s+(?:moved|relocated|has\s+moved|has\s+relocated|had\s+moved)\s+(?:back\s+|over\s+)?"
            r"(?:to|into)\s+" + _VAL
        ),
        "residence",
    ),
    (re.compile(_SUBJ + _ADV + r"\s+(?:is|was|comes|came)\s+(?:originally\s+)?from\s+" + _VAL), "origin"),
    (re.compile(_SUBJ + _ADV + r"\s+grew\s+up\s+in\s+" + _VAL), "origin"),
    (
        re.compile(
            _SUBJ + _ADV + r"\s+(?:works|worked|has\s+worked|has\s+been\s+working|is\s+working|is\s+now\s+working|"
            r"started\s+working|began\s+working|is\s+employed|got\s+hired|was\s+hired|got\s+a\s+(?:new\s+)?job|"
            r"started\s+a\s+(?:new\s+)?job|found\s+a\s+(?:new\s+)?job|landed\s+a\s+(?:new\s+)?job)\s+as\s+"
            r"(?:an?\s+)?" + _VAL
        ),
        "job",
    ),
    (re.compile(_SUBJ + r"'s\s+(?:new\s+)?job\s+as\s+(?:an?\s+)?" + _VAL), "job"),
    (
        re.compile(
            _SUBJ + _ADV + r"\s+(?:works|worked|has\s+worked|has\s+been\s+working|is\s+working|is\s+now\s+working|"
            r"started\s+working|began\s+working|is\s+employed|got\s+hired|was\s+hired|got\s+a\s+(?:new\s+)?job|"
            r"started\s+a\s+(?:new\s+)?job|found\s+a\s+(?:new\s+)?job|landed\s+a\s+(?:new\s+)?job)\s+"
            r"(?:at|for|with|by)\s+" + _VAL
        ),
        "employer",
    ),
    (
        re.compile(
            _SUBJ + _ADV + r"\s+(?:is|was|got|has\s+been|just\s+got|became|is\s+now|got\s+recently)\s+"
            r"(?:now\s+|happily\s+|recently\s+)?(?P<val>single|married|engaged|divorced|widowed|separated)\b"
        ),
        "relationship_status",
    ),
    (
        re.compile(
            _SUBJ + r"'s\s+(?:all-time\s+|absolute\s+|very\s+)?favou?rite\s+(?P<thing>[a-z]+(?:\s+[a-z]+)?)\s+"
            r"(?:is|was|has\s+to\s+be|would\s+be|are)\s+" + _VAL
        ),
        "favorite",
    ),
    (
        re.compile(
            _SUBJ
            + _ADV
            + r"\s+(?:is|just\s+turned|turned|has\s+turned)\s+(?P<val>\d{1,3}|"
            + "|".join(NUMBER_WORDS)
            + r")\s+(?:years?\s+old|yrs?\s+old)\b"
        ),
        "age",
    ),
    (
        re.compile(_SUBJ + _ADV + r"\s+(?:just\s+)?turned\s+(?P<val>\d{1,3})\b(?!\s*(?:%|percent|minutes|hours))"),
        "age",
    ),
    (
        re.compile(
            _SUBJ + _ADV + r"\s+(?:has|had|got|adopted|owns|has\s+got|rescued|brought\s+home)\s+"
            r"(?:a|an|another|a\s+new|one)\s+(?:[a-z]+\s+){0,2}?(?P<animal>" + PET_ANIMALS + r")\s+"
            r"(?:named|called)\s+" + _NAME_VAL
        ),
        "pet",
    ),
    (
        re.compile(
            _SUBJ + r"'s\s+(?:new\s+|little\s+)?(?P<animal>" + PET_ANIMALS + r")(?:'s\s+name)?\s+"
            r"(?:is\s+)?(?:named|called|is)\s+" + _NAME_VAL
        ),
        "pet",
    ),
)


_RELATION = re.compile(rf"(?i:{KIN})")
# what one moves to at work or in one's days, no place ("moved to a four-day week", "the night shift")
_NO_PLACE = re.compile(
    r"(?<![\w-])(?i:week|weeks|shifts?|rota|schedule|hours|desk|team|role|department|position|contract|tariff|"
    r"plan|routine|pattern|system|version|app)$"
)
_CALLED = re.compile(rf"\b(?:called|named)\s+([{CAPITALS}].*)$")


def _normalise_value(value: str) -> str:
    value = re.sub(r"\s+", " ", value).strip().rstrip(".,;:!?'\" ")
    value = re.sub(r"^(?:the|a|an)\s+", "", value, flags=re.IGNORECASE)
    called = _CALLED.search(value)  # "small agency called Pixel & Co": the name is the value
    return (called.group(1) if called else value).strip()


# a verb of telling right before the subject: its first word is whom one tells, the rest the
# reported clause's subject ("Ana's mum told Ana Tariq moved to X", "Ana texted Ana Tariq ...": Tariq)
# (not a passive or "can tell", which tell no one: "Mia was told Oskar Lind lives in X")
_TOLD_BEFORE = re.compile(
    r"(?<![\w'])(?!(?i:am|is|are|was|were|be|been|being|can|could|get|got)\s)[\w']+\s+"
    r"(?i:told|tells|telling|tell|reminded|warned|assured|informed|texted|texts|messaged|emailed|wrote|writes)\s+$"
)


def _clean_subject(subject: str, before: str = "") -> str | None:
    timed = TIME_LEAD_AT.match(subject)  # ("Later Nadia moved to X": Nadia)
    words = subject[timed.end() :].split() if timed is not None else subject.split()
    if len(words) > 1 and _TOLD_BEFORE.search(before[-30:]):
        words.pop(0)
    while words and (words[0].lower() in ENTITY_EXCLUDE or _ADVERB.fullmatch(words[0])):
        words.pop(0)  # ("Honestly Mia's flat": Mia's)
    return " ".join(words) or None


def find_slot(text: str) -> tuple[str, str, str] | None:
    """(subject, attribute, value) from a person-rewritten sentence, when a slot pattern matches."""
    for pattern, attribute in _SLOT_PATTERNS:
        m = pattern.search(text)
        if m is None:
            continue
        # ("Ana and Bo moved to X": Ana's)
        subject = _clean_subject(first_of_two(text, m.start("subj")) or m["subj"], text[: m.start("subj")])
        value = _normalise_value(m["val"])
        if not subject or not value:
            continue
        attr = attribute
        m.groupdict()
        if attribute == "favorite":
            thing = "_".join(singular(w) for w in m["thing"].lower().split())
            attr = f"favorite_{thing}"
        elif attribute == "pet":
            attr = "pet"  # one chain per person (attributes.py); the animal stays in the text
        elif attribute == "age" and value.lower() in NUMBER_WORDS:
            value = str(NUMBER_WORDS[value.lower()])
        elif attribute == "relationship_status":
            value = value.lower()
        elif attribute == "job" and _RELATION.fullmatch(value):
            continue  # "worked as a kid": what the subject was then, not their work
        elif attribute == "residence" and _NO_PLACE.search(value):
            continue  # "moved to the night shift": an arrangement of one's work or days, no home
        elif _TITLE.fullmatch(value):
            continue  # "moved to Dr. Halvorsen": a title cut at its dot is no value
        return subject, attr, value
    return None


def find_role_at(text: str, *, presupposed: bool = False, speaker: str | None = None) -> tuple[str, str, str] | None:
    """(subject, attribute, provider) where a person-rewritten sentence names someone's practitioner,
    coach or workmate at a provider ("Ana's barber at Blade & Bantam reckons ...": Ana's barber is
    at Blade & Bantam), or the practitioner someone sees at one ("Ana is seeing a physio at X").
    The provider is named in passing, so the mood of what the sentence goes on to say is not the
    state's ("... reckons Ana should stretch more"); one named in a clause that denies, recalls,
    wishes or supposes, or in a sentence that weighs or turns down, is none (a denial in another
    clause is not its own: "... is quick but I never know what to tip"). A request or question ``presupposed`` the
    provider whatever its mood ("Should I complain to my dentist at X?": X is the asker's dentist).
    A sentence that opens with its verb is the ``speaker``'s ("Just joined the choir at X"); with no
    speaker given it is no one's."""
    m = _SEEN_AT_RE.search(text) or _ROLE_AT_RE.search(text)
    groups = (_GROUP_AT_RE, _GROUP_JOINED_RE, _GROUP_ONE_RE)
    group = next((g for g in (p.search(text) for p in groups) if g is not None), None) if m is None else None
    if group is not None and _GROUP_ENDED.search(text, group.end()) is None:
        m = group
    if m is None:
        return None
    at = m.start("val")
    if not presupposed and (mood_near(text[: m.end()], at) is not None or mood_near(text, at) in _ROLE_AT_MOODS):
        return None
    subject = _clean_subject(m["subj"]) if m["subj"] else speaker
    role = re.sub(r"\s+", " ", m["role"].lower())  # ("GP")
    slot = (_ROLE_AT[role] or slot_key(role)) if role in _ROLE_AT else role_slot(role)
    return (subject, slot, m["val"]) if subject and slot != "partner" else None


# the speaker's practitioner or workmate at a named provider, as a request names them ("Could you
# help me email my manager at Brightwater Games?")
_ASKED_ROLE_AT = re.compile(
    rf"\b(?i:my|our)\s+(?:(?:new|current|regular|usual|line)\s+)?(?i:{'|'.join(_ROLE_AT)}|{ROLES})\s+(?:at|from)\s+(?:the\s+)?"
    rf"[{CAPITALS}]"
)


def asks_with_provider(sentence: str) -> bool:
    """A request or question names the speaker's practitioner or workmate at a provider (whose
    use it presupposes: :func:`find_role_at` reads it)."""
    return _ASKED_ROLE_AT.search(sentence) is not None
