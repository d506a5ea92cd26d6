"""The built-in rule-based extractor on small hand-made cells."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from memforest.backends.base import Extractor, UsageLedger
from memforest.backends.rule_based import RuleBasedExtractor
from memforest.domain import Candidate, CellTurn, CellView, FactKind
from memforest.text.extractor import extract_cell
from memforest.text.persons import rewrite_persons
from memforest.text.sentences import split_sentences

T = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)


def cell(*turns: tuple[str, str], first_seq: int = 0) -> CellView:
    return CellView(
        session_external_id="s1",
        session_time=T,
        turns=tuple(CellTurn(first_seq + i, sp, text, T) for i, (sp, text) in enumerate(turns)),
    )


def only(candidates: list[Candidate]) -> Candidate:
    assert len(candidates) == 1, [c.text for c in candidates]
    return candidates[0]


def test_first_person_rewriting_and_relative_date() -> None:
    cands = extract_cell(
        cell(("Priya", "I went to a UNESCO chess club meetup yesterday and it was such fun."), ("Tomas", "Wow!"))
    )
    c = only(cands)
    assert c.text == "Priya went to a UNESCO chess club meetup on 7 May 2023 and it was such fun."
    assert c.valid_from == datetime(2023, 5, 7, tzinfo=UTC)
    assert c.valid_to is None
    assert c.time_text == "yesterday"
    assert c.kind is FactKind.EVENT
    assert c.speaker == "Priya"
    assert c.source_turn_seqs == (0,)
    assert c.entities == ("Priya", "UNESCO")
    assert "chess" in c.topics and "unesco" in c.topics


def test_second_person_becomes_other_speaker() -> None:
    cands = extract_cell(
        cell(("Tomas", "I think your painting of the lake is beautiful."), ("Priya", "Thanks so much!"))
    )
    c = only(cands)
    assert c.text == "Tomas thinks Priya's painting of the lake is beautiful."
    assert c.kind is FactKind.OPINION
    assert c.entities == ("Tomas", "Priya")


def test_rewrite_persons_verb_agreement() -> None:
    assert (
        rewrite_persons("I love my dog and I go running.", "Bob", None) == "Bob loves Bob's dog and Bob goes running."
    )
    assert rewrite_persons("I'm happy and I've got a cat.", "Ann", None) == "Ann is happy and Ann has got a cat."
    assert rewrite_persons("We went camping with our kids.", "Ann", None) == (
        "Ann and others went camping with Ann's kids."
    )
    assert rewrite_persons("You told me.", "Ann", None) == "You told Ann."
    assert rewrite_persons("You told me.", "Ann", "Bob") == "Bob told Ann."


def test_a_pronoun_inside_a_hyphenated_compound_is_no_person() -> None:
    assert rewrite_persons("My aunt gave me a hand-me-down coat.", "Ann", "Bob") == (
        "Ann's aunt gave Ann a hand-me-down coat."
    )
    assert rewrite_persons("Some me-time and our-kind-of fun, you-know-who said.", "Ann", "Bob") == (
        "Some me-time and our-kind-of fun, you-know-who said."
    )
    assert rewrite_persons("She told me- well, us.", "Ann", None) == "She told Ann- well, Ann and others."
    assert rewrite_persons("Big news--I start Monday - my first job.", "Ann", None) == (
        "Big news--Ann starts Monday - Ann's first job."
    )


def test_greetings_and_questions_dropped() -> None:
    cands = extract_cell(
        cell(
            ("Priya", "Hey Mel! Good to see you! How have you been?"),
            ("Tomas", "Thanks! That's great! Wow, cool."),
        )
    )
    assert cands == []


def test_greeting_prefix_stripped_but_statement_kept() -> None:
    c = only(extract_cell(cell(("Tomas", "Hey Priya, I just adopted a puppy named Oscar!"), ("Priya", "Aw."))))
    assert c.text == "Tomas just adopted a puppy named Oscar."
    assert (c.subject, c.attribute, c.value) == ("Tomas", "pet", "Oscar")
    assert "Oscar" in c.entities


def test_capitalised_entities() -> None:
    c = only(
        extract_cell(
            cell(("Tomas", "I took my kids to the Museum of Natural History in New York last Friday."), ("Bob", "Ok"))
        )
    )
    assert c.entities == ("Tomas", "Museum of Natural History", "New York")
    assert c.valid_from == datetime(2023, 5, 5, tzinfo=UTC)
    assert c.time_text == "last Friday"


def test_image_caption_kept_as_statement() -> None:
    cands = extract_cell(cell(("Tomas", "Look at this! [image: a photo of a dog on a beach]"), ("Priya", "So cute!")))
    c = only(cands)
    assert c.text == "Tomas shared a photo of a dog on a beach."
    assert c.kind is FactKind.EVENT
    assert c.source_turn_seqs == (0,)
    assert c.valid_from == T
    assert "dog" in c.topics and "beach" in c.topics


def test_residence_slot_with_month() -> None:
    c = only(extract_cell(cell(("Bob", "I moved to Davis in May 2023."), ("Alice", "Nice!"))))
    assert c.text == "Bob moved to Davis in May 2023."
    assert (c.subject, c.attribute, c.value) == ("Bob", "residence", "Davis")
    assert c.valid_from.date().isoformat() == "2023-05-01"
    assert c.time_text == "in May 2023"
    assert c.entities == ("Bob", "Davis")


def test_other_slots() -> None:
    text = (
        "I work at Google as a software engineer. My favorite book is The Hobbit. "
        "I'm 32 years old. I'm married. I have a cat named Luna."
    )
    cands = extract_cell(cell(("Bob", text), ("Alice", "Cool")))
    slots = [(c.subject, c.attribute, c.value) for c in cands]
    assert slots == [
        ("Bob", "employer", "Google"),
        ("Bob", "job", "software engineer"),
        ("Bob", "favorite_book", "Hobbit"),
        ("Bob", "age", "32"),
        ("Bob", "relationship_status", "married"),
        ("Bob", "pet", "Luna"),
    ]
    assert all(c.source_turn_seqs == (0,) for c in cands)


def test_kinds() -> None:
    def kind_of(text: str) -> FactKind:
        return only(extract_cell(cell(("Bob", text), ("Alice", "ok")))).kind

    assert kind_of("I'm going to start pottery classes next month.") is FactKind.PLAN
    assert kind_of("I really love hiking in the mountains.") is FactKind.PREFERENCE
    assert kind_of("I live in Seattle with my partner.") is FactKind.STATE
    assert kind_of("I visited my grandmother in Ohio.") is FactKind.EVENT
    assert kind_of("I believe kindness matters most in hard times.") is FactKind.OPINION


def test_plan_does_not_set_slot() -> None:
    c = only(extract_cell(cell(("Bob", "I'm going to move to Denver next year."), ("Alice", "ok"))))
    assert c.kind is FactKind.PLAN
    assert c.attribute is None
    assert c.valid_from == datetime(2024, 1, 1, tzinfo=UTC)


def test_state_bounded_by_period_gets_valid_to() -> None:
    c = only(extract_cell(cell(("Bob", "I lived in Paris in 2019."), ("Alice", "ok"))))
    assert c.kind is FactKind.STATE
    assert c.valid_from == datetime(2019, 1, 1, tzinfo=UTC)
    assert c.valid_to == datetime(2020, 1, 1, tzinfo=UTC)
    since = only(extract_cell(cell(("Bob", "I've been working at Acme Corp since 2020."), ("Alice", "ok"))))
    assert since.valid_to is None
    assert (since.subject, since.attribute, since.value) == ("Bob", "employer", "Acme Corp")


def test_split_sentences() -> None:
    text = "Dr. Smith paid 3.5 dollars, e.g. for tea... then left. Wow! Is it? Yes 😊 Great"
    assert split_sentences(text) == [
        "Dr. Smith paid 3.5 dollars, e.g. for tea... then left.",
        "Wow!",
        "Is it?",
        "Yes 😊",
        "Great",
    ]


def test_per_turn_limit_and_order() -> None:
    sentences = [f"I visited museum number {i} in the city of Springfield with friends." for i in range(10)]
    cands = extract_cell(cell(("Bob", " ".join(sentences)), ("Alice", "I baked bread with my daughter today.")))
    bob = [c for c in cands if c.speaker == "Bob"]
    assert 1 <= len(bob) <= 6
    joined = " ".join(c.text for c in bob)
    assert all(f"number {i} " in joined for i in range(10))  # merged, not dropped
    assert [c.source_turn_seqs for c in cands] == [(0,)] * len(bob) + [(1,)]
    assert cands[-1].text == "Alice baked bread with Alice's daughter on 8 May 2023."


def test_deterministic() -> None:
    c = cell(
        ("Priya", "I went to a chess club meetup yesterday. My favorite color is blue."),
        ("Tomas", "I took my kids camping last summer! [image: a photo of a tent by a lake]"),
    )
    first = extract_cell(c)
    assert first == extract_cell(c)
    assert len(first) == 4


async def test_async_protocol_and_ledger() -> None:
    extractor = RuleBasedExtractor()
    assert isinstance(extractor, Extractor)
    assert extractor.name == "rule-based"
    ledger = UsageLedger()
    c = cell(("Bob", "I moved to Davis in May 2023."), ("Alice", "Nice!"))
    result = await extractor.extract(c, ledger=ledger)
    assert result == extract_cell(c)
    usage = ledger.as_dict()["extract"]
    assert usage["calls"] == 1
    assert usage["prompt_tokens"] == 0 and usage["completion_tokens"] == 0


_text = st.text(
    alphabet=st.one_of(
        st.characters(codec="utf-8"),
        st.sampled_from(list(" .!?,'’[]:ImyouweMayFridaylastagoyesterday😊")),
    ),
    max_size=200,
)


@settings(max_examples=200, deadline=None)
@given(texts=st.lists(_text, min_size=1, max_size=3), first_seq=st.integers(min_value=0, max_value=1000))
def test_random_text_never_crashes(texts: list[str], first_seq: int) -> None:
    speakers = ["Ann", "Bob", "Cy"]
    c = cell(*[(speakers[i % 3], t) for i, t in enumerate(texts)], first_seq=first_seq)
    seqs = {t.seq for t in c.turns}
    for cand in extract_cell(c):
        assert cand.source_turn_seqs and set(cand.source_turn_seqs) <= seqs
        assert cand.text.strip()
        assert cand.valid_from.tzinfo is not None
        assert cand.speaker in speakers
        assert len(cand.entities) > 0 and cand.entities[0] == cand.speaker
        assert len(cand.topics) <= 5
