"""The literal gate: the strings a pattern's every match contains, and that it never turns away a
text its pattern matches (random patterns and strings; the extractor's own patterns on the
sentences of this test suite, as written and with their case swapped); a family's gates read
together open exactly the patterns each gate alone would."""

from __future__ import annotations

import ast
import functools
import random
import re
from pathlib import Path

import pytest

from memforest.text import change_common, change_grammar, states
from memforest.text.literal_gate import Literals, gates, literals, may_match, probe


def test_an_alternation_of_verbs_needs_one_of_them_in_any_case() -> None:
    found = literals(re.compile(r"(?:(?P<subj>[A-Z]\w+)\s+)?\b(?i:joined|signed\s+up\s+with)\s+(?P<v>[A-Z]\w+)"))
    assert found == Literals(exact=(), folded=("joined", "signed"))
    assert may_match(found, probe("Then Ana SIGNED up with Corvid."))
    assert not may_match(found, probe("Ana went to Corvid with a friend."))


def test_a_case_sensitive_literal_is_matched_as_written() -> None:
    found = literals(re.compile(r"\bFrom\s+(?P<v>\w+)"))
    assert found == Literals(exact=("From",), folded=())
    assert not may_match(found, probe("from Leeds"))
    assert may_match(found, probe("From Leeds"))


def test_the_rarest_part_of_a_sequence_is_taken() -> None:
    found = literals(re.compile(r"\b(?i:at)\s+\w+\s+(?i:instead)\s+of\b"))
    assert found == Literals(exact=(), folded=("instead",))


def test_a_pattern_that_may_match_without_a_long_literal_has_no_gate() -> None:
    assert literals(re.compile(r"(?:joined|)\s+\w+")) is None  # a branch that needs nothing
    assert literals(re.compile(r"(?:joined)?\s*\w+")) is None  # optional
    assert literals(re.compile(r"(?:joined)*\w+")) is None  # taken zero times
    assert literals(re.compile(r"\b(?:at|on)\s+\w+")) is None  # too short to be rare
    assert literals(re.compile(r"[A-Z]\w+")) is None
    assert may_match(None, probe("anything"))


def test_a_repetition_taken_at_least_once_and_an_atomic_group_keep_their_literals() -> None:
    assert literals(re.compile(r"(?:moving\s+)+to")) == Literals(exact=("moving",), folded=())
    assert literals(re.compile(r"(?>moved)\s+\w+")) == Literals(exact=("moved",), folded=())


def test_a_case_insensitive_region_turned_off_inside_is_case_sensitive() -> None:
    found = literals(re.compile(r"(?i:moved\s+to\s+(?-i:Leeds))"))
    assert found == Literals(exact=(), folded=("moved",))
    found = literals(re.compile(r"(?-i:Leeds)", re.IGNORECASE))
    assert found == Literals(exact=("Leeds",), folded=())


def test_a_text_that_is_not_ascii_passes_every_gate() -> None:
    # U+212A KELVIN SIGN matches "k" case-insensitively in Unicode: no substring test may judge it
    found = literals(re.compile(r"(?i:kayak)"))
    text = probe("\u212aayak club")
    assert re.search(r"(?i:kayak)", text.text) is not None
    assert may_match(found, text)


def _random_pattern(rng: random.Random, depth: int = 0) -> str:
    parts = []
    for _ in range(rng.randint(1, 4)):
        roll = rng.random()
        if roll < 0.35 or depth > 2:
            parts.append("".join(rng.choice("abcAB") for _ in range(rng.randint(1, 4))))
        elif roll < 0.5:
            parts.append(rng.choice([r"\b", r"\s*", r"\w", r"[ab]", r"(?=a)", r"(?<!b)", "."]))
        elif roll < 0.7:
            body = "|".join(_random_pattern(rng, depth + 1) for _ in range(rng.randint(1, 3)))
            parts.append("(?" + rng.choice([":", "i:", "-i:"]) + body + ")")
        elif roll < 0.85:
            parts.append(
                "(?:" + _random_pattern(rng, depth + 1) + ")" + rng.choice(["?", "*", "+", "{2}", "{0,2}", "+?"])
            )
        else:
            parts.append("(?>" + _random_pattern(rng, depth + 1) + ")")
    return "".join(parts)


def test_random_patterns_never_turn_away_a_text_they_match() -> None:
    rng = random.Random(4172)
    checked = 0
    for _ in range(1500):
        source = _random_pattern(rng)
        flags = re.IGNORECASE if rng.random() < 0.3 else 0
        try:
            pattern = re.compile(source, flags)
        except re.error:
            continue
        found = literals(pattern)
        for _ in range(30):
            text = "".join(rng.choice("abcAB  ") for _ in range(rng.randint(0, 14)))
            if pattern.search(text) is not None:
                checked += 1
                assert may_match(found, probe(text)), (source, flags, text)
    assert checked > 5000  # (the strings do hit the patterns)


@functools.cache
def _suite_sentences() -> tuple[str, ...]:
    """The sentences written in this suite's unit tests (string constants with a space)."""
    out: set[str] = set()
    for path in sorted(Path(__file__).parent.glob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            text = node.value if isinstance(node, ast.Constant) else None
            if isinstance(text, str) and " " in text and 10 < len(text) < 400:
                out.add(text)
    return tuple(sorted(out))


_GATED = (
    [regex for regex, _ in change_grammar.GENERIC]
    + list(change_grammar.NAMED)
    + [cue for _, cue, _ in states._READERS]
    + [reading.pattern for reading in change_common._NAMED_KIND + change_common._HEADED]
)


@pytest.mark.parametrize("pattern", _GATED, ids=lambda p: p.pattern[:30])
def test_the_extractors_patterns_are_never_turned_away_from_a_sentence_they_match(pattern: re.Pattern[str]) -> None:
    found = literals(pattern)
    for sentence in _suite_sentences():
        for text in (sentence, sentence.swapcase()):
            if pattern.search(text) is not None:
                assert may_match(found, probe(text)), text


@pytest.mark.parametrize(
    "family",
    [
        [regex for regex, _ in change_grammar.GENERIC],
        list(change_grammar.NAMED),
        [cue for _, cue, _ in states._READERS],
    ],
    ids=["generic", "named", "cues"],
)
def test_a_familys_gates_read_together_open_what_each_gate_alone_would(family: list[re.Pattern[str]]) -> None:
    needs = [literals(pattern) for pattern in family]
    together = gates(needs)
    assert any(n is None for n in needs) or together.always == 0
    texts = [*_suite_sentences()[:400], "Ana went to the café with Zoë.", ""]
    for sentence in texts:
        for text in (sentence, sentence.swapcase()):
            probed, opened = probe(text), together.open(probe(text))
            assert [bool(opened >> i & 1) for i in range(len(family))] == [may_match(n, probed) for n in needs], text
