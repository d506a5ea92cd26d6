"""Only what a speaker states becomes a fact: courtesy, reactions and requests do not."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memforest.domain import CellTurn, CellView
from memforest.text.chatter import is_chatter
from memforest.text.extractor import extract_cell

T = datetime(2024, 4, 2, 18, 30, tzinfo=UTC)
NAMES = {"nadia": "Nadia", "tomasz": "Tomasz", "assistant": "assistant", "user": "user"}


def facts(*turns: tuple[str, str]) -> list[str]:
    view = CellView("s1", T, tuple(CellTurn(i, sp, text, T) for i, (sp, text) in enumerate(turns)))
    return [c.text for c in extract_cell(view)]


@pytest.mark.parametrize(
    "sentence",
    [
        # assistant boilerplate
        "Absolutely, I'd be more than happy to help with that.",
        "Feel free to reach out if you have any further questions.",
        "I hope that helps.",
        "Best of luck with the interview.",
        "I'm so happy to hear that your sister is feeling better.",
        "You're welcome.",
        "Have a lovely evening.",
        # content-free chat replies
        "I can totally imagine.",
        "You really deserve every bit of it.",
        "Send him a belly rub from me.",
        "Tell them hi from me.",
        "That looks incredibly peaceful.",
        "That must have been exhausting.",
        "This is such a good idea.",
        "Sounds delightful.",
        "It has been a while.",
        "Sorry to hear about that.",
        "Congratulations on the promotion.",
        "Proud of you for finishing it.",
        "Thanks a million.",
        "Thanks for the suggestions.",
        "Your encouragement means the world.",
        "Keep us posted on the house hunt.",
        "Long time no see.",
        "What a lovely surprise.",
    ],
)
def test_chatter_is_recognised(sentence: str) -> None:
    assert is_chatter(sentence, NAMES), sentence


@pytest.mark.parametrize(
    "sentence",
    [
        "I can imagine how hard leaving Krakow was for you.",
        "Say hi to our new puppy, a spaniel called Biscuit.",
        "Check out my new kayak.",
        "That's my brother Piotr on the left.",
        "That is the bakery on Mill Road where I work now.",
        "It was a rough winter for me.",
        "Sorry I missed your call, I was at my cousin's wedding.",
        "Thanks for the ride to the airport on Saturday, my car is still in the shop.",
        "Let's meet at the climbing gym on Friday.",
        "Have been living in Leeds since March.",
        "Here are some tips for repotting a fiddle-leaf fig.",
        "I'm excited about the trip to Porto next week.",
        "Glad I finally sold the old Volvo.",
    ],
)
def test_statements_are_kept(sentence: str) -> None:
    assert not is_chatter(sentence, NAMES), sentence


def test_assistant_boilerplate_makes_no_fact_about_the_user() -> None:
    out = facts(
        ("user", "I just started a new job as a nurse at St Mary's hospital."),
        (
            "assistant",
            "Congratulations on the new job! I'm glad to hear that you're settling in. "
            "Let me know if you need anything else.",
        ),
    )
    assert out and all("nurse" in t for t in out), out  # (the job and the employer, from the user's turn)


def test_content_free_replies_make_no_fact() -> None:
    out = facts(
        ("Nadia", "We finally adopted a greyhound called Comet from the rescue in Brno."),
        ("Tomasz", "No way! Give him a pat on the head from me. You two deserve it."),
        ("Nadia", "Haha, I will. He already sleeps on my bed."),
        ("Tomasz", "I can imagine. That sounds so cosy."),
    )
    assert not any(t.startswith(("Tomasz can", "Nadia deserves", "Give him")) for t in out), out
    assert not any("Tomasz" in t and "Comet" not in t and "Brno" not in t for t in out), out
    assert any("greyhound called Comet" in t for t in out), out
    assert any("sleeps on Nadia's bed" in t for t in out), out


def test_restatements_no_longer_become_facts() -> None:
    """Many sessions of courtesy give no fact at all, so nothing folds them into one."""
    replies = [
        "Your support means a lot.",
        "Thanks for the kind words!",
        "That sounds amazing.",
        "I can imagine!",
        "Way to go!",
        "You totally deserve it.",
    ]
    for reply in replies:
        assert facts(("Nadia", reply), ("Tomasz", reply)) == [], reply
