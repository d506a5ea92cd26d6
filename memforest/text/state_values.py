"""Value readers of ``memforest.text.states``: the value a state sentence names for one attribute
(a capitalised place or organisation, a pet's name, a car's make and model, a diet, a condition)."""

from __future__ import annotations

import re

from memforest.attributes import named_attribute
from memforest.text.lexicon import CAPITALS, TIME_WORDS, WORD_START
from memforest.text.state_words import CAR_MAKES, CAR_MODELS, DISPOSAL, KIN, PARTNER_NOUNS

__all__ = [
    "CHRONIC",
    "JOB_TITLE",
    "JOB_WORD",
    "SCHOOL_WORDS",
    "TIME_NAME",
    "TITLED_JOB",
    "WORKPLACE_PART",
    "cap_after",
    "change_value",
    "clean_cap",
    "device_value",
    "diet_value",
    "health_value",
    "hobby_value",
    "job_value",
    "partner_value",
    "thing_kind",
    "vehicle_value",
]

_NOT_VALUE = frozenset(
    (
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "i",
        "the",
        "a",
        "an",
        "my",
        "our",
        "this",
        "that",
        "it",
        "year",  # ("is in Year 9 at X": a class of a school, no school)
        "term",
        "semester",
    )
)
# a capitalised word; a period ending a longer word ends its sentence ("at Midori Pharmacy. Better ...")
_CAP_WORD = rf"(?:[{CAPITALS}][a-z]{{0,2}}\.(?!\w)|[{CAPITALS}](?:[\w&'-]|\.(?=\w))*)"
# (a name's particles, one or two: "Quinta da Serra", "Puerta de la Luz", "Huis ter Heide")
_CAP = (
    rf"{_CAP_WORD}(?:\s+(?:&\s+|and\s+|(?:(?:of|de|du|da|das|dos|del|della|di|van|von|der|den|ter|la|le)\s+){{1,2}})?"
    rf"{_CAP_WORD}){{0,3}}"
)
_CAP_RE = re.compile(_CAP)
_STOP = (
    r"in|on|at|since|last|this|next|with|and|but|because|for|when|after|before|from|ago|about|to|now|"
    r"recently|yesterday|today|around|during|so|which|who|where|while|as|near|by|is|was|are|were|it|its|"
    r"every|each|again|already|too|lately|these|those|that|the|a|an|of|than|then|all|just|really|very|over|until|till|"
    r"throughout|across"
)
_LOWER = rf"(?P<v>(?:(?!(?:{_STOP})\b)[a-z][a-z'-]*)(?:\s+(?!(?:{_STOP})\b)[a-z][a-z'-]*){{0,2}})"
# a value none of whose words is a time (a weekday, a month, a feast, a number)
TIME_NAME = (
    r"(?!(?i:monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|"
    r"august|september|october|november|december|lent|easter|christmas|xmas|advent|ramadan|passover|hanukkah|"
    r"diwali|thanksgiving|halloween|new\s+year)\b|\d)"
)
# a practice's name, capitalised or not ("Muay Thai", "tai chi", "Vipassana meditation", "the cello")
_NOT_PRACTICE = (
    r"(?:my|his|her|their|our|your|some|any|nothing|something|everything|well|fine|ok|okay|great|good|badly)"
)
_AFTER_PRACTICE = r"(?:daily|weekly|nightly|online|regularly|together|properly|religiously|seriously)"
_PRACTICE = (
    rf"(?:the\s+)?(?P<v>(?!(?:{_STOP}|{_NOT_PRACTICE})\b|[\w-]+'s\b){TIME_NAME}[^\W\d_][\w'-]*"
    rf"(?:\s+(?!(?:{_STOP}|{_AFTER_PRACTICE})\b){TIME_NAME}[^\W\d_][\w'-]*){{0,2}})"
)
# a habit or a time after a practice ("doing tai chi every morning", "since spring")
_HABITUAL = r"(?=\s+(?:every|daily|each|since|twice|once|now|these\s+days|on\s+\w+days|in\s+the\s+\w+|with\s+a)\b)"
_SOLD = re.compile(
    rf"(?:{DISPOSAL}|old|rid\s+of|crashed|totall?ed|replaced|traded\s+in|broke|lost|returned)\s+"
    r"(?:the\s+|my\s+|our\s+|an?\s+|\w+'s\s+)?(?:old\s+)?$",
    re.IGNORECASE,
)


