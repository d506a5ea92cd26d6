"""What the SIMULATED server reads from a prompt: sentences, names, phrases, ``[n]`` markers, dates.

Also the simulation's token count (whitespace tokens) and its deterministic digest of a value.
Nothing here models language; it only copies material out of the prompt.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Iterator
from datetime import date, timedelta
from functools import cached_property
from typing import Any

from memforest.text.sentences import split_sentences

_MARKER_RE = re.compile(r"\[(\d{1,4})\]")
_ISO_DATE_RE = re.compile(r"\b(\d{4}-\d{2}-\d{2})\b")
_WORD_RE = re.compile(r"[A-Za-z][A-Za-z'\-]*")
_STOPWORD_TEXT = (
    "i a an the and or but if then so we you he she it they my your our their me him her us them "
    "this that these those is are was were be been am do does did have has had to of in on at by "
    "for with from as not no yes oh ok okay hi hello hey well also just really very what when where "
    "who why how which user assistant"
)
_STOPWORDS = frozenset(_STOPWORD_TEXT.split())


def prompt_sentences(text: str) -> list[str]:
    """The sentences of a prompt, whitespace-normalised: each line (a turn, a header) split by the
    package's splitter (:func:`memforest.text.sentences.split_sentences`), so a turn without final
    punctuation never runs into the next line."""
    return [" ".join(s.split()) for line in text.split("\n") for s in split_sentences(line)]


class TextSource:
    """Material taken from the last user message: sentences, short phrases, names, markers, dates.

    Sentences, names and phrases are parsed on first use: most answers draw on only some of them,
    and parsing is most of the simulated server's CPU per request."""

    def __init__(self, text: str) -> None:
        self.markers = sorted({int(m) for m in _MARKER_RE.findall(text)})
        self.dates = sorted(set(_ISO_DATE_RE.findall(text)))
        self._clean = _MARKER_RE.sub(" ", text)

    @cached_property
    def sentences(self) -> list[str]:
        """The sentences of two or more words (else the whole text, else a stock sentence)."""
        sentences = [sentence for sentence in prompt_sentences(self._clean) if len(sentence.split()) >= 2]
        return sentences or [" ".join(self._clean.split()) or "Nothing was said."]

    @cached_property
    def names(self) -> list[str]:
        """Capitalised content words not opening their sentence, first occurrence order."""
        return list(dict.fromkeys(word for _, _, word in self._content_words() if word))

    @cached_property
    def phrases(self) -> list[str]:
        """A phrase (:func:`phrase_from`) from every content word, first occurrence order."""
        phrases = [phrase_from(tokens, index) for tokens, index, _ in self._content_words()]
        return list(dict.fromkeys(phrases)) or ["something"]

    def _content_words(self) -> Iterator[tuple[list[str], int, str]]:
        """Each content word as (its sentence's tokens, its index, the word if it is a name else "")."""
        for sentence in self.sentences:
            tokens = sentence.split()
            for index, token in enumerate(tokens):
                word = token.strip(".,;:!?\"'()[]")
                if not _WORD_RE.fullmatch(word) or word.lower() in _STOPWORDS or len(word) < 3:
                    continue
                if token.endswith(":"):
                    continue  # a speaker label, not content
                yield tokens, index, (word if word[0].isupper() and index > 0 else "")

    def sentence(self, rng: random.Random) -> str:
        """One sentence of the text."""
        return rng.choice(self.sentences)

    def short(self, rng: random.Random) -> str:
        """A name from the text, or a 1-3 word phrase copied from one of its sentences."""
        if self.names and rng.random() < 0.7:
            chosen: str = rng.choice(self.names)
        else:
            chosen = rng.choice(self.phrases)
        return chosen

    def iso_date(self, rng: random.Random) -> str:
        """An ISO date from the text, else a random one in 2023-2024."""
        if self.dates:
            chosen: str = rng.choice(self.dates)
            return chosen
        return (date(2023, 1, 1) + timedelta(days=rng.randrange(0, 731))).isoformat()


def phrase_from(tokens: list[str], start: int) -> str:
    """Up to three consecutive tokens from ``start``, stopping at punctuation; edges stripped."""
    picked: list[str] = []
    for token in tokens[start : start + 3]:
        word = token.strip(".,;:!?\"'()[]")
        if not word or (picked and not token.startswith(word)):
            break
        picked.append(word)
        if word != token.rstrip("\"')]"):
            break  # the token carried punctuation: the phrase ends here
    return " ".join(picked)


def last_user_text(messages: list[dict[str, str]]) -> str:
    """The content of the last ``user`` message ("" when there is none)."""
    return next((m["content"] for m in reversed(messages) if m["role"] == "user"), "")


def digest(value: Any) -> int:
    """A stable 64-bit integer digest of a JSON-serialisable value (seeds and ids)."""
    data = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str).encode()
    return int.from_bytes(hashlib.sha256(data).digest()[:8], "big")


def count_tokens(text: str) -> int:
    """Whitespace tokens: the simulation's (documented) approximation of a tokenizer."""
    return len(text.split())


def prompt_token_list(messages: list[dict[str, str]]) -> list[str]:
    """The prompt as the prefix cache sees it: each message's whitespace tokens tagged with its role
    (so that the same words under another role are another prefix); as many tokens as
    :func:`count_tokens` counts over the contents."""
    tokens: list[str] = []
    for message in messages:
        role, words = message["role"], message["content"].split()
        if not words:
            continue
        if "\x1f" in role:
            tokens += [f"{role}\x1d{word}" for word in words]
        else:  # no word holds "\x1f" (whitespace to str.split): tag them all in one join and split
            tokens += (f"{role}\x1d" + f"\x1f{role}\x1d".join(words)).split("\x1f")
    return tokens
