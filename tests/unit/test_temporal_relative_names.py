"""Whom a question about a relative asks (issue #48 item 2): a name the question uses only to own
a named relative is no subject of it, and a relative's other names are read whole ("Ana's sister
Mia Rossi"). Sentences and names of my own."""

from __future__ import annotations

import asyncio

import pytest

from memforest.retrieval.temporal.other_names import aliases
from memforest.retrieval.temporal.parse import parse_question


def test_a_name_that_only_owns_a_named_relative_is_no_candidate_subject() -> None:
    tq = parse_question("Where did my cousin Oriel work before Fennwick Dairy?", speaker="Tamsin Ekwueme")
    assert tq.names[0] == "Oriel"
    assert "Tamsin Ekwueme" not in tq.names
    # named again as a subject of its own, the owner stays one
    assert "Hesper" in parse_question("Did Hesper's cousin Oriel move before Hesper?").names


def test_a_relatives_other_name_is_read_whole_and_by_its_first_word() -> None:
    texts = ["Tamsin Ekwueme's sister Liesl Varga laughed at the plan.", "Tamsin Ekwueme's sister is in town."]
    found = asyncio.run(aliases(None, None, 0, "Tamsin Ekwueme's sister", texts))  # type: ignore[arg-type]
    assert found == ["Tamsin Ekwueme's sister", "Liesl Varga", "Liesl"]
    # a capitalised word after the name that is no name's is not read into it
    texts = ["Tamsin Ekwueme's sister Liesl moved to Harrowgate."]
    found = asyncio.run(aliases(None, None, 0, "Tamsin Ekwueme's sister", texts))  # type: ignore[arg-type]
    assert found == ["Tamsin Ekwueme's sister", "Liesl"]


def test_a_contraction_is_no_possessor_and_the_askers_whole_name_is_one() -> None:
    tq = parse_question("Who's my Finnish tutor now?", speaker="Tamsin Ekwueme")
    assert "Who" not in tq.people
    assert tq.people == ("Tamsin Ekwueme",)
    assert tq.attribute == "tutor"  # (a language before the noun is no part of the kind)
    sister = parse_question("Where did my sister live before Harrowgate?", speaker="Tamsin Ekwueme")
    assert sister.names[0] == "Tamsin Ekwueme's sister"
    assert sister.people == ("Tamsin Ekwueme",)
    # a value before the asker's name is none of it
    assert parse_question("How long was Corbel Mutual my bank?", speaker="Wren").people == ("Wren",)


def test_an_auxiliary_inside_a_name_makes_no_subject() -> None:
    # "do" of "Escola Ribeira do Norte" is no question's verb, "did" after "When" is one
    assert parse_question("When did I start at Escola Ribeira do Norte?", speaker="Jurema").people == ("Jurema",)
    assert parse_question("When did Ana move to Oslo?").people == ("Ana",)


@pytest.mark.parametrize(
    ("question", "person"),
    [
        ("Where in Leeds did Ana live before Harehills?", "Ana"),
        ("Why did Ana leave Corbel Mutual?", "Ana"),
        ("After Acme did Ana work at Birchmoor?", "Ana"),
    ],
)
def test_a_name_before_an_auxiliary_leaves_the_subject_after_it(question: str, person: str) -> None:
    assert person in parse_question(question).people


def test_the_owner_of_a_named_relative_stays_a_candidate_unless_it_is_the_asker() -> None:
    names = parse_question("Did Ana's brother Tom visit before she moved to Leeds?").names
    assert names[0] == "Tom" and "Ana" in names


def test_a_relative_asked_by_another_word_for_them_is_still_them() -> None:
    mother = parse_question("Which dog did my mother have in 2021?", speaker="Tamsin Ekwueme")
    assert mother.names[:3] == ("Tamsin Ekwueme's mother", "Tamsin Ekwueme's mum", "Tamsin Ekwueme's mom")
    dad = parse_question("Where does Hesper's dad work now?")
    assert "Hesper's father" in dad.names and dad.names.index("Hesper's father") < dad.names.index("Hesper")
    # a relative with no other word keeps its own
    assert parse_question("Where did my cousin live before Harrowgate?", speaker="Tamsin Ekwueme").names[0] == (
        "Tamsin Ekwueme's cousin"
    )
