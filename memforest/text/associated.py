"""A group, place or provider someone belongs to or uses, told in passing by an owner's kind noun
beside its name, as people mention them on the way to a request: "our knitting group at Woolly
Yarns is doing ...", "Little Acorns (our daycare) closes at 5:30", "Kannada Koota, our little
conversation group, ...", "my son Kaito's dojo, Shinsei-kan, has a grading", "my Kaveri Health
policy went up", "car insurance with Tidewater Mutual renews in June".

The kind noun is a noun of groups (``change_common.GROUP_KINDS``), of places one goes to again and
again (a daycare, a gym, a dojo) or of accounts with a provider (a policy, a wallet); the slot is
the kind as told ("knitting group", "daycare"), as a joining of it would file it, so the next one
of its kind supersedes it. A team or office "at" a name is the holder's workplace; an account is
its provider's custom (``patronage``). The holder is the speaker, or the relative or person the
owner names ("Kaito" in "Ana's son Kaito's dojo"). None in a clause of mood (``mood.mood_near``):
"Ana's old choir, the X Singers" is nostalgia, a former one no state.
Each pattern is linear in the sentence's length (every run of spaces is read whole).
"""

from __future__ import annotations

import re

from memforest.text.change_common import GROUP_KINDS
from memforest.text.changes import slot_key
from memforest.text.lexicon import CAPITALS, TIME_WORDS, WORD_START
from memforest.text.mood import mood_near
from memforest.text.role_named import LISTED_ROLES, ROLES, role_slot
from memforest.text.slots import find_role_at
from memforest.text.state_words import KIN

__all__ = ["find_associated"]

Slot = tuple[str, str, str]

# places one goes to again and again, and the providers one is with
_PLACES = (
    r"daycare|nursery|creche|crèche|preschool|kindergarten|school|college|gym|studio|dojo|practice|surgery|"
    r"clinic|pharmacy|salon|barbers?|garage|library|church|parish|mosque|temple|synagogue|allotment|pool|"
    r"academy|insurer|provider|supplier|carrier|bank|credit\s++union|local"
)
_KIND = rf"(?:{GROUP_KINDS}|{_PLACES})"
# a workplace told as one's place in it ("our team at X")
_WORKPLACE = re.compile(r"(?:team|office|department|branch|lab|desk)")
# accounts held with a provider named before the noun ("my Kaveri Health policy")
# (an account or a card alone is none: "my Streamly account got hacked" tells no custom)
_ACCOUNT = r"(?:policy|plan|wallet|subscription|membership|contract|tariff|scheme|pension)"
# supplies one buys from a provider, told as "<supply> with X" ("broadband with X drops every evening")
_SUPPLY = (
    r"(?:(?:car|home|house|health|pet|travel|life|contents|van|bike)\s++)?insurance|broadband|internet|wi-?fi|"
    r"fib(?:re|er)|electricity|energy|gas|mortgage|phone\s++contract|mobile\s++contract"
)
# words before a kind that say when or how much, not what kind ("our little ... group", "my evening course")
_NOT_KIND_WORDS = (
    TIME_WORDS
    | {"little", "new", "old", "usual", "regular", "local", "weekly", "monthly", "lovely"}
    | {"amazing", "favourite", "favorite", "own", "whole"}
)
_FORMER = frozenset({"old", "former", "ex", "previous", "last"})
# (no word that opens a sentence as a comment on it: "Sadly, my vet, ...", "Update, our ...")
_OPENER = (
    r"(?:Sadly|Luckily|Honestly|Hopefully|Basically|Finally|Actually|Apparently|Obviously|Seriously|Literally|"
    r"Unfortunately|Fortunately|Thankfully|Currently|Recently|Anyway|Update|Btw|Well|Also|Today|Yesterday|Hi|Hey|"
    r"Hello|Ugh|Oh|Yes|No|Okay|Ok|So|Thanks)"
)
_NAME_WORD = rf"(?!{_OPENER}\b)[{CAPITALS}][\w'-]*+(?<!'s)"
# a name: capitalised words, with "&", "of (the)", "on" or a name particle between them, no possessive
_NAME = (
    rf"{WORD_START}(?P<val>(?:The\s++)?{_NAME_WORD}(?:\s++(?:&\s++|and\s++|of\s++(?:the\s++)?|on\s++|"
    rf"(?:de|da|del|della|di|du|des|dos|das|van|von|der|la|le|al|el)\s++)?{_NAME_WORD}){{0,4}})(?![\w'-])"
)
_MODS = r"(?:[a-z][\w-]*+\s++){0,3}?"
# what tells the group or place is over or past for its holder, right after it is named ("Ana's
# allotment at X got taken back by the council", "Ana's choir, the X Singers, folded", "... was great")
_ENDED_AFTER = re.compile(
    r"(?<!\s)\s*+\)?,?\s*+(?:[\w-]{1,30}+\s++){0,2}?(?i:got\s++taken|was\s++taken|taken\s++back|(?:closed|shut)\s++(?:down|for\s++good|its\s++doors)|folded|disbanded|"
    r"split\s++up|broke\s++up|was\s++cancell?ed|ended|went\s++bust|went\s++under|was|were|used\s++to|lost|finished|left|"
    r"quit|retired|resigned|stopped|moved\s++(?:away|out|on)|passed\s++away|died|is\s++(?:retiring|leaving|closing))\b"
)


