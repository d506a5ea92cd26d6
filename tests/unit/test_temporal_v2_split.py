"""``bench.temporal_v2`` keeps its tune and eval splits apart and generates worlds it can score.

Three things stay disjoint between the splits, in the template lists and in generated worlds (the
default seed and another): templates (equal or near-equal), values (names, places, organisations,
brands, animals ...; equal or sharing a word) and attributes (by name; no eval attribute's noun in
a tune template). Generation is deterministic, and every probe's answer turn exists and states
the answer. The assertions count and compare; they never print an eval sentence.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

from bench import temporal_data as v1
from bench.temporal_v2_data import SPLITS, ForestData, WorldSpec, all_turn_ids, generate
from bench.temporal_v2_spec import OPERATORS, mentions, names_subject, overlap, templates, tokens, vocabulary

DEFAULT_SEED = 11  # bench.temporal_v2's --seed default
SEEDS = (DEFAULT_SEED, 29)
SMALL = WorldSpec(forests=3)
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module", params=SEEDS)
def worlds(request: pytest.FixtureRequest) -> dict[str, list[ForestData]]:
    return {split: generate(request.param, split, SMALL) for split in SPLITS}


def _texts(world: list[ForestData]) -> str:
    return "\n".join(t.text for f in world for s in f.sessions for t in s.turns)


def test_the_template_lists_share_nothing() -> None:
    found = overlap(SPLITS["tune"], SPLITS["eval"])
    assert {k: len(v) for k, v in found.items()} == dict.fromkeys(found, 0)


def test_every_generated_turn_and_question_uses_its_own_split(worlds: dict[str, list[ForestData]]) -> None:
    for split, world in worlds.items():
        other = SPLITS["eval" if split == "tune" else "tune"]
        text = _texts(world) + "\n" + "\n".join(p.text for f in world for p in f.probes)
        assert sum(mentions(v, text) for v in vocabulary(other)) == 0, split
        if split == "tune":  # no eval attribute is named in a tune conversation
            assert sum(mentions(a.noun, text) for a in other.attributes) == 0
        attributes = {s.attribute for f in world for s in f.states}
        assert attributes <= {a.name for a in SPLITS[split].attributes}
        values = {s.value for f in world for s in f.states} | {f.user for f in world}
        assert values <= vocabulary(SPLITS[split])


def test_some_eval_attributes_appear_in_no_tune_template() -> None:
    tune_text = "\n".join(sorted(templates(SPLITS["tune"]) | vocabulary(SPLITS["tune"])))
    unseen = [a for a in SPLITS["eval"].attributes if not mentions(a.noun, tune_text)]
    assert len(unseen) == len(SPLITS["eval"].attributes)
    assert {a.kind for a in SPLITS["eval"].attributes} == {"named", "open"}
    assert {a.kind for a in SPLITS["tune"].attributes} == {"named", "open"}


def test_eval_values_are_new_to_the_old_benchmark_and_the_code() -> None:
    """No eval value is in bench.temporal v1's world (the product was tuned on it), and no eval
    proper name appears in the product's or the tests' source or in the docs."""
    old = set(v1.PEOPLE) | set(v1.FRIENDS) | {v for vs in v1.VALUES.values() for v in vs}
    old_tokens = set().union(*map(tokens, old))
    eval_values = vocabulary(SPLITS["eval"])
    assert sum(bool(tokens(v) & old_tokens) for v in eval_values) == 0
    names = sorted((v for v in eval_values if any(c.isupper() for c in v)), key=len, reverse=True)
    pattern = re.compile(rf"(?<![A-Za-z0-9])(?:{'|'.join(map(re.escape, names))})(?![A-Za-z0-9])", re.IGNORECASE)
    here = Path(__file__).resolve()
    sources = [p for d in ("memforest", "tests") for p in (REPO / d).rglob("*.py") if p.resolve() != here]
    sources += [*(REPO / "docs").rglob("*.md"), REPO / "README.md"]
    leaked = [p for p in sources if pattern.search(p.read_text(errors="ignore"))]
    assert leaked == []


def test_generation_is_deterministic() -> None:
    for split in SPLITS:
        a, b = generate(DEFAULT_SEED, split, SMALL), generate(DEFAULT_SEED, split, SMALL)
        assert [f.sessions for f in a] == [f.sessions for f in b]
        assert [f.probes for f in a] == [f.probes for f in b]
        assert [f.probes for f in a] != [f.probes for f in generate(DEFAULT_SEED + 1, split, SMALL)]
    one = generate(DEFAULT_SEED, "tune", dataclasses.replace(SMALL, forests=1))
    assert one[0].sessions == generate(DEFAULT_SEED, "tune", SMALL)[0].sessions  # forests do not depend on the count


def test_every_probe_answer_turn_exists_and_states_the_answer(worlds: dict[str, list[ForestData]]) -> None:
    for world in worlds.values():
        for f in world:
            ids = all_turn_ids(f)
            by_id = {t.external_id: t for s in f.sessions for t in s.turns}
            bad = 0
            for p in f.probes:
                ok = p.gold_turn in ids and p.gold_turn not in p.other_turns
                ok = ok and p.gold_value in by_id[p.gold_turn].text and by_id[p.gold_turn].speaker == f.user
                ok = ok and (p.end_turn is None or p.end_turn in ids) and set(p.other_turns) <= ids
                ok = ok and (p.as_of is None) == (p.operator != "as_of") and p.speaker == f.user
                ok = ok and (p.as_of is None or p.as_of < p.now)
                bad += not ok
            assert bad == 0


def test_every_state_of_another_person_names_that_person(worlds: dict[str, list[ForestData]]) -> None:
    # a consequence that names nobody ("Rode the X to the coast") is the speaker's to any reader, so
    # the gold state of another person is always told with their name or their relation to the speaker
    for world in worlds.values():
        for f in world:
            by_id = {t.external_id: t.text for s in f.sessions for t in s.turns}
            unnamed = 0
            for state in f.states:
                if state.subject == f.user or state.turn_id is None:
                    continue
                relation = f.others[state.subject][0]
                text = by_id[state.turn_id]
                unnamed += state.subject not in text and f"my {relation}" not in text.lower()
            assert unnamed == 0


def test_a_template_names_its_subject_only_through_a_naming_slot() -> None:
    assert names_subject("Spilled tea on {my} {v}.") and names_subject("{I'm} in the alto row at {v}.")
    assert not names_subject("Rode the {v} to the coast.") and not names_subject("{v} live{s} nearby.")


def test_worlds_have_every_slice(worlds: dict[str, list[ForestData]]) -> None:
    for world in worlds.values():
        probes = [p for f in world for p in f.probes]
        assert {p.operator for p in probes} == set(OPERATORS)
        assert {p.attribute_kind for p in probes} == {"named", "open"}
        assert {p.subject_kind for p in probes} == {"self", "other"}
        assert {p.form for p in probes} == {"first_person", "named", "relation"}
        assert {p.mood_distractor for p in probes} == {True, False}
        assert {p.gold_indirect for p in probes} == {True, False}
        assert len({p.qid for p in probes}) == len(probes)


def test_the_verdict_holds_the_done_means_overall_and_in_every_slice() -> None:
    """``gate`` passes only when the whole set meets 0.9 / 0.85 and no slice falls below 0.75."""
    from bench.temporal_v2 import SLICES, verdict

    def table(overall: tuple[float, float], weakest: float) -> dict[str, object]:
        def cell(found: float, first: float) -> dict[str, object]:
            return {"n": 10, "memforest-emb": {"found@5": found, "right_time_first": first}}

        slices: dict[str, object] = {name: {"a": cell(0.95, 0.9), "b": cell(weakest, weakest)} for name in SLICES}
        return {"all": cell(*overall), **slices}

    assert verdict(table((0.92, 0.86), 0.8)) == {"gate": "pass", "gate_misses": []}
    low_slice = verdict(table((0.92, 0.86), 0.7))
    assert low_slice["gate"] == "fail" and len(low_slice["gate_misses"]) == 2 * len(SLICES)
    assert verdict(table((0.92, 0.84), 0.8))["gate_misses"] == ["all right_time_first 0.84 < 0.85"]


def test_looks_of_split_counts_every_embedders_runs_of_that_split(tmp_path: Path) -> None:
    """The look count of a split adds the runs recorded under every embedder's file (smoke runs aside)."""
    from bench.temporal_v2 import looks_of_split

    def write(name: str, runs: int) -> None:
        (tmp_path / f"{name}.json").write_text(json.dumps({"history": [{"n": i} for i in range(runs)]}))

    assert looks_of_split(tmp_path, "eval") == 0
    write("temporal_v2_eval", 3)
    write("temporal_v2_eval_some-model", 2)
    write("temporal_v2_eval_quick", 5)
    write("temporal_v2_tune", 7)
    assert looks_of_split(tmp_path, "eval") == 5
    assert looks_of_split(tmp_path, "tune") == 7
