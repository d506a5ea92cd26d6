"""The question of a query, analysed once: every stage of the read path reads it from here.

A *term* of a question is one of its word tokens that is not a stopword (``memforest.text.terms.terms``,
the definition a document's terms use too). The stages spell the same terms three ways:
``search_terms`` (``to_tsquery`` lexemes), ``entity_keys`` (entity trees' keys) and ``rerank_terms``
(stems, as the rerank matches documents).

Analysis is bounded: it reads the first :data:`~memforest.retrieval.timecues.CUE_PREFIX_CHARS`
characters (cut at a space) and keeps at most :data:`MAX_SEARCH_TERMS` search terms, so the full-text
channels' term pairs stay few whatever the question's length. The embedding reads the whole text
(less the time it names, when it asks for a state as of that time: ``Question.matched_text``).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from memforest.errors import InputError
from memforest.retrieval.breadth import asks_for_several
from memforest.retrieval.temporal.casing import recased, uncased
from memforest.retrieval.temporal.parse import TemporalQuestion, parse_question
from memforest.retrieval.temporal.stative import asks_what_held
from memforest.retrieval.timecues import (
    CueReading,
    TimeCues,
    asked_part,
    cue_prefix,
    names_a_day,
    read_time_cues,
    without_times,
)
from memforest.text.lexicon import CAPITALS, MONTH_NAMES, STOPWORDS, WEEKDAY_NAMES
from memforest.text.terms import stems, terms

__all__ = ["MAX_SEARCH_TERMS", "Question", "without_names"]

# the full-text channels read every pair of search terms: this many terms make at most 276 pairs
MAX_SEARCH_TERMS = 24
_LEXEME_JUNK = re.compile(r"[^a-z0-9]+")
# a name: a capitalised word that does not start a sentence, with an optional possessive
_NAME = re.compile(rf"(?<!^)(?<![.?!] )\b(?P<word>[{CAPITALS}][a-z]+)(?P<possessive>'s)?\b")
# capitalised words that name no one: the calendar's words and honorific titles
_NO_NAME = frozenset({*MONTH_NAMES, *WEEKDAY_NAMES, "Dr", "Mr", "Mrs", "Ms", "Mx", "Prof"})


def without_names(text: str) -> str:
    """``text`` with each name said as "they" ("their" for a possessive): a capitalised word that
    does not start a sentence, is no calendar word or title, and is not written next to another
    such word (:func:`_in_runs`). With a real embedding model the question's vector is a weighted
    mean of the question's and this text's (ADR 0068, 0069): the names asked about are mostly a
    conversation's speakers', which many of its facts carry, and the mean leans the vector toward
    what is asked; the full-text and entity-label channels still match the names themselves."""
    named = [m for m in _NAME.finditer(text) if m["word"] not in _NO_NAME]
    kept = _in_runs(text, named)
    out, at = [], 0
    for m in named:
        if m.start() not in kept:
            out += [text[at : m.start()], "their" if m["possessive"] else "they"]
            at = m.end()
    return "".join([*out, text[at:]])


def _in_runs(text: str, named: list[re.Match[str]]) -> set[int]:
    """The starts of the capitalised words written next to another one ("Star Wars", "New York",
    "The Alchemist", a full name): a run names a title, a place or an organisation more often than
    a person asked about by first name, and is kept as written."""
    kept: set[int] = set()
    for a, b in itertools.pairwise(named):
        if not a["possessive"] and text[a.end() : b.start()] == " ":
            kept.update((a.start(), b.start()))
    return kept


def _search_terms(words: list[str]) -> tuple[str, ...]:
    """Terms as ``to_tsquery`` lexemes: ASCII letters and digits, two or more, once each."""
    out: list[str] = []
    for term in words:
        lexeme = _LEXEME_JUNK.sub("", term)
        if len(lexeme) < 2 or lexeme in STOPWORDS or lexeme in out:
            continue
        out.append(lexeme)
        if len(out) == MAX_SEARCH_TERMS:
            break
    return tuple(out)


@dataclass(frozen=True, slots=True)
class AskedAs:
    """What a question's temporal parse read it with: when it is asked (``now``), whether the query
    has an as_of, who asks (``speaker``) and the time the query itself says (``asked_at``)."""

    now: datetime
    has_as_of: bool
    speaker: str | None
    asked_at: datetime | None


@dataclass(frozen=True, slots=True)
class Question:
    """A question as every stage reads it.

    ``text``: whitespace-normalised, what is shown; ``matched_text``: what is embedded and whose
    words are matched: the text, less the time it names when it asks for a state as of that time
    (``held_at_time``; the time is then the window, :meth:`TimeCues.up_to_end`); ``search_terms``: the full-text
    channels' lexemes; ``entity_keys``: sorted casefolded terms, matched to entity trees' keys;
    ``rerank_terms``: stems for the rerank's term overlap; ``temporal``: the temporal parse
    (operator, attribute, names, anchors); ``cues_now``: the time cues read against the query's
    present (as_of, else now), whose ``anchor_text`` is embedded with the question; ``several``: it
    asks for a set of things or its size (:func:`~memforest.retrieval.breadth.asks_for_several`);
    ``held_at_time``: it asks what held at the time it names (``stative.asks_what_held``), not what
    happened then; ``asked_as``: what the temporal parse read it with (:meth:`with_names_of` reads it again);
    ``reading``: its time cues as found in its text, read against each forest's "now" by :meth:`cues`."""

    text: str
    matched_text: str
    search_terms: tuple[str, ...]
    entity_keys: tuple[str, ...]
    rerank_terms: tuple[str, ...]
    temporal: TemporalQuestion
    held_at_time: bool
    cues_now: TimeCues
    asked_as: AskedAs
    reading: CueReading
    several: bool = False

    @classmethod
    def parse(
        cls, text: str, *, now: datetime, has_as_of: bool, speaker: str | None = None, asked_at: datetime | None = None
    ) -> Question:
        """Analyse ``text`` once (InputError when it has no words at all); ``now``: when it is
        asked; ``speaker``: who asks (whom its "I" and "my" name); ``asked_at``: that time when the
        query gives it (its ``now`` or ``as_of``), else None."""
        text = " ".join(text.split())
        if not text:
            raise InputError("question must not be empty", location="question")
        reading = read_time_cues(text)  # (it reads the question's cue prefix itself)
        cues_now = reading.against(now)
        asked_as = AskedAs(now, has_as_of, speaker, asked_at)
        temporal = _temporal(asked_part(text), asked_as, cues_now)
        held, matched = False, text
        if temporal.asks_state_at_time and not names_a_day(text, now):  # (the rest read only then)
            untimed = without_times(text, now)  # (the verb is read without the time: "In May, which X did I have?")
            held = asks_what_held(asked_part(untimed))
            matched = untimed if held else text
        analysed = cue_prefix(matched)
        words = terms(analysed)
        return cls(
            text=text,
            matched_text=matched,
            search_terms=_search_terms(words),
            entity_keys=tuple(sorted({t.casefold() for t in words} - STOPWORDS)),
            rerank_terms=tuple(stems(words)),  # (as the rerank stems documents: text.terms.content_terms)
            temporal=temporal,
            held_at_time=held,
            cues_now=cues_now,
            asked_as=asked_as,
            reading=reading,
            several=asks_for_several(analysed),
        )

    @property
    def uncased(self) -> bool:
        """The question is typed all in lower case ("I" aside): its temporal parse found no names
        by their capitals (:meth:`with_names_of`)."""
        return uncased(asked_part(self.text))

    def with_names_of(self, texts: Sequence[str]) -> Question:
        """The question with its temporal part read again after writing the runs of its words that
        ``texts`` write as names as they write them (``casing.recased``), when it is typed all in
        lower case and they name any; else itself."""
        asked = asked_part(self.text)
        if not uncased(asked):
            return self
        cased = recased(asked, texts)  # (``held_at_time`` stays as read from the question as typed)
        return self if cased == asked else replace(self, temporal=_temporal(cased, self.asked_as, self.cues_now))

    @property
    def anchor_text(self) -> str | None:
        """The event of "before/after <event>" as read against the query's present, or None."""
        return self.cues_now.anchor_text

    def cues(self, now: datetime) -> TimeCues:
        """The time cues read against ``now`` (the forest's latest session, when the query names
        no as_of): relative phrases ("last week") resolve against it; a question ``held_at_time``
        keeps only the window's end (:meth:`TimeCues.up_to_end`)."""
        cues = self.reading.against(now)
        return cues.up_to_end() if self.held_at_time else cues


def _temporal(asked: str, asked_as: AskedAs, cues_now: TimeCues) -> TemporalQuestion:
    """The temporal parse of the asked part of a question (``timecues.asked_part``)."""
    return parse_question(
        asked, has_as_of=asked_as.has_as_of, speaker=asked_as.speaker, now=asked_as.now,
        window=(cues_now.after, cues_now.before), asked_at=asked_as.asked_at,
    )  # fmt: skip