def clean_cap(value: str, *, named: bool = False) -> str | None:
    """A capitalised phrase without trailing joiners and possessives (unless ``named``: a possessive
    that ends the phrase, with no noun after it, is a name's, "at St Aldric's."); None for a month,
    weekday, pronoun or determiner."""
    words = value.split()
    while words and (words[-1].lower() in {"and", "of", "de", "du", "&"} or (words[-1].endswith("'s") and not named)):
        words.pop()
    if not words or words[0].lower() in _NOT_VALUE or words[0].endswith("'s"):
        return None
    return " ".join(words).rstrip(".'")


SCHOOL_WORDS = (
    r"\b(?:University|College|School|Academy|Institute|Polytechnic|Uni|Primary|Elementary|Kindergarten|Nursery|"
    r"Preschool|Grammar)\b"
)


# what may follow a name that ends in a possessive: no noun of its (punctuation, a conjunction, a time)
_NAME_ENDS = re.compile(r"\s*+(?:[.,;:!?)]|$)|\s++(?:and|but|so|now|since|for|this|last|until)\b")


# one met for an occasion ("had coffee with Declan", "caught up with Priya"): a companion, no employer
_MET_WITH = re.compile(
    rf"\b(?i:coffee|lunch|dinner|drinks|tea|breakfast|brunch|met\s+up|caught\s+up|hung\s+out|chatted)\s++with\s++"
    rf"[{CAPITALS}][\w'-]*+"
)


def without_companions(text: str) -> str:
    """``text`` with each one met for an occasion blanked out, the text's length kept (positions hold)."""
    return _MET_WITH.sub(lambda m: "_" * len(m.group(0)), text)


def cap_after(text: str, preps: str, *, school: bool = False) -> str | None:
    """The first capitalised phrase right after one of ``preps`` (a regex alternation, matched in
    any case: "Home is Oslo"), skipping months, weekdays and possessives; with ``school`` only names
    that look like a school: one named as a school before any other ("an MSc in Data Science at X
    University" is at X University), else the first that a school's word follows."""
    unnamed = None
    for m in re.finditer(rf"\b(?i:{preps})\s+(?:(?i:the)\s+)?(?P<v>{_CAP})", text):  # ("at The Gilded Pear")
        raw = m["v"]
        if " and " in raw and text.startswith(" and others", m.end()):
            raw = raw.rsplit(" and ", 1)[0]  # "at X and Callum and others are": "we" rewritten after X
        value = clean_cap(raw, named=_NAME_ENDS.match(text, m.end()) is not None)
        if value is None:
            continue
        if not school or re.search(SCHOOL_WORDS, value):
            return value
        if unnamed is None and re.search(SCHOOL_WORDS, text[m.end() :], re.I):
            unnamed = value
    return unnamed


