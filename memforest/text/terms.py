"""Word tokens and the stemmed content terms of a text (what search and the embedder match on)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from memforest.text.lexicon import STOPWORDS
from memforest.text.stem import stem

__all__ = ["content_terms", "stems", "terms", "tokenize"]

# Words: runs of letters/digits (any script), allowing inner apostrophes ("don't", "bob's").
# Numbers keep inner separators ("3.5", "10,000", "2023-05-07" splits on "-" on purpose).
_TOKEN_RE = re.compile(r"\d+(?:[.,]\d+)*|[^\W_]+(?:'[^\W_]+)*")
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "`": "'"})


def tokenize(text: str) -> list[str]:
    """Lowercase word tokens (unicode letters and digits; inner apostrophes kept)."""
    return _TOKEN_RE.findall(text.translate(_APOSTROPHES).lower())


def terms(text: str) -> list[str]:
    """The terms of ``text``: its word tokens that are not stopwords, in order (repeats kept)."""
    return [tok for tok in tokenize(text) if tok not in STOPWORDS]


def stems(words: Iterable[str]) -> list[str]:
    """The stems of ``words`` (terms), in order, without those that stem to nothing or to a stopword."""
    out: list[str] = []
    for word in words:
        s = stem(word)
        if s and s not in STOPWORDS:
            out.append(s)
    return out


def content_terms(text: str) -> list[str]:
    """The terms of ``text`` as their stems (what search and the rerank match on), in order."""
    return stems(terms(text))
