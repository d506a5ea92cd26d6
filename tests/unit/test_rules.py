"""The write-path rules, pinned once (memforest/rules.py): ingest, rebuild, merge and import call these."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from memforest import rules
from memforest.pipeline.route_scenes import Cluster, SceneBatch
from memforest.settings import PipelineSettings

T0 = datetime(2024, 5, 1, 10, tzinfo=UTC)
PIPE = PipelineSettings()


def test_entity_key_normalises_case_space_and_possessive() -> None:
    assert rules.entity_key("  Caroline's ") == "caroline"
    assert rules.entity_key("New   York") == "new york"
    assert rules.entity_key("Mel’s") == "mel"


@pytest.mark.parametrize(
    ("is_speaker", "facts", "sessions", "earns"),
    [
        (True, 1, 1, True),  # a speaker as soon as one fact links to it
        (True, 0, 0, False),  # no fact, no tree
        (False, PIPE.entity_min_facts, PIPE.entity_min_sessions, True),
        (False, PIPE.entity_min_facts - 1, PIPE.entity_min_sessions, False),
        (False, PIPE.entity_min_facts, PIPE.entity_min_sessions - 1, False),
    ],
)
def test_entity_earns_tree(is_speaker: bool, facts: int, sessions: int, earns: bool) -> None:
    got = rules.entity_earns_tree(is_speaker=is_speaker, fact_count=facts, session_count=sessions, settings=PIPE)
    assert got is earns


def _near(
    sim: float,
    kind_a: str,
    kind_b: str,
    dt: timedelta,
    same_speaker: bool = True,
    state_a: tuple[str | None, str | None, str | None] = (None, None, None),
    state_b: tuple[str | None, str | None, str | None] = (None, None, None),
) -> bool:
    return rules.is_near_duplicate(
        similarity=sim,
        threshold=0.9,
        same_speaker=same_speaker,
        kind_a=kind_a,
        kind_b=kind_b,
        time_a=T0,
        time_b=T0 + dt,
        slot_a=rules.supersession_slot(*state_a),
        slot_b=rules.supersession_slot(*state_b),
        value_a=state_a[2],
        value_b=state_b[2],
    )


def test_near_duplicate_states_merge_across_time_events_only_within_the_window() -> None:
    assert _near(0.95, "state", "preference", timedelta(days=300))
    assert _near(0.95, "event", "event", timedelta(hours=20))
    assert not _near(0.95, "event", "event", timedelta(days=2))
    assert not _near(0.95, "state", "event", timedelta(days=2))
    assert not _near(0.85, "state", "state", timedelta(0))
    assert not _near(0.99, "state", "state", timedelta(0), same_speaker=False)
    assert not _near(float("nan"), "state", "state", timedelta(0))  # a zero vector's cosine matches nothing
    assert timedelta(days=1) == rules.NEAR_DUPLICATE_WINDOW


def test_near_duplicate_refuses_two_values_of_one_slot() -> None:
    cosmo = ("Alice", "pet", "Cosmo")
    waffles = ("alice", "Pet", "Waffles")
    # two pets of one person are two states, however close their sentences and whatever the gap
    assert not _near(0.99, "state", "state", timedelta(days=90), state_a=cosmo, state_b=waffles)
    assert not _near(0.99, "state", "state", timedelta(0), state_a=cosmo, state_b=waffles)
    # the same value (any case) restated still merges; so do facts of other slots or with no slot
    assert _near(0.95, "state", "state", timedelta(days=90), state_a=cosmo, state_b=("alice", "pet", "cosmo"))
    assert _near(0.95, "state", "state", timedelta(days=90), state_a=cosmo, state_b=("alice", "vehicle", "Kia"))
    assert _near(0.95, "state", "state", timedelta(days=90), state_a=cosmo)
    assert _near(0.95, "state", "state", timedelta(days=90), state_a=("alice", "pet", None), state_b=waffles)


def test_scene_score_adds_weighted_topic_overlap() -> None:
    top = rules.top_topics({"hike": 5, "dog": 3, "work": 1})
    assert top == {"hike", "dog", "work"}
    assert rules.scene_score(0.5, ["hike", "dog"], top) == pytest.approx(0.5 + rules.TOPIC_WEIGHT * 2 / 3)
    assert rules.scene_score(0.5, [], set()) == 0.5
    assert rules.scene_accepts(PIPE.scene_assign_threshold, PIPE)
    assert not rules.scene_accepts(PIPE.scene_assign_threshold - 1e-9, PIPE)


def test_top_topics_and_label_break_ties_by_name() -> None:
    counts = {f"t{i:02d}": 1 for i in range(12)}
    assert rules.top_topics(counts) == {f"t{i:02d}" for i in range(rules.SCENE_TOPICS)}
    assert rules.scene_label({"b": 2, "a": 2, "c": 1, "d": 1}) == "a, b, c"
    assert rules.scene_label({}) == "misc"


def test_top_topics_of_large_clusters_are_those_of_a_full_sort() -> None:
    """Only topics counted at least as often as the n-th are sorted: the same topics, ties at the
    cut included, as sorting every count (and counts read from JSON may be any int-like)."""
    rng = random.Random(3)
    for _ in range(500):
        counts: dict[str, object] = {f"t{rng.randrange(900)}": rng.choice([1, 1, 2, 3, rng.randrange(1, 40)])
                                     for _ in range(rng.choice([0, 2, 8, 9, 40, 600]))}  # fmt: skip
        by_count = sorted(counts.items(), key=lambda kv: (-int(str(kv[1])), kv[0]))
        assert rules.top_topics(counts) == {k for k, _ in by_count[: rules.SCENE_TOPICS]}
        assert rules.scene_label(counts) == (", ".join(k for k, _ in by_count[:3]) or "misc")
    assert rules.top_topics({"a": "2", "b": 3}, 1) == {"b"}
    assert rules.top_topics({"a": 1}, 0) == rules.top_topics({"a": 1}, -1) == set()  # (never a slice from the end)


def test_supersession_slot_needs_subject_attribute_and_value() -> None:
    assert rules.supersession_slot("Bob", "Home", "Miami") == ("bob", "home")
    assert rules.supersession_slot("Bob", "home", None) is None
    assert rules.supersession_slot(None, "home", "Miami") is None
    assert rules.same_state_value("Miami", "miami")
    assert not rules.same_state_value("Miami", "Davis")


def test_a_clusters_cached_top_topics_follow_its_counts() -> None:
    """A batch scores each fact against its candidate clusters' top topics, computed once per change
    of a cluster's counts: a fact assigned to it changes them."""
    cluster = Cluster(1, np.array([1.0, 0.0], dtype=np.float32), 9, {t: 1 for t in "abcdefghi"})
    batch = SceneBatch(PipelineSettings(scene_assign_threshold=0.0), loaded={1: cluster})
    batch.nearest = {0: [(1, 1.0)], 1: [(1, 1.0)]}
    assert cluster.top_topics() == set("abcdefgh")
    now = datetime(2024, 1, 1, tzinfo=UTC)
    for position in (0, 1):
        assert batch.assign(position, np.array([1.0, 0.0], dtype=np.float32), ["z"], now) is cluster
    assert cluster.topic_counts["z"] == 2
    assert cluster.top_topics() == rules.top_topics(cluster.topic_counts) == set("abcdefgz")


