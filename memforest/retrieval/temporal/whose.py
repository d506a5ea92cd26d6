"""Whose a statement is, for the temporal plan: about the subject (``own``), naming them as more
than a relative's owner (``names_itself``, ``names_any``), naming a thing as theirs (``owned``),
the names kin words introduce (``kin_named``), and the value a fact names (``value_of``)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from memforest.retrieval.temporal.doers import other_doer, owner_named
from memforest.retrieval.temporal.memo import per_question
from memforest.store.sql import Row
from memforest.text.change_subjects import third_person_clause
from memforest.text.lexicon import CAPITALS
from memforest.text.state_words import KIN

__all__ = ["kin_named", "names_any", "names_itself", "own", "owned", "value_of"]


def value_of(row: Row, subject: str) -> str | None:
    """The slot's value, else the first entity that is no person: not the subject, not the speaker,
    not a name a kin word introduces ("neighbour Wenna")."""
    if row["value"]:
        return str(row["value"])
    people = {subject.casefold(), str(row.get("speaker") or "").casefold()}
    others = [str(e) for e in row["entities"] or () if str(e).casefold() not in people]
    named = kin_named(str(row["text"]))
    return next((e for e in others if e.casefold() not in named), None)


_KIN_NAME = re.compile(rf"\b(?i:{KIN})s?\s+([{CAPITALS}][\w'-]*(?:\s+[{CAPITALS}][\w'-]*)*)")


@per_question
def kin_named(text: str) -> frozenset[str]:
    """The names a kin word introduces in ``text`` ("neighbour Wenna"), case-folded."""
    return frozenset(m.group(1).casefold() for m in _KIN_NAME.finditer(text))


def owned(text: str, value: str, subject: str) -> bool:
    """``text`` names ``value`` as the subject's own ("my old Kessler", "Ana's trusty Kessler"): a
    statement negating something it did ("my old Kessler wouldn't start") still says they had it."""
    owner = rf"(?:\bmy|\bour|(?<!\w){re.escape(subject)}['\u2019]s)"
    return re.search(rf"{owner}\s+(?:[a-z]+\s+){{0,2}}{re.escape(value)}(?!\w)", text, re.IGNORECASE) is not None


def own(row: Row, subject: str) -> bool:
    """The statement is about ``subject``: it names them (``names_itself``), or they said it and
    it names no relative nor another person as an owner, and no clause of it has a third-person
    pronoun for its subject (the speaker's own "did the intervals with X")."""
    text = str(row["text"])
    if names_itself(text, subject):
        return True
    said = str(row.get("speaker") or "").casefold() == subject.casefold() and row.get("subject") is None
    theirs = owner_named(row, subject) or third_person_clause(text) or other_doer(row, subject)
    return said and _OTHER_PERSON.search(text) is None and not theirs


_OTHER_PERSON = re.compile(rf"^(?:he|she|they|his|her|their)\b|\b(?:{KIN})s?\b", re.IGNORECASE)


def names_any(text: str, names: Sequence[str]) -> bool:
    """``text`` names one of ``names`` as more than a relative's owner (:func:`names_itself`)."""
    return any(names_itself(text, n) for n in names)


@per_question
def names_itself(text: str, subject: str) -> bool:
    """``text`` names ``subject`` other than only as the owner of a relative ("Ysolde's friend
    works at the Dunmere Vets" is the friend's; "Ysolde and her friend ..." is Ysolde's)."""
    own = rf"(?<!\w){re.escape(subject)}(?!\w)(?!['\u2019]s\s+(?:(?:new|old|best|close)\s+)?(?:{KIN})s?\b)"
    return re.search(own, text, re.IGNORECASE) is not None