# an owner: someone's possessive, or a relative's of theirs, named or not ("Ana's son Kaito's"); whose
# it is (``who``) is checked against the speaker
_OWNER = (
    rf"{WORD_START}(?P<owner>(?P<who>[{CAPITALS}][\w-]*+)'s"
    rf"(?:\s++(?P<kin>(?i:{KIN}))(?:\s++(?P<kin_name>[{CAPITALS}][\w-]*+))?'s)?)\s++"
)
_KIND_NP = rf"(?P<kind>{_MODS}{_KIND}s?)"


# (each names its owner, or the one who uses the place, in the group ``who``)
_OWNED: tuple[re.Pattern[str], ...] = (
    # "Ana's knitting group at Woolly Yarns", "Ana's team at Kuroshio Games"
    re.compile(rf"{_OWNER}{_KIND_NP}\s++(?:at|with|in)\s++(?:the\s++)?{_NAME}"),
    # "Little Acorns (Ana's daycare)", "Kannada Koota, Ana's little conversation group"
    re.compile(
        rf"{_NAME}\s*+(?:\(\s*+|,\s++){_OWNER}{_KIND_NP}(?=\s*+\)|\s*+,|\s++(?:at|in|on)\b|\s*+$|\s++[-\u2013\u2014])"
    ),
    # "Ana's son Kaito's dojo, Shinsei-kan, has ..."
    re.compile(rf"{_OWNER}{_KIND_NP},\s++{_NAME}\s*+(?:,|\)|$|[-\u2013\u2014])"),
    # "Ana's Kaveri Health policy"
    re.compile(rf"{_OWNER}{_NAME}\s++(?P<account>{_ACCOUNT})s?\b"),
    # "Fatou, Ana's nanny, is sick", "Declan, Ana's boss at Kilbride Motors, wants ..."
    re.compile(rf"{_NAME}\s*+(?:\(\s*+|,\s++){_OWNER}(?P<role>(?i:{ROLES}))(?=\s*+[),.!]|\s*+$|\s++(?:at|from)\b)"),
    # "Kusuri no Aoki, the pharmacy Ana uses", "Joe's Autos, the garage Ana goes to"
    re.compile(
        rf"{_NAME},\s++the\s++{_KIND_NP}\s++(?:that\s++|which\s++)?(?P<who>[{CAPITALS}][\w-]*+)\s++"
        r"(?:(?i:always|usually|still)\s++)?(?i:uses|use|goes\s++to|go\s++to|banks\s++with)\b"
    ),
)


# "Car insurance with Tidewater Mutual renews ...", "Ana's broadband with Glanmire Fibre drops ..."
_SUPPLY_WITH = re.compile(
    rf"(?:^|[,;]\s++)(?:(?P<owner>[{CAPITALS}][\w-]*+)'s\s++|(?i:the)\s++)?(?P<supply>(?i:{_SUPPLY}))\s++"
    rf"(?:is\s++|are\s++)?with\s++(?:the\s++)?{_NAME}"
)


# a place one goes back to, told as such with a word of habit: "Kaminari Barbers is where Ana always goes"
# ("Leeds is where Ana goes for work" is none)
_WHERE_ONE_GOES = re.compile(
    rf"{_NAME}\s++is\s++where\s++(?P<who>[{CAPITALS}][\w-]*+)\s++(?i:always|usually|normally|still)\s++"
    r"(?i:goes|go|gets|get|shops|buys)\b"
)
# a recurring thing one takes part in with a group or at a place: a plural noun of sessions, or one
# after a day's name or "every" ("the tuesday sessions with X", "Ana does the saturday flow at X",
# "bass rehearsals with the X Choir", "thursday blitz nights at X Chess Club")
_DAYS = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
_SESSIONS = r"(?:sessions|nights|rehearsals|practices|trainings|classes|lessons|meetings|games|matches|bouts)"
_SESSION = r"(?:session|night|rehearsal|practice|training|class|lesson|meeting|flow|service|game|match|bout)"
_RECURRING = re.compile(
    rf"(?:{WORD_START}(?:(?P<owner>[{CAPITALS}][\w-]*+)'s\s++)?(?:[a-z0-9][\w-]*+\s++){{0,2}}?{_SESSIONS}|"
    rf"(?i:{_DAYS}s?|every|weekly)\s++(?:[a-z0-9][\w-]*+\s++){{0,2}}?{_SESSION}s?)"
    rf"\s++(?:at|with)\s++(?:the\s++)?{_NAME}"
)
# a session only tried ("signed up for a free trial of the spin classes at X")
_TRIED = re.compile(r"\b(?i:trial|taster|drop-in|one-off|try|trying)\b")
_GROUP_END = re.compile(rf"\s(?i:{GROUP_KINDS})s?$")