_MODEL = (
    r"(?:\s+(?!(?:is|was|and|from|for|on|in|at|now|last|today|the)\b)(?:[A-Z0-9][\w-]*(?:\.\d+)?|[a-z]?\d[\w-]*)){0,2}"
)
# a make and its model ("Kia Niro", "Tesla Model 3"), or a well-known model alone after a determiner
# ("the new Civic", "Mia's Outback")
_VEHICLE_RE = re.compile(
    rf"\b(?P<v>(?:{CAR_MAKES}){_MODEL})(?![\w-])"
    rf"|\b(?:an?|the|my|our|his|her|their|\w+'s)\s+(?:(?:new|old|used|little|trusty|second-hand|"
    rf"secondhand|electric|red|blue|black|white|silver|grey|gray|green)\s+)?(?P<m>(?:{CAR_MODELS}))(?![\w-]|\s+[{CAPITALS}])"
)
# a make right after "at / for / with / joined" names a company, not a car ("a job at Tesla")
_EMPLOYER_BEFORE = re.compile(r"\b(?:at|for|with|joined|joining|by)\s+$")
_DEVICES = (
    r"iPhone|iPad|MacBook(?:\s+(?:Air|Pro))?|iMac|Pixel|Galaxy|Samsung\s+Galaxy|OnePlus|Xiaomi|Huawei|Motorola|"
    r"Nokia|ThinkPad|Surface|Chromebook|Kindle|Apple\s+Watch|Fitbit|Garmin|Dell\s+XPS|Lenovo|Asus|Acer|Razer|"
    r"Steam\s+Deck|Nintendo\s+Switch|PlayStation|Xbox|Fairphone|Sony\s+Xperia"
)
_DEVICE_RE = re.compile(rf"\b(?P<v>(?:{_DEVICES})(?:\s+(?:\d+\w*|[{CAPITALS}][\w-]*)){{0,3}})(?![\w-])")


# a make right after another capitalised word is a word of a longer name ("a Calyx Mini phone")
_NAME_BEFORE = re.compile(
    rf"(?:(?<![.!?])\s|^)(?!(?:The|A|An|My|Our|His|Her|Their|This|That|New|Old)\s)[{CAPITALS}][\w-]*\s$"
)


def _last_kept(regex: re.Pattern[str], text: str) -> str | None:
    kept = [
        str(m["v"] or m.groupdict().get("m") or "")
        for m in regex.finditer(text)
        if not _SOLD.search(text[: m.start()])
        and not _EMPLOYER_BEFORE.search(text[: m.start()])
        # (a model after its determiner, "Charged the Ioniq", is no word of a longer name)
        and not (m["v"] and _NAME_BEFORE.search(text[max(0, m.start() - 24) : m.start()]))
    ]
    return kept[-1].strip() if kept else None


# a capitalised name of two or three words, from a word's start ("the Tamsin Coupe")
_NAMED_THING = re.compile(rf"(?<![\w'-])(?P<v>[{CAPITALS}][\w-]*+(?:\s+[{CAPITALS}][\w-]*+){{1,2}})(?![\w'-])")


# what one drives in the present, one's own ("drives a X", "driving Ana's X"): a past drive may be a one-off
_DRIVEN = re.compile(r"\b(?i:drives|drive|driving)\s+(?:an?|\w+'s)\s+(?:[a-z]+\s+){0,2}" + _NAMED_THING.pattern)


def vehicle_value(text: str, _m: re.Match[str]) -> str | None:
    """The make and model of the car the sentence says the subject has (not one sold), else a
    name whose last word is a kind of vehicle ("the Tamsin Coupe"), else the name one drives now."""
    known = _last_kept(_VEHICLE_RE, text)
    if known is not None:
        return known
    typed = (m["v"] for m in _NAMED_THING.finditer(text) if thing_kind(m["v"]) == "vehicle")
    driven = _DRIVEN.search(text)
    return next(typed, None) or (driven["v"] if driven is not None else None)


def device_value(text: str, _m: re.Match[str]) -> str | None:
    """The phone, laptop or similar device the sentence says the subject has (not one replaced)."""
    return _last_kept(_DEVICE_RE, text)


# the last word of a place's or a business's name: a make before it names the premises, not the
# thing ("Lotus Loft", "Jaguar Lounge", "Mercedes Bakery")
_PREMISES = re.compile(
    r"\s(?:Loft|Lounge|Bakery|Bistro|Caf[eé]|Bar|Club|Gym|Studios?|House|Hall|Cent(?:re|er)|Salon|Shop|Store|"
    r"Kitchen|Books|Market|Clinic|Grill|Diner|Pub|Inn|Hotel|Academy|School|Arena|Works|Yard|Rooms?|Labs?|"
    r"Collective|Society|Spa|Barbers?|Dojo|Garden|Gardens|Library|Theat(?:re|er)|Cinema)$"
)


