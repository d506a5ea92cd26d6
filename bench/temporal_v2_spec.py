"""The shape of one split of ``bench.temporal_v2`` (:class:`Split`, :class:`Attribute`,
:class:`TimePhrase`) and the small grammar that puts a subject into a template (:func:`render`).

A template is plain text with slots in braces:

* value slots: ``{v}`` the new value, ``{prev}`` the previous one, ``{x}`` a value named in a mood
  sentence or a question, ``{y}`` an anchor value, ``{k}`` a kind (a pet's species), ``{noun}`` the
  attribute's noun, ``{vp}`` the attribute's verb phrase (itself a template), ``{t}`` a time phrase,
  ``{a}`` an anchor phrase;
* subject slots: ``{I}``, ``{me}``, ``{my}``, ``{I'm}``, ``{I've}`` and the agreement slots ``{s}``,
  ``{es}``, ``{do}``, ``{have}``. In the first person they read "I", "me", "my", "I'm", "I've", "",
  "", "do", "have". For another person the first reference names them ("Ilse", "my sister Ilse",
  "my sister") and later ones use the pronoun ("she", "her", "she's"); agreement slots read "s",
  "es", "does", "has".

A benchmark fixture, not real data.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass

# the 14 attribute names MemForest knows (``memforest.attributes``): "named" in the slices; any
# other attribute is "open"
NAMED_ATTRIBUTES = frozenset(
    {
        "residence", "employer", "job", "school", "partner", "pet", "vehicle", "home_type", "diet", "health",
        "hobby", "device", "relationship_status", "origin",
    }
)  # fmt: skip
OPERATORS = ("before", "after", "as_of", "now", "when", "how_long", "in_month", "relative", "during")
MOODS = ("plan", "wish", "hypothetical", "considered", "turned_down", "suggestion", "negation", "nostalgia")


@dataclass(frozen=True, slots=True)
class Attribute:
    """One kind of state a person can be in and change: its name, whether MemForest names it, the
    class of templates that state it, the noun and verb phrase that name it, statements of it by
    consequence (``indirect``, with ``{v}``), and its values (and kinds, ``{k}``)."""

    name: str
    cls: str
    noun: str
    vp: str
    indirect: tuple[str, ...]
    values: tuple[str, ...]
    kinds: tuple[str, ...] = ()

    @property
    def kind(self) -> str:
        return "named" if self.name in NAMED_ATTRIBUTES else "open"


@dataclass(frozen=True, slots=True)
class TimePhrase:
    """A time named in a question. ``kind``: ``ago`` (``months`` back from the question's now,
    one month either side), ``season`` (``months`` is the first month, ``length`` months, of a
    ``{year}``), ``last_season`` (the latest such season that ended before now's month), ``month``
    (a ``{month} {year}``)."""

    text: str
    kind: str
    months: int = 0
    length: int = 1


@dataclass(frozen=True, slots=True)
class Split:
    """Everything one split says: people, attributes and their values, and one field per template
    family. ``start`` / ``switch`` / ``leave`` map an attribute class to its templates (a class
    without ``leave`` templates never ends a state without a successor)."""

    name: str
    users: tuple[str, ...]
    others: tuple[tuple[str, str], ...]  # (name, pronoun)
    relations: tuple[tuple[str, str], ...]  # (word, pronoun or "any")
    attributes: tuple[Attribute, ...]
    start: Mapping[str, tuple[str, ...]]
    switch: Mapping[str, tuple[str, ...]]
    leave: Mapping[str, tuple[str, ...]]
    moods: Mapping[str, tuple[str, ...]]
    questions: Mapping[str, tuple[str, ...]]
    time_phrases: tuple[TimePhrase, ...]
    anchor_attribute: str
    anchor_phrases: tuple[str, ...]
    fillers: tuple[str, ...]
    replies: tuple[str, ...]

    def attribute(self, name: str) -> Attribute:
        return next(a for a in self.attributes if a.name == name)


def words(text: str) -> tuple[str, ...]:
    """Comma-separated values -> tuple (keeps the lists readable)."""
    return tuple(w.strip() for w in text.split(",") if w.strip())


# ------------------------------------------------------------------------------------- grammar

_SLOT = re.compile(r"\{([A-Za-z_']+)\}")
_FIRST = {"I": "I", "me": "me", "my": "my", "I'm": "I'm", "I've": "I've", "s": "", "es": "", "do": "do", "have": "have"}
_AGREE = {"s": "s", "es": "es", "do": "does", "have": "has"}
_PRONOUNS = {
    "she": {"I": "she", "me": "her", "my": "her", "I'm": "she's", "I've": "she's"},
    "he": {"I": "he", "me": "him", "my": "his", "I'm": "he's", "I've": "he's"},
}
SUBJECT_SLOTS = frozenset(_FIRST)
NAMING_SLOTS = frozenset(_PRONOUNS["she"])  # the slots that name the subject ("{s}" only agrees with it)


def names_subject(template: str) -> bool:
    """Whether ``template`` names whose sentence it is (a slot of :data:`NAMING_SLOTS`)."""
    return any(m.group(1) in NAMING_SLOTS for m in _SLOT.finditer(template))


@dataclass(frozen=True, slots=True)
class Voice:
    """Who a sentence is about: the speaker (``first``) or another person, first named ``name``
    ("Ilse", "my sister Ilse", "my sister"), then ``pronoun``."""

    first: bool
    name: str = ""
    pronoun: str = "she"


FIRST_PERSON = Voice(first=True)


def render(template: str, voice: Voice, values: Mapping[str, str]) -> str:
    """``template`` with its slots filled (``{vp}`` first, so its own slots are filled too)."""
    text = template.replace("{vp}", values.get("vp", "{vp}"))
    named = False

    def fill(m: re.Match[str]) -> str:
        nonlocal named
        key = m.group(1)
        if key in values and key != "vp":
            return values[key]
        if key not in SUBJECT_SLOTS:
            raise KeyError(f"no value for {{{key}}} in {template!r}")
        if voice.first:
            return _FIRST[key]
        if key in _AGREE:
            return _AGREE[key]
        if not named:
            named = True
            return {"I": voice.name, "me": voice.name, "my": f"{voice.name}'s", "I'm": f"{voice.name} is",
                    "I've": f"{voice.name} has"}[key]  # fmt: skip
        return _PRONOUNS[voice.pronoun][key]

    out = _SLOT.sub(fill, text)
    return out[:1].upper() + out[1:]


# --------------------------------------------------------------------------- disjointness

GENERIC_TOKENS = frozenset({"dr", "the", "and", "on", "of", "a", "s"})  # may appear in both splits' values


def templates(split: Split) -> set[str]:
    """Every template of a split: statements, moods, questions, time and anchor phrases, chatter,
    and each attribute's verb phrase and indirect statements."""
    out: set[str] = set()
    for family in (split.start, split.switch, split.leave, split.moods, split.questions):
        out.update(t for group in family.values() for t in group)
    out.update(p.text for p in split.time_phrases)
    out.update(split.anchor_phrases + split.fillers + split.replies)
    for a in split.attributes:
        out.update((a.vp, *a.indirect))
    return out


def vocabulary(split: Split) -> set[str]:
    """Every value a split fills in: people, relations, attribute values and kinds."""
    out = set(split.users) | {n for n, _ in split.others} | {r for r, _ in split.relations}
    for a in split.attributes:
        out.update(a.values + a.kinds)
    return out


def tokens(text: str) -> set[str]:
    """Lower-case word tokens, a trailing plural ``s`` dropped, generic words left out."""
    out = set()
    for w in re.findall(r"[a-z0-9]+", text.lower()):
        w = w[:-1] if len(w) > 3 and w.endswith("s") else w
        if w not in GENERIC_TOKENS:
            out.add(w)
    return out


def mentions(phrase: str, text: str) -> bool:
    """Whether ``phrase`` occurs in ``text`` as whole words (any case)."""
    return re.search(rf"(?<![A-Za-z0-9]){re.escape(phrase.lower())}(?![A-Za-z0-9])", text.lower()) is not None


def overlap(a: Split, b: Split, similar: float = 0.8) -> dict[str, list[str]]:
    """What two splits share (every list must be empty): templates (equal, or ``similar`` by
    difflib's ratio), values (equal, or sharing a word token), values of one found in the other's
    templates, attributes (by name, or by noun in the other's templates)."""
    ta, tb, va, vb = templates(a), templates(b), vocabulary(a), vocabulary(b)
    near = [f"{x!r} ~ {y!r}" for x in sorted(ta) for y in sorted(tb)
            if difflib.SequenceMatcher(None, x, y).ratio() >= similar]  # fmt: skip
    shared_tokens = set().union(*map(tokens, va)) & set().union(*map(tokens, vb))
    text_a, text_b = "\n".join(sorted(ta)), "\n".join(sorted(tb))
    return {
        "templates": sorted(ta & tb),
        "similar_templates": near,
        "values": sorted(va & vb),
        "value_tokens": sorted(shared_tokens),
        "values_in_other_templates": sorted(v for v in va if mentions(v, text_b))
        + sorted(v for v in vb if mentions(v, text_a)),
        "attributes": sorted({x.name for x in a.attributes} & {y.name for y in b.attributes}),
        "attribute_nouns_in_other_templates": sorted(x.noun for x in b.attributes if mentions(x.noun, text_a)),
    }
