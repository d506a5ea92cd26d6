"""Write-path rules, each written once as a pure function.

Ingest (``pipeline``), rebuild (``lifecycle.treebuild``), merge and import all decide the same
questions: does an entity earn its own tree, is a new fact a near duplicate of a live one, which
scene cluster does a fact (or a merged cluster) belong to, and which supersession slot does a
state fact thread into. The answers live here, so the copies cannot drift apart again; set-based
SQL that applies a rule to many rows at once takes its parameters from the constants below.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta
from typing import Any

import numpy as np

from memforest.attributes import VERB_CLASSES
from memforest.domain import FactKind
from memforest.settings import PipelineSettings

# Kinds whose facts describe a lasting condition: they merge with a restatement whatever its date.
STATE_KINDS: frozenset[str] = frozenset({FactKind.STATE.value, FactKind.PREFERENCE.value, FactKind.RELATION.value})

# Two events (or plans, opinions ...) are one fact only when they are this close in time.
NEAR_DUPLICATE_WINDOW = timedelta(days=1)

# Weight of the topic overlap next to the centroid cosine in the scene score.
TOPIC_WEIGHT = 0.15

# How many of a cluster's most frequent topics take part in the overlap, and how many name it.
SCENE_TOPICS = 8
SCENE_LABEL_TOPICS = 3

# How many nearest live clusters (by centroid) a fact or a merged cluster is scored against.
SCENE_CANDIDATES = 5


def entity_key(label: str) -> str:
    """The normalised form entities are keyed by (case-insensitive, single-spaced, no possessive)."""
    key = " ".join(label.casefold().split())
    for suffix in ("'s", "’s"):
        if key.endswith(suffix):
            key = key[: -len(suffix)]
    return key


def entity_earns_tree(*, is_speaker: bool, fact_count: int, session_count: int, settings: PipelineSettings) -> bool:
    """Whether an entity with these counts has (or gets) its own entity tree.

    A speaker does as soon as one fact links to it; any other entity once it has
    ``entity_min_facts`` facts over ``entity_min_sessions`` sessions. An entity with no fact never
    does: a tree without leaves is not kept.
    """
    if fact_count < 1:
        return False
    return is_speaker or (fact_count >= settings.entity_min_facts and session_count >= settings.entity_min_sessions)


def is_near_duplicate(
    *,
    similarity: float,
    threshold: float,
    same_speaker: bool,
    kind_a: str,
    kind_b: str,
    time_a: datetime,
    time_b: datetime,
    slot_a: tuple[str, str] | None,
    slot_b: tuple[str, str] | None,
    value_a: str | None,
    value_b: str | None,
) -> bool:
    """Whether two facts say the same thing: same speaker, cosine >= ``threshold``, not two
    different values of one supersession slot (``slot_*`` from ``supersession_slot``: "Cosmo is
    our new cat" and "Waffles is our new cat" are two states, whatever their cosine), and either
    both are lasting kinds (states, preferences, relations merge across time) or they lie within
    ``NEAR_DUPLICATE_WINDOW`` of each other (two hikes a week apart are two facts). A NaN cosine
    (pgvector's answer for a zero vector: a fact without content words) is no match."""
    if not similarity >= threshold or not same_speaker:  # (NaN >= threshold is False)
        return False
    if slot_a is not None and slot_a == slot_b and not same_state_value(value_a, value_b):
        return False
    if abs(time_a - time_b) <= NEAR_DUPLICATE_WINDOW:
        return True
    return kind_a in STATE_KINDS and kind_b in STATE_KINDS


def _most_frequent(counts: Mapping[str, Any], n: int) -> list[str]:
    """The ``n`` most frequent topics of ``counts``, most frequent first, ties by name. A large
    cluster counts hundreds of topics: only those counted at least as often as the ``n``-th most
    frequent are sorted (every one of the first ``n`` is among them)."""
    if n <= 0 or not counts:
        return []
    if len(counts) > n:
        values = [int(v) for v in counts.values()]
        floor = heapq.nlargest(n, values)[-1]
        ranked = [(-v, k) for k, v in zip(counts, values, strict=True) if v >= floor]
    else:
        ranked = [(-int(v), k) for k, v in counts.items()]
    ranked.sort()  # (most frequent first, ties by name: the names are distinct keys)
    return [k for _, k in ranked[:n]]


def top_topics(counts: Mapping[str, Any], n: int = SCENE_TOPICS) -> set[str]:
    """A cluster's ``n`` most frequent topics (ties by name)."""
    return set(_most_frequent(counts, n))


def scene_label(counts: Mapping[str, Any]) -> str:
    """The label of a scene tree: its cluster's three most frequent topics, else ``misc``."""
    top = _most_frequent(counts, SCENE_LABEL_TOPICS)
    return ", ".join(top) if top else "misc"


def scene_score(similarity: float, topics: Iterable[str], cluster_topics: set[str]) -> float:
    """How well a fact (or a cluster) with ``topics`` fits a cluster: centroid cosine plus
    ``TOPIC_WEIGHT`` times the Jaccard overlap of the topics with the cluster's top topics."""
    mine = set(topics)
    union = mine | cluster_topics
    overlap = len(mine & cluster_topics) / len(union) if union else 0.0
    return similarity + TOPIC_WEIGHT * overlap


def scene_accepts(score: float, settings: PipelineSettings) -> bool:
    """Whether the best-scoring cluster takes the fact; below the threshold a new cluster spawns."""
    return score >= settings.scene_assign_threshold


def supersession_slot(subject: str | None, attribute: str | None, value: str | None) -> tuple[str, str] | None:
    """The (subject, attribute) timeline a state fact threads into, normalised; None when the fact
    names no complete state (all three of subject, attribute and value are needed)."""
    if not (subject and attribute and value):
        return None
    return subject.casefold(), attribute.casefold()


def timeline_slot(subject: str | None, attribute: str | None, value: str | None) -> tuple[str, str] | None:
    """The supersession slot in which a later holder closes an earlier one: ``supersession_slot``,
    except for a slot labelled by the class of a verb of change (``attributes.VERB_CLASSES``: the
    sentence named no kind of thing). Two such states may be of two kinds ("left A and joined the B
    choir", then "switched from C to the D gym"), so neither closes the other; they are still two
    states of one slot, never merged as near duplicates. The read path orders them by the values
    they name (``retrieval.temporal.chains.link_generic``)."""
    slot = supersession_slot(subject, attribute, value)
    return slot if slot is not None and forms_timeline(slot[1]) else None


def forms_timeline(attribute: str) -> bool:
    """Whether the states of one subject labelled ``attribute`` close one another (``timeline_slot``)."""
    return attribute.casefold() not in VERB_CLASSES


def same_state_value(a: str | None, b: str | None) -> bool:
    """Whether two holders of one slot state the same value (then neither supersedes the other)."""
    return (a or "").casefold() == (b or "").casefold()


def cosine(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any]) -> float:
    """The cosine similarity of two vectors as the database's ``1 - (a <=> b)`` gives it, for batched
    steps that score vectors in memory: NaN when either vector is zero (PostgreSQL sorts a NaN
    distance last; ``is_near_duplicate`` rejects a NaN similarity)."""
    return cosine_sq(a, squared_norm(a), b, squared_norm(b))


def squared_norm(a: np.ndarray[Any, Any]) -> float:
    """``a . a``, as :func:`cosine` computes it (kept by callers that score one vector many times)."""
    return float(np.dot(a, a))


def cosine_sq(a: np.ndarray[Any, Any], na: float, b: np.ndarray[Any, Any], nb: float) -> float:
    """:func:`cosine` of ``a`` and ``b`` given their :func:`squared_norm` ``na`` and ``nb`` (the same
    value, without recomputing the norms)."""
    if na == 0.0 or nb == 0.0:
        return math.nan
    return max(-1.0, min(1.0, float(np.dot(a, b)) / math.sqrt(na * nb)))


def nearest_first(similarity: float) -> float:
    """Sort key putting the most similar first and NaN last, as ``ORDER BY a <=> b`` does."""
    return math.inf if math.isnan(similarity) else 1.0 - similarity
