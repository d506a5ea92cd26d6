"""Names in a question typed all in lower case ("after priya left magnetic hill mapping, where did
she work"): the temporal parse finds names by their capitals, so such a question names no one.

:func:`recased` writes a run of the question's words as a name where the forest's own texts write
it so: the texts the query's recall found (``resolve.recased_question`` reads them). A run is a
name when some text writes every word of it with a capital inside a sentence ("... and Priya
left"), or when every text that has it writes it so (a name that only ever opens a sentence).
A run that starts or ends with a stopword is none ("after", "my", "the"), nor is the word "i".
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Mapping, Sequence

from memforest.store import temporal as store
from memforest.store.sql import Conn
from memforest.text.lexicon import COMMON_VERBS, ENTITY_EXCLUDE, IRREGULAR_PAST, STOPWORDS

# a word of a question: letters (any script), with inner apostrophes and hyphens ("o'neill")
_WORD = re.compile(r"[^\W\d_](?:[\w'\u2019-]*[^\W_])?")
_UPPER = re.compile(r"[^\W\d_]")
_FIRST_PERSON = frozenset({"i", "i'm", "i've", "i'd", "i'll"})
# the recalled facts, best first by each of the vector and full-text channels, whose texts a
# question typed in lower case is read against
TEXTS_PER_CHANNEL = 16
# the longest run of words read as one name
MAX_RUN = 4
# a capital after these opens a sentence: it says nothing of a name
_SENTENCE_START = re.compile(r"(?:^|[.!?:;\"\u201c]\s*|\n\s*)$")
# a word that opens sentences as often as it names anything
_PLAIN_WORD = re.compile(r"(?i:.*(?:ed|ing|ly))$")


def uncased(question: str) -> bool:
    """``question`` has letters and none of them is a capital, the word "I" aside."""
    words = [w for w in _WORD.findall(question) if w.casefold() not in _FIRST_PERSON]
    return bool(words) and not any(_UPPER.match(w) and w[0].isupper() for w in words)


def recased(question: str, texts: Sequence[str]) -> str:
    """``question`` with each run of its words that ``texts`` write as a name written as they
    write it, longest runs first; the rest as it was."""
    words = list(_WORD.finditer(question))
    taken = [False] * len(words)
    out = question
    edits: list[tuple[int, int, str]] = []
    for size in range(min(MAX_RUN, len(words)), 0, -1):
        for i in range(len(words) - size + 1):
            run = words[i : i + size]
            if any(taken[i : i + size]) or not _nameable(run[0][0], run[-1][0]):
                continue
            written = _as_written(question[run[0].start() : run[-1].end()], texts)
            if written is not None:
                taken[i : i + size] = [True] * size
                edits.append((run[0].start(), run[-1].end(), written))
    for start, end, written in sorted(edits, reverse=True):
        out = out[:start] + written + out[end:]
    return out


def _nameable(first: str, last: str) -> bool:
    return all(w.casefold() not in STOPWORDS and w.casefold() not in _FIRST_PERSON for w in (first, last))


def _as_written(run: str, texts: Sequence[str]) -> str | None:
    """How ``texts`` write ``run`` as a name (every word capitalised), or None when they do not
    (see the module's docstring)."""
    words = run.split()
    pattern = re.compile(r"(?<![\w'])" + r"\s+".join(re.escape(w) for w in words) + r"(?![\w'])", re.IGNORECASE)
    inside: str | None = None
    opening: str | None = None
    for text in texts:
        for m in pattern.finditer(text):
            found = m.group(0)
            if not all(w[0].isupper() for w in found.split()):
                return None  # (written in lower case somewhere: a common word)
            if _SENTENCE_START.search(text[: m.start()]):
                opening = opening or found
            else:
                inside = inside or found
    if inside is not None:
        return inside
    plain = len(words) == 1 and (_PLAIN_WORD.match(run) or run.casefold() in COMMON_VERBS | IRREGULAR_PAST | _EXCLUDED)
    return None if plain else opening


_EXCLUDED = frozenset(w.casefold() for w in ENTITY_EXCLUDE)


async def recalled_texts(
    conn: Conn, tenant_id: uuid.UUID, forest_id: int, sims: Mapping[int, float], lex: Mapping[int, float]
) -> list[str]:
    """The texts of the facts recall found best by the vector channels (``sims``: fact id ->
    cosine) and by the full-text ones (``lex``: fact id -> rank), :data:`TEXTS_PER_CHANNEL` of each."""
    ids = [*sorted(sims, key=sims.__getitem__, reverse=True)[:TEXTS_PER_CHANNEL]]
    ids += sorted(lex, key=lex.__getitem__, reverse=True)[:TEXTS_PER_CHANNEL]
    return await store.texts_by_id(conn, tenant_id, forest_id, list(dict.fromkeys(ids)))