def _kind_slot(kind: str) -> str:
    """The slot of a kind as told: its noun with one modifier before it ("pub quiz team" ->
    ``quiz_team``), words of time, size or liking dropped ("little conversation group")."""
    words = [w for w in kind.lower().split() if w not in _NOT_KIND_WORDS]
    return slot_key(" ".join(words[-2:]))


def _holder(m: re.Match[str], speaker: str) -> str:
    if "kin" not in m.re.groupindex or m["kin"] is None:
        return speaker
    if m["kin_name"]:
        return str(m["kin_name"])
    return f"{speaker}'s {m['kin'].lower()}"


def find_associated(text: str, speaker: str) -> Slot | None:
    """(holder, slot, value) of a group, place or provider a person-rewritten sentence tells the
    speaker or a relative of theirs belongs to or uses, by an owner's kind noun beside its name
    (see the module doc); None otherwise."""
    for pattern in _OWNED if speaker in text else ():
        m = next((m for m in pattern.finditer(text) if m["who"] == speaker), None)
        if m is None or mood_near(text, m.start("val")) is not None or _ENDED_AFTER.match(text, m.end()):
            continue
        if "account" in m.re.groupindex and m["account"]:
            return _holder(m, speaker), "patronage", m["val"]
        if "role" in m.re.groupindex:
            return _holder(m, speaker), role_slot(m["role"]), m["val"]
        words = m["kind"].lower().split()
        if words[0] in _FORMER:
            continue  # "Ana's old choir, the X Singers": no longer hers
        workplace = len(words) == 1 and _WORKPLACE.fullmatch(words[0]) is not None and " at " in m.group(0)
        return _holder(m, speaker), "employer" if workplace else _kind_slot(m["kind"]), m["val"]
    return _supplied(text, speaker) or _goes_back(text, speaker) or _the_role_at(text, speaker)


def _supplied(text: str, speaker: str) -> Slot | None:
    """A supply told with its provider: "car insurance with X renews in June"."""
    supply = _SUPPLY_WITH.search(text) if "with" in text else None
    if supply is not None and supply["owner"] in (None, speaker) and mood_near(text, supply.start("val")) is None:
        return speaker, slot_key(supply["supply"]), supply["val"]
    return None


def _goes_back(text: str, speaker: str) -> Slot | None:
    """A place the speaker goes back to, or a group or place of their recurring sessions: a group's
    name (its last word a group's noun) is a membership, any other a place they use (patronage)."""
    where = _WHERE_ONE_GOES.search(text) if " where " in text else None
    if where is not None and where["who"] == speaker and mood_near(text, where.start("val")) is None:
        return speaker, "patronage", where["val"]
    m = _RECURRING.search(text) if " at " in text or " with " in text else None
    if (
        m is None
        or mood_near(text, m.start("val")) is not None
        or _TRIED.search(text, max(0, m.start() - 40), m.start())
    ):
        return None
    holder = m["owner"] or _possessor_before(text[: m.start()], speaker) or speaker
    return holder, "membership" if _GROUP_END.search(m["val"]) else "patronage", m["val"]


def _possessor_before(text: str, speaker: str) -> str | None:
    """Whose the words after ``text`` are when it ends in a possessive: "Ana's daughter's" -> "Ana's
    daughter", "Tomás's" -> "Tomás"; None when it ends in none."""
    m = re.search(rf"(?:{re.escape(speaker)}'s\s++(?P<kin>(?i:{KIN}))|(?P<name>[{CAPITALS}][\w-]*+))'s\s*+$", text)
    if m is None:
        return None
    return f"{speaker}'s {m['kin'].lower()}" if m["kin"] else m["name"]


# a practitioner at a provider opening the speaker's own sentence: "The vet at X put Biscotti on a diet"
_THE_ROLE_AT = re.compile(rf"^(?:The|the)\s++(?=(?i:{LISTED_ROLES})\s++at\s)")


def _the_role_at(text: str, speaker: str) -> Slot | None:
    """ "The <practitioner> at X ..." said by the speaker: their practitioner at X, read as "my <practitioner>
    at X" is (``slots.find_role_at``)."""
    m = _THE_ROLE_AT.match(text)
    return None if m is None else find_role_at(f"{speaker}'s {text[m.end() :]}", speaker=speaker)
