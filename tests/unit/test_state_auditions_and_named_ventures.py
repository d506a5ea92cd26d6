"""Joining told by an audition or application that succeeded, a venture named "called the X", and a
later clause opened by a time and another subject: each one reads the state it tells, and none
reads one from a hope, a failure or another subject's question. Sentences and names of my own."""

from __future__ import annotations

from support.states import held_slots as held

from memforest.text.mood import mood_near


def test_an_audition_that_succeeded_joins_the_group() -> None:
    assert ("Mia", "membership", "Quarrybank Voices") in held("I auditioned for Quarrybank Voices and got in!")
    assert ("Mia", "membership", "Tollgate Rowing Club") in held(
        "I applied to Tollgate Rowing Club and was accepted last week."
    )
    assert ("Mia", "membership", "Quarrybank Voices") in held(
        "I left the Arden Singers, and I auditioned for Quarrybank Voices, and I got in!"
    )


def test_an_audition_or_application_not_yet_won_joins_nothing() -> None:
    assert not held("I auditioned for Quarrybank Voices and didn't get in.")
    assert not held("I auditioned for Quarrybank Voices, and I didn't get in.")
    assert not held("I applied to Tollgate Rowing Club and hope to get in.")
    assert not held("I applied to Tollgate Rowing Club. They said they'd let me know.")
    # another's success is not the subject's; getting in touch is no getting in
    assert not held("I auditioned for Quarrybank Voices, and Priya got in.")
    assert not held("Tom auditioned for Quarrybank Voices, and I got in instead.")
    assert not held("I applied to Tollgate Rowing Club and got in touch with their secretary.")


def test_an_application_is_still_a_plan_without_its_success() -> None:
    text = "Mia applied to Tollgate Rowing Club."
    assert mood_near(text, text.index("Tollgate")) == "plan"
    won = "Mia applied to Tollgate Rowing Club and was accepted."
    assert mood_near(won, won.index("Tollgate")) is None


def test_a_venture_called_the_x_is_named_by_its_kind() -> None:
    assert ("Mia", "food_truck", "Saffron Wheel") in held("I started a food truck called the Saffron Wheel.")
    assert ("Oren", "studio", "Pale Mill Design") in held(
        "Oren set up his own studio called Pale Mill Design.", speaker="Oren"
    )
    assert ("Mia", "band", "Night Owls") in held("I started my own band called the Night Owls.")
    # someone else's own venture, seen, is not the speaker's
    assert not held("I visited Priya and saw her own studio called the Clay Room.")


def test_a_later_clause_opened_by_a_time_and_another_subject_keeps_its_mood() -> None:
    slots = held("I've been rowing with Tollgate Rowing Club for two years and yesterday they asked if I'd coach.")
    assert ("Mia", "patronage", "Tollgate Rowing Club") in slots
    # the hypothetical is the later clause's own, the first clause's remains a statement
    text = "Mia joined Tollgate Rowing Club and then they asked if Mia would coach."
    assert mood_near(text, text.index("Tollgate")) is None
    # a verb of leaving an abstract thing leaves no group named after it
    assert ("Mia", "membership", "Larks") in held("I stepped away from social media and now sing with the Larks.")
    # the same clause's own hypothetical still blocks it
    assert not held("I'd join Tollgate Rowing Club if they asked me.")