def thing_kind(value: str) -> str | None:
    """``vehicle`` or ``device`` when ``value`` is, whole, a car's make and model or a device's name
    (a make before a word of premises names a place: "Lotus Loft")."""
    if _PREMISES.search(value):
        return None
    for kind, regex in (("vehicle", _VEHICLE_RE), ("device", _DEVICE_RE)):
        if regex.fullmatch(value):
            return kind
    words = value.split()
    head = named_attribute(words[-1]) if len(words) > 1 and words[-1][:1].isupper() else None
    return head if head in ("vehicle", "device") else None  # "Tamsin Coupe", "Norrland Phone"


_JOB_ENDINGS = (
    r"er|or|ist|ian|ant|(?<!m)ent|nurse|chef|cook|medic|pilot|clerk|lead|head|director|ceo|cto|intern|"
    r"associate|coach|tutor|barista|vet|judge|officer|agent|engineer|architect|analyst|attorney|midwife|surgeon|"
    r"mechanic|nanny|guard|courier|cashier|soldier|sommelier|paralegal"
)
_JOB_SUFFIX = re.compile(rf"(?:{_JOB_ENDINGS})$")
# what one becomes of a place without working there
_NOT_JOBS = (
    r"patient|customer|client|member|subscriber|resident|tenant|regular|user|student|parent|beginner|learner|"
    r"newcomer|player|runner|swimmer|climber|rider|supporter|visitor|passenger|volunteer|fan"
)
_NO_JOB = re.compile(rf"(?:{_NOT_JOBS})$")
# a job title by its form: a lower-case word ending as titles do ("nurse", "inspector",
# "accountant"), none that one is of a place without working there; up to two words before it
# ("a senior staff nurse")
JOB_WORD = rf"\b(?![a-z-]*(?:{_NOT_JOBS})\b)(?=[a-z])[a-z-]*(?:{_JOB_ENDINGS})\b"
JOB_TITLE = rf"(?:[a-z0-9-]+\s+){{0,2}}?{JOB_WORD}"  # ("a year 5 teacher")
# the words of rank a job title opens with when written with no article ("is head chef at X")
_TITLE_RANK = r"(?:head|chief|senior|junior|lead|assistant|deputy|sous|executive|principal|staff|trainee|acting)"
# a job title as written after a copula: an article, or a word of rank with none ("is head chef")
TITLED_JOB = rf"(?:an?\s+|the\s+|(?={_TITLE_RANK}\s)){JOB_TITLE}"
# a part of a workplace named between a job title and the workplace ("a nurse on the night ward at X",
# "an analyst in the risk department at X")
WORKPLACE_PART = r"(?:\s+(?:on|in)\s+the\s+[a-z]+(?:\s+[a-z]+)?\s+(?:ward|department|team|unit|desk|floor|shift))?"
# words of having a job, before an "as a ..." that names it
_AT_WORK = re.compile(
    r"\b(?i:work\w*|job|jobs|hired|employ\w*|career|role|position|volunteer\w*|promoted|started|starting|began|"
    r"trained|training|qualified|signed\s+on|took\s+(?:a|the)\s+(?:job|role|post))\b"
)


_KIN_ONLY = re.compile(rf"(?i:{KIN})")


def job_value(text: str, _m: re.Match[str]) -> str | None:
    """The job title the sentence gives the subject ("as a nurse", "promoted to senior editor")."""
    m = re.search(r"\b(?:as|promoted\s+to|job\s+title\s+is)\s+(?:an?\s+|the\s+)?" + _LOWER, text)
    if m and (_JOB_SUFFIX.search(m["v"]) or (_AT_WORK.search(text, 0, m.start()) and not _KIN_ONLY.fullmatch(m["v"]))):
        return m["v"]  # "as a kid", "as a team" name no job: a title by its form, or work named before a
        # word that is no relation ("worked as a kid": a kid is what one was, not one's work)
    m = re.search(
        r"\b(?:became|become|is\s+now|now\s+an?|qualified\s+as|trained\s+as)\s+"
        r"(?:an?\s+)?" + _LOWER,
        text,
    )
    if m and _JOB_SUFFIX.search(m["v"]) and not _NO_JOB.search(m["v"]):  # (a patient, a member: no job)
        return m["v"]
    return None


