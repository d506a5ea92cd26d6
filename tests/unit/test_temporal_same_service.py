"""A kind of service asked by another of its names is answered by the chain filed under one of
them ("which salon" by a ``hairdresser`` chain, "which mobile carrier" by a ``mobile_network`` one),
never by a verb class's chain of other things, nor by the chain of a different service of the same
family (gas is no electricity). Sentences and names of my own."""

from __future__ import annotations

from datetime import UTC, datetime

from support.fact_rows import fact_row
from support.temporal_answers import answer_of

from memforest.retrieval.temporal.kind_words import same_service, service_synonyms

NOW = datetime(2024, 12, 15, 12, tzinfo=UTC)
ROWS = [
    fact_row(1, 2, "Odile switched her hairdresser to Maison Tréfle on Rue Vanne.", "Odile",
             subject="odile", attribute="hairdresser", value="Maison Tréfle"),
    fact_row(2, 4, "Odile joined the Corbeau Racquets club.", "Odile",
             subject="odile", attribute="membership", value="Corbeau Racquets"),
    fact_row(3, 7, "Odile's hairdresser is Studio Grenat now.", "Odile",
             subject="odile", attribute="hairdresser", value="Studio Grenat"),
    fact_row(4, 10, "Odile signed up with the Pivert Padel league.", "Odile",
             subject="odile", attribute="membership", value="Pivert Padel"),
]  # fmt: skip


def test_another_name_of_the_service_finds_its_chain() -> None:
    assert same_service("salon", {"hairdresser": 2, "membership": 2}) == "hairdresser"
    assert same_service("mobile_carrier", {"mobile_network": 1, "bank": 3}) == "mobile_network"
    assert same_service("bank", {"account": 1, "membership": 2}) == "account"  # ("my Tarvel account")
    assert same_service("car_insurer", {"car_insurance": 1}) == "car_insurance"
    # a different service of one family, or the same one qualified otherwise: none
    assert same_service("gas", {"electricity": 2}) is None
    assert same_service("orthodontist", {"dentist": 2}) is None
    assert same_service("home_insurance", {"car_insurance": 2}) is None
    assert same_service("streaming_account", {"bank": 2}) is None
    # no kind of service, or none of its chains: none; a verb class never
    assert same_service("choir", {"hairdresser": 2}) is None
    assert same_service("salon", {"patronage": 4, "bank": 1}) is None


def test_a_question_by_another_name_of_the_service_is_answered_from_its_chain() -> None:
    assert answer_of(ROWS, "Which salon do I go to now?", "Odile", NOW) == 3
    assert answer_of(ROWS, "Which salon was I going to in May 2024?", "Odile", NOW) == 1


# a practitioner filed under two names of one service: "my GP, Dr. A" and, later, "registered with
# Dr. B at X Medical Centre" (a doctor)
GP_ROWS = [
    fact_row(1, 2, "Odile wrote to Odile's GP, Dr. Aubrac at Quai Surgery.", "Odile",
             subject="odile", attribute="gp", value="Dr. Aubrac"),
    fact_row(2, 8, "Odile has registered with Dr. Fenouil at Lisière Medical Centre.", "Odile",
             subject="odile", attribute="doctor", value="Dr. Fenouil"),
]  # fmt: skip


def test_chains_under_two_names_of_one_service_are_one_chain() -> None:
    assert service_synonyms("gp", {"gp": 1, "doctor": 1, "dentist": 1}) == ("gp", "doctor")
    assert answer_of(GP_ROWS, "Who is my GP?", "Odile", NOW) == 2
    assert answer_of(GP_ROWS, "Who is my doctor now?", "Odile", NOW) == 2
    assert answer_of(GP_ROWS, "Who was my GP in May 2024?", "Odile", datetime(2024, 5, 20, tzinfo=UTC)) == 1


def test_a_thing_joined_in_the_town_one_lives_in_is_no_move_of_home() -> None:
    rows = [
        fact_row(1, 1, "Odile moved into a house in Vellmarsh.", "Odile",
                 subject="odile", attribute="residence", value="Vellmarsh"),
        fact_row(2, 2, "Odile lifts at Forgeline Gym before work.", "Odile", entities=("Forgeline Gym",)),
        fact_row(3, 9, "Forgeline shut, so Odile has joined Tarsk Boxing in Vellmarsh. The workouts are hard.", "Odile",
                 subject="odile", attribute="membership", value="Tarsk Boxing"),
    ]  # fmt: skip
    assert answer_of(rows, "Which gym am I a member of now?", "Odile", NOW) == 3
    assert answer_of(rows, "Where do I live now?", "Odile", NOW) == 1
