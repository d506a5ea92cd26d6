"""States of an asked kind filed under the verb of their telling (a thing got, a place gone to,
a group joined: ``chains.GENERIC``) while the kind has a chain of its own: which of them join it.

Each function takes the subject's states as (label, state), oldest first, verb-class labels
already linked (``plan._labelled``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from memforest.attributes import STATE_ATTRIBUTES
from memforest.retrieval.temporal.chains import (
    GENERIC,
    chain_label,
    head,
    holders,
    joined_kind,
    kind_words,
    names_kind,
    other_kind,
    outright,
)
from memforest.retrieval.temporal.kind_words import tells_kind
from memforest.retrieval.temporal.state import State

__all__ = ["anchor_joined", "holder_states", "told_holders"]

Labelled = Sequence[tuple[str, State]]

# the kinds of thing got that are named by make and model ("an HP Spectre", "a Fiat Panda"), whose
# values the write path types only by the makes it knows
_MODELS = {"possession": frozenset({"vehicle", "device"})}


def _has_own_chain(labelled: Labelled, asked: str) -> bool:
    return chain_label(asked, {lab: 1 for lab, _ in labelled}, loose=False) is not None


def anchor_joined(labelled: Labelled, asked: str | None, label: str | None) -> list[State]:
    """The states of the anchor's chain ``label`` when the question's kind has a chain of its own
    and the anchor's state is filed only under a verb class that can hold that kind ("after Dr. Ruiz
    as my dentist", Dr. Ruiz stated only as a place gone to): that verb class's chain is of the
    asked kind, so its states join the asked chain, but for those whose names tell another kind
    (``chains.other_kind``: "Dr. Ames" is no book club); else none."""
    if asked is None or label is None or label not in GENERIC or label == asked or label not in holders(asked):
        return []
    if not _has_own_chain(labelled, asked):
        return []
    return [s for lab, s in labelled if lab == label and not other_kind(s.value, asked)]


def holder_states(labelled: Labelled, asked: str) -> list[State]:
    """When ``asked`` has a chain of its own, the states of the first verb-class chain that can
    hold kind ``asked`` (``chains.holders``) and are of it: all of a chain whose states are all of
    that kind (``chains.outright``: a thing got for a bike), else those whose text names the kind
    ("went back to Dr. Ruiz, my old dentist"); a place one rode to or a thing bought is no dentist.
    Else none."""
    if asked in GENERIC or not _has_own_chain(labelled, asked):
        return []
    for label in holders(asked):
        of_kind = [s for lab, s in labelled if lab == label and (outright(asked, label) or names_kind(s.text, asked))]
        if label != asked and of_kind:
            return of_kind
    return []


def told_holders(labelled: Labelled, asked: str, taken: set[int]) -> list[State]:
    """When kind ``asked`` has a chain of its own, the states of the verb classes that can hold it
    that are of it, not in ``taken``: for an open-ended kind, those whose statements tell it ("Dr.
    Ruiz, my old dentist"; "my usual flat white at X" for a cafe: ``kind_words.tells_kind``); for a
    kind of thing named by model, every thing got when the subject has got no models of another
    kind (``_only_models_of``)."""
    if asked in GENERIC or not _has_own_chain(labelled, asked):
        return []
    if asked in STATE_ATTRIBUTES:
        counts = {lab: 1 for lab, _ in labelled}
        return [s for lab, s in labelled if s.fact_id not in taken and _only_models_of(lab, asked, counts)]
    held_by = set(holders(asked)) - {asked}
    return [s for lab, s in labelled if lab in held_by and s.fact_id not in taken and _of_kind(s, asked)]


def _of_kind(state: State, asked: str) -> bool:
    """The statement tells kind ``asked`` (``kind_words.tells_kind``), or, for a kind one joins, the
    value is a group one joins by its head noun and the statement names the kind's other words
    ("running with the Nightjar Run Crew" for a running club)."""
    if tells_kind(state.text, asked):
        return True
    if not joined_kind(asked) or not state.value or not joined_kind(head(state.value)):
        return False
    rest = [w for w in kind_words(asked) if not joined_kind(w)]
    return bool(rest) and all(names_kind(state.text, w) for w in rest)


def _only_models_of(label: str, asked: str, chains: Mapping[str, int]) -> bool:
    """Verb class ``label`` holds things named by model of kind ``asked`` and the subject has no
    chain of another such kind: a thing got by a person whose only models got are laptops is one."""
    held = _MODELS.get(label, frozenset())
    return asked in held and not any(k in chains for k in held - {asked})