_DIETS = {
    "vegan": "vegan",
    "vegetarian": "vegetarian",
    "veggie": "vegetarian",
    "pescatarian": "pescatarian",
    "keto": "keto",
    "paleo": "paleo",
    "gluten-free": "gluten-free",
    "gluten free": "gluten-free",
    "dairy-free": "dairy-free",
    "dairy free": "dairy-free",
    "low-carb": "low-carb",
    "low carb": "low-carb",
    "plant-based": "plant-based",
    "plant based": "plant-based",
    "carnivore": "carnivore",
}
_DIET_RE = re.compile(
    r"\b(?:is|am|are|been|doing|went|gone|going|became|become|turned|switched\s+to|now|started|on\s+an?|follow\w*|"
    r"eat\w*|fully|strictly|officially)\s+(?:\w+\s+)?(?P<d>" + "|".join(map(re.escape, _DIETS)) + r")\b"
    r"(?!\s+(?:restaurant|place|cafe|café|bakery|recipes?|dish|burger|food|options?|menu|cookbook|friends?))",
    re.IGNORECASE,
)
_NO_MEAT = re.compile(r"\b(?:gave\s+up|quit|stopped\s+eating|cut\s+out|no\s+more)\s+(?:meat|animal\s+products)\b", re.I)


# a diet named by its own words before "diet" ("put Ana on a low-FODMAP diet"), no word of how strict or new
_NAMED_DIET = re.compile(
    r"\b(?i:on|started|starting|doing|following|follows)\s+(?:an?|the)\s+"
    r"(?!(?i:strict|new|healthy|healthier|proper|balanced|crash|special|different|better|good|bad|normal)\b)"
    r"(?P<d>[\w-]+)\s+(?i:diet)\b"
)


def diet_value(text: str, _m: re.Match[str]) -> str | None:
    """The diet the sentence says the subject follows (normalised: vegan, vegetarian, keto, ...;
    else as named: "a low-FODMAP diet")."""
    m = _DIET_RE.search(text)
    if m:
        return _DIETS[m["d"].lower()]
    named = _NAMED_DIET.search(text)
    if named is not None:
        return named["d"]
    return "vegetarian" if _NO_MEAT.search(text) else None


_PARTICIPLE = {"broke": "broken", "tore": "torn", "hurt": "hurt"}
# long-standing conditions a person has, by their common names (lower case; "'s" of a disease
# named after a person kept)
CHRONIC = (
    r"eczema|psoriasis|dementia|alzheimer's|parkinson's|epilepsy|ibs|crohn's|colitis|endometriosis|pcos|"
    r"fibromyalgia|tinnitus|adhd|autism|dyslexia|multiple\s+sclerosis|copd|gout|sciatica|lupus|glaucoma|cataracts|"
    r"osteoporosis|anaemia|anemia|hay\s+fever|sleep\s+apn(?:o)?ea|vertigo|high\s+cholesterol|hypothyroidism|"
    r"ptsd|ocd|bipolar\s+disorder|chronic\s+fatigue|a\s+heart\s+condition|kidney\s+disease|rheumatoid\s+arthritis"
)
_CONDITIONS = (
    r"asthma|diabetes|type\s+[12]\s+diabetes|migraines|arthritis|anxiety|depression|a\s+concussion|the\s+flu|"
    r"covid|long\s+covid|pneumonia|cancer|celiac\s+disease|coeliac\s+disease|insomnia|hypertension|"
    r"high\s+blood\s+pressure|an?\s+\w+\s+allergy|tendinitis|shingles|bronchitis|" + CHRONIC
)
_HEALTH_RES = (
    re.compile(r"\bdiagnosed\s+with\s+(?:an?\s+)?" + _LOWER),
    re.compile(r"\b(?:recovering|recovered|suffer\w*)\s+from\s+(?:an?\s+|the\s+)?" + _LOWER),
    re.compile(r"\btested\s+positive\s+for\s+" + _LOWER),
    re.compile(r"\b(?:has|have|got|developed|caught)\s+(?P<v>" + _CONDITIONS + r")(?![\w'])", re.IGNORECASE),
    re.compile(r"\bhad\s+(?P<v>" + CHRONIC + r")(?![\w'])", re.IGNORECASE),  # ("has had eczema since ...")
    re.compile(r"\b(?:is|am|now)\s+(?P<v>pregnant|diabetic|lactose\s+intolerant|epileptic|asthmatic)\b"),
)
_INJURY = re.compile(
    r"\b(?P<verb>broke|fractured|sprained|tore|injured|hurt|dislocated)\s+(?:\w+'s|my|his|her|a|the)\s+"
    r"(?P<part>(?:left\s+|right\s+)?[a-z]+)"
)


