"""A state reader that knows the answers, for ``bench.temporal_v2 --reader gold-states``: the rule
reader's facts with their slots corrected to what the generated world wrote. On a turn the world
wrote a state into, the first fact read from it that names the state's value (else its first fact)
is filed as that state (subject, attribute, value, start) and the turn's other facts carry no
slot; a state turn the rule reader read nothing from gets a fact of its own (its text in the third
person, as the reader writes its facts). The world's mood and leave turns file no state (their
facts stay, unslotted, for recall and for the read path's reading of endings); every other fact is
the rule reader's, untouched.

Scored with it, the temporal set measures the read path alone: what question parsing, temporal
plans and ranking make of a perfect reading of the statements. The gap between its score and the
rule reader's is the reader's share of the misses. A benchmark instrument, never a write path:
the write side has no such labels.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bench.temporal_v2_data import ForestData, State
from memforest.backends.base import Extractor, UsageLedger
from memforest.domain import Candidate, CellTurn, CellView, FactKind
from memforest.text.persons import rewrite_persons

__all__ = ["GoldStates"]


def _unslotted(cand: Candidate) -> Candidate:
    return replace(cand, subject=None, attribute=None, value=None) if cand.attribute is not None else cand


def _filed(cand: Candidate, state: State) -> Candidate:
    return replace(
        cand, kind=FactKind.STATE, valid_from=state.start, valid_to=None, subject=state.subject,
        attribute=state.attribute, value=state.value, entities=tuple(dict.fromkeys((*cand.entities, state.value))),
    )  # fmt: skip


def _own_fact(turn: CellTurn, state: State) -> Candidate:
    text = rewrite_persons(turn.text, turn.speaker, None)
    return Candidate(
        text=text, kind=FactKind.STATE, source_turn_seqs=(turn.seq,), valid_from=state.start,
        entities=(turn.speaker, state.subject, state.value), speaker=turn.speaker, subject=state.subject,
        attribute=state.attribute, value=state.value,
    )  # fmt: skip


class GoldStates:
    """``inner``'s candidates with the states of ``forests`` filed as the world wrote them."""

    def __init__(self, inner: Extractor, forests: Sequence[ForestData]) -> None:
        self.name = f"{inner.name}+gold-states"
        self._inner = inner
        self._states: dict[str, list[State]] = {}
        for forest in forests:
            for state in forest.states:
                if state.turn_id:
                    self._states.setdefault(state.turn_id, []).append(state)
        self._no_state = {
            turn
            for forest in forests
            for turns in (*forest.mood_turns.values(), *forest.leave_turns.values())
            for turn in turns
        }

    async def extract(self, cell: CellView, *, ledger: UsageLedger | None = None) -> list[Candidate]:
        """The rule reader's candidates of ``cell`` with the slots of its state, mood and leave
        turns as the world wrote them."""
        read = await self._inner.extract(cell, ledger=ledger)
        turn_of = {t.seq: t.external_id or "" for t in cell.turns}
        told = {t.seq: self._states[t.external_id or ""] for t in cell.turns if (t.external_id or "") in self._states}
        out = [
            _unslotted(c) if any(s in told or turn_of.get(s) in self._no_state for s in c.source_turn_seqs) else c
            for c in read
        ]
        for turn in cell.turns:
            for state in told.get(turn.seq, ()):
                free = [i for i, c in enumerate(out) if turn.seq in c.source_turn_seqs and c.attribute is None]
                naming = [i for i in free if state.value.casefold() in out[i].text.casefold()]
                if naming or free:
                    i = (naming or free)[0]
                    out[i] = _filed(out[i], state)
                else:
                    out.append(_own_fact(turn, state))
        return out
