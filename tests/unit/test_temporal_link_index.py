"""``chains.link_generic`` checks a state's text only against the earlier values it can name: the
labels it gives are those of the plain pairwise walk (kept here as the reference), and the number of
pairwise checks grows with the values a text names, not with the number of earlier states. A
slotless text is read for leaving (``ended.left_for``) only for the values it holds, and a name is
compared (``plan._alike``) only with the values sharing a word with it (``value_index.SharingWords``)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memforest.retrieval.temporal import ended, value_index
from memforest.retrieval.temporal.chains import GENERIC, link_generic, named_values
from memforest.retrieval.temporal.pick import same
from memforest.retrieval.temporal.state import State


def _whole(text: str, value: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(value)}(?!\w)", text, re.IGNORECASE) is not None


def _reference(labels: Sequence[str], values: Sequence[str | None], texts: Sequence[str]) -> list[str]:
    """Every state against every earlier one, newest first: the linking rule as stated."""
    out = list(labels)
    for i, label in enumerate(labels):
        for j in range(i - 1, -1, -1):
            value = values[j]
            if not value or value.casefold() == (values[i] or "").casefold() or out[j] == label:
                continue
            if label in GENERIC:
                words = value.split()
                hit = _whole(texts[i], value) or (
                    len(words) > 1
                    and any(
                        p.split()[0] == words[0] and _whole(value, p)
                        for p in named_values(texts[i], ())
                        if p.casefold() != value.casefold()
                    )
                )
            else:
                hit = re.search(rf"\bfrom\s+(?:the\s+)?{re.escape(value)}\s+to\b", texts[i], re.IGNORECASE) is not None
            if hit:
                out[i] = out[j]
                break
    return out


# words of my own, with case variants, a shared first word, characters a regex treats specially and
# characters whose case matches an ASCII letter (the long s, the Kelvin sign, dotless and dotted i)
_WORDS = ["Harrowby", "harrowby", "Tamsin", "Vell", "Vell Rowing", "Quillon", "C++", "K2", "Ostra-Fen", "Ruß",
          "Mo\u017fs", "\u212aelby", "kelby", "P\u0131ne", "pine", "\u0130zmir", "caf\u00e9", "Tamsin\u2019s",
          "Gr8"]  # fmt: skip
_GLUE = ["joined", "from", "to", "the", "quit", "got a", "and", ",", "now", "at", "I", "moved over"]
_LABELS = [*GENERIC, "device", "employer", "club", "school"]
_VALUES = st.one_of(
    st.none(),
    st.just(""),
    st.sampled_from(_WORDS),
    st.builds(" ".join, st.lists(st.sampled_from(_WORDS), min_size=2, max_size=3)),
)
_TEXTS = st.builds(" ".join, st.lists(st.sampled_from(_WORDS + _GLUE), min_size=1, max_size=9))
_STATES = st.lists(st.tuples(st.sampled_from(_LABELS), _VALUES, _TEXTS), max_size=14)


@settings(max_examples=200, deadline=None)
@given(states=_STATES)
def test_the_labels_are_those_of_the_pairwise_walk(states: list[tuple[str, str | None, str]]) -> None:
    labels, values, texts = ([s[k] for s in states] for k in range(3))
    assert link_generic(labels, values, texts) == _reference(labels, values, texts)


def test_a_switch_and_a_short_form_link_as_before() -> None:
    labels = ["employer", "membership", "membership", "employer", "school"]
    values = ["Ironbark Climbing Gym", "Tarn Choir", "Lodestar Labs", "Pellucid", "Harth College"]
    texts = [
        "Ines works at Ironbark Climbing Gym.",
        "Ines quit Ironbark and joined Tarn Choir.",
        "Ines joined Lodestar Labs.",
        "Ines moved over from Lodestar Labs to Pellucid.",
        "Ines went from the Tarn Choir to Harth College.",
    ]
    expected = ["employer", "employer", "membership", "membership", "employer"]
    assert link_generic(labels, values, texts) == _reference(labels, values, texts) == expected


def test_a_text_names_an_ascii_value_by_a_letter_of_another_script() -> None:
    labels = ["club", "club", "club", "membership", "membership", "membership"]
    values = ["Kelby Rowers", "Pine Hall", "Moss Choir", "Tarn", "Ulla", "Vey"]
    # the Kelvin sign, the dotless i and the long s match k, i and s ignoring case
    texts = [
        "-",
        "-",
        "-",
        "Joined Tarn after \u212aelby Rowers.",
        "Joined Ulla after P\u0131ne Hall.",
        "Mo\u017fs Choir, then Vey.",
    ]
    assert link_generic(labels, values, texts) == _reference(labels, values, texts) == ["club"] * 6


def test_every_character_whose_case_matches_an_ascii_one_is_made_that_letter() -> None:
    others = "".join(chr(c) for c in range(0x80, 0x110000) if not 0xD800 <= c < 0xE000)
    alike = {(c, a.lower()) for a in map(chr, range(0x80)) for c in re.findall(re.escape(a), others, re.IGNORECASE)}
    assert {(chr(c), letter) for c, letter in value_index._ASCII_ALIKE.items()} == alike
    assert all(re.fullmatch(r"\w", c) for c, _ in alike)  # a word character, as its letter is


@pytest.mark.parametrize("named", [False, True])
def test_the_checks_grow_with_the_values_named_not_with_the_states(
    monkeypatch: pytest.MonkeyPatch, named: bool
) -> None:
    n = 600
    calls = {"checks": 0}
    for method in ("names_value", "switched_from"):
        plain = getattr(value_index.Named, method)

        def counted(self: value_index.Named, text: str, value: str, plain=plain) -> bool:  # type: ignore[no-untyped-def]
            calls["checks"] += 1
            return bool(plain(self, text, value))

        monkeypatch.setattr(value_index.Named, method, counted)
    values = [f"Orvello{i:04d} Rowers" for i in range(n)]
    labels = ["membership" if i % 2 else "club" for i in range(n)]
    # each text names its own value, and (``named``) the one before it, or says it came from it
    texts = [
        f"Noor {'moved from ' + values[i - 1] + ' to' if named and i else 'joined'} {values[i]}, at last"
        for i in range(n)
    ]
    labelled = link_generic(labels, values, texts)
    # the pairwise walk makes about n * n / 2 checks; each text here can name at most two values
    assert calls["checks"] <= 2 * n
    # (a membership naming the club before it is of the club's kind; a club switched from one is a club)
    assert labelled == (["club"] * n if named else labels)


def test_a_slotless_text_is_read_for_leaving_only_the_values_it_holds(monkeypatch: pytest.MonkeyPatch) -> None:
    n = 400
    calls = {"spans": 0}
    span = ended.left_span

    def counted(text: str, old: str) -> tuple[int, int] | None:
        calls["spans"] += 1
        return span(text, old)

    monkeypatch.setattr(ended, "left_span", counted)
    when = datetime(2024, 1, 1, tzinfo=UTC)
    states = [State(i, when, f"Noor joined Orvello{i:04d} Rowers.", f"Orvello{i:04d} Rowers", True) for i in range(n)]
    rows = [
        {"fact_id": n + i, "valid_from": when, "text": f"Noor stopped at Brindle{i:04d} Bakery.", "attribute": None,
         "entities": ["Noor", f"Brindle{i:04d} Bakery"]}
        for i in range(n)
    ] + [{"fact_id": 2 * n, "valid_from": when, "text": "Noor quit Orvello0007 Rowers and joined Tessel Choir.",
          "attribute": None, "entities": ["Noor", "Orvello0007 Rowers", "Tessel Choir"]}]  # fmt: skip
    left = ended.left_for(rows, states, "Noor")
    assert [(s.fact_id, s.value) for s in left] == [(2 * n, "Tessel Choir")]
    assert calls["spans"] <= 2  # each text against every value: n * (n + 1)


_NAMES = st.builds(" ".join, st.lists(st.sampled_from([*_WORDS, "the", "&", "Rowing"]), min_size=1, max_size=3))


@settings(max_examples=300, deadline=None)
@given(values=st.lists(_NAMES, max_size=12), name=_NAMES)
def test_the_values_sharing_a_word_hold_every_value_the_same_as_a_name(values: list[str], name: str) -> None:
    sharing = value_index.SharingWords(values).sharing(name)
    assert {v for v in values if same(name, v)} <= set(sharing)
    assert [v for v in values if v in sharing] == sharing  # in the values' order
