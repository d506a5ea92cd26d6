"""The chain a question names by its words alone, when it names neither a kind the parse knows nor a
capitalised value: a value in lower case ("when did I pick up the banjo?") or a word the chain's
label or statements use ("what was I learning?", "who insured me?")."""

from __future__ import annotations

from collections.abc import Sequence

from memforest.retrieval.temporal.memo import per_question
from memforest.retrieval.temporal.state import State
from memforest.text.lexicon import TIME_WORDS
from memforest.text.terms import content_terms, stems

# words of a question's time, and of the parts of a year it may name ("the first quarter of", "Q3")
TIME_STEMS = frozenset(
    stems(TIME_WORDS | {"quarter", "half", "early", "late", "mid", "middle", "start", "beginning", "end", "first",
                        "second", "third", "fourth", "final", "q1", "q2", "q3", "q4"})
)  # fmt: skip


@per_question
def _stems(text: str) -> frozenset[str]:
    return frozenset(content_terms(text))


@per_question
def _with_agents(text: str) -> frozenset[str]:
    """``text``'s stems, each agent noun with its verb's stem beside it ("insurer": insur, which
    "insured" stems to)."""
    stems = _stems(text)
    return stems | {s[:-2] for s in stems if len(s) > 4 and s.endswith(("er", "or"))}


def value_in_terms(labelled: Sequence[tuple[str, State]], terms: Sequence[str]) -> tuple[str, str] | None:
    """(chain label, value) of the newest state whose value's every stem is one of the question's
    ``terms``; None when no value is named so."""
    asked = frozenset(terms)
    for label, state in reversed(labelled):
        stems = _stems(state.value) if state.value else frozenset()
        if stems and stems <= asked:
            return label, state.value or ""
    return None


def chain_sharing_terms(labelled: Sequence[tuple[str, State]], terms: Sequence[str], subject: str) -> str | None:
    """The chain whose label or one of whose statements shares the most of the question's
    ``terms`` (at least one, the subject's own name, numbers and words of time aside; an agent
    noun shares its verb's stem: ``_with_agents``); None when none does or two chains tie."""
    asked = frozenset(_chain_words(tuple(terms))) - _stems(subject)
    best: dict[str, int] = {}
    for label, state in labelled:
        shared = len(asked & (_with_agents(state.text) | _with_agents(label.replace("_", " "))))
        best[label] = max(best.get(label, 0), shared)
    ranked = sorted(best.values(), reverse=True)
    if not ranked or ranked[0] == 0 or (len(ranked) > 1 and ranked[1] == ranked[0]):
        return None
    return next(label for label, n in best.items() if n == ranked[0])


def chain_labelled_by_terms(labelled: Sequence[tuple[str, State]], terms: Sequence[str], asked: str) -> str | None:
    """The chain, other than ``asked``, whose label's words the question's ``terms`` name most
    ("season_ticket" for "which team do I have a season ticket for?"); None when no label shares a
    word or two tie."""
    words = _chain_words(tuple(terms))
    best: dict[str, int] = {}
    for label, _ in labelled:
        if label != asked and label not in best:
            best[label] = len(labels_terms(label, words))
    ranked = sorted(best.values(), reverse=True)
    if not ranked or ranked[0] == 0 or (len(ranked) > 1 and ranked[1] == ranked[0]):
        return None
    return next(label for label, n in best.items() if n == ranked[0])


@per_question
def labels_terms(label: str, terms: tuple[str, ...]) -> frozenset[str]:
    """The question's ``terms`` that are words of chain ``label``."""
    return frozenset(terms) & _stems(label.replace("_", " "))


@per_question
def _chain_words(terms: tuple[str, ...]) -> tuple[str, ...]:
    """The question's ``terms`` that may name a chain: not a number nor a word of time ("2021",
    "quarter", "first": the question's time, not its kind)."""
    return tuple(t for t in terms if not t.isdigit() and t not in TIME_STEMS)
