"""State slots from cue words: (subject, attribute, value) for sentences that state a person's
residence, employer, job, school, partner, pet, vehicle, home type, diet, health, hobby or device
without the fixed "X lives in Y" shape of ``memforest.text.slots``.

Each attribute has cue patterns (what marks the sentence as a statement of it, e.g. a lease, the
keys to a place, signing a contract, a rescue tabby) and a way to read the value (a capitalised
place or organisation after a preposition, a pet's name after "called", a car's make and model).
The subject is the person the sentence is about: the participant named in it, else the speaker
("Signed Alice's contract with X"). A relative is a subject of their own ("Alice's sister moved to
Y": "Alice's sister"); negated or hedged sentences give no slot.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence

from memforest.text.dwelling import dwelling_held, dwelling_of_a_kind, home_type_value
from memforest.text.lexicon import CAPITALS, ENTITY_EXCLUDE, WORD_START, words
from memforest.text.literal_gate import Gates, gates, literals, probe
from memforest.text.pet_names import pet_value
from memforest.text.state_values import (
    CHRONIC,
    SCHOOL_WORDS,
    TITLED_JOB,
    WORKPLACE_PART,
    cap_after,
    clean_cap,
    device_value,
    diet_value,
    health_value,
    hobby_value,
    job_value,
    partner_value,
    vehicle_value,
    without_companions,
)
from memforest.text.state_words import (
    ANIMALS,
    COMPANION_BEFORE,
    DWELLINGS,
    GROUP_HEADS,
    JOB_CUES,
    KIN_ADJ,
    MEMBER_HEADS,
    PARTNER_NOUNS,
    PROVIDER_HEADS,
)
from memforest.text.subject_pairs import first_of_two

__all__ = ["cue_gates", "find_state"]

_NEGATED = re.compile(
    r"\b(?:not|never|no\s+longer|didn't|don't|doesn't|won't|wasn't|isn't|aren't|haven't|hasn't|can't|couldn't|"
    r"wouldn't|shouldn't|want|wants|wanted|wish|hope|hoping|might|maybe|perhaps|considering|thinking\s+about|"
    r"thinking\s+of|dream|dreaming|if|would|could|should|going\s+to|gonna|planning|plan\s+to|someday|one\s+day)\b",
    re.IGNORECASE,
)
# set phrases with a negation word that negate nothing ("can't believe", "couldn't be happier")
_NOT_NEGATION = re.compile(
    r"\b(?:can't|cannot|couldn't)\s+(?:believe|wait|stop|complain|recommend|get\s+over|be\s+happier|imagine)|"
    r"\b(?:never|not)\s+(?:been\s+happier|looked\s+back|looking\s+back|bad|too\s+bad|a\s+bad)|"
    r"\bwants?\s+\w+\s+to\s+(?:start|join)|\bwouldn't\s+(?:trade|change|have\s+it)|\bif\s+(?:i'm|i\s+am|we're)\s+honest|\bnot\s+gonna\s+lie",
    re.IGNORECASE,
)
_ABOUT_ADDRESSEE = re.compile(r"^(?:congrat\w*|good\s+luck|best\s+of\s+luck|enjoy|hope|wish)\b", re.I)
_KIN = (  # (the in-laws first: an alternation takes its first branch that matches; one relative or many)
    r"(?:mother|father|sister|brother|son|daughter)-in-law|"
    r"(?:sister|brother|cousin|son|daughter|aunt|uncle|niece|nephew|sibling|grandkid)s?|mom|mum|mother|dad|father|"
    r"parents?|folks|friend|friends|kids?|children|grandchildren|grandma|grandmother|grandpa|grandfather|boss|manager|"
    r"colleague|coworker|co-worker|neighbou?r|roommate|flatmate|in-laws?|family|grandparents?|grand?dad|gran|granny|nana?|twins?|mate|"
    r"step(?:son|daughter|mother|father|sister|brother|dad|mum|mom|kids?|children)|god(?:son|daughter|child|children)"
)
# a person named by their relation ("Ana's boss Mia"): who the person is, not that anyone works anywhere
_RELATION_WORD = re.compile(rf"'s\s+(?i:new\s+|old\s+)?(?i:{_KIN})\b(?=\s+[{CAPITALS}]|,)")
_PRONOUN_START = re.compile(
    r"^(?:he|she|they|his|her|their|it|its|someone|everyone|"
    r"(?:and|but|so|then|also|now|oh|well|anyway|plus),?\s+(?:he|she|they|his|her|their))\b",
    re.IGNORECASE,
)

# attribute -> cue pattern (case-insensitive, searched in the rewritten sentence) and value reader
_Reader = Callable[[str, re.Match[str]], str | None]


def _cue(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


# a person taken on by an employer ("took Ana on", "brought her on"); a place is no one taken on
# ("brought home on Saturday" brings someone home)
_TAKEN_ON = rf"(?:(?-i:[{CAPITALS}][\w-]*)|(?i:him|her|them|us|me))\s+on"

_RESIDENCE_CUE = _cue(
    r"\b(?:mov(?:e|ed|es|ing)|movers|relocat\w*|settl\w*|lease|leased|rent\w*|keys?\s+to|unpack\w*|live|lives|"
    r"lived|living|based|resid\w*|new\s+(?:" + DWELLINGS + r"|address|neighbou?rhood|city|town)|"
    r"(?:" + DWELLINGS + r")\s+(?:in|over\s+in|out\s+in|down\s+in|up\s+in)|"
    r"(?:bought|buying|closed\s+on|closing\s+on)\s+(?:a|an|the|\w+'s)\s+(?:\w+\s+)?(?:" + DWELLINGS + r")|"
    r"call\w*\s+(?:\w+\s+){1,3}?home|home\s+now|now\s+home|home\s+is|is\s+(?:\w+\s+)?home|landed\s+in|neighbou?rs|"
    r"place\s+is\s+in|"
    r"address|landlord|landlady|housemates?|roommates?|flatmates?|packed\s+up|boxes|arrived\s+in|"
    rf"headed\s+(?:to|for)|been\s+in|end(?:ed|s|ing)?\s+up\s+(?:in|living\s+in|settling\s+in)|left\s+[{CAPITALS}][\w-]*(?:\s+[{CAPITALS}][\w-]*)*\s+(?:behind|for\s+good)|"
    rf"(?:is|are|am)\s+(?:now\s+)?in\s+[{CAPITALS}][\w-]*(?:\s+[{CAPITALS}][\w-]*)*\s+(?:now|these\s+days|for\s+good))\b"
)
_RESIDENCE_VETO = _cue(
    r"\b(?:trip|visit\w*|vacation|holiday|conference|festival|concert|tour|weekend\s+in|flight|flew|fly|back\s+from|"
    r"stay\w*\s+at\s+a\s+hotel|hotel)\b"
)
_EMPLOYER_CUE = _cue(
    r"\b(?:work(?!\s+(?:dinner|lunch|party|parties|do|drinks|trip|event|night|outing|social|function|retreat|conference|friends?)\b)|"
    r"works|worked|working|job|contract|offer|hired|hire|joined|joining|join|employ\w*|onboarding|teach(?:es|ing)?\s+at|"
    r"first\s+(?:day|week|month)|new\s+team|position|role|internship|start(?:ed|ing|s)?\s+at|recruited|"
    r"(?<!stopped\s)(?<!quit\s)(?<!was\s)(?<!were\s)(?<!up\s)(?:driv|deliver|courier|freelanc)(?:ing|es|s)\s+for|"
    r"start(?:ed|ing|s)?\s+(?:out\s+)?as\s+(?:an?\s+)?[\w-]+(?:\s+[\w-]+){0,3}?\s+(?:at|with|for)|"
    # (fails fast at most words, and starts at no letter inside a hyphenated run)
    rf"{WORD_START}(?=[\w-]+(?:\s+(?:is|are|am)|['\u2019](?:s|re|m))\s+(?:now\s+)?{TITLED_JOB})"
    rf"(?:(?-i:[{CAPITALS}][\w-]*)|he|she|they|(?:{_KIN})s?)(?:\s+(?:is|are|am)|['\u2019](?:s|re|m))\s+(?:now\s+)?{TITLED_JOB}{WORKPLACE_PART}\s+(?:now\s+)?at\s+(?:the\s+)?(?=(?-i:[{CAPITALS}]))|"
    rf"(?:my|\w+'s)\s+(?:new\s+)?(?:office|company|employer|boss)|(?:is|are|am)\s+(?:now\s+)?(?:with|at)\s+[{CAPITALS}][\w&-]*(?:\s+[{CAPITALS}][\w&-]*)*\s+(?:now|these\s+days|nowadays)|took\s+"
    + _TAKEN_ON
    + r"|brought\s+"
    + _TAKEN_ON
    + r"|signed\s+(?:with|on\s+with)|wants\s+\w+\s+to\s+start|"
    + JOB_CUES
    + r")\b"
)
_EMPLOYER_VETO = _cue(
    r"\b(?:from\s+home|homework|work(?:ing\s+)?out|work(?:ed|ing)?\s+on|(?:before|after)\s+work|recruiters?|headhunters?)\b"
)
_SCHOOL_CUE = _cue(
    r"\b(?:school|university|college|uni|polytechnic|diploma|campus|primary|elementary|kindergarten|nursery|preschool|grammar|semester|enroll?\w*|studying|study|studies|student|degree|"
    r"phd|masters?|mba|grad(?:uate)?\s+school|accepted\s+(?:into|to|at)|got\s+into|transferred|attend\w*|classes\s+at|"
    r"lectures?|pupils?|fresher|(?:under|post)grad\w*|sophomore|freshman|(?:first|second|third|final)\s+year|year\s+\d+)\b"
)
_PARTNER_CUE = _cue(
    r"\b(?:dating|seeing|going\s+out\s+with|together|married|engaged|moved\s+in\s+with|in\s+a\s+relationship|"
    r"fell\s+for|" + PARTNER_NOUNS + r")\b"
)
_PET_CUE = _cue(
    r"\b(?:" + ANIMALS + r"|rescued|adopt\w*|shelter|breeder|litter|vet|leash|lead|collar|walkies|pet|pets|"
    r"fur\s+baby|furry|paws?|purr\w*|bark\w*|meow\w*|fetch|belly\s+rubs|cage|hutch|tank|aquarium|chew\w*|sniff\w*|"
    r"growl\w*|hiss\w*|wagg?\w*|pounc\w*|walked|walking|groom\w*|kennels?|hay|kibble|litter|slippers|socks|toys?)\b"
)
_VEHICLE_CUE = _cue(
    r"\b(?:car|cars|drive|drives|driving|drove|driven|bought|buy|buying|sold|sell|selling|traded|trade|"
    r"dealer\w*|test[\s-]drive|lease|leased|leasing|new|got|picked\s+up|ride|parked|parking|park|garage|mileage|"
    r"electric|ev|suv|hatchback|sedan|saloon|coupe|convertible|roadster|wagon|pickup|truck|van|motorbike|motorcycle|"
    r"scooter|rode|rides|riding|serviced|owns?|switched|upgraded|"
    r"wheels|swap\w*|exchang\w*|replac\w*|charg\w*|deliver\w*|insur\w*|commute|zipp\w*|road\s+trip|fill\w*\s+up|"
    r"my|our|mine|family|goodbye)\b"
)
# a car that is not the subject's own (hired, borrowed, seen)
_VEHICLE_VETO = _cue(r"\b(?:rent(?:ed|al|ing)?|hire\s+car|taxi|cab|uber|lyft|borrow\w*|saw|spotted|test[\s-]drov\w*)\b")
_HOME_TYPE_CUE = _cue(
    r"\b(?:flat|apartment|house|condo|studio|bungalow|townhouse|townhome|loft|cottage|cabin|duplex|"
    r"houseboat|dorm|mobile\s+home|tiny\s+house|maisonette|penthouse|farmhouse|villa)\b(?!-)"  # ("a flat-top grill")
    # a dwelling word before another noun modifies it ("flat white", "house party"): no dwelling
    r"(?!\s+(?!(?:in|on|at|with|near|by|for|from|to|and|but|or|that|which|who|is|was|has|had|now|last|this|"
    r"since|of|off|over|so|because|where|when|after|before|just|here|there|again|too|together|nearby)\b)[a-z])"
    # "a flat on Ana's bike" is a puncture (also "on my sister Ana's bike", its kin word blanked: "Mia______")
    r"(?!\s+on\s+(?:\w+'s|my|his|her|their|\w*_+)\s)"
)
_DIET_CUE = _cue(
    r"\b(?:vegan|vegetarian|pescatarian|keto|paleo|gluten[\s-]free|dairy[\s-]free|lactose|low[\s-]carb|"
    r"plant[\s-]based|diet|meat|carnivore|whole30|halal|kosher|sugar)\b"
)
_HEALTH_CUE = _cue(
    r"\b(?:diagnos\w*|broke|broken|fractured|sprained|tore|torn|injur\w*|recover\w*|surgery|operation|suffer\w*|"
    r"tested\s+positive|intolerant|asthma|diabetes|diabetic|migraines?|arthritis|anxiety|depression|concussion|flu|covid|pneumonia|"
    rf"cancer|allerg\w*|celiac|coeliac|insomnia|hypertension|cast|crutches|physio\w*|chemo\w*|pregnant|{CHRONIC})(?![\w'])"
)
_HOBBY_CUE = _cue(
    r"\b(?:took\s+up|taken\s+up|taking\s+up|got\s+into|getting\s+into|into|hooked\s+on|obsessed\s+with|"
    r"hobby|pastime|passion|started|began|joined|signed\s+up|lessons?|classes|class|club|league|team|learning|"
    r"practi[sc]\w*|teaching\s+\w+self|doing|does|switched\s+from|swapped|gave\s+up|traded|picked\s+up|"
    r"got\s+back\s+into|thing|what\s+\w+\s+does)\b"
)
_JOB_CUE = _cue(r"\b(?:as\s+an?|promoted|became|become|role|position|job|work\w*|qualified|trained|now\s+an?)\b")
_DEVICE_CUE = _cue(r"\b(?:phone|laptop|tablet|computer|device|watch|bought|got|new|switched|upgraded|using|use|uses)\b")


_CAP = rf"[{CAPITALS}][\w-]*(?:\s+[{CAPITALS}][\w-]*){{0,2}}(?!['\w])"
_PLACE_BEFORE = re.compile(
    rf"{WORD_START}(?P<v>{_CAP})\s+(?:(?:resident|local|address|postcode|zip\s+code)\b|"
    rf"(?:is|has\s+become|became|feels\s+like)\s+(?:\w+'s\s+|our\s+|my\s+)?(?:new\s+)?home\b)"
)


def _first_named(regexes: Sequence[re.Pattern[str]], text: str) -> str | None:
    """The first capitalised name (group ``v``) a regex of ``regexes`` finds, months and the like aside."""
    for regex in regexes:
        for m in regex.finditer(text):
            value = clean_cap(m["v"])
            if value:
                return value
    return None


# "to" after a greeting or farewell names no destination ("said goodbye to Hazel")
_GREETED = re.compile(r"\b(?:goodbye|good-bye|bye|farewell|hello|hi|welcome|thanks|cheers)\s+to\s+", re.IGNORECASE)


# a place introduced by what it is called ("moved to a village called X")
_PLACE_CALLED = (
    r"(?:to|into|in)\s+(?:a|an|the)\s+(?:[a-z]+\s+)?(?:village|town|city|suburb|neighbou?rhood|island|area|hamlet)\s+"
    r"(?:called|named|of)"
)
# "has called Wenmouth home"
_CALLED_HOME = re.compile(rf"\b(?:calls|(?:has|have)\s+called)\s+(?P<v>{_CAP})\s+home\b")


def _residence(text: str, _m: re.Match[str]) -> str | None:
    if _RESIDENCE_VETO.search(text):
        return None
    text = _GREETED.sub(lambda m: "_" * len(m.group(0)), text)
    to = cap_after(text, r"(?:to|into|for)") or cap_after(text, _PLACE_CALLED)
    value = to or cap_after(text, r"(?:in|home\s+is(?:\s+now)?|base\s+is|resident\s+of|citizen\s+of)")
    value = value or _first_named((_CALLED_HOME,), text)
    return value or _first_named((_PLACE_BEFORE,), text)


_ORG = rf"{WORD_START}(?P<v>[{CAPITALS}][\w&-]*(?:\s+[{CAPITALS}][\w&-]*){{0,3}}(?!['\w]))"
# one capitalised word opening a sentence before a lower-case word is an ordinary word ("Nice job!")
_OPENING_WORD = re.compile(rf"(?:^|(?<=[.!?]\s))[{CAPITALS}][a-z]*(?=\s+[a-z])")
_ORG_BEFORE = (
    re.compile(
        _ORG
        + r"\s+(?:hired|offered|recruited|(?:took|brought|signed)\s+"
        + _TAKEN_ON
        + r"|made\s+\w+\s+an?\s+(?:\w+\s+)?offer|"
        r"wants\s+\w+\s+to\s+start|(?:has|have)\s+hired|picked\s+\w+)\b"
    ),
    re.compile(
        _ORG + r"\s+(?:onboarding|orientation|induction|employee|staffer|badge|payroll|paycheck|paycheque|payslip|"
        r"contract|offer|team|office|colleagues|coworkers|internship|job)\b"
    ),
)


_ORG_CALLED = re.compile(
    r"\b(?:at|with|for|joined|joining|join)\s+(?:an?|the|this)\s+(?:[\w-]+\s+){0,3}?"
    r"(?:startup|start-up|company|firm|agency|studio|business|bank|lab|practice|clinic|shop|restaurant|"
    rf"nonprofit|charity|hospital)\s+(?:called|named)\s+([{CAPITALS}][\w&-]*(?:\s+(?:&\s+)?[{CAPITALS}][\w&-]*)*)"
)


_STARTS = r"(?:start|starts|started|starting|begin|begins|began|beginning)\s+"
_STARTS_AT = _STARTS + r"(?:work\s+|my\s+new\s+job\s+)?(?:at|with)"
_STARTS_WORK_AT = _STARTS + r"(?:work|my\s+new\s+job)\s+(?:at|with)"
# the sentence ends the old job, so a plain "start at" names the new one
_JOB_ENDS = re.compile(
    r"\b(?:notice|resign(?:ed|ing)?|quit(?:ting)?|left|leaving|finish(?:ed|ing)?|last\s+day|laid\s+off|fired)\b", re.I
)


def _employer(text: str, _m: re.Match[str]) -> str | None:
    if _EMPLOYER_VETO.search(text):
        return None
    if (called := _ORG_CALLED.search(text)) is not None:  # "at a health-tech startup called Brightwell"
        return called.group(1)
    # the place one starts work at is the employer now ("handed in my notice at A; I start at B"); a
    # plain "start at" without the old job's end may be no job ("I start at Planet Fitness"); no one met
    value = cap_after(
        unmet := without_companions(text), _STARTS_AT if _JOB_ENDS.search(text) else _STARTS_WORK_AT
    ) or cap_after(unmet, r"(?:at|with|for|from|joined|joining|join|by|employer\s+is|company\s+is|yes\s+to)")
    # a word opening the sentence may be an employer that acts ("Northwind took Ana on"), not one
    # named before a noun of work ("Nice job!")
    opening = _OPENING_WORD.sub(lambda m: "_" * len(m.group(0)), text)
    return value or _first_named(_ORG_BEFORE[:1], text) or _first_named(_ORG_BEFORE[1:], opening)


def _school(text: str, _m: re.Match[str]) -> str | None:
    if re.search(r"\bteach(?:es|ing)?\s+at\b", text, re.IGNORECASE):
        return None  # (one who teaches at a school works there: the employer's reading)
    value = cap_after(text, r"(?:at|to|into|from|through|attend\w*|enrolled\s+in|in)", school=True)
    left = value is not None and re.search(rf"\b(?:graduat\w*|dropped\s+out)\s+(?:from|of)\s+{re.escape(value)}", text)
    met = value is not None and re.search(rf"\b(?:bump(?:ed|ing)?|ran|run(?:ning)?)\s+into\s+{re.escape(value)}", text)
    return None if left or met else value  # ("graduated from X": a school left; "ran into X": a person met)


_PET_VETO = _cue(r"\b(?:dog|cat|pet)\s+(?:walker|sitter|groomer|trainer|food|park|show|cafe|café)s?\b")


def _pet(text: str, m: re.Match[str]) -> str | None:
    return None if _PET_VETO.search(text) else pet_value(text, m)


def _vehicle(text: str, m: re.Match[str]) -> str | None:
    return None if _VEHICLE_VETO.search(text) else vehicle_value(text, m)


_READERS: tuple[tuple[str, re.Pattern[str], _Reader], ...] = (
    ("vehicle", _VEHICLE_CUE, _vehicle),
    ("device", _DEVICE_CUE, device_value),
    ("school", _SCHOOL_CUE, _school),
    ("employer", _EMPLOYER_CUE, _employer),
    ("job", _JOB_CUE, job_value),
    ("residence", _RESIDENCE_CUE, _residence),
    ("pet", _PET_CUE, _pet),
    ("partner", _PARTNER_CUE, partner_value),
    ("home_type", _HOME_TYPE_CUE, home_type_value),
    ("diet", _DIET_CUE, diet_value),
    ("health", _HEALTH_CUE, health_value),
    ("hobby", _HOBBY_CUE, hobby_value),
)


@functools.lru_cache(maxsize=8)
def _kin_after(kinship: str) -> re.Pattern[str]:
    """A relation right after a name ("'s older sister Ana"), its name when one follows, and that
    one's relation when the name owns one ("'s wife Ana's brother"); or the relation's own relation
    ("'s neighbour's daughter": ``of_kin``)."""
    return re.compile(
        rf"'s\s+(?:old\s+)?{KIN_ADJ}(?P<kin>{kinship})\b(?!'(?!s))"
        rf"(?:'s\s+{KIN_ADJ}(?P<of_kin>{kinship})\b(?!')"
        rf"|\s+(?P<n>[{CAPITALS}][\w-]*)(?:'s\s+{KIN_ADJ}(?P<kin2>{kinship})\b(?!'))?)?"
    )


def _subject(text: str, speaker: str, participants: Sequence[str], stated: int = 0, kinship: str = _KIN) -> str | None:
    """Whose state the sentence states: a relative named before ``stated`` (where the later of the
    cue and the value begins) is its own subject ("Mia's sister Ana moved to Y": Ana; "Mia's
    sister moved to Y": "Mia's sister"); one named only after it is none: "Bought a Kia Niro from
    Mia's neighbour" is Mia's car. None when the sentence starts with a pronoun."""
    best: tuple[int, str] | None = None  # the last name before ``stated``, else the first one
    for name in {speaker, *participants}:
        for m in re.finditer(rf"(?<![\w']){re.escape(name)}(?![\w-])", text):
            if COMPANION_BEFORE.search(text, max(0, m.start() - 12), m.start()):
                continue  # "Eero moved back in with Mia's parents": whom one moves in with holds nothing
            before = m.start() <= stated
            if (
                best is None
                or (before and (best[0] > stated or m.start() > best[0]))
                or (not before and best[0] > stated and m.start() < best[0])
            ):
                best = (m.start(), name)
    if best is None:
        return None if _PRONOUN_START.match(text) else speaker
    start, name = best
    if start <= stated and (first := first_of_two(text, start)):
        return first  # "Ana and Ana's husband moved to Y": a subject of two, the first's
    kin = _kin_after(kinship).match(text, start + len(name))
    if kin and start <= stated and kin["kin2"]:
        return f"{kin['n']}'s {kin['kin2'].lower()}"  # "Mia's wife Ana's brother moved to Y": the brother
    if kin and start <= stated and kin["of_kin"]:
        return f"{name}'s {kin['kin'].lower()}'s {kin['of_kin'].lower()}"  # "Mia's boss's wife joined Y"
    if kin and start <= stated:
        return kin["n"] or f"{name}'s {kin['kin'].lower()}"
    return name


# the last of something at a value: its end ("her last day at X", "my final shift with X")
_LAST_DAY = re.compile(
    r"\b(?:(?i:last|final)\s+(?:day|days|shift|week|month|term|class|lesson|session|game|match|practice|training)"
    r"|(?i:final)\s+(?:paycheck|paycheque|payslip|pay\s+packet))\s+"  # ("my last payslip": the latest)
    r"(?:at|with|for|of|in|from)\s+(?:the\s+)?$"
)


def _named_before(attribute: str, text: str, m: re.Match[str]) -> bool:
    """The cue is no cue of ``attribute`` for the name right before it: a vehicle's cue word that
    ends a place's name ("Victoria Drive": ``_NAME_PART_CUES``), or an employer's "contract" held
    with a provider ("my Vell contract": a phone's, a gym's)."""
    word = m.group(0).casefold()
    if attribute == "vehicle":
        part = word in _NAME_PART_CUES and m.group(0)[:1].isupper()
        return part and not _sentence_start(text, m.start()) and _capitalised_before(text, m.start())
    return attribute == "employer" and word == "contract" and _capitalised_before(text, m.start())


def _capitalised_before(text: str, at: int) -> bool:
    """A capitalised word ends right before ``at`` (read in a short window: linear in the text)."""
    return _CAPITALISED_BEFORE.search(text, max(0, at - 40), at) is not None


def _sentence_start(text: str, at: int) -> bool:
    """The word before ``at`` opens the text or a sentence of it."""
    return _OPENING_WORD.search(text, max(0, at - 40), at) is not None


# the vehicle cues that also end a place's or a firm's name (a "Roadster" or a "Van" in a name is one)
_NAME_PART_CUES = words("drive park parking garage ride rides wheels electric new family exchange commute")
_CAPITALISED_BEFORE = re.compile(rf"(?<![\w'-])[{CAPITALS}][\w'-]*+\s+$")
_OPENING_WORD = re.compile(rf"(?:^|[.!?:;]\s+)[{CAPITALS}][\w'-]*+\s+$")


def _negated(text: str, upto: int) -> bool:
    """A negation or hedge before ``upto`` (the end of the cue and the value), set phrases such as
    "can't believe" aside: "Toronto is home now, can't wait to explore" still states a home."""
    cleared = _NOT_NEGATION.sub(lambda m: " " * len(m.group(0)), text)
    m = _NEGATED.search(cleared)
    return m is not None and m.start() < upto


def _read(reader: _Reader, text: str, m: re.Match[str], names: set[str]) -> str:
    """The reader's value, with trailing participant names dropped; a value that is a participant
    ("Mia will text it to Ravi") is masked out and the sentence read again, a few times at most."""
    for _ in range(3):
        raw = reader(text, m) or ""
        words, dropped = raw.split(), False
        while words and (words[-1].casefold().removesuffix("'s") in names or (dropped and words[-1] in ("and", "&"))):
            dropped = words.pop() not in ("and", "&") or dropped  # ("at X and Mia needs ...": no "and" left on X)
        value = " ".join(words)
        if not raw or (value and value.casefold().removesuffix("'s") not in names):
            return value
        text = re.sub(rf"(?<![\w']){re.escape(raw)}(?![\w-])", lambda x: "_" * len(x.group(0)), text)
    return ""


# words of paid work, as whole words ("works", "teaching"; not "homework", "workout", "teacher"):
# a school named in a sentence with one of them is a workplace
_WORK = re.compile(
    rf"\b(?:work(?:s|ed|ing)?|jobs?|hired|employ(?:s|ed|er|ers|ee|ees|ment)?|teach(?:es|ing)?|taught|"
    rf"lectur(?:e|es|ed|ing)|{JOB_CUES})\b",
    re.IGNORECASE,
)
# what a pupil is there as ("as a boarder"): no role of work
_PUPIL = r"(?:[\w-]+\s+)?(?:student|pupil|boarder|fresher|freshman|sophomore|undergrad\w*|postgrad\w*|scholar)s?\b"


def _role_after(value: str) -> re.Pattern[str]:
    """A role taken at ``value``, in its own clause right after it ("joined X Institute as a lab
    technician", "started at X Academy as an assistant coach"), not a pupil's ("as a boarder")."""
    return re.compile(rf"{re.escape(value)}(?:\s+[\w'-]+){{0,3}}?\s+as\s+an?\s+(?!{_PUPIL})", re.IGNORECASE)


def _seen_at_provider(value: str, text: str) -> bool:
    """``value`` is someone seen at a service provider's ("started seeing Dev Ramsay at Fulcrum
    Sports Clinic"): a practitioner, not a partner."""
    m = re.search(
        rf"{re.escape(value)}\s+at\s+(?:the\s+)?(?P<org>[{CAPITALS}][\w'&-]*(?:\s+[{CAPITALS}][\w'&-]*){{0,4}})", text
    )
    return m is not None and m["org"].split()[-1].casefold() in PROVIDER_HEADS


def _kind_of(attribute: str, value: str, text: str) -> str:
    """The attribute of a value an employer cue found ("is at X now"): with no word of paid work and
    no role taken at it, a school when its head noun names one ("Stormholt Academy"), a provider used
    (``patronage``) when a service's ("Ashgrove Insurance"), a membership when a place one trains or
    sings at ("Ironbark Boxing"); else ``attribute``. A partner seen at a provider's is one used too."""
    if attribute == "partner":
        return "patronage" if _seen_at_provider(value, text) else attribute
    head = value.split()[-1]
    if attribute == "residence" and head.casefold() in GROUP_HEADS:
        return "membership"  # ("have been in the Eastmere Chamber Orchestra": no place one lives in)
    school = re.fullmatch(rf"{SCHOOL_WORDS}|High|Montessori", head) is not None  # ("Kestrel High")
    if attribute != "employer" or not (school or head.casefold() in PROVIDER_HEADS | MEMBER_HEADS):
        return attribute
    if _WORK.search(text) or _role_after(value).search(text):
        return attribute
    return "school" if school else "membership" if head.casefold() in MEMBER_HEADS else "patronage"


@functools.cache
def cue_gates() -> Gates:
    """The literal gates of the readers' cues, in order (``literal_gate``: a cue without its strings is skipped)."""
    return gates([literals(cue) for _, cue, _ in _READERS])


_OTHER_CLAUSE = re.compile(rf"[,;]\s++(?:so|and|but|then|because)\s++[{CAPITALS}]")


def find_state(text: str, speaker: str, participants: Sequence[str] = ()) -> tuple[str, str, str] | None:
    """(subject, attribute, value) of a person-rewritten sentence that states a state from cue
    words (see module doc); None when no attribute's cue and value are found."""
    if _ABOUT_ADDRESSEE.match(text) or text.rstrip().endswith("?"):
        return None
    names = {n.casefold() for n in (speaker, *participants)}
    cues = _RELATION_WORD.sub(lambda r: "_" * len(r.group(0)), text)
    may, weak = cue_gates().open(probe(cues)), None  # weak: a dwelling no one is said to hold or live in, read last
    for i, (attribute, cue, reader) in enumerate(_READERS):
        if not may >> i & 1:
            continue
        m = next((c for c in cue.finditer(cues) if not _named_before(attribute, cues, c)), None)
        if m is None:
            continue
        value = _read(reader, text, m, names)
        if not value or value.casefold() in ENTITY_EXCLUDE:  # "So" opening the sentence is no value
            continue
        at = text.find(value)
        if attribute == "employer" and 0 <= at <= m.start() < at + len(value):
            continue  # a word of work in the value's name ("the queue at Pemberton Post Office")
        if at > m.end() and _OTHER_CLAUSE.search(text, m.end(), at):
            continue  # the value of another subject's clause ("A moved abroad, so Ana switched to B")
        attribute = _kind_of(attribute, value, text)
        if at >= 0 and _LAST_DAY.search(text, max(0, at - 40), at):
            return None  # "Friday was Ana's last day at X": the end of a state, no start
        if _negated(text, max(m.end(), at + len(value) if at >= 0 else len(text))):
            return None
        # a partner named with their noun is the subject of any state but the partnership itself
        kin = _KIN if attribute == "partner" else f"{_KIN}|{PARTNER_NOUNS}"
        subject = _subject(text, speaker, participants, max(m.start(), at), kin)
        if subject is None:
            return None
        if attribute == "home_type" and not dwelling_held(text, m.start()):
            held_one = not dwelling_of_a_kind(text, m.start())  # ("for a 2 bedroom flat" is none)
            weak = weak or ((subject, attribute, value) if held_one else None)  # "the house is quieter now"
            continue
        return subject, attribute, value
    return weak
