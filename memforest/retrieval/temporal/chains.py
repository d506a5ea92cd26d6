"""A subject's states grouped into chains, one per kind of state, whatever the kind is called.

The write path labels a state with its slot: a named attribute ("residence"), the noun phrase the
sentence names ("dentist", "coffee_place"), or, when the sentence names no kind, the class of its
verb of change (``membership``, ``possession``, ``patronage``, ``change``: ``memforest.text.changes``).
Here a state labelled only by a verb class joins the chain of the value it replaced ("quit A and
joined B": B is of A's kind), and a question's slot with no chain of its own falls back to the
chain of a verb class that can hold it (a club is joined, a bike is bought).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Protocol

from memforest.attributes import STATE_ATTRIBUTES, VERB_CLASSES, named_attribute
from memforest.retrieval.temporal.value_index import Named, SharingWords, named_values
from memforest.text.kind_spellings import spelled_otherwise
from memforest.text.lexicon import TIME_WORDS
from memforest.text.terms import content_terms, stems

__all__ = [
    "GENERIC",
    "TITLE_WORDS",
    "SharingWords",
    "bare_switches",
    "chain_label",
    "head",
    "holders",
    "joined_kind",
    "kind_words",
    "link_generic",
    "named_values",
    "names_kind",
    "outright",
    "type_words",
]

GENERIC = VERB_CLASSES
# named attributes the cue readers also give to a bare verb of joining or acquiring
_LOOSE = ("employer", "hobby", "device", "vehicle")
# the named attributes a verb class can hold: one acquires a thing (possession) and joins a group
# or an organisation (membership); a change ("moved over from A to B") can be of any kind, and none
# of the named attributes is a service one is a patron of. A city, a partner or a diet is never
# bought or joined.
_HELD_BY = {
    "possession": frozenset({"vehicle", "device", "pet", "home_type"}),
    "membership": frozenset({"employer", "school", "hobby"}),
    "patronage": frozenset(),
}
# words of a slot too vague to match another slot by
_VAGUE = frozenset({"place", "thing", "one", "spot", "shop", "new", "current", "usual", "regular"})
_TIME = frozenset(stems(TIME_WORDS))
# kinds of thing one joins (a member of), by their head noun
_JOINED = re.compile(
    r"(?:^|_)(?:club|team|choir|chorus|band|group|league|society|crew|orchestra|ensemble|union|association|"
    r"guild|circle|class|gym|troupe|squad|collective|congregation|party|church|cooperative|co-op)$"
)
# kinds of service or place one is a patron of, by their head noun, and what a professional tends
# ("who cut my hair": the hairdresser): never a thing got
_SERVED = re.compile(
    r"(?:^|_)(?:dentist|doctor|gp|physio|physiotherapist|therapist|counsel+or|psychiatrist|optician|optometrist|"
    r"hairdresser|barber|stylist|salon|vet|veterinarian|insurer|insurance|bank|broker|accountant|lawyer|solicitor|"
    r"mechanic|garage|clinic|surgery|practice|pharmacy|chemist|tutor|trainer|coach|instructor|teacher|nanny|"
    r"babysitter|childminder|cleaner|plumber|electrician|landlord|provider|supplier|carrier|pediatrician|"
    r"paediatrician|gynaecologist|gynecologist|dermatologist|chiropractor|osteopath|podiatrist|groomer|kennels?|"
    r"nursery|daycare|gym|cafe|café|coffee|restaurant|pub|bar|bakery|butcher|grocer|supermarket|shop|store|"
    r"market|takeaway|diner|bistro|pizzeria|spa|network|isp|broadband|utility|energy|hair|nails|teeth|eyes|skin|"
    r"feet)(?:_(?:place|spot))?$"
)


class _Timed(Protocol):
    """What ``bare_switches`` reads of a state (``temporal.state.State`` has it)."""

    @property
    def time(self) -> datetime: ...
    @property
    def text(self) -> str: ...
    @property
    def value(self) -> str | None: ...


def names_as_written(text: str, name: str) -> bool:
    """``text`` names ``name`` with its own capitals: "to work" does not name "Work"."""
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text) is not None


def bare_switches(
    labelled: Sequence[tuple[str, _Timed]], chain: str | None, subject: str, asked: str | None = None
) -> list[bool]:
    """Which of a subject's (label, state) pairs, oldest first, are bare switches that continue
    ``chain``. A switch that names neither its kind nor the value it left ("Ana switched to X",
    labelled ``change``, linked to no chain, naming no value but its own) presupposes an earlier
    value of the same kind: it continues the open-ended chain it comes after, when that chain is the
    only one it can continue: ``chain`` (an open-ended kind's or a verb class's; never a named
    attribute's, whose own cue words say when a value is theirs) must be the one open-ended chain of
    the subject begun before it; with two, which one it continues the words do not say. A switch
    that names what it left ("from A to B", "quit A and joined B") is A's kind, none of this
    chain's. Nor is one whose value's head noun names another kind than ``asked`` ("switched to X
    Energy" continues no running club: ``other_kind``), nor one whose value names nothing of the
    kind: no word of ``asked`` nor a head noun of the chain's earlier values ("Swimmers", "Cyclists";
    ``_related``); the rest of its sentence says how things are there, not what the value is ("their
    app runs smoother" relates no app to a running club), and words shared with the chain's sentences
    ("brilliant", "people") say nothing of the kind. A person with one club also switches supplier,
    bank and phone network with a bare "switched to X". One pass (ADR 0093, review s9 R3, R3b, R3c)."""
    out = [False] * len(labelled)
    if chain is None or chain == "change" or chain in STATE_ATTRIBUTES:
        return out
    kind = asked or chain
    begun: set[str] = set()  # the open-ended chains begun so far
    pending: list[tuple[str, _Timed]] = []  # states of the same time, counted after it
    said: set[str] = set(_kind_stems(kind))  # words of the kind: its own, its values' head nouns so far
    for k, (label, state) in enumerate(labelled):
        if pending and pending[0][1].time < state.time:
            begun.update(lab for lab, _ in pending)
            said.update(t for lab, st in pending if lab == chain and st.value for t in stems(type_words(st.value)))
            pending.clear()
        if label == "change":
            out[k] = (
                begun == {chain}
                and not named_values(state.text, (subject, state.value or ""))
                and not other_kind(state.value, kind)
                and _related(_said(state.value or "", subject), said)
            )
        elif label not in STATE_ATTRIBUTES:
            pending.append((label, state))
    return out


# head nouns of a provider's name that say what it provides ("Voltana Energy", "Kestrel Telecom"):
# kinds one is a patron of, as ``_SERVED``'s are
_PROVIDED = re.compile(
    r"^(?:energy|power|gas|electric(?:ity)?|utilit(?:y|ie)|broadband|internet|fib(?:re|er)|telecom|mobile|"
    r"wireless|cellular|dental|medical|health|finance|credit|loan|mortgage|saving)$"
)
# words every switch or start says: sharing one relates no two statements
_CHANGE_WORDS = frozenset(
    stems(
        str.split(
            """switch switched change changed swap swapped join joined sign signed start started move moved
            left leave quit go went goes now new old back"""
        )
    )
)


def _family(word: str) -> str | None:
    """The family of kinds ``word`` (a head noun or a slot) names: one joined (a club), one gone
    to or provided (a dentist, an energy supplier), a named attribute; None for no kind word."""
    if _JOINED.search(word):
        return "joined"
    if _SERVED.search(word) or _PROVIDED.match(word.split("_")[-1]):
        return "served"
    return named_attribute(word)


def served_or_joined(word: str) -> bool:
    """``word`` names a kind one joins (a choir) or goes to or is provided by (a dentist, an
    energy supplier)."""
    return _family(word) in ("joined", "served")


def other_kind(value: str | None, asked: str) -> bool:
    """The head noun of a name of several words names a kind of another family than slot
    ``asked``, and is no word of it ("Voltana Energy" for a running club; "Fellside Striders" and
    "Millbrook Running Club" name none other); a titled person ("Dr. Ames") is no kind one joins."""
    if value and _TITLED.match(value):
        return _family(asked) == "joined"
    if not value or len(value.split()) < 2:
        return False
    word = head(value)
    if word in _PLACE_HEADS and len(value.split()) > 2:  # ("Westerleigh Health Centre": a health one)
        word = head(" ".join(value.split()[:-1]))
    family = _family(word)
    if family is None or _shared({word}, asked):
        return False
    return family != _family(asked)


# head nouns of a place too general to tell its kind by: the word before them does
_PLACE_HEADS = frozenset({"centre", "center", "hub", "house", "hall", "point", "place"})


def _kind_stems(asked: str) -> list[str]:
    return [] if asked in GENERIC else stems(set(asked.split("_")) - _VAGUE)


def _said(text: str, subject: str) -> set[str]:
    """The content stems of a statement other than its subject's name, words of time and the
    words every switch says."""
    own = set(content_terms(subject))
    return {t for t in content_terms(text) if t not in own and t not in _CHANGE_WORDS and t not in _TIME}


def _related(words: set[str], said: set[str]) -> bool:
    """One of ``words`` is one of ``said``, or one begins the other (both at least 4 letters)."""
    return any(w in said or (len(w) >= 4 and any(len(t) >= 4 and _begins(t, w) for t in said)) for w in words)


def link_generic(labels: Sequence[str], values: Sequence[str | None], texts: Sequence[str]) -> list[str]:
    """The labels of states (oldest first) after linking: a state labelled by a verb class whose
    text names the value of an earlier state of another label takes that label; so does any state
    whose text says it switched from such a value ("from A to B"), and a state of a kind told only
    this once whose text says it left a group or a workplace of the subject's and took it up
    instead (``_takes_up``: "stepped away from A and started a three-piece called B", "quit A and
    launched a food truck called B"). Each text is checked only against the earlier values it can
    name (``value_index.Named``), each value's pattern compiled once."""
    out = list(labels)
    named = Named(values)
    told = Counter(labels)
    for i, label in enumerate(labels):
        own = (values[i] or "").casefold()
        generic = label in GENERIC
        once = not generic and label not in STATE_ATTRIBUTES and told[label] == 1
        for j in named.candidates(i, texts[i], generic=generic or once):
            value = values[j]
            if not value or value.casefold() == own or out[j] == label:
                continue
            # "joined X in Kingsholm", "the Kingsholm Striders": where it is, no move of home ("from
            # Kingsholm to Ashby" is one)
            placed = generic and out[j] == "residence" and _placed_in(texts[i], value, own)
            if placed and not named.switched_from(texts[i], value):
                continue
            # a verb-class state takes the kind of any value it names; a named one only of the value
            # it says it switched from ("moved over from A to B" is no move of home)
            if named.names_value(texts[i], value) if generic else named.switched_from(texts[i], value):
                out[i] = out[j]
                break
            if once and _takes_up(out[j], label) and named.left(texts[i], value):
                out[i] = out[j]
                break
    return out


def _takes_up(left: str, label: str) -> bool:
    """A new thing of kind ``label`` taken up as a value of chain ``left`` is left continues it: a
    group for a group (a membership; a kind of no known family or one joined), a venture of no known
    family for a workplace. A partner, a home or a service left for a new thing keeps its chain, and
    classes taken up as a job is left are no job."""
    family = _family(label)
    return (left == "membership" and family in (None, "joined")) or (left == "employer" and family is None)


def _placed_in(text: str, place: str, own: str = "") -> bool:
    """``text`` names ``place`` only as where something is ("joined Pulse CrossFit in Kingsholm",
    "too far from Kingsholm") or inside the new thing's own name ``own`` ("the Kingsholm Striders")."""
    found = [m.start() for m in re.finditer(rf"(?<![\w']){re.escape(place)}(?![\w'])", text, re.IGNORECASE)]
    own_name = re.compile(rf"(?<![\w']){re.escape(own)}(?![\w'])", re.IGNORECASE) if own else None
    inside = [m.span() for m in own_name.finditer(text)] if own_name is not None else []
    apart = [at for at in found if not any(start <= at < end for start, end in inside)]
    return bool(found) and all(
        _LOCATED.search(text, max(0, at - 12), at) or _DISTANCE.search(text, max(0, at - 32), at) for at in apart
    )


_LOCATED = re.compile(r"\b(?:in|near|at|by|around|outside|off)\s+(?:the\s+)?$", re.IGNORECASE)
# a place a distance is measured from ("too far from X", "a 45-minute drive from X", "an hour away
# from X"; "moving away from X" is a move)
_DISTANCE = re.compile(
    r"\b(?:far|minutes?|hours?|drive|walk|ride|miles?|km|kilometres?|kilometers?)(?:\s+away)?\s+from\s+(?:the\s+)?$",
    re.IGNORECASE,
)


def _shared(words: set[str], label: str) -> int:
    """How many of ``words`` a label's words share, a word counting when it begins the other
    ("hair" and "hairdresser", "guitar" and "guitarist")."""
    theirs = set(label.split("_")) - _VAGUE
    return sum(1 for w in words if any(t == w or (min(len(t), len(w)) >= 4 and _begins(t, w)) for t in theirs))


def _begins(a: str, b: str) -> bool:
    """One of two words begins the other, whichever is asked and whichever is the label: the
    question may name the person ("accountant") where the statement named the thing ("accounts")."""
    return a.startswith(b) or b.startswith(a)


def joined_kind(asked: str) -> bool:
    """A slot of a kind one joins (a club, a team, a choir): its states are memberships."""
    return _JOINED.search(asked) is not None


def chain_label(asked: str, chains: Mapping[str, int], *, loose: bool = True) -> str | None:
    """The label of the chain that answers a question about slot ``asked``: its own, else one
    sharing a word with it, else (``loose``) a verb class's that can hold it (``holders``), else,
    for an open-ended slot, a loosely named attribute's; ``chains``: label -> number of states.
    None when none can. A named attribute never answers for another ("which city" is never
    answered by the employer chain), nor a verb class for a kind it cannot hold (a club is not
    bought, a city neither bought nor joined)."""
    if asked in chains:
        return asked
    words = set(asked.split("_")) - _VAGUE
    shared = sorted((_shared(words, label), label) for label in chains if label not in GENERIC)
    if shared and shared[-1][0] > 0:  # "coffee" asks for the chain of "coffee_place"
        return shared[-1][1]
    if not loose:
        return None
    for label in (*holders(asked), *_loosely_named(asked)):
        if chains.get(label) and label != asked:
            return label
    return None


def _loosely_named(asked: str) -> tuple[str, ...]:
    """The named attributes whose chain may answer for open-ended slot ``asked`` when no chain of
    its own nor of a verb class can: a thing got may be filed as a device, a vehicle, a hobby or a
    job; a kind one joins as a hobby or a job; a service (a dentist, an insurer) as none of them."""
    if asked in STATE_ATTRIBUTES:
        return ()
    if joined_kind(asked):  # (before a service: a gym is joined, and may be a hobby)
        return ("employer", "hobby")
    return () if _SERVED.search(asked) else _LOOSE


def holders(asked: str) -> tuple[str, ...]:
    """The verb classes whose states can be of slot ``asked``, most likely first: a named
    attribute's own (``_HELD_BY``); a kind one joins is joined or gone to, never bought; a service
    or a place one goes to (a dentist, an insurer, a cafe) is gone to or joined, never bought; any
    other open-ended kind may be got, gone to or joined."""
    if asked in STATE_ATTRIBUTES:
        return (*(c for c in ("possession", "membership", "patronage") if asked in _HELD_BY[c]), "change")
    if joined_kind(asked):
        return ("membership", "patronage", "change")
    if _SERVED.search(asked):
        return ("patronage", "membership", "change")
    return ("possession", "patronage", "membership", "change")


def outright(asked: str, label: str) -> bool:
    """Every state of verb class ``label`` is of named attribute ``asked`` (a thing got is of the
    kinds ``_HELD_BY`` lists for possession); a state of any other pair must name the kind
    (``names_kind``) to be of it."""
    return asked in _HELD_BY.get(label, frozenset())


def kind_words(asked: str) -> frozenset[str]:
    """The words of slot ``asked`` that tell its kind: "coffee" of "coffee_place"."""
    return frozenset(asked.split("_")) - _VAGUE


def names_kind(text: str, asked: str) -> bool:
    """``text`` names the kind of slot ``asked`` by a word of it, a word counting when it begins
    one of the text ("my new dentist", "Dr. Ibsen, her dentist", "the dentist's") or is another
    spelling of it ("her GP" of a doctor)."""
    words = [w for w in kind_words(asked) if w]
    if any(re.search(rf"(?<![\w-]){re.escape(w)}", text, re.IGNORECASE) for w in words):
        return True
    others = [spelled for w in words if (spelled := spelled_otherwise(w))]
    return any(re.search(rf"(?<![\w-])(?:{o})(?![\w-])", text, re.IGNORECASE) for o in others)


def head(value: str) -> str:
    """The last word of a name, lower-case and singular ("Quayside Banks" -> "bank")."""
    word = value.split()[-1].casefold()
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


# honorifics that open a person's name ("Dr. Ames"): a closed class of words, not of names
TITLE_WORDS = r"(?:dr|doctor|mr|mrs|ms|mx|miss|prof|professor)"
_TITLED = re.compile(rf"^{TITLE_WORDS}\.?\s", re.IGNORECASE)
_TITLE_IN = re.compile(rf"\b{TITLE_WORDS}\.?\s", re.IGNORECASE)


def type_words(value: str, text: str = "") -> frozenset[str]:
    """What kind of name ``value`` is, by its words: the title that opens it, in the value or right
    before it in ``text`` ("dr" of "Dr. Ames"), else the head noun that ends a name of several
    words ("harrier" of "Saltholm Harriers"); none for a name of one word."""
    titled = _TITLED.match(value)
    if titled is None and _TITLE_IN.search(text) is not None:  # (a text with no title names none)
        titled = re.search(rf"\b{TITLE_WORDS}\.?\s+{re.escape(value)}", text, re.IGNORECASE)
    if titled is not None:
        return frozenset({titled.group(0).split()[0].rstrip(".").casefold()})
    return frozenset({head(value)}) if len(value.split()) > 1 else frozenset()
