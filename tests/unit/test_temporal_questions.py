"""Question parsing in phrasings of my own (not the benchmark's): many ways of asking now / latest /
first / after / before / when / as of, with and without the attribute word; the attribute is told
from a head noun, a verb ("driving", "hired") or a kind of thing ("the parrot", "the Kia Niro")."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memforest.retrieval.temporal.parse import clean_anchor, parse_question, question_terms
from memforest.retrieval.timecues import parse_time_cues

CASES = [  # (operator, attribute, question)
    ("now", "residence", "Where's Bob based these days?"),
    ("now", "residence", "Which city is Alice in at the moment?"),
    ("now", "residence", "Where does Carmen call home nowadays?"),
    ("now", "employer", "Who's Bob's boss these days?"),
    ("now", "employer", "Who does Alice work for at present?"),
    ("now", "employer", "Which company employs Deepak right now?"),
    ("now", "employer", "Who is Elena's employer today?"),
    ("now", "vehicle", "What's Alice driving now?"),
    ("now", "vehicle", "What is Farid's ride these days?"),
    ("now", "vehicle", "Which car has Greta got at the moment?"),
    ("now", "pet", "What animal does Hiro have now?"),
    ("now", "pet", "Who's Ingrid's furry friend these days?"),
    ("now", "pet", "What's the name of Jamal's dog at the moment?"),
    ("latest", "residence", "Where did Keiko most recently move to?"),
    ("latest", "residence", "What's Luca's newest address?"),
    ("latest", "employer", "Who was Bob's last employer?"),
    ("latest", "employer", "What's the latest company Alice joined?"),
    ("latest", "vehicle", "What was the last car Carmen bought?"),
    ("latest", "vehicle", "Which vehicle did Deepak get most recently?"),
    ("latest", "pet", "Which animal did Elena adopt most recently?"),
    ("latest", "pet", "What's the newest addition to Farid's family of pets?"),
    ("first", "residence", "Where did Greta originally live?"),
    ("first", "residence", "Where was Hiro living to begin with?"),
    ("first", "employer", "Who did Ingrid initially work for?"),
    ("first", "employer", "What was Jamal's earliest employer?"),
    ("first", "vehicle", "Which car did Keiko own first?"),
    ("first", "vehicle", "What did Luca drive originally?"),
    ("first", "pet", "What was the first animal Bob adopted?"),
    ("first", "pet", "Which pet did Alice have in the beginning?"),
    ("after", "residence", "Once Carmen left Denver, where did she live?"),
    ("after", "residence", "Where did Deepak move next after Lisbon?"),
    ("after", "employer", "Following Globex, who did Elena work for?"),
    ("after", "employer", "Who hired Farid after he quit Initech?"),
    ("after", "employer", "Where did Greta work once she left Hooli?"),
    ("after", "vehicle", "What did Hiro drive after selling the Honda Civic?"),
    ("after", "vehicle", "Which car replaced Ingrid's Kia Niro?"),
    ("after", "pet", "What animal did Carmen get after the parrot?"),
    ("after", "pet", "Which pet came after Biscuit for Jamal?"),
    ("before", "residence", "Where did Bob live prior to Miami?"),
    ("before", "residence", "Where was Keiko based until she moved to Osaka?"),
    ("before", "employer", "Who employed Luca before Hooli?"),
    ("before", "employer", "Where was Alice working before joining Globex?"),
    ("before", "vehicle", "What did Bob drive prior to the Tesla Model 3?"),
    ("before", "vehicle", "Which car did Carmen have before she bought the Audi A4?"),
    ("before", "pet", "What pet did Deepak have before getting Mochi?"),
    ("before", "pet", "Which animal preceded Rex in Elena's home?"),
    ("when", "residence", "When did Farid relocate to Berlin?"),
    ("when", "residence", "Since when has Greta lived in Seattle?"),
    ("when", "employer", "When was Hiro hired by Globex?"),
    ("when", "employer", "What date did Ingrid join Initech?"),
    ("when", "vehicle", "When did Jamal buy the Fiat Panda?"),
    ("when", "pet", "When was Luna adopted by Keiko?"),
    ("when", "residence", "At what point did Alice get a place in Lisbon?"),
    ("when", "residence", "When did Bob end up in Oslo?"),
    ("when", "residence", "What month did Carmen arrive in Porto?"),
    ("when", "residence", "Around when did Deepak settle down in Leeds?"),
    ("when", "residence", "Do you remember when Elena relocated to Osaka?"),
    ("when", "employer", "What year did Farid start at Globex?"),
    ("when", "employer", "When did Greta sign on with Hooli?"),
    ("when", "employer", "When did Hiro get the offer from Initech?"),
    ("when", "employer", "Since when has Ingrid been working at Oscorp?"),
    ("when", "employer", "At what point did Jamal go to work for Cyberdyne?"),
    ("when", "pet", "When did Keiko start fostering Pepper?"),
    ("when", "pet", "When did Luca bring Mochi home?"),
    ("when", "pet", "When did Alice take in Rex?"),
    ("when", "vehicle", "How long ago did Bob lease the Kia Niro?"),
    ("when", "vehicle", "Since when has Carmen been driving the Mini Cooper?"),
    ("now", "pet", "What pet is Deepak looking after at the moment?"),
    ("now", "pet", "Which animal lives with Elena these days?"),
    ("as_of", "residence", "Where is Bob living?"),
    ("as_of", "employer", "Who is Alice's employer?"),
    ("as_of", "vehicle", "What does Carmen drive?"),
    ("as_of", "pet", "What's Deepak's pet called?"),
    ("as_of", "pet", "Does Elena have a dog or a cat?"),
]


@pytest.mark.parametrize(("operator", "attribute", "question"), CASES)
def test_operator_and_attribute(operator: str, attribute: str, question: str) -> None:
    tq = parse_question(question, has_as_of=operator == "as_of")
    assert (tq.operator, tq.attribute) == (operator, attribute)


@pytest.mark.parametrize(
    ("question", "anchor"),
    [
        ("Where did Bob go after leaving Miami?", "Miami"),
        ("Once Alice left Montreal, where did they settle?", "Montreal"),
        ("Who hired Farid after he quit Initech?", "Initech"),
        ("Where was Keiko based until she moved to Osaka?", "Osaka"),
        ("What pet did Deepak have before getting Mochi?", "Mochi"),
        ("Which animal preceded Rex in Elena's home?", "Rex"),
        ("Which pet came after Biscuit for Jamal?", "Biscuit"),
        ("Which car replaced Ingrid's Kia Niro?", "Kia Niro"),
        ("What animal did Carmen get after the parrot?", "parrot"),
        ("Where did Alice work before the Bank of Ireland?", "Bank of Ireland"),
        ("Which city did Greta call home before relocating to Berlin?", "Berlin"),
        ("Where did Bob live before settling in Oslo?", "Oslo"),
        ("Who did Carmen work for after signing with Hooli?", "Hooli"),
        ("Which pet did Deepak have before rescuing Rex?", "Rex"),
    ],
)
def test_anchor(question: str, anchor: str) -> None:
    assert parse_question(question).anchor == anchor


def test_sentence_initial_connective_is_not_part_of_a_name() -> None:
    assert parse_question("Once Alice left Montreal, where did they settle?").names == ("Alice", "Montreal")


def test_last_year_is_no_latest() -> None:
    assert parse_question("Where did Bob live last year?").operator != "latest"
    assert clean_anchor("the move to Miami") == "Miami"


@pytest.mark.parametrize(
    "question",
    [
        "Since when has Bob lived in Miami?",
        "At what point did Alice join Globex?",
        "Do you remember when Carmen got Pepper?",
        "Tell me when Deepak bought the Kia Niro.",
        "Around when did Elena move to Oslo?",
    ],
)
def test_when_inside_a_question_asks_when(question: str) -> None:
    cues = parse_time_cues(question, datetime(2024, 1, 1, tzinfo=UTC))
    assert cues.asks_when and cues.anchor_text is None  # "since when" is no event to resolve
    assert parse_question(question).operator == "when"


def test_phrasal_after_is_no_time() -> None:
    q = "What pet is Bob looking after at the moment?"
    assert parse_question(q).operator == "now"
    assert parse_time_cues(q, datetime(2024, 1, 1, tzinfo=UTC)).anchor_text is None
    assert parse_question("Which dog did Bob get after Rex?").operator == "after"


@pytest.mark.parametrize(
    "question",
    [
        "What is the city Bob grew up in?",
        "Which company is the one Bob left?",
        "Where is the house Bob lived in as a kid?",
        "Where is Bob planning to move?",
        "What car does Bob want to buy?",
        "Which gym is Bob thinking of joining?",
        "Where is Bob going to live?",
        "Who is the person Bob dated in college?",
    ],
)
def test_past_or_intent_clause_after_a_present_copula_asks_no_now(question: str) -> None:
    assert parse_question(question).operator is None


@pytest.mark.parametrize(
    "question", ["Where is Bob based?", "What's Deepak's pet called?", "Which bank is Ysolde with?"]
)
def test_passive_after_the_copula_still_asks_now(question: str) -> None:
    tq = parse_question(question)
    assert (tq.operator, tq.implied) == ("now", True)


@pytest.mark.parametrize("word", ["latest", "recent", "newest", "new"])
def test_words_of_recency_are_no_terms_of_the_question(word: str) -> None:
    assert question_terms(f"Who is Ysolde's {word} cello teacher?", ("Ysolde",)) == ("cello", "teacher")
