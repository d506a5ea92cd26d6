"""Names in a question typed all in lower case ("after priya left magnetic hill mapping, where did
she work"): the temporal parse finds names by their capitals, so such a question names no one.

:func:`recased` writes a run of the question's words as a name where the forest's own texts write
it so: the texts of the facts the query's recall found best (:func:`recalled_texts`, read by
``retrieval.service``). A run is a name when the texts write all its words capitalised and never
in lower case, inside a sentence ("... and Priya left"), or opening sentences of two texts or
more (a name that only ever opens a sentence). One word is a name only alone or first in the
texts' capitalised run ("Millaray" of "Millaray Curiñir"; "Bank" of "Corbel Bank" is none), and
never when it names a kind of state ("dentist", "bank"). A run that starts or ends with a
stopword is none ("after", "my"), nor is "i". Words are compared without their accents, as people
type names who leave them out ("ciaran" is the texts' "Ciarán").
"""

from __future__ import annotations

import itertools
import re
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from memforest.attributes import ATTRIBUTE_WORDS
from memforest.retrieval.temporal.kind_words import service_kind
from memforest.store import temporal as store
from memforest.store.sql import Conn
from memforest.text.lexicon import COMMON_VERBS, ENTITY_EXCLUDE, IRREGULAR_PAST, STOPWORDS, folded
from memforest.text.state_words import KIN

# a word: letters (any script), with inner apostrophes and hyphens ("o'neill")
_WORD = re.compile(r"[^\W\d_](?:[\w'\u2019-]*[^\W_])?")
_FIRST_PERSON = frozenset({"i", "i'm", "i've", "i'd", "i'll"})
# the recalled facts, best first by each of the vector and full-text channels, whose texts a
# question typed in lower case is read against
TEXTS_PER_CHANNEL = 16
# the longest run of words read as one name, and the question's words read at most
MAX_RUN = 4
MAX_WORDS = 40
# a capital after these opens a sentence: it says nothing of a name
_SENTENCE_START = re.compile(r"(?:^|[.!?:;\"\u201c]\s*|\n\s*)$")
# a word that opens sentences as often as it names anything, or that names a kind of state
_PLAIN_WORD = re.compile(r"(?i:.*(?:ed|ing|ly))$")
_NOT_NAMES = (
    frozenset(w for words in ATTRIBUTE_WORDS.values() for w in words if " " not in w)
    | COMMON_VERBS
    | IRREGULAR_PAST
    | frozenset(w.casefold() for w in ENTITY_EXCLUDE)
    | frozenset(w.replace("\\", "") for w in KIN.split("|"))
)


def uncased(question: str) -> bool:
    """``question`` has letters and none of them is a capital, the word "I" aside."""
    words = [w for w in _WORD.findall(question) if w.casefold() not in _FIRST_PERSON]
    return bool(words) and not any(w[0].isupper() for w in words)


@dataclass
class _Written:
    """How a set of texts writes runs of words (folded word tuples): capitalised inside a
    sentence, capitalised only opening one (with the texts that do), or in lower case."""

    inside: dict[tuple[str, ...], str] = field(default_factory=dict)
    opening: dict[tuple[str, ...], tuple[str, set[int]]] = field(default_factory=dict)
    common: set[tuple[str, ...]] = field(default_factory=set)

    def add(self, k: int, text: str) -> None:
        words = list(_WORD.finditer(text))
        capital = [w[0][0].isupper() for w in words]
        keys = [folded(_bare(w[0])) for w in words]  # (each word as compared: folded, no possessive)
        for i in range(len(words)):
            for n in range(1, MAX_RUN + 1):
                run = words[i : i + n]
                if len(run) < n or any(text[a.end() : b.start()].strip() for a, b in itertools.pairwise(run)):
                    break  # (the run ends at punctuation: "Koy. Tuesdays" is no run)
                key = tuple(keys[i : i + n])
                if not all(capital[i : i + n]):
                    self.common.add(key)
                    continue
                if n == 1 and _after_a_capital(text, words, capital, i):
                    continue  # (one word is a name alone or first in a run: "Bank" of "Corbel Bank" is none)
                written = text[run[0].start() : run[-1].start() + len(_bare(run[-1][0]))]
                if _SENTENCE_START.search(text[: run[0].start()]):
                    self.opening.setdefault(key, (written, set()))[1].add(k)
                else:
                    self.inside.setdefault(key, written)

    def name(self, key: tuple[str, ...]) -> str | None:
        """How the texts write ``key`` as a name, or None (module docstring)."""
        if key in self.common or (len(key) == 1 and _plain(key[0])):
            return None
        if key in self.inside:
            return self.inside[key]
        written, texts = self.opening.get(key, ("", set()))
        return written if len(texts) >= 2 else None


def _bare(word: str) -> str:
    """``word`` without a possessive ending ("Ciarán's" -> "Ciarán")."""
    return word[:-2] if word.endswith(("'s", "\u2019s")) and len(word) > 2 else word


def _after_a_capital(text: str, words: list[re.Match[str]], capital: list[bool], i: int) -> bool:
    """Word ``i`` follows another capitalised word with only spaces between ("Bank" of "Corbel
    Bank"; not "Millaray" of "Millaray Curiñir", a first name)."""
    return i > 0 and capital[i - 1] and not text[words[i - 1].end() : words[i].start()].strip()


def recased(question: str, texts: Sequence[str]) -> str:
    """``question`` with each run of its first :data:`MAX_WORDS` words that ``texts`` write as a
    name written as they write it, longest runs first; the rest as it was."""
    seen = _Written()
    for k, text in enumerate(texts):
        seen.add(k, text)
    words = list(_WORD.finditer(question))[:MAX_WORDS]
    taken = [False] * len(words)
    edits: list[tuple[int, int, str]] = []
    for size in range(min(MAX_RUN, len(words)), 0, -1):
        for i in range(len(words) - size + 1):
            run = words[i : i + size]
            if any(taken[i : i + size]) or not _nameable(run[0][0], run[-1][0]):
                continue
            written = seen.name(tuple(folded(_bare(w[0])) for w in run))
            if written is not None:
                taken[i : i + size] = [True] * size
                edits.append((run[0].start(), run[-1].start() + len(_bare(run[-1][0])), written))
    out = question
    for start, end, written in sorted(edits, reverse=True):
        out = out[:start] + written + out[end:]
    return out


def _plain(word: str) -> bool:
    """``word`` names a kind of state, a relation or an action more often than anyone ("dentist",
    "sister", "switched")."""
    return word in _NOT_NAMES or _PLAIN_WORD.match(word) is not None or service_kind(word) is not None


def _nameable(first: str, last: str) -> bool:
    return all(w.casefold() not in STOPWORDS and w.casefold() not in _FIRST_PERSON for w in (first, last))


async def recalled_texts(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, sims: Mapping[int, float], lex: Mapping[int, float]
) -> list[str]:
    """The texts of the facts recall found best by the vector channels (``sims``: fact id ->
    cosine) and by the full-text ones (``lex``: fact id -> rank), :data:`TEXTS_PER_CHANNEL` of each."""
    ids = [*sorted(sims, key=sims.__getitem__, reverse=True)[:TEXTS_PER_CHANNEL]]
    ids += sorted(lex, key=lex.__getitem__, reverse=True)[:TEXTS_PER_CHANNEL]
    return await store.texts_by_id(conn, tenant_id, forest_id, list(dict.fromkeys(ids)))
