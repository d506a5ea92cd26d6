"""LLM-backed extractor, summariser, planner and navigator against a fake ``ChatModel``."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta, timezone
from typing import Any, TypeVar

import pytest
from pydantic import BaseModel

from memforest.backends.base import ChatModel, Extractor, Summarizer, SummaryInput, UsageLedger
from memforest.backends.llm import (
    LLMExtractor,
    LLMNavigator,
    LLMPlanner,
    LLMSummarizer,
    parse_model_time,
)
from memforest.backends.prompts import (
    EXTRACTION_SYSTEM_PROMPT,
    NAVIGATOR_SYSTEM_PROMPT,
    PLANNER_SYSTEM_PROMPT,
    PROMPT_VERSION,
    SUMMARY_SYSTEM_PROMPTS,
    ExtractedItem,
    ExtractionOutput,
    NavigatorOutput,
    PlannerOutput,
    SummaryOutput,
    TreePlan,
    canonical_attribute,
    render_extraction_user,
    render_summary_user,
)
from memforest.domain import CellTurn, CellView, FactKind, TreeKind

M = TypeVar("M", bound=BaseModel)

PDT = timezone(timedelta(hours=-7))
SESSION_TIME = datetime(2023, 5, 8, 13, 56, tzinfo=PDT)


class FakeChat:
    """Implements the ChatModel protocol: returns canned answers, records every call."""

    name = "fake-model"

    def __init__(self, *answers: BaseModel) -> None:
        self.answers = list(answers)
        self.calls: list[dict[str, Any]] = []

    async def complete_json(
        self,
        *,
        system: str,
        user: str,
        schema: type[M],
        stage: str,
        ledger: UsageLedger | None = None,
        max_tokens: int | None = None,
    ) -> M:
        self.calls.append({"system": system, "user": user, "schema": schema, "stage": stage})
        answer = self.answers.pop(0)
        assert isinstance(answer, schema)
        if ledger is not None:
            ledger.record(stage, prompt_tokens=len(system) + len(user), completion_tokens=10)
        return answer


def _cell() -> CellView:
    return CellView(
        session_external_id="conv-1/session-3",
        session_time=SESSION_TIME,
        turns=(
            CellTurn(seq=4, speaker="Priya", text="I went to a support group yesterday.", time=SESSION_TIME),
            CellTurn(
                seq=5,
                speaker="Tomas",
                text="Wow!\nI'm painting a harbour.",
                time=SESSION_TIME + timedelta(minutes=1),
                external_id="D3:6",
            ),
        ),
    )


# ---------------------------------------------------------------- prompts


def test_prompts_are_static_and_render_cells() -> None:
    assert PROMPT_VERSION == "2026-11-22.1"
    assert set(SUMMARY_SYSTEM_PROMPTS) == set(TreeKind)
    for prompt in (EXTRACTION_SYSTEM_PROMPT, PLANNER_SYSTEM_PROMPT, NAVIGATOR_SYSTEM_PROMPT):
        assert "{" in prompt and "conv-1" not in prompt
    user = render_extraction_user(_cell())
    assert "Session time: 2023-05-08 13:56 -07:00 (Monday)" in user
    assert "[4] (2023-05-08 13:56) Priya: I went to a support group yesterday." in user
    assert "[5] (2023-05-08 13:57) Tomas: Wow! I'm painting a harbour." in user


def test_schemas_are_guided_decoding_friendly() -> None:
    for schema in (ExtractionOutput, SummaryOutput, PlannerOutput, NavigatorOutput):
        js = schema.model_json_schema()
        assert "$ref" not in str(js.get("properties", {})) or "$defs" in js
    kind = ExtractionOutput.model_json_schema()["$defs"]["ExtractedItem"]["properties"]["kind"]
    assert kind["enum"] == [k.value for k in FactKind]
    assert ExtractedItem(text="x", kind="not-a-kind").kind == "not-a-kind"  # validated downstream


# ---------------------------------------------------------------- extractor


def test_parse_model_time() -> None:
    assert parse_model_time("2023-05-07", PDT) == datetime(2023, 5, 7, tzinfo=PDT)
    assert parse_model_time("2023-05-07T10:30:00Z", PDT) == datetime(2023, 5, 7, 10, 30, tzinfo=UTC)
    assert parse_model_time("2023-05", PDT) == datetime(2023, 5, 1, tzinfo=PDT)
    for bad in (None, "", "yesterday", "5", "unknown", "2023-13-45"):
        assert parse_model_time(bad, PDT) is None


async def test_extractor_converts_items() -> None:
    chat = FakeChat(
        ExtractionOutput(
            items=[
                ExtractedItem(
                    text="  Priya went to a chess club meetup.  ",
                    kind="EVENT",
                    source_turns=[4, 99],
                    time_text="yesterday",
                    valid_from="2023-05-07",
                    entities=["Priya", "chess club meetup", "priya ", ""],
                    topics=["Support", "support", "identity"],
                ),
                ExtractedItem(
                    text="Tomas is painting a harbour.",
                    kind="hobby",  # unknown kind
                    source_turns=[17],  # not in the cell
                    valid_from="sometime",
                    valid_to="2020-01-01",  # before valid_from: dropped
                    subject=" Tomas ",
                    attribute="current_project",
                    value="",
                ),
                ExtractedItem(text="   ", kind="event", source_turns=[4]),  # empty: dropped
                ExtractedItem(text="Tomas paints at dawn.", kind="preference", source_turns=[5], valid_to="2024-01-01"),
                ExtractedItem(text="Priya went to a chess club meetup.", kind="event"),  # duplicate
            ]
        )
    )
    extractor = LLMExtractor(chat)
    assert isinstance(extractor, Extractor)
    assert extractor.name == "llm:fake-model"
    ledger = UsageLedger()
    cands = await extractor.extract(_cell(), ledger=ledger)

    assert [c.text for c in cands] == [
        "Priya went to a chess club meetup.",
        "Tomas is painting a harbour.",
        "Tomas paints at dawn.",
    ]
    first, second, third = cands
    assert first.kind is FactKind.EVENT
    assert first.source_turn_seqs == (4,)
    assert first.valid_from == datetime(2023, 5, 7, tzinfo=PDT)
    assert first.valid_to is None
    assert first.time_text == "yesterday"
    assert first.entities == ("Priya", "chess club meetup")
    assert first.topics == ("support", "identity")
    assert first.speaker == "Priya"

    assert second.kind is FactKind.OTHER
    assert second.source_turn_seqs == (4, 5)  # no valid seq: the whole cell
    assert second.valid_from == SESSION_TIME  # unparseable: first source turn's time
    assert second.valid_to is None
    assert (second.subject, second.attribute, second.value) == ("Tomas", "current_project", None)

    assert third.kind is FactKind.PREFERENCE
    assert third.source_turn_seqs == (5,)
    assert third.valid_from == SESSION_TIME + timedelta(minutes=1)
    assert third.valid_to == datetime(2024, 1, 1, tzinfo=PDT)
    assert third.speaker == "Tomas"

    call = chat.calls[0]
    assert call["stage"] == "extract" and call["schema"] is ExtractionOutput
    assert call["system"] == EXTRACTION_SYSTEM_PROMPT
    assert "[5]" in call["user"]
    assert ledger.as_dict()["extract"]["calls"] == 1


# ---------------------------------------------------------------- summariser


def _summary_item() -> SummaryInput:
    return SummaryInput(
        tree_kind=TreeKind.ENTITY,
        tree_label="Priya",
        t_start=datetime(2023, 5, 7, 9, tzinfo=UTC),
        t_end=datetime(2023, 6, 1, 9, tzinfo=UTC),
        child_texts=("[2023-05-07] Priya went to a support group.", "Priya plans to adopt."),
        level=1,
    )


async def test_summarizer_adds_header_and_truncates() -> None:
    chat = FakeChat(
        SummaryOutput(summary="[2023-05-07 .. 2023-06-01]  Priya attended a support group and plans to adopt."),
        SummaryOutput(summary="word " * 200),
        SummaryOutput(summary="   "),
    )
    summarizer = LLMSummarizer(chat, max_chars=120)
    assert isinstance(summarizer, Summarizer)
    item = _summary_item()
    out = await summarizer.summarize(item)
    assert out == "[2023-05-07 .. 2023-06-01] Priya attended a support group and plans to adopt."
    assert chat.calls[0]["stage"] == "summarize"
    assert chat.calls[0]["system"] == SUMMARY_SYSTEM_PROMPTS[TreeKind.ENTITY]
    assert "Interval: 2023-05-07 .. 2023-06-01 (2 parts)." in chat.calls[0]["user"]

    long = await summarizer.summarize(item)
    assert len(long) <= 120 and long.startswith("[2023-05-07 .. 2023-06-01] word")

    fallback = await summarizer.summarize(item)  # empty answer: extractive summary
    assert fallback.startswith("[2023-05-07 .. 2023-06-01] Priya went to a support group.")


async def test_summarizer_without_children_makes_no_call() -> None:
    chat = FakeChat()
    item = SummaryInput(TreeKind.SCENE, "x", datetime(2023, 5, 7, tzinfo=UTC), datetime(2023, 5, 7, tzinfo=UTC), (), 1)
    assert await LLMSummarizer(chat).summarize(item) == "[2023-05-07]"
    assert chat.calls == []


async def test_summarizer_with_one_child_takes_its_text_without_a_call() -> None:
    chat = FakeChat()
    day = datetime(2023, 5, 7, tzinfo=UTC)
    item = SummaryInput(TreeKind.SCENE, "x", day, day, ("", "[2023-05-07] Priya went to a support group."), 1)
    assert await LLMSummarizer(chat).summarize(item) == "[2023-05-07] Priya went to a support group."
    assert chat.calls == []


def test_render_summary_user() -> None:
    text = render_summary_user(_summary_item(), max_chars=300)
    assert "Tree: entity 'Priya'" in text
    assert "1. [2023-05-07] Priya went to a support group." in text
    assert "at most 300 characters" in text


def test_a_summary_prompt_keeps_its_prefix_when_the_node_gains_a_child() -> None:
    item = _summary_item()
    grown = dataclasses.replace(
        item, t_end=datetime(2023, 7, 2, tzinfo=UTC), child_texts=(*item.child_texts, "[2023-07-02] Priya adopted.")
    )
    before, after = render_summary_user(item, max_chars=300), render_summary_user(grown, max_chars=300)
    last = "2. Priya plans to adopt."
    assert after.startswith(before[: before.index(last) + len(last)])  # everything up to the last old part
    assert "Interval: 2023-05-07 .. 2023-07-02 (3 parts)." in after


# ---------------------------------------------------------------- planner / navigator


async def test_planner_sanitises_plans() -> None:
    chat = FakeChat(
        PlannerOutput(
            plans=[
                TreePlan(tree_index=2, sub_query="adoption plans", time_focus="after", after="2023-05-01"),
                TreePlan(tree_index=7, sub_query="out of range"),
                TreePlan(tree_index=-1, sub_query="negative"),
                TreePlan(tree_index=2, sub_query="duplicate"),
                TreePlan(
                    tree_index=0,
                    sub_query="  support   group ",
                    time_focus="sometime",
                    after="2023-06-30",
                    before="2023-05-01T12:00:00",
                ),
            ]
        )
    )
    ledger = UsageLedger()
    out = await LLMPlanner(chat).plan("When did Priya go?", ["[..] root0", "[..] root1", "[..] root2"], ledger)
    assert [p.tree_index for p in out.plans] == [0, 1, 2]
    p0, p1, p2 = out.plans
    assert (p0.sub_query, p0.time_focus, p0.after, p0.before) == (
        "support group",
        "between",
        "2023-05-01",
        "2023-06-30",
    )
    assert (p1.sub_query, p1.time_focus, p1.after, p1.before) == ("When did Priya go?", None, None, None)
    assert (p2.sub_query, p2.time_focus, p2.after) == ("adoption plans", "after", "2023-05-01")
    assert chat.calls[0]["stage"] == "plan"
    assert "[2] [..] root2" in chat.calls[0]["user"]
    assert ledger.as_dict()["plan"]["calls"] == 1


async def test_planner_without_roots_makes_no_call() -> None:
    chat = FakeChat()
    assert (await LLMPlanner(chat).plan("q", [], None)).plans == []
    assert chat.calls == []


@pytest.mark.parametrize(
    ("choices", "max_choices", "expected"),
    [
        ([2, 0], 3, [2, 0]),
        ([5, -1, 1, 1, 3], 3, [1, 3]),
        ([3, 2, 1, 0], 2, [3, 2]),
        ([], 2, [0]),
        ([9, 10], 2, [0]),
        ([1, 2], 0, [1]),
    ],
)
async def test_navigator_sanitises_indices(choices: list[int], max_choices: int, expected: list[int]) -> None:
    chat = FakeChat(NavigatorOutput(choices=choices))
    navigator = LLMNavigator(chat)
    got = await navigator.choose("support group", ["c0", "c1", "c2", "c3"], max_choices, UsageLedger())
    assert got == expected
    assert chat.calls[0]["stage"] == "navigate"
    assert "[3] c3" in chat.calls[0]["user"]


async def test_navigator_trivial_cases_make_no_call() -> None:
    chat = FakeChat()
    navigator = LLMNavigator(chat)
    assert await navigator.choose("q", [], 3, None) == []
    assert await navigator.choose("q", ["only child"], 3, None) == [0]
    assert chat.calls == []


def test_fake_chat_satisfies_protocol() -> None:
    assert isinstance(FakeChat(), ChatModel)


def test_extraction_prompt_names_the_state_attributes() -> None:
    for attribute in ("residence", "employer", "pet", "vehicle", "home_type", "device"):
        assert attribute in EXTRACTION_SYSTEM_PROMPT
    assert "residence" in str(ExtractionOutput.model_json_schema())


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("residence", "residence"),
        (" City ", "residence"),
        ("pet_dog", "pet"),
        ("car", "vehicle"),
        ("current_employer", "employer"),
        ("job-title", "job"),
        ("favourite_food", "favourite_food"),
        ("", None),
        (None, None),
    ],
)
def test_canonical_attribute(written: str | None, expected: str | None) -> None:
    assert canonical_attribute(written) == expected


async def test_extractor_maps_state_attributes_to_the_vocabulary() -> None:
    chat = FakeChat(
        ExtractionOutput(
            items=[
                ExtractedItem(
                    text="Priya signed her contract with Acme Labs.",
                    kind="state",
                    source_turns=[4],
                    subject="Priya",
                    attribute="Company",
                    value="Acme Labs",
                )
            ]
        )
    )
    (cand,) = await LLMExtractor(chat).extract(_cell())
    assert (cand.subject, cand.attribute, cand.value) == ("Priya", "employer", "Acme Labs")
