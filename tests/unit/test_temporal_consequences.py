"""A state stated only by its consequences (issue 48 item 5): a statement with no slot that names an
entity of the same type as a value of the asked chain (its title, its head noun) is a state of that
chain from its first mention, when nothing contradicts it. Sentences of my own (ADR 0067)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from memforest.retrieval.temporal.parse import parse_question, value_name
from memforest.retrieval.temporal.plan import ANSWER, plan_answer
from tests.support.fact_rows import row_at

ME = "Corentin"


def _row(fid: int, month: int, text: str, attribute: str | None = None, value: str | None = None,
         *entities: str, speaker: str = ME, subject: str | None = None) -> dict[str, Any]:  # fmt: skip
    subject = subject if subject is not None else (ME.casefold() if attribute else None)
    when = datetime(2023, month, 1, tzinfo=UTC)
    return row_at(fid, when, text, speaker=speaker, subject=subject, attribute=attribute, value=value,
                  entities=[ME, *entities])  # fmt: skip


DENTIST = [
    _row(1, 1, "Corentin's dentist is Dr. Maelis Torvik.", "dentist", "Dr. Maelis Torvik", "Maelis Torvik"),
    _row(2, 4, "Corentin switched to Dr. Bastien Ulloa.", "dentist", "Dr. Bastien Ulloa", "Bastien Ulloa"),
]
CLUB = [
    _row(1, 1, "Corentin joined Quarrymoor Wheelers.", "cycling_club", "Quarrymoor Wheelers", "Quarrymoor Wheelers"),
    _row(2, 3, "Corentin is in Tidewell Wheelers now.", "cycling_club", "Tidewell Wheelers", "Tidewell Wheelers"),
]


def _answer(rows: list[dict[str, Any]], question: str) -> int | None:
    plan = plan_answer(parse_question(question), ME, rows)
    if plan is None:
        return None
    return next(fid for fid, role in plan.roles.items() if role == ANSWER)


def test_a_provider_named_with_the_chains_title_is_the_latest_state() -> None:
    scaled = _row(3, 8, "Dr. Ottilie Rask polished Corentin's crowns, no decay.", None, None, "Ottilie Rask")
    assert _answer([*DENTIST, scaled], "Who is Corentin's dentist now?") == 3
    assert _answer([*DENTIST, scaled], "Who was Corentin's dentist before Dr. Ottilie Rask?") == 2


def test_a_group_named_with_the_chains_head_noun_is_a_state() -> None:
    ride = _row(3, 6, "Did the hill repeats with Lowfield Wheelers, my thighs burn.", None, None, "Lowfield Wheelers")
    assert _answer([*CLUB, ride], "Which cycling club is Corentin in now?") == 3
    assert _answer([*CLUB, ride], "Which cycling club came after Tidewell Wheelers for Corentin?") == 3


def test_the_first_mention_is_the_start_and_later_ones_restate_it() -> None:
    first = _row(3, 6, "Rode the coast loop with Lowfield Wheelers on Sunday.", None, None, "Lowfield Wheelers")
    again = _row(4, 9, "Lowfield Wheelers had cake after the ride, Corentin ate two.", None, None, "Lowfield Wheelers")
    assert _answer([*CLUB, first, again], "Which cycling club came after Tidewell Wheelers for Corentin?") == 3


def test_a_wish_a_relatives_provider_or_a_leaving_is_no_state() -> None:
    wish = _row(3, 6, "Maybe Corentin should try Dr. Ines Marrow, everyone likes her.", None, None, "Ines Marrow")
    sister = _row(4, 7, "Corentin's sister sees Dr. Pascal Vey for her braces.", None, None, "Pascal Vey")
    told = _row(5, 8, "She says Dr. Oriane Sault is the best in town.", None, None, "Oriane Sault")
    assert _answer([*DENTIST, wish, sister, told], "Who is Corentin's dentist now?") == 2
    quit_ = _row(3, 6, "Quit Lowfield Wheelers after one ride.", None, None, "Lowfield Wheelers")
    assert _answer([*CLUB, quit_], "Which cycling club is Corentin in now?") == 2


def test_a_name_of_one_word_or_of_another_type_is_no_state() -> None:
    other = _row(3, 6, "Corentin had coffee with Haldor at Brisk Roasters.", None, None, "Haldor", "Brisk Roasters")
    assert _answer([*DENTIST, other], "Who is Corentin's dentist now?") == 2
    assert _answer([*CLUB, other], "Which cycling club is Corentin in now?") == 2


def test_another_speakers_words_about_no_one_are_not_the_subjects() -> None:
    said = _row(3, 6, "Did the hill repeats with Lowfield Wheelers.", None, None, "Lowfield Wheelers", speaker="Wren")
    assert _answer([*CLUB, said], "Which cycling club is Corentin in now?") == 2


def test_an_anchor_filed_under_a_verb_class_keeps_the_asked_kinds_named_values() -> None:
    """The anchor's state is filed only as a membership, so the membership chain is read; a state
    named by the asked kind's head noun ("Vellan Rowing Club") still belongs to it."""
    rows = [
        _row(
            1,
            2,
            "Corentin rowed the harbour sprint with Vellan Rowing Club, Corentin came fourth.",
            None,
            None,
            "Vellan Rowing Club",
        ),
        _row(2, 7, "Corentin is a member of Ostry Scullers now.", "membership", "Ostry Scullers", "Ostry Scullers"),
    ]
    assert _answer(rows, "Which rowing club did Corentin have before Ostry Scullers?") == 1


