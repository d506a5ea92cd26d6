"""Whether a statement is another person's: it names someone else as an owner, or as the doer of
one of its verbs."""

from __future__ import annotations

import re

from memforest.retrieval.temporal.memo import per_question
from memforest.store.sql import Row
from memforest.text.change_subjects import subjects_named

__all__ = ["other_doer", "owner_named"]


def owner_named(row: Row, subject: str) -> bool:
    """The statement names another of its entities as an owner ("..., Wenna's knees gave out")."""
    text = str(row["text"])
    if "'s" not in text and "\u2019s" not in text:
        return False
    others = tuple(str(e) for e in row["entities"] or () if str(e).casefold() != subject.casefold())
    return _owner_among(text, others)


def other_doer(row: Row, subject: str) -> bool:
    """A person other than ``subject`` is the subject of one of the statement's verbs ("Funny
    timing, Maja switched dentists too"), whether or not its entities list them (a name opening a
    sentence often is none): what it states is theirs."""
    return any(name.casefold() != subject.casefold() for name in subjects_named(str(row["text"]), subject))


@per_question
def _owner_among(text: str, names: tuple[str, ...]) -> bool:
    return any(re.search(rf"(?<!\w){re.escape(e)}['\u2019]s\s+[a-z]", text) for e in names)