def health_value(text: str, _m: re.Match[str]) -> str | None:
    """The condition or injury the sentence says the subject has."""
    for regex in _HEALTH_RES:
        m = regex.search(text)
        if m:
            return re.sub(r"^(?:an?|the)\s+", "", m["v"].lower())
    m = _INJURY.search(text)
    if m:
        return f"{_PARTICIPLE.get(m['verb'], m['verb'])} {m['part']}"
    return None


_HOBBY_RES = (
    re.compile(r"\b(?i:took|taken|taking)\s+up\s+(?:an?\s+)?" + _PRACTICE),
    # learning or practising one ("is learning Welsh", "practises Kundalini yoga", "teaching himself the harmonium")
    re.compile(
        r"\b(?i:learning|practi[sc]ing|practi[sc]es?|teaching\s+(?:themself|herself|himself|themselves))\s+" + _PRACTICE
    ),
    # a switch between practices ("switched from squash to table tennis", "swapped karate for judo")
    re.compile(
        r"\b(?i:switched\s+from|swapped|gave\s+up|traded)\s+(?:the\s+)?[a-z][\w'-]*(?:\s+[a-z][\w'-]*)?\s+(?:to|for)\s+"
        + _PRACTICE
    ),
    # doing one by habit ("has been doing tai chi in the park since spring"), taking one up again
    re.compile(r"\b(?i:doing|does|do)\s+(?!the\b)" + _PRACTICE + _HABITUAL),
    re.compile(r"\b(?i:picked\s+up|got\s+back\s+into)\s+" + _PRACTICE + r"\s+again\b"),
    # "Cold showers are Ana's thing now", "Pottery is what Ana does on Thursdays"
    re.compile(r"^" + _PRACTICE + r"\s+(?:is|are)\s+(?:\w+'s\s+thing|what\s+\w+\s+(?:does|do)\b)"),
    re.compile(r"\b(?i:got|getting|gotten|is|am|really)\s+(?:really\s+|so\s+|big\s+)?into\s+" + _LOWER),
    re.compile(r"\b(?i:hooked\s+on|obsessed\s+with)\s+" + _LOWER),
    re.compile(r"\b(?i:started|began|begun)\s+(?:doing|playing|learning|practi[cs]ing)\s+(?:the\s+|an?\s+)?" + _LOWER),
    re.compile(
        r"\b(?:started|began|joined|signed\s+up\s+for|taking)\s+(?:an?\s+|the\s+|some\s+)?(?:local\s+|weekly\s+)?"
        r"(?P<v>[a-z]+(?:\s+[a-z]+)?)\s+(?:class|classes|lessons|course|club|league|team|group)\b"
    ),
    re.compile(r"\b(?:hobby|pastime|passion)\s+(?:these\s+days\s+|now\s+)?is\s+" + _LOWER),
)


def hobby_value(text: str, _m: re.Match[str]) -> str | None:
    """The hobby or sport the sentence says the subject has taken up."""
    for regex in _HOBBY_RES:
        m = regex.search(text)
        if m and m["v"] not in {"it", "this", "that", "them", "work", "bed", "trouble"}:
            return m["v"]
    return None