def test_how_long_takes_the_first_mention_of_a_value_no_state_holds() -> None:
    """'How long was X my Y?' says X was one: its first plain mention is the start, its successor
    the end; a wish naming X before it and a statement leaving X are no start."""
    wish = _row(3, 5, "Maybe Corentin should try Dr. Ysolt Anwar some day.", None, None, "Ysolt Anwar")
    seen = _row(4, 6, "Corentin's crown came loose and Ysolt Anwar fixed it in ten minutes.", None, None, "Ysolt Anwar")
    left = _row(5, 9, "Corentin left Ysolt Anwar, the waiting room was always full.", None, None, "Ysolt Anwar")
    rows = [*DENTIST, wish, seen, left]
    assert _answer(rows, "How long was Ysolt Anwar Corentin's dentist?") == 4
    assert _answer([*DENTIST, wish, left], "How long was Ysolt Anwar Corentin's dentist?") != 5


def test_the_value_of_a_how_long_question_is_not_joined_to_the_subjects_name() -> None:
    """'How long was Kelsby my home city?': the names read are "Kelsby" and "Kelsby <asker>"; the
    value is the place, not the run of both names."""
    tq = parse_question("How long was Kelsby Corentin's home city?")
    assert value_name(tq, ME) == "Kelsby"
    rows = [
        _row(1, 1, "Corentin moved to Ardwyn.", "residence", "Ardwyn", "Ardwyn"),
        _row(2, 4, "Summers in Kelsby are sticky, Corentin bought a fan.", None, None, "Kelsby"),
        _row(3, 9, "Corentin lives in Tolmere now.", "residence", "Tolmere", "Tolmere"),
    ]
    assert _answer(rows, "How long was Kelsby Corentin's home city?") == 2


def test_a_titled_value_of_another_chain_of_the_subject_is_no_state() -> None:
    """The GP is the value of the subject's ``doctor`` chain: a visit to him joins no dentist chain."""
    gp = _row(3, 2, "Corentin's doctor is Dr. Emrys Vantol.", "doctor", "Dr. Emrys Vantol", "Emrys Vantol")
    text = "Corentin got his sprained wrist strapped by Dr. Emrys Vantol."
    visit = _row(4, 8, text, None, None, "Emrys Vantol")
    assert _answer([*DENTIST, gp, visit], "Who is Corentin's dentist now?") == 2


def test_a_titled_name_in_a_statement_cued_for_another_attribute_is_no_state() -> None:
    vet = _row(3, 9, "Corentin took his puppy to Dr. Solenne Arbic for its jabs.", None, None, "Solenne Arbic")
    assert _answer([*DENTIST, vet], "Who is Corentin's dentist now?") == 2


def test_a_company_sharing_the_employers_head_noun_without_a_job_cue_is_no_state() -> None:
    jobs = [
        _row(1, 1, "Corentin works at Brightwell Dynamics.", "employer", "Brightwell Dynamics", "Brightwell Dynamics"),
        _row(2, 3, "Corentin moved to Osterlund Dynamics.", "employer", "Osterlund Dynamics", "Osterlund Dynamics"),
    ]
    gadget = _row(3, 6, "Corentin tested a drone from Kessock Dynamics at the fair.", None, None, "Kessock Dynamics")
    assert _answer([*jobs, gadget], "Where does Corentin work now?") == 2
    assert _answer([*jobs, gadget], "Where did Corentin work after Osterlund Dynamics?") != 3


def test_a_group_of_another_kind_with_the_same_head_noun_is_no_state() -> None:
    """The values all name the asked kind's "Cycling": the subject's own "... Book Club" lacks it."""
    clubs = [
        _row(1, 1, "Corentin joined Harrowgate Cycling Club.", "cycling_club", "Harrowgate Cycling Club",
             "Harrowgate Cycling Club"),
        _row(2, 3, "Corentin is in Pemberly Cycling Club now.", "cycling_club", "Pemberly Cycling Club",
             "Pemberly Cycling Club"),
    ]  # fmt: skip
    book = _row(3, 6, "Finished the novel for Yarrow Lane Book Club at last.", None, None, "Yarrow Lane Book Club")
    assert _answer([*clubs, book], "Which cycling club is Corentin in now?") == 2
    text = "Did the hill repeats with Fenwick Cycling Club, my thighs burn."
    ride = _row(4, 8, text, None, None, "Fenwick Cycling Club")
    assert _answer([*clubs, book, ride], "Which cycling club is Corentin in now?") == 4
