"""The supersession slot of one extracted sentence: which reader states it, in which order.

The fixed shapes (``memforest.text.slots``: "X lives in Y") come first, then a change that names
the kind of thing (``changes.find_named_change``: "X's new dentist is Y"), then the cue readers of
the named attributes (``memforest.text.states``), then the general verbs of change
(``changes.find_change``: joining, acquiring, switching). A sentence in a mood other than a plain
statement (``memforest.text.mood``) gets no slot.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from memforest.attributes import STATE_ATTRIBUTES, named_attribute
from memforest.domain import FactKind
from memforest.text.associated import find_associated
from memforest.text.change_common import GROUP_KINDS, find_common_change, find_header_change, header_kind
from memforest.text.change_subjects import NAME, clause_subject, pronoun_subject, subject_key, untitled
from memforest.text.change_words import PARTING, THING_OPENING
from memforest.text.changes import VERB_CLASSES, find_change, find_named_change, leading_subject, slot_key
from memforest.text.dwelling import dwelling_held
from memforest.text.emphatic import plain_verbs
from memforest.text.former_thing import told_as_former
from memforest.text.held_as import find_held_as
from memforest.text.lexicon import CAPITALS, TIME_WORDS, TITLES
from memforest.text.medication import find_medication
from memforest.text.mood import mood_near
from memforest.text.owned_thing import find_owned_thing
from memforest.text.pet_names import deed_owner
from memforest.text.possessor import possessor_of
from memforest.text.programme_at import find_programme_at
from memforest.text.role_named import find_role_named
from memforest.text.slots import find_role_at, find_slot
from memforest.text.state_holders import acts_before, escorted_to, owned_before
from memforest.text.state_values import SCHOOL_WORDS, TITLED_JOB, WORKPLACE_PART, thing_kind
from memforest.text.state_words import ANIMALS, JOB_CUES, KIN
from memforest.text.states import find_state
from memforest.text.subject_pairs import without_aside
from memforest.text.switch_clause import find_switch_clause
from memforest.text.titled_work import find_title
from memforest.text.unnamed_persons import unnamed_holder
from memforest.text.work_hours import find_work_hours

__all__ = ["state_slot"]

Slot = tuple[str, str, str]
# the cue readers read a bare "joined X" as an employer or a hobby; without a word of employment
# the general verb's class is the truer kind
_LOOSE = frozenset({"employer", "hobby", "membership"})  # (a membership: what an employer cue read at a club)
_JOINING = frozenset({"membership", "change"})
# named attributes whose cue readers also read a switch between values of another kind
_SWITCHABLE = _LOOSE | {"residence"}
# a breed word read whole (possessive) and only from a word's start: linear on long runs
_ANIMAL = re.compile(rf"(?<!\w)(?:\w++\s+)?(?:{ANIMALS})", re.IGNORECASE)
_SIGNED_UP = re.compile(r"\b(?i:signed|signs|sign)\s+up\s+(?i:at|with|for)\b")
_CONTRACT = re.compile(r"\b(?i:contract)s?\b")


# the last words of a provider's name ("Three Rivers Credit Union", "Voltana Energy"); "Bank" and
# "Power" end places' names too ("the South Bank"), so those count only with money in the sentence
_PROVIDER_NAME = re.compile(
    r"\s(?:Credit\s+Union|Mutual|Building\s+Society|Insurance|Assurance|Energy|Telecom|Mobile|Broadband|"
    r"Fib(?:re|er)|Savings|Financial|Finance)$"
)
_PLACE_OR_PROVIDER = re.compile(r"\s(?:Bank|Power)$")
# a word of a provider's name that says whom one sees there ("Saltmarsh Dental Studio": a dentist)
_PRACTITIONER_OF = {
    **dict.fromkeys(("dental", "dentistry", "dentists", "orthodontics"), "dentist"),
    **dict.fromkeys(("physio", "physiotherapy", "physiotherapists"), "physio"),
    **dict.fromkeys(("vets", "veterinary"), "vet"),
    **dict.fromkeys(("medical", "surgery", "gp", "gps"), "doctor"),
    **dict.fromkeys(("opticians", "optometrists", "optometry"), "optician"),
    **dict.fromkeys(("osteopaths", "osteopathy"), "osteopath"),
    **dict.fromkeys(("chiropractic", "chiropractors"), "chiropractor"),
    **dict.fromkeys(("barbers", "barbershop"), "barber"),
    "salon": "hairdresser",
}
# a person placed at an organisation by name: "Dr. Lindqvist at Saltmarsh Dental Studio"
_AT_ORGANISATION = (
    rf"\s+(?:at|from)\s+(?:the\s+)?(?P<org>[{CAPITALS}][\w'-]*(?:\s+(?:&\s+)?[{CAPITALS}][\w'-]*){{0,4}})"
)
_MONEY = re.compile(r"\b(?i:accounts?|savings|checking|current|money|mortgage|pension|isa|banking|salary|overdraft)\b")


def _provider_moved_to(text: str, value: str) -> bool:
    """``value`` is a provider, no home: its name says so, or it may and the sentence moves money."""
    return _PROVIDER_NAME.search(value) is not None or (
        _PLACE_OR_PROVIDER.search(value) is not None and _MONEY.search(text) is not None
    )


# a clause that opens with a thing as its subject: an owner's or an article's noun that is no
# relative ("his firm", "the club", "Ana's landlord" is a person too, but no kin: read as a thing)
_THING_OPENS = re.compile(rf"^(?:(?i:his|her|their|its|the|our|my)|[{CAPITALS}][\w-]*'s)\s+(?!(?i:{KIN})s?\b)[a-z]")


def _signed_up_only(text: str) -> bool:
    """The sentence signs up at a place and names no work but a contract ("Union's contract ended and
    Ana signed up at X"; "signed up with X for temp work" is a job)."""
    return _SIGNED_UP.search(text) is not None and _EMPLOYMENT.search(_CONTRACT.sub(" ", text)) is None


# (work as a place one goes to, "closer to work", "after work", says no job at the value)
_EMPLOYMENT = re.compile(
    rf"\b(?:{JOB_CUES}|(?<!to\s)(?<!from\s)(?<!after\s)(?<!before\s)(?<!near\s)work(?!outs?\b)\w*|to\s+work\s+(?:at|for|with|as)|employ\w*|"
    rf"hired|career|notice|resign\w*)\b|\bas\s+an?\s+(?!member|guest|volunteer|customer|patient)\w+",
    re.IGNORECASE,
)
# a switch that names the value it replaced ("from A to B", "left A for B")
_FROM_TO = re.compile(
    rf"\bfrom\s+(?:the\s+)?[{CAPITALS}][^,.;:!?]{{0,60}}?\s+to\s+(?:the\s+)?[{CAPITALS}]|"
    rf"\b(?i:left|quit)\s+(?:the\s+)?[{CAPITALS}][^,.;:!?]{{0,60}}?\s+for\s+(?:the\s+)?[{CAPITALS}]"
)
_TITLE = frozenset({"dr", "mr", "mrs", "ms", "mx", "prof", "st"})
# a school's name by its last word ("Whitmoor High", "Larch Primary")
# a named person's word of work ("Tariq's first paycheck from X", "Tariq's new boss at X"): the work is theirs
_WORK_OWNER = re.compile(rf"(?<![\w'])(?P<owner>{NAME})'s\s+(?:(?:first|new|latest|last|final)\s+)?(?i:{JOB_CUES})\b")
_SCHOOL_NAME = re.compile(rf"(?:{SCHOOL_WORDS}|\bHigh|\bMontessori)$")


def _pupil_at(text: str, value: str) -> bool:
    """Only being at a school is said ("Ezra is at Whitmoor High now"), no work there."""
    at = re.search(rf"\b(?:is|are|am)\s+(?:now\s+)?at\s+(?:the\s+)?{re.escape(value)}", text)
    return at is not None and _SCHOOL_NAME.search(value) is not None and not _EMPLOYMENT.search(text)


_TITLED = re.compile(rf"{TITLES}\.?\s")
# a sentence that opens with a singular third-person pronoun, subject or possessive (never "Her's")
_OPENING_PRONOUN = re.compile(r"^(?:(?:And|But|So|Then|Also|Now)\s+)?\b(She|He|Her|His)\b(?!')", re.IGNORECASE)
# a title typed in lower case before a name
_LOWER_TITLE = re.compile(rf"\b(?:dr|mr|mrs|ms|prof)\.?(?=\s+[{CAPITALS}])")
# "She's" / "He's" opening a sentence (read with the antecedent below), or a later clause's "she's
# a nurse", "he's an engineer": she is, never a possessive (a "has" before a participle: ``_HAS``)
_PRONOUN_IS = re.compile(
    r"^((?:(?:And|But|So|Then|Also|Now|Well)\s+)?(?:She|He))'s\b|(?<![\w'])((?i:she|he))'s(?=\s+an?\s)"
)
# a contracted "has" after a name: "'s" before a participle that no noun is ("been", "got", "gone"),
# adverbs between them ("she's also started")
_HAS = re.compile(
    r"(?<=[^\W\d_])'s\s+(?=(?:(?:also|just|finally|now|recently|already|officially|actually)\s+)*"
    r"(?:been|got|gone|become|had|taken|started|joined|left|moved|switched)\b)"
)


def _stated(text: str, slot: Slot) -> bool:
    """No mood in the clause of the slot's value (``mood.mood_near``)."""
    at = text.find(slot[2])
    return mood_near(text, max(at, 0)) is None


def _named(slot: Slot) -> Slot:
    """A noun that is a word of a named attribute ("greyhound", "home city") files the state
    under that attribute, so one kind of state has one chain."""
    subject, noun, value = slot
    return subject, _kind_of(noun), value


def _kind_of(noun: str) -> str:
    """A slot's noun as the attribute it files under: a named attribute's, a pet's, or its own."""
    return named_attribute(noun) or ("pet" if _ANIMAL.fullmatch(noun.replace("_", " ")) else noun)


def _named_first(text: str, first: Slot, second: Slot) -> bool:
    """``first``'s value is named in ``text`` before ``second``'s."""
    return 0 <= text.find(first[2]) < text.find(second[2])


def _typed(slot: Slot) -> Slot:
    """A thing filed under a verb's class whose value is a known kind of thing (a car make and
    model, a device) files under that kind: "spilled tea on my MacBook Air" is a device."""
    subject, label, value = slot
    if label in VERB_CLASSES:
        kind = thing_kind(value)
        if kind is not None:
            return subject, kind, value
    return _named(slot)


_CLAUSE_BREAK = re.compile(rf"[,;]|\s(?:and|but|so|because)\s+(?:the|a|an|my|his|her|their|it|[{CAPITALS}])")


def _unheld_dwelling(text: str, state: Slot) -> bool:
    """``state`` is a kind of home read from a dwelling no one is said to hold or live in ("insured
    with X for the house"): any change the sentence tells comes first."""
    word = re.search(rf"\b{re.escape(state[2])}\b", text, re.IGNORECASE)  # ("flat", not "flatmate")
    return state[1] == "home_type" and not dwelling_held(text, word.start() if word else 0)


def _later_clause(text: str, first: str, second: str) -> bool:
    """``second`` is named only in a clause after the one naming ``first`` (a comma, a semicolon,
    or "and" / "but" / "so" / "because" before a new subject between them)."""
    i, j = text.find(first), text.find(second, max(text.find(first), 0) + len(first))
    return 0 <= i < j and text.find(second) > i and _CLAUSE_BREAK.search(text[i + len(first) : j]) is not None


def _names(text: str, name: str) -> bool:
    return re.search(rf"(?<![\w']){re.escape(name)}(?![\w-])", text) is not None


# "moved Grandma to X", "moved Biscuit into X": the one moved, named right after the verb, lives there
_MOVED_OBJECT = re.compile(
    rf"\b(?i:mov(?:e|es|ed|ing)|relocated)\s+(?P<obj>[{CAPITALS}][\w-]*)\s+(?:back\s+)?(?:in)?to\b"
)
_KIN_NAME = re.compile(rf"^(?i:{KIN})$")


def _moved_object(text: str, state: Slot) -> Slot:
    """A home stated by a transitive move is the home of the one moved, not of the mover; a kin word
    used as a name ("Grandma") is the mover's relative; a word of time after the verb is no one moved."""
    m = _MOVED_OBJECT.search(text, 0, max(text.find(state[2]), 0))
    if m is None or m["obj"] in (state[0], state[2]) or m["obj"].lower() in TIME_WORDS:
        return state  # "moved Friday to X": a day or a month says when, not who
    obj = m["obj"]
    mover = state[0].removesuffix(" and others")
    return (f"{mover}'s {obj.lower()}" if _KIN_NAME.match(obj) else obj), state[1], state[2]


# attributes whose value a possessive names the holder of ("Marco's girlfriend Lena", "Hugo's puppy Biscuit")
_OWNED_BY_APPOSITION = frozenset({"pet", "partner"})


def state_slot(
    text: str, kind: FactKind, speaker: str, participants: Sequence[str], antecedent: str | None = None
) -> Slot | None:
    """(subject, attribute, value) of a person-rewritten sentence, or None when it states no state.
    A relative clause of getting on the value names its holder where the sentence's own clause
    names no subject: "Meet Pip, the pup Ana's sister brought home" is the sister's pet, "Ana
    adopted Pip, the pup her sister rescued" Ana's (``clause_subject``). A clause whose subject is
    "she", "he" or "they", or a value owned by "his" or "her", is not the speaker's
    (``change_subjects.pronoun_subject``, with ``antecedent``: the one person an earlier sentence of
    the turn named); when whose it is goes unsaid, it files no state. A sentence opened by "She",
    "He", "Her" or "His" is read as the antecedent's."""
    main = without_aside(text)
    if main != text:  # "Rosa, who lives next door, adopted X": the main clause's state, else the aside's
        slot = state_slot(main, kind, speaker, participants, antecedent)
        if slot is not None:
            return slot
    text = _HAS.sub(" has ", plain_verbs(text))  # "Ana's been at X": Ana has been, not a thing of Ana's
    text = _PRONOUN_IS.sub(lambda m: f"{m[1] or m[2]} is", text)
    text = _LOWER_TITLE.sub(lambda m: m[0].capitalize(), text)  # "dr. Lemaire": a title typed in lower case
    opened = _OPENING_PRONOUN.match(text) if antecedent is not None else None
    if opened is not None and antecedent is not None:  # "She switched to X", "Her new dentist is X"
        owner = antecedent + ("'s" if opened[1].lower() in ("her", "his") else "")
        text = text[: opened.start(1)] + owner + text[opened.end(1) :]
    first, semicolon, rest = text.partition("; ")
    # a clause closed by a semicolon states its own state first when the next clause tells of a
    # thing, not a person ("X moved to Y; his firm shut the Z office")
    of_thing = semicolon and _THING_OPENS.match(rest) is not None
    slot = _slot(f"{first}.", kind, speaker, participants) if of_thing else None
    slot = slot or _slot(text, kind, speaker, participants)
    if slot is None or told_as_former(text, slot[2]):  # "Ana's old flat in X was tiny": no state now
        return None
    holder = clause_subject(text, slot[2])
    if holder is None and slot[0] == speaker and opened is not None:
        holder = antecedent  # (a reader that still fell back to the speaker read the pronoun's sentence)
    elif holder is None and slot[0] == speaker:
        by_pronoun, person = pronoun_subject(text, max(text.find(slot[2]), 0), speaker, antecedent)
        if by_pronoun and person is None:
            return None  # "she joined X": someone else's, whom neither this sentence nor the last names
        holder = person
    elif holder is None:  # "Mia's sister retired and her son joined X": the sister's son's
        holder = pronoun_subject(text, max(text.find(slot[2]), 0), speaker, slot[0], relatives_only=True)[1]
    subject = holder or slot[0]
    unnamed, someone = unnamed_holder(text, slot[2], speaker)
    if unnamed and someone is None:
        return None  # "(Ana left and) the guy next door bought X": someone's the memory cannot name
    subject = someone if someone is not None and subject == speaker else subject  # "the kids started at X"
    if slot[1] in _OWNED_BY_APPOSITION:
        # "Priya's dog Waffles": Priya's, whoever else is named; else "Tansy chewed Bernd's laces": Bernd's
        owned_by = possessor_of(text, slot[2]) or (deed_owner(text, slot[2]) if slot[1] == "pet" else None)
        subject = owned_by or subject
    attribute, header = slot[1], header_kind(text, participants)
    if header is not None and " " not in header and attribute == "residence":
        header = None  # "Tom: moved to Leeds": one capitalised word may be a name as well as a kind
    if header is not None and subject.casefold() == header.split()[0].casefold():
        subject = speaker  # "Energy supplier: gone from A to B": the kind heading the message is no one
    if header is not None and (attribute in VERB_CLASSES or attribute == "residence"):
        attribute = _kind_of(slot_key(header))  # "Climbing gym: moved to X" is a climbing gym, no home
    if attribute in _PERSON_SEEN:
        attribute = _practitioner_kind(text, slot[2]) or attribute  # "registered with Dr. X at Y Dental"
    if attribute == "residence" and _provider_moved_to(text, slot[2]):
        attribute = "change"  # "moved everything over to X Credit Union": a provider, no home
    if subject == f"{speaker}'s family":
        subject = speaker  # "my family moved": the speaker's home too
    subject = _apposed_name(text, subject, speaker)
    if subject == speaker:
        subject = escorted_to(text, slot[2], attribute, speaker) or subject  # "dropped Ivo off at X": Ivo goes there
    return _addressed_kin(untitled(subject), speaker), attribute, _before_speaker_clause(slot[2], speaker)


# words for a parent or grandparent that a speaker uses as their name ("Mum moved into X"): the
# speaker's own
_ADDRESSED_KIN = frozenset(
    {"mum", "mom", "mam", "mummy", "mommy", "mama", "dad", "daddy", "papa", "grandma", "granny", "gran", "nan", "nana"}
    | {"nanna", "grandad", "granddad", "grandpa"}
)


def _addressed_kin(subject: str, speaker: str) -> str:
    """``subject`` ("Uncle Bo" is Bo already), or the speaker's relative when it is a parent's or
    grandparent's word used as a name: "Mum" said by Sione is "Sione's mum"."""
    return f"{speaker}'s {subject.casefold()}" if subject.casefold() in _ADDRESSED_KIN else subject


def _apposed_name(text: str, subject: str, speaker: str) -> str:
    """The name a relative of the speaker's is given beside the relation by the sentence's opening
    ("Tunde (Ana's fiancé) got a job at X", "Tunde, Ana's fiancé, ..."): that name, as for "Ana's
    fiancé Tunde"; else ``subject``."""
    if not subject.startswith(f"{speaker}'s "):
        return subject
    m = re.match(
        rf"\W*+(?:(?:And|So|But|Also)\s++)?([{CAPITALS}][\w'-]*+)\s*+(?:\(\s*+{re.escape(subject)}\s*+\)|,\s*+{re.escape(subject)}\s*+,)",
        text,
    )  # (the sentence's subject: "In Leeds, Ana's brother, a chef, ..." names no "Leeds")
    return m[1] if m is not None and m[1] != speaker else subject


def _before_speaker_clause(value: str, speaker: str) -> str:
    """``value`` up to the speaker's name opening a clause of its own: in person-rewritten text the
    speaker's "I" is their name, which no run of capitalised words of a value goes on into ("since
    Mei moved to Fitzroy Mei has been living at X" moved to Fitzroy)."""
    m = re.search(rf"(?<!\s)\s++{re.escape(speaker)}(?:\s+and\s+others)?\s+(?=[a-z])", value)
    return value[: m.start()] if m is not None and m.start() > 0 else value


def _slot(text: str, kind: FactKind, speaker: str, participants: Sequence[str]) -> Slot | None:
    if text.rstrip().endswith("?"):
        return None
    fixed = None if kind is FactKind.PLAN else find_slot(text)
    fixed = fixed if fixed is not None and _stated(text, fixed) else None
    if fixed is not None and fixed[1] != "residence":
        return fixed
    named = find_switch_clause(text, speaker, participants) or find_named_change(text, speaker)
    if fixed is not None and (named is None or named[2] != fixed[2]):
        return fixed  # (a kind named for the same value instead says what it is: "Hairdresser update: moved to X")
    if named is not None and not _titled_at(text, named[2]):
        return _named(named)
    medicine = find_medication(text, speaker) if kind is not FactKind.PLAN else None
    if medicine is not None:
        return medicine  # ("the GP switched Ana from A to B": a medicine, no provider)
    state = find_state(text, speaker, participants)
    state = state if state is not None and _stated(text, state) else None
    lead = leading_subject(text, max(text.find(state[2]), 0)) if state is not None else None
    owner = _WORK_OWNER.search(text) if state is not None and lead is None and state[1] == "employer" else None
    lead = subject_key(owner["owner"]) if owner is not None else lead  # "Tariq's first payslip from X"
    # the one spoken to, named only after the value ("..., as Ravi can imagine"), holds nothing of it
    addressee = state is not None and state[0] != speaker and state[0] in participants
    named_after = addressee and state is not None and text.find(state[0]) > text.find(state[2])
    if (
        state is not None
        and lead not in (None, state[2])
        and (named_after or (state[0] == speaker and not acts_before(text, speaker, max(text.find(state[2]), 0))))
        and not owned_before(text, speaker, str(lead), max(text.find(state[2]), 0))
    ):
        state = (str(lead), state[1], state[2])  # "Mia moved to Oslo", said by Ana, is Mia's home
    if state is not None and state[1] == "residence":
        state = _moved_object(text, state)
    if state is not None and state[1] == "employer" and _pupil_at(text, state[2]):
        state = (state[0], "school", state[2])  # "Ezra is at Whitmoor High now": a pupil, no employee
    group = find_role_at(text, speaker=speaker) if state is not None and state[1] == "employer" else None
    if state is not None and group is not None and group[2] == state[2]:
        state = group  # "Ana joined the chess club at Hollis Library": a group's, no workplace
    if state is not None and state[1] == "residence" and _TITLED.match(state[2]):
        state = (state[0], "patronage", state[2])  # "moved over to Dr. Halvorsen": a doctor one goes to, no place
    if state is not None and (state[0].casefold() == state[2].casefold() or state[2].casefold() in _TITLE):
        state = None  # a person is no state of their own; a title alone is no value
    if state is not None and _given_up(text, state[2]):
        state = None  # "traded the old Corolla in for an Ioniq": the Corolla is what ended
    change = find_change(text, speaker, participants)
    change = _typed(change) if change is not None and change[2].casefold() != speaker.casefold() else None
    headed = find_header_change(text, speaker, participants) if kind is not FactKind.PLAN else None
    if headed is not None and state is not None and state[1] not in _LOOSE and not _named_first(text, headed, state):
        headed = None  # a header's value wins only when named first ("Phone: Pixel 8, the X went ...")
    if headed is not None and (change is None or change[1] in VERB_CLASSES or change[2] != headed[2]):
        return _named(headed)  # "Mechanic: Joe's Autos on Kiln Road": the kind heading the message names it
    if state is None and change is None and kind is not FactKind.PLAN:
        common = (
            find_role_at(text, speaker=speaker)
            or find_common_change(text, speaker, participants)
            or find_role_named(text)
            or find_held_as(text, speaker)
            or find_programme_at(text, speaker)
            or find_owned_thing(text, speaker)
            or find_associated(text, speaker)
            or find_work_hours(text, speaker)
            or find_title(text, speaker)
        )  # ("Ana's car's the grey estate now"; last the one named by role, a thing by its make, work
        # hours, a job title told alone)
        return _typed(common) if common is not None else None
    if state is None:
        return change
    if change is not None and state[1] == "partner" and change[0] == state[2]:
        return change  # "Ana's partner Yusuf switched to X": Yusuf's change, the partner named in passing
    if change is not None and state[1] == "partner" and change[0] == state[0] and _partner_second(text, state):
        return change  # "Ana and Ana's girlfriend Lena joined X": a subject of two, the partner named in passing
    if change is not None and change[1] == "change" and state[1] in _SWITCHABLE and _FROM_TO.search(text):
        return change  # "moved over from A to B", "left A for B": of A's kind (known to the read path), maybe no home
    if (
        change is not None
        and (change[1] == "change" or state[1] == "home_type")
        and (_later_clause(text, change[2], state[2]) or _unheld_dwelling(text, state))
    ):
        return change  # "quit A and switched to B, it's nearer the flat": the switch, not a remark after it
    if (
        change is not None
        and change[1] not in VERB_CLASSES
        and change[1] not in STATE_ATTRIBUTES
        and state[1] in _LOOSE
        and not (state[1] == "employer" and _titled_at(text, state[2]))
    ):
        return change  # "joined Marlow Paddlers, a rowing club": the kind it names, not a hobby
    if change is not None and change[1] in _JOINING and state[1] in _LOOSE and not _EMPLOYMENT.search(text):
        return change
    if change is not None and change[1] == "membership" and change[2] == state[2] and _plays_for(text, state[2]):
        return change  # "Yaretzi is playing for the X Spikers with me. Same team at last": a side, no employer
    if change is not None and change[1] == "membership" and state[1] == "employer" and _signed_up_only(text):
        return change  # "signed up at Willow Room" (a class, a gym) is no job, a contract named or not
    if change is not None and change[1] == "patronage" and state[1] == "hobby":
        return change  # "started playing five-a-side with the Rovers": the group named, not only the game
    return state


def _partner_second(text: str, state: Slot) -> bool:
    """The partner of ``state`` is named as the second of a subject of two with its holder ("Ana and
    Ana's girlfriend Lena joined X")."""
    return _holder_and_partner(state[0], state[2]).search(text) is not None


@lru_cache(maxsize=256)
def _holder_and_partner(holder: str, partner: str) -> re.Pattern[str]:
    """``holder`` and ``holder``'s partner ``partner``, as a subject of two."""
    h, p = re.escape(holder), re.escape(partner)
    return re.compile(rf"(?<![\w'-]){h}\s+and\s+{h}'s\s+(?:[\w-]+\s+){{1,2}}?{p}\b")


# a job title right before the value ("an inspector at the Y port authority"): where one works
_JOB_AT = re.compile(rf"\b{TITLED_JOB}{WORKPLACE_PART}\s+(?:now\s+)?at\s+(?:the\s+)?$", re.IGNORECASE)
# a group's noun right after the value ("the Harbour Singers choir"): one plays or sings in it
_GROUP_AFTER = re.compile(rf"(?:\s[\w'-]++){{0,2}}?\s{GROUP_KINDS}s?\b", re.IGNORECASE)  # (one space each: linear)


# a thing named right after a verb of parting with it ("sold my X", "traded the old X in for Y")
# (``change_words.ENDED`` less the verbs of ending a service: "dropped Fennel off at the groomer")
_PARTED_WITH = re.compile(rf"\b(?i:{PARTING})\s+{THING_OPENING}")


# the kinds a person one goes to or registers with is filed under when no kind is named
_PERSON_SEEN = frozenset({*VERB_CLASSES, "partner"})


def _practitioner_kind(text: str, value: str) -> str | None:
    """The kind of practitioner ``value`` is when the sentence places them at a provider whose name
    says whom one sees there ("registered with Dr. Lindqvist at Saltmarsh Dental Studio": a
    dentist; "seeing Dev at Kinetic Physio": a physio), else None."""
    m = re.search(re.escape(value) + _AT_ORGANISATION, text)
    if m is None:
        return None
    return next((_PRACTITIONER_OF[w] for w in m["org"].casefold().split() if w in _PRACTITIONER_OF), None)


def _plays_for(text: str, value: str) -> bool:
    """The sentence plays for, on or in ``value`` (a side one plays in, whatever word of work it holds)."""
    return (
        re.search(rf"\b(?i:play(?:s|ing|ed)?)\s+(?:for|on|in|with)\s+(?:the\s+)?{re.escape(value)}", text) is not None
    )


def _given_up(text: str, value: str) -> bool:
    """``value`` is first named right after a verb of parting with it: what the sentence gave up."""
    at = text.find(value)
    return at > 0 and _PARTED_WITH.search(text, max(0, at - 60), at) is not None


def _titled_at(text: str, value: str) -> bool:
    """A job title comes right before ``value`` and no group's noun after it: the sentence tells
    an employer, whatever kind of place the value's name makes it ("a hygienist at the X dental
    practice"), but a role in a group is one's place in it ("a coach at the X climbing club")."""
    at = text.find(value)
    if at <= 0 or _JOB_AT.search(text, max(0, at - 80), at) is None:
        return False
    return _GROUP_AFTER.match(text, at + len(value)) is None
