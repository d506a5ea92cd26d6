"""One person told of by name in some statements and by relation in others ("Kasimir", "my
cousin") with nothing saying they are one: the statements join them when one of the two leaves a
value the other was said to hold ("Kasimir joined the Larchmont Harriers", later "my cousin moved
over from the Larchmont Harriers to ..."). One can leave only what one holds, so the relative who
leaves the named person's club is that person; a relative who merely holds the same value (two
people in one club) is nobody's other name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memforest.retrieval.temporal.chains import named_values
from memforest.store.sql import Row
from memforest.text.mood import leaves

__all__ = ["PARTNER_VALUES", "partner_values", "value_partner"]

PARTNER_VALUES = 8  # the values of a person's statements looked up in others' states, at most


def partner_values(person: str, texts: Sequence[str]) -> list[str]:
    """The names ``texts`` (the statements naming ``person``, newest first) give besides the
    person and their owner, the newest :data:`PARTNER_VALUES` of them."""
    skip = (person, person.split("'s ", 1)[0])
    found: dict[str, None] = {}  # (in the order first found; later texts cannot change the first ones)
    for text in texts:
        found.update(dict.fromkeys(named_values(text, skip)))
        if len(found) >= PARTNER_VALUES:
            break
    return list(found)[:PARTNER_VALUES]


def value_partner(person: str, rows: Sequence[Row]) -> str | None:
    """The one other subject of ``rows`` (slot facts naming the person's values, oldest first) who
    is ``person`` by another name: of the other form (a relation for a name, a name for a
    relation), not their own relative, and one of the two left a value the other held before. None
    when no one or more than one is."""
    own = person.casefold()
    mine = [r for r in rows if str(r["subject"]).casefold() == own]
    theirs: dict[str, list[Row]] = {}
    for r in rows:
        other = str(r["subject"])
        if _other_form(own, other.casefold()):
            theirs.setdefault(other, []).append(r)
    found = [other for other, rs in theirs.items() if _continues(mine, rs) or _continues(rs, mine)]
    return found[0] if len(found) == 1 else None


def _other_form(person: str, other: str) -> bool:
    """``other`` may be ``person`` by another name: one is a relation ("ana's cousin"), the other a
    name, and the relation is no relative of the name's own."""
    if other == person or (("'s " in person) == ("'s " in other)):
        return False
    relation, name = (person, other) if "'s " in person else (other, person)
    return relation.split("'s ", 1)[0] != name


def _continues(holding: Sequence[Row], leaving: Sequence[Row]) -> bool:
    """A statement of ``leaving`` leaves a value a statement of ``holding`` held before it."""
    return any(
        h["value"]
        and h["valid_from"] <= r["valid_from"]
        and str(r["value"] or "").casefold() != str(h["value"]).casefold()
        and left(str(r["text"]), str(h["value"]))
        for h in holding
        for r in leaving
    )


def left(text: str, value: str) -> bool:
    """``text`` leaves ``value``: switches from it ("moved over from X to Y") or ends it ("sold his
    X", "quit X")."""
    if re.search(
        rf"\b(?:from|quit|left|sold)\s+(?:(?:the|my|his|her|their)\s+)?{re.escape(value)}\b", text, re.IGNORECASE
    ):
        return True
    found = re.search(rf"(?<![\w']){re.escape(value)}(?![\w'])", text, re.IGNORECASE)
    return found is not None and leaves(text, found.start())
