"""States whose value is a common noun phrase, typed as people type to a chatbot ("the kiosk outside
the ferry terminal", "a folding bike", "the lifeboat crew"), and states whose kind heads the message
before a colon ("Dentist: moved to ..."), with the sentences that must still file nothing (ADR 0111).
The sentences are written for these tests; no benchmark's templates or vocabulary."""

from __future__ import annotations

import pytest

from memforest.text.change_common import find_common_change, header_kind
from tests.support.states import speaker_slots


def _filed(text: str) -> list[tuple[str | None, str | None, str | None]]:
    return [s for s in speaker_slots(text) if s[1] is not None]


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("Dentist: moved to the practice above the florist.", ("Mia", "dentist", "practice above the florist")),
        (
            "Pharmacy switch; we get everything at the chemist by the roundabout now",
            ("Mia", "pharmacy", "chemist by the roundabout"),
        ),
        ("Camera: a battered film rangefinder from a car boot sale", ("Mia", "camera", "battered film rangefinder")),
        ("Choir: we're the Dockside Voices now, rehearsals in the chapel hall", ("Mia", "choir", "Dockside Voices")),
        ("Climbing gym: switched to Hollin Crag, better routes", ("Mia", "climbing_gym", "Hollin Crag")),
    ],
)
def test_a_kind_heading_the_message_names_the_value_after_it(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in _filed(text)


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        (
            "our bakery these days is the kiosk outside the ferry terminal",
            ("Mia", "bakery", "kiosk outside the ferry terminal"),
        ),
        ("my scooter's a dented grey vespa now", ("Mia", "vehicle", "dented grey vespa")),
        ("the boathouse café's my lunch spot now", ("Mia", "lunch_spot", "boathouse café")),
        (
            "the plumber I use now is a retired engineer from the next village",
            ("Mia", "plumber", "retired engineer from the next village"),
        ),
        (
            "my niece Ottoline has a new swimming coach: mr trevithick from the leisure pool",
            ("Ottoline", "swimming_coach", "mr trevithick from the leisure pool"),
        ),
    ],
)
def test_a_named_kind_takes_a_common_noun_phrase_as_its_value(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in _filed(text)


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("we shop at the co-op on the high street now", ("Mia", "co-op", "co-op on the high street")),
        ("my brother Fenwick joined the lifeboat crew", ("Fenwick", "crew", "lifeboat crew")),
        ("I'm secretary of the cricket club now", ("Mia", "club", "cricket club")),
        ("bell ringing group on thursdays now, my arms ache", ("Mia", "group", "Bell ringing group")),
        ("we've got a tortoise now", ("Mia", "pet", "tortoise")),
        ("commuting on a folding bike now, the bus was hopeless", ("Mia", "vehicle", "folding bike")),
    ],
)
def test_the_head_noun_of_the_value_is_its_kind(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in _filed(text)


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("replaced the old estate with a little hybrid runabout", ("Mia", "runabout", "little hybrid runabout")),
        ("traded the trombone in for a baritone horn last month", ("Mia", "horn", "baritone horn")),
        ("no more dial-up misery for me, it's a fibre line now", ("Mia", "change", "fibre line")),
        ("the farm shop on the ridge does our eggs now", ("Mia", "shop", "farm shop on the ridge")),
        (
            "my accountant (the quiet woman above the bank) says we're fine",
            ("Mia", "accountant", "quiet woman above the bank"),
        ),
        ("writing on the new tablet (a lumo slate 9) - the screen is lovely", ("Mia", "device", "lumo slate 9")),
        ("I'm the new chair of the residents' forum, god help me", ("Mia", "forum", "residents' forum")),
    ],
)
def test_switches_apposition_and_providers_of_ones_things(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in _filed(text)


@pytest.mark.parametrize(
    "text",
    [
        "left the party for a walk",
        "no more rain for a week, it's sunny now",
        "traded stories with the neighbours for an hour",
        "the kids do their homework now",
        "Mum does my hair now",
        "Big update: Tobiah proposed!",
        "I have a cold now.",
        "Wishlist: a vintage moped and a kayak.",
        "I'm in a meeting now, call you later",
        "We joined the call late.",
        "I'm in a group chat with my cousins now",
        "thinking about joining the rowing club",
        "Plan: switch to the credit union next month.",
        "The weather's a nightmare now.",
        "maybe we'll get a rescue dog one day",
        "I walked to the station every morning back then",
        "I don't go to the pool by the park anymore",
        "Quick question: is the library open on sundays?",
        "I'm in a band now",
    ],
)
def test_no_state_where_nothing_is_held_now(text: str) -> None:
    assert _filed(text) == []


def test_the_kind_heading_a_message_is_no_one() -> None:
    assert header_kind("Energy supplier: gone from Voltmere to Brackwater Power") == "Energy supplier"
    assert header_kind("Quick update: all fine") is None
    assert header_kind("Switched dentists; the new one is lovely") is None
    assert ("Mia", "energy_supplier", "Brackwater Power") in _filed(
        "Energy supplier: gone from Voltmere to Brackwater Power as of this month"
    )


def test_a_pet_got_and_then_named_files_the_name_last() -> None:
    assert _filed("We adopted a whippet! Her name is Saffi.")[-1] == ("Mia", "pet", "Saffi")


def test_the_reader_is_linear_and_quiet_on_long_noun_runs() -> None:
    assert find_common_change("the " + "old " * 3000 + "club now", "Mia") is None
    assert find_common_change("Gym: " + "to the " * 2000, "Mia") is None