# one's partner named after a verb of courting or a partner word ("dating Teo", "Mia's husband Teo's
# car": Teo), or before "and <someone> are" or "is <someone>'s partner"
_PARTNER_AFTER = re.compile(
    rf"\b(?:dating|seeing|out\s+with|married|engaged\s+to|moved\s+in\s+with|fell\s+for|(?:{PARTNER_NOUNS})"
    rf"(?:,|\s+is|\s+named|\s+called)?)\s+(?P<v>[{CAPITALS}][\w'-]*(?:\s+[{CAPITALS}][\w'-]*)?)"
)
_PARTNER_BEFORE = re.compile(
    rf"{WORD_START}(?P<v>[{CAPITALS}][\w'-]*+)\s+(?:and\s+\w+\s+are|is\s+\w+'s\s+(?:new\s+)?(?:{PARTNER_NOUNS}))"
)


def partner_value(text: str, _m: re.Match[str]) -> str | None:
    """The partner a sentence with a partner's cue names, or None."""
    m = _PARTNER_AFTER.search(text)
    if m:
        return m["v"].removesuffix("'s")
    m = _PARTNER_BEFORE.search(text)
    return m["v"] if m else None


# a street address after a name ("on Quay Lane", "on Bell Street"): where the value is, not its name
_ADDRESS = re.compile(
    rf"(?<!\s)\s+(?:on|off|in)\s+(?:[{CAPITALS}][\w'-]*\s+){{1,3}}(?:Street|St\.?|Lane|Road|Rd\.?|Avenue|Ave\.?|Way|Drive|Square|"
    r"Row|Close|Crescent|Terrace|Parade|Place|Boulevard|Hill)$"
)


def _is_time_word(word: str) -> bool:
    """A word that opens a time, not a name: a weekday or a month, also in the plural ("on
    Tuesdays"), or a number ("on 6 May")."""
    word = word.rstrip(".,;:!?")
    return clean_cap(word) is None or re.match(TIME_NAME, word.removesuffix("s")) is None


# a period that ends a sentence inside a run of capitalised words ("Dr. Okoye. Very calm": Dr. Okoye),
# not one of a title or an initial
_SENTENCE_END = re.compile(
    rf"(?<![{CAPITALS}])(?<!\bDr)(?<!\bDra)(?<!\bSt)(?<!\bMr)(?<!\bMs)(?<!\bJr)(?<!\bMt)(?<!\bMrs)(?<!\bProf)(?<!\bSra)(?<!\bMme)\.\s+(?=[{CAPITALS}])"
)


def change_value(raw: str) -> str | None:
    """The value of a sentence of change (``memforest.text.changes``), read whole, up to a date in it
    ("X on Saturday 6 May" is X); None for a pronoun or a determiner."""
    words = _SENTENCE_END.split(raw, maxsplit=1)[0].split()
    dated = (i for i, w in enumerate(words) if i and words[i - 1] in ("on", "in") and _is_time_word(w))
    cut = next(dated, len(words))
    value = " ".join(words[:cut]).strip().rstrip(".'")
    value = _ADDRESS.sub("", value)  # "Razor & Rye on Quay Lane" is at an address, named Razor & Rye
    value = re.sub(r"\s+(?:and|of|on|&|de|du|la|le|the|up|in|for|at|by)$", "", value)
    words = value.split()
    saints = words[0] in ("St", "St.", "Saint") if words else False  # "St Odran's" is a church, no possessor
    if (
        not words
        or words[0].lower() in {"i", "a", "an", "my", "it", "this", "that"}
        or (words[-1].endswith("'s") and not saints)
    ):
        return None  # "gets Mia's coffee at X": a possessor is no value
    if (len(words) == 1 and words[0].lower() == "the") or all(w.lower() in TIME_WORDS or w.isdigit() for w in words):
        return None  # "joined the Thursday choir", "sing in June 2023": a day or a date names nothing held
    return value
