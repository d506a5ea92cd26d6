"""Moods read from grammar (issue #48 item 3): arrangements in the progressive, hopes, near misses,
advice with "ought to", remembering fondly. Each is a fact with no state; the plain statements
beside them stay states.

Every sentence was written for these tests; its people, places and things appear in neither split
of ``bench.temporal_v2``.
"""

from __future__ import annotations

import pytest
from support.states import speaker_slots

from memforest.text.mood import mood_of
from memforest.text.persons import rewrite_persons


@pytest.mark.parametrize(
    ("text", "mood"),
    [
        ("Mia is relocating to Quenby after the harvest.", "plan"),
        ("Mia's moving to Quenby in October.", "plan"),
        ("Mia is joining the Saltrey Bell Ringers.", "plan"),
        ("Mia's plan is to bank with Oxbrook Savings.", "plan"),
        ("Mia is on the list for an allotment at Fernhill Plots.", "plan"),
        ("Mia is saving up for a Torvik scooter.", "plan"),
        ("Fingers crossed for the post at Hallam Gauges.", "wish"),
        ("Mia is hoping for a spot in the Saltrey Bell Ringers.", "wish"),
        ("Ideally Mia would rent in Quenby.", "hypothetical"),
        ("Mia has got her eye on a Torvik scooter.", "wish"),
        ("Mia almost signed with Hallam Gauges.", "considered"),
        ("Mia nearly bought a Torvik scooter.", "considered"),
        ("Hallam Gauges made Mia an offer but Mia stayed put.", "considered"),
        ("Mia is leaning towards Oxbrook Savings.", "considered"),
        ("Ravi says Mia ought to try the Quenby climbing barn.", "suggestion"),
        ("How about Oxbrook Savings, Ravi asked.", "suggestion"),
        ("How about you try the Quenby climbing barn?", "suggestion"),
        ("Mia reminisces about the flat above the Quenby bakery.", "nostalgia"),
        ("Mia still longs for the Quenby years.", "nostalgia"),
        ("Mia looks back fondly on the Saltrey Bell Ringers.", "nostalgia"),
        ("So many good memories of the Fernhill allotment.", "nostalgia"),
        ("Mia keeps thinking back to her cottage in Quenby.", "nostalgia"),
    ],
)
def test_a_sentence_that_states_no_state_has_a_mood(text: str, mood: str) -> None:
    assert mood_of(text) == mood


@pytest.mark.parametrize(
    "text",
    [
        "Mia is living in Quenby now.",
        "Mia moved to Quenby in October.",
        "Mia joined the Saltrey Bell Ringers, and the practice room is freezing.",
        "Mia has lived in Quenby for nearly three years.",
        "Mia banks with Oxbrook Savings.",
        "Mia's old scooter finally died, so Mia bought a Torvik.",
    ],
)
def test_a_plain_statement_has_none(text: str) -> None:
    assert mood_of(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "I'm moving to Quenby in October.",
        "I almost joined the Saltrey Bell Ringers.",
        "I nearly bought a Torvik scooter.",
        "Ravi says I ought to move to Quenby.",
        "I'm on the list for a flat in Quenby.",
    ],
)
def test_a_first_person_mood_gets_no_slot(text: str) -> None:
    assert all(attribute is None for _, attribute, _ in speaker_slots(text))


def test_an_adverb_between_i_and_the_verb_is_kept_as_it_is() -> None:
    # "I almost joined" reads "Mia almost joined", not "Mia almosts joined"
    assert rewrite_persons("I almost joined the choir.", "Mia", None) == "Mia almost joined the choir."


@pytest.mark.parametrize(
    "text",
    [
        # a hope, a piece of advice or a fond memory beside a plain statement is an aside
        "Mia took over the bakery on Pell Street, hoping for a quiet first month.",
        "Mia signed the lease in Dunmore, fingers crossed the boiler behaves.",
        "Mia got a Corran e-bike, she ought to fit a bell on it.",
        "Mia bought the cottage at Ebberly, so many fond memories of the summers there.",
        "Mia enrolled at Kestle College, ideally with a desk by the window.",
        # a near miss of something else does not reach the clause that states the move
        "Mia almost locked herself out, she moved into the flat on Harrow Lane on Monday.",
        "Mia nearly dropped the cake and we moved to Dunmore the same afternoon.",
        # "how about that" is an interjection, not advice
        "How about that, Mia got the post at Kestle College!",
        "What about that! Mia passed her driving test.",
        "How about you, Ravi?",
        # "starting to <verb>" is no arrangement
        "Mia is starting to like the flat on Harrow Lane.",
    ],
)
def test_an_aside_in_another_clause_gives_the_sentence_no_mood(text: str) -> None:
    assert mood_of(text) is None


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("We nearly booked the wrong van, I moved to Dunmore on Sunday.", ("Mia", "residence", "Dunmore")),
        ("I signed up at Kestle College, I'm hoping for a quiet term.", ("Mia", "school", "Kestle College")),
        ("What a week, how about that, I got a Corran Voyager!", ("Mia", "possession", "Corran Voyager")),
    ],
)
def test_an_aside_leaves_the_statement_its_slot(text: str, slot: tuple[str, str, str]) -> None:
    assert slot in speaker_slots(text)


@pytest.mark.parametrize(
    ("text", "mood"),
    [
        # the cue leads the statement, or the other clause only says who spoke or when
        ("Fingers crossed, Mia gets the keys to the flat on Harrow Lane on Friday.", "wish"),
        ("Mia ought to join the Dunmore rowing club, Ravi said.", "suggestion"),
        ("Mia nearly took the post at Kestle College, when it was offered in May.", "considered"),
    ],
)
def test_a_cue_with_no_plain_clause_beside_it_keeps_its_mood(text: str, mood: str) -> None:
    assert mood_of(text) == mood


def test_an_invitation_is_a_suggestion_in_its_own_clause_only() -> None:
    assert mood_of("Bo invited us to Lisbon for the summer and we moved there in June.") is None
    assert mood_of("Ilse invited me to her choir.") == "suggestion"
    assert mood_of("Ilse keeps inviting me to hers, Brackwater Singers.") == "suggestion"
