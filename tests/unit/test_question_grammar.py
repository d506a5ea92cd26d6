"""A temporal question read from its grammar, in sentences of my own (no benchmark template, name
or value): the operator from its subordinators and prepositions, a time in any clause as the
as-of point or the bound of before / after, a "when/while/during ..." clause as the window of the
state it names, the asked kind from a noun or a relation, people told from values by their place."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memforest.retrieval.temporal.asked import anchor_value, during_anchor
from memforest.retrieval.temporal.chains import chain_label
from memforest.retrieval.temporal.parse import TemporalQuestion, parse_question, value_name
from memforest.retrieval.timecues import asks_when, parse_time_cues
from memforest.text.dates import resolve_time_expressions

NOW = datetime(2026, 6, 15, 12, tzinfo=UTC)


def _day(year: int, month: int, day: int = 1) -> datetime:
    return datetime(year, month, day, tzinfo=UTC)


def _parse(question: str, speaker: str = "Wren") -> TemporalQuestion:
    cues = parse_time_cues(question, NOW)
    return parse_question(question, speaker=speaker, now=NOW, window=(cues.after, cues.before))


@pytest.mark.parametrize(
    ("clause", "value"),
    [
        ("he joined Brassica Foods", "Brassica Foods"),
        ("Quillfeather shut down", "Quillfeather"),
        ("the switch to Linux", "Linux"),
        ("Ottilie moved to Gdansk", "Gdansk"),
        ("I hired Bex", "Bex"),
        ("Dr. Amstutz", "Dr. Amstutz"),
        ("the wedding", None),
    ],
)
def test_the_anchor_is_the_value_its_clause_names(clause: str, value: str | None) -> None:
    assert anchor_value(clause, ("Ottilie",), NOW) == value


@pytest.mark.parametrize(
    ("question", "operator", "anchor"),
    [
        ("Which gym did Wren use prior to signing up at Ironclad?", "before", "Ironclad"),
        ("What did Bo drive earlier than the Skoda?", "before", "Skoda"),
        ("Which choir was Ottilie in following her move to Gdansk?", "after", "Gdansk"),
        ("Who did I bank with once I had left Corbel Bank?", "after", "Corbel Bank"),
    ],
)
def test_before_and_after_from_their_words(question: str, operator: str, anchor: str) -> None:
    tq = _parse(question)
    assert (tq.operator, tq.anchor) == (operator, anchor)


def test_a_time_after_before_or_after_bounds_the_state() -> None:
    before = _parse("Which bank did Bo use before 2022?")
    assert (before.operator, before.anchor, before.at) == ("before", None, datetime(2022, 1, 1, tzinfo=UTC))
    after = _parse("What phone did I get after last summer?")
    assert after.operator == "after" and after.anchor is None
    assert after.at == datetime(2025, 9, 1, tzinfo=UTC)  # the end of the summer of 2025


def test_a_leading_when_clause_sets_the_time_it_does_not_ask_for_it() -> None:
    assert not asks_when("When I lived in Gdansk, which bakery did I like?")
    assert asks_when("When did I start at the bakery?")
    cues = parse_time_cues("When I lived in Gdansk, which bakery did I like?", datetime(2025, 1, 5, tzinfo=UTC))
    assert not cues.asks_when  # the rerank reads the question as the temporal plan does
    tq = _parse("When I lived in Gdansk, which bakery did I like?")
    assert (tq.operator, tq.during, tq.attribute) == ("as_of", "Gdansk", "bakery")
    assert tq.names[0] == "Wren"


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("Which tailor did Bo use while he was at Marlow College?", "Marlow College"),
        ("What was my commute like in the days when I worked for Tessellate?", "Tessellate"),
        ("Which pub quiz team was Ottilie on at the time of her job at Brindle & Co?", "Brindle & Co"),
        ("Which gym did I go to during my years in Nantes?", "Nantes"),
    ],
)
def test_a_during_clause_names_a_state(question: str, value: str) -> None:
    assert during_anchor(question, ("Bo", "Ottilie", "Wren"), NOW) == value
    assert _parse(question).during == value


def test_a_time_in_a_during_clause_is_a_time() -> None:
    tq = _parse("Which tailor did Bo use during the summer of 2023?")
    assert tq.during is None and tq.operator == "as_of"
    assert tq.at is not None and datetime(2023, 6, 1, tzinfo=UTC) <= tq.at < datetime(2023, 9, 1, tzinfo=UTC)


@pytest.mark.parametrize(
    ("question", "lo", "hi"),
    [
        ("Which tailor did I use the year before last?", _day(2024, 1), _day(2025, 1)),
        ("Who cut Bo's hair last autumn?", _day(2025, 9), _day(2025, 12)),
        ("What was my bakery in February?", _day(2026, 2), _day(2026, 3)),
        ("Which tailor did I have eighteen months ago?", _day(2024, 11, 15), _day(2025, 1, 20)),
        ("Which tailor did I have a year and a half back?", _day(2024, 11, 15), _day(2025, 1, 20)),
        # a season counted back: the one under way (summer 2026) is not yet the last one
        ("Which tailor did Bo use two summers ago?", _day(2024, 6), _day(2024, 9)),
        ("Which tailor did Bo use a winter ago?", _day(2025, 12), _day(2026, 3)),
        ("Which tailor did Bo use three springs back?", _day(2024, 3), _day(2024, 6)),  # (spring 2026 is over)
    ],
)
def test_a_named_time_is_the_as_of_point(question: str, lo: datetime, hi: datetime) -> None:
    tq = _parse(question)
    assert tq.operator == "as_of" and tq.at is not None and lo <= tq.at < hi


def test_a_relation_asked_after_is_the_state() -> None:
    tq = _parse("Who was my landlord at the start of 2025?")
    assert tq.attribute == "landlord" and tq.operator == "as_of"
    assert "Wren's landlord" not in tq.names and tq.names[0] == "Wren"
    relative = _parse("Where does my landlord live now?")
    assert relative.names[0] == "Wren's landlord" and relative.attribute == "residence"


def test_a_chain_is_found_by_a_word_that_begins_its_label() -> None:
    assert chain_label("hair", {"hairdresser": 2, "possession": 3}) == "hairdresser"
    assert chain_label("identity", {"possession": 3}) == "possession"
    assert chain_label("identity", {"possession": 3}, loose=False) is None


def test_a_named_attribute_is_never_answered_by_another_named_attribute() -> None:
    # a question about a home must not read a job chain because no home state is at hand
    assert chain_label("residence", {"employer": 4, "vehicle": 2}) is None
    assert chain_label("pet", {"employer": 1, "possession": 2}) == "possession"
    # an open-ended slot may still read a loosely named one ("which band" -> the hobby chain)
    assert chain_label("band", {"hobby": 2}) == "hobby"


def test_a_verb_class_answers_only_for_a_kind_it_can_hold() -> None:
    # a home is neither bought nor joined; a club is joined, never bought; a change is of any kind
    assert chain_label("residence", {"possession": 2, "membership": 3}) is None
    assert chain_label("residence", {"possession": 2, "change": 1}) == "change"
    assert chain_label("rowing_crew", {"possession": 3}) is None
    assert chain_label("rowing_crew", {"possession": 3, "patronage": 1}) == "patronage"
    assert chain_label("employer", {"possession": 1, "membership": 2}) == "membership"
    assert chain_label("hearing_aid", {"possession": 1, "membership": 2}) == "possession"
    # a service or a place one goes to is gone to or joined, never got
    assert chain_label("dentist", {"possession": 3}) is None
    assert chain_label("hairdresser", {"possession": 3, "patronage": 1}) == "patronage"
    assert chain_label("coffee_place", {"possession": 2, "patronage": 1}) == "patronage"


def test_a_place_that_is_the_anchor_is_kept_whole() -> None:
    tq = _parse("Which greengrocer did Bo use prior to renting the unit at Skelby Wharf?")
    assert (tq.operator, tq.anchor) == ("before", "Skelby Wharf")
    tq = _parse("Which kennel had Nutmeg before Nutmeg stayed with Ottilie?")
    assert tq.anchor is not None and "Ottilie" not in tq.anchor


@pytest.mark.parametrize(
    ("question", "slot"),
    [
        ("Which plumber fixes my mother's boiler these days?", "plumber"),
        ("Which courier delivers Bo's parcels now?", "courier"),
        ("Which sailing club does my aunt belong to now?", "sailing_club"),
        ("Which garage services my van these days?", "garage"),
    ],
)
def test_a_second_word_before_an_object_is_the_verb(question: str, slot: str) -> None:
    assert _parse(question).attribute == slot


@pytest.mark.parametrize(
    ("question", "slot"),
    [
        ("Which rowing club my cousin signed up for first?", "rowing_club"),
        ("Which tea shop my grandmother likes did she go to before Mossgate?", "tea_shop"),
        ("Which dental insurer my company picked was before Lumera?", "dental_insurer"),
        ("Which hiking boots my uncle wears did he buy after the Tarns?", "hiking_boot"),
    ],
)
def test_a_compound_before_an_object_is_kept_whole(question: str, slot: str) -> None:
    assert _parse(question).attribute == slot


def test_a_month_of_an_event_signed_up_for_keeps_the_year_of_the_utterance() -> None:
    said = datetime(2024, 8, 6, 21, tzinfo=UTC)
    signed = resolve_time_expressions("I signed up for the Lisbon half marathon in November, my first.", said)
    assert signed[0].start == datetime(2024, 11, 1, tzinfo=UTC)
    moved = resolve_time_expressions("I moved to Gdansk in November.", said)
    assert moved[0].start == datetime(2023, 11, 1, tzinfo=UTC)
    waited = resolve_time_expressions("I waited for it in November.", said)
    assert waited[0].start == datetime(2023, 11, 1, tzinfo=UTC)


def test_a_past_stay_or_trip_for_something_keeps_the_tense_of_its_sentence() -> None:
    said = datetime(2024, 2, 10, 9, tzinfo=UTC)
    stay = resolve_time_expressions("I was in Tallinn for a week in November.", said)
    assert stay[0].start == datetime(2023, 11, 1, tzinfo=UTC)
    trip = resolve_time_expressions("We went to Porto for a wedding on March 3.", said)
    assert trip[0].start == datetime(2023, 3, 3, tzinfo=UTC)
    booked = resolve_time_expressions("We booked a cabin for the holidays in December.", said)
    assert booked[0].start == datetime(2024, 12, 1, tzinfo=UTC)


def test_once_reads_after_only_before_a_name() -> None:
    assert _parse("Did I once own a scooter?").operator != "after"
    assert _parse("Which gym did Priya use once she left Brightwater?").operator == "after"


def test_a_period_of_a_life_names_a_state() -> None:
    tq = _parse("Which bakery did I go to in my Tessellate days?")
    assert (tq.operator, tq.during, tq.attribute) == ("as_of", "Tessellate", "bakery")


@pytest.mark.parametrize(
    ("question", "subject", "value"),
    [
        ("When did Pilar become Oskar's cat?", "Oskar", "Pilar"),
        ("When did my cousin Delphine get her cat Miso?", "Delphine", "Miso"),
        ("How long was Corbel Bank my bank?", "Wren", "Corbel Bank"),
        ("How long did Bo stay with Ironclad?", "Bo", "Ironclad"),
        ("Since when have I been with Calder Mutual?", "Wren", "Calder Mutual"),
    ],
)
def test_people_and_values_by_their_place(question: str, subject: str, value: str) -> None:
    tq = _parse(question)
    assert tq.operator in ("when", "how_long")
    assert (tq.names[0], value_name(tq, tq.names[0])) == (subject, value)