def test_a_clusters_top_topics_kept_across_assignments_are_those_of_its_counts() -> None:
    """A fact that joins a cluster updates its kept top topics from the old ones and the fact's own
    topics: after every assignment they are the top topics of the whole counts, ties at the cut
    included (random clusters of 0 to 600 topics, facts of 0 to 4 topics, repeats included)."""
    rng = random.Random(5)
    now = datetime(2024, 1, 1, tzinfo=UTC)
    vec = np.array([1.0, 0.0], dtype=np.float32)
    for _ in range(200):
        counts = {f"t{rng.randrange(900)}": rng.choice([1, 1, 2, 3, rng.randrange(1, 9)])
                  for _ in range(rng.choice([0, 2, 8, 9, 40, 600]))}  # fmt: skip
        cluster = Cluster(1, vec.copy(), 5, counts)
        batch = SceneBatch(PipelineSettings(scene_assign_threshold=0.0), loaded={1: cluster})
        batch.nearest = {p: [(1, 1.0)] for p in range(12)}
        for position in range(12):
            topics = [f"t{rng.randrange(905)}" for _ in range(rng.randrange(5))]
            topics += topics[:1] if rng.random() < 0.2 else []
            assert batch.assign(position, vec, topics, now) is cluster
            assert cluster.top == rules.top_topics(cluster.topic_counts)


def test_cosine_with_kept_norms_is_cosine_to_the_bit() -> None:
    """Batched steps keep each vector's squared norm: the similarity they get is exactly
    ``rules.cosine`` (the same floating-point operations), NaN for a zero vector included."""
    rng = np.random.default_rng(7)
    vectors = [rng.standard_normal(384).astype(np.float32) for _ in range(20)] + [np.zeros(384, dtype=np.float32)]
    for a in vectors:
        for b in vectors:
            want = rules.cosine(a, b)
            got = rules.cosine_sq(a, rules.squared_norm(a), b, rules.squared_norm(b))
            assert (np.isnan(want) and np.isnan(got)) or got == want


def test_a_moved_clusters_kept_norm_follows_its_centroid() -> None:
    """A cluster a fact joins gets a new centroid: the next fact is scored against the new one."""
    cluster = Cluster(1, np.array([1.0, 0.0], dtype=np.float32), 1, {"a": 1})
    batch = SceneBatch(PipelineSettings(scene_assign_threshold=0.0), loaded={1: cluster})
    batch.nearest = {0: [(1, 1.0)]}
    now = datetime(2024, 1, 1, tzinfo=UTC)
    fact = np.array([0.0, 1.0], dtype=np.float32)
    assert batch.assign(0, fact, ["a"], now) is cluster
    (scored, sim), *_ = batch._candidates(1, fact)
    assert scored is cluster and sim == rules.cosine(cluster.centroid, fact)
