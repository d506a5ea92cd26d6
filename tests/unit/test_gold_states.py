"""``bench.gold_states``: the temporal set's perfect state reader files each state the world wrote
as it wrote it, on the rule reader's own fact where one names the value, and no state from the
world's mood and leave turns; facts of other turns are the rule reader's."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from bench.gold_states import GoldStates
from bench.temporal_v2_data import ForestData, State
from memforest.backends.rule_based import RuleBasedExtractor
from memforest.domain import Candidate, CellTurn, CellView, FactKind

WHEN = datetime(2024, 3, 4, 10, tzinfo=UTC)
STARTED = datetime(2024, 3, 1, tzinfo=UTC)


def _forest(**turns: str) -> ForestData:
    forest = ForestData(name="g", user="Ottilie", others={"Bram": ("brother", "he")})
    forest.states = [State("Bram", "kayak", 0, "Wavewright", False, STARTED, turn_id=turns["state"])]
    forest.mood_turns = {("Ottilie", "gym"): [turns["mood"]]}
    forest.leave_turns = {("Ottilie", "gym"): [turns["leave"]]}
    return forest


def _read(forest: ForestData, *texts: str) -> list[Candidate]:
    cell = CellView(
        "g-s1", WHEN, tuple(CellTurn(i, "Ottilie", t, WHEN, f"g-s1:{i + 1}", "user") for i, t in enumerate(texts))
    )
    return asyncio.run(GoldStates(RuleBasedExtractor(), [forest]).extract(cell))


def test_a_state_turn_is_filed_as_the_world_wrote_it_on_the_fact_naming_its_value() -> None:
    forest = _forest(state="g-s1:1", mood="g-s1:9", leave="g-s1:8")
    read = _read(forest, "My brother Bram paddles a Wavewright kayak these days.")
    (filed,) = [c for c in read if c.attribute is not None]
    assert (filed.subject, filed.attribute, filed.value) == ("Bram", "kayak", "Wavewright")
    assert filed.kind is FactKind.STATE and filed.valid_from == STARTED
    assert "Wavewright" in filed.text and "my brother" not in filed.text.lower()  # the reader's own wording


def test_a_state_turn_the_rule_reader_read_nothing_from_gets_its_own_fact() -> None:
    forest = _forest(state="g-s1:1", mood="g-s1:9", leave="g-s1:8")
    read = _read(forest, "Wavewright, obviously.")
    (filed,) = [c for c in read if c.attribute is not None]
    assert filed.text == "Wavewright, obviously." and filed.source_turn_seqs == (0,)
    assert (filed.subject, filed.value) == ("Bram", "Wavewright")


def test_mood_and_leave_turns_keep_their_facts_without_a_slot_and_other_turns_are_untouched() -> None:
    forest = _forest(state="g-s1:9", mood="g-s1:1", leave="g-s1:2")
    # (the world's labels decide: its "mood" turn here is one the rule reader files a state from)
    texts = ("I joined Ironclad Gym in January.", "I quit Ironclad Gym last week.", "I moved to Tarrowby in May.")
    read = _read(forest, *texts)
    plain = asyncio.run(RuleBasedExtractor().extract(CellView("g-s1", WHEN, (CellTurn(2, "Ottilie", texts[2], WHEN),))))
    by_turn = {s: [c for c in read if c.source_turn_seqs == (s,)] for s in range(3)}
    assert by_turn[0] and by_turn[1]
    mood_alone = asyncio.run(
        RuleBasedExtractor().extract(CellView("g-s1", WHEN, (CellTurn(0, "Ottilie", texts[0], WHEN),)))
    )
    assert any(c.attribute is not None for c in mood_alone)  # what the gold reader unslots
    assert all(c.attribute is None for c in by_turn[0] + by_turn[1])
    assert [(c.text, c.attribute, c.value) for c in by_turn[2]] == [(c.text, c.attribute, c.value) for c in plain]
    assert any(c.attribute is not None for c in plain)  # the untouched turn does file its state
