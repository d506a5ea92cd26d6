"""Every model prompt and output schema, in one versioned module.

System prompts are static (no per-call text), so a serving engine's prefix cache reuses them;
the variable part of each call goes in the user message. Bump ``PROMPT_VERSION`` whenever a
prompt or schema changes: stored artifacts record it.

Schemas are kept simple for guided decoding: flat objects, lists of flat objects, ``Optional``
as the only union, no recursion.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from pydantic import BaseModel, Field

from memforest.attributes import STATE_ATTRIBUTES
from memforest.backends.base import SummaryInput
from memforest.domain import CellView, FactKind, TreeKind

__all__ = [
    "EXTRACTION_SYSTEM_PROMPT",
    "FACT_KIND_VALUES",
    "NAVIGATOR_SYSTEM_PROMPT",
    "PLANNER_SYSTEM_PROMPT",
    "PROMPT_VERSION",
    "SUMMARY_SYSTEM_PROMPTS",
    "TIME_FOCUS_VALUES",
    "ExtractedItem",
    "ExtractionOutput",
    "NavigatorOutput",
    "PlannerOutput",
    "SummaryOutput",
    "TreePlan",
    "canonical_attribute",
    "render_extraction_user",
    "render_navigator_user",
    "render_planner_user",
    "render_summary_user",
    "summary_system_prompt",
]

PROMPT_VERSION = "2026-11-22.1"  # state attributes named from memforest.attributes

FACT_KIND_VALUES: tuple[str, ...] = tuple(k.value for k in FactKind)
TIME_FOCUS_VALUES: tuple[str, ...] = ("before", "after", "between")


# ---------------------------------------------------------------- schemas


class ExtractedItem(BaseModel):
    """One memory item as the extraction model writes it (converted to ``Candidate`` later)."""

    text: str = Field(description="One self-contained statement; names instead of pronouns.")
    # A plain string with an enum hint: guided decoding keeps the model on the listed values,
    # while validation still accepts anything (unknown kinds map to "other" downstream).
    kind: str = Field(
        default="other",
        description="One of: " + ", ".join(FACT_KIND_VALUES),
        json_schema_extra={"enum": list(FACT_KIND_VALUES)},
    )
    source_turns: list[int] = Field(default_factory=list, description="Seq numbers of the source turns.")
    time_text: str | None = Field(default=None, description="The time expression as written, if any.")
    valid_from: str | None = Field(default=None, description="ISO date or datetime the item starts to hold.")
    valid_to: str | None = Field(default=None, description="ISO date or datetime the item stops holding.")
    entities: list[str] = Field(default_factory=list, description="People, places, organisations, things.")
    topics: list[str] = Field(default_factory=list, description="Short lowercase topic labels.")
    subject: str | None = Field(default=None, description="Who/what the slot belongs to, e.g. 'Bob'.")
    attribute: str | None = Field(
        default=None, description="Slot name, one of " + ", ".join(sorted(STATE_ATTRIBUTES)) + " where one fits."
    )
    value: str | None = Field(default=None, description="Slot value, e.g. 'Davis'.")


class ExtractionOutput(BaseModel):
    """The extraction model's whole answer for one cell."""

    items: list[ExtractedItem] = Field(default_factory=list)


class SummaryOutput(BaseModel):
    """A node summary (without the time header: the caller adds it)."""

    summary: str


class TreePlan(BaseModel):
    """The planner's instruction for one recalled tree."""

    tree_index: int
    sub_query: str
    time_focus: str | None = Field(
        default=None,
        description="before, after, between, or null",
        json_schema_extra={"enum": [*TIME_FOCUS_VALUES, None]},
    )
    after: str | None = Field(default=None, description="ISO date: only evidence after this.")
    before: str | None = Field(default=None, description="ISO date: only evidence before this.")


class PlannerOutput(BaseModel):
    """One plan per tree worth browsing."""

    plans: list[TreePlan] = Field(default_factory=list)


class NavigatorOutput(BaseModel):
    """Indices of the children to descend into, best first."""

    choices: list[int] = Field(default_factory=list)


# ---------------------------------------------------------------- extraction

EXTRACTION_SYSTEM_PROMPT = (
    """\
You are the memory extractor of a long-term memory service for conversational agents.
You read a short excerpt of one conversation (a few consecutive turns) and write down every
piece of information worth remembering about the speakers and the people, places, things and
events they mention. You see only this excerpt.

Rules:
1. One item = one atomic, self-contained statement that is understandable without the
   conversation. Use full names as written in the turns instead of pronouns ("I", "she", "my
   sister"): "Priya went to a chess club meetup", not "I went to a support group".
   Attribute each statement to the speaker who made it or the person it is about.
2. Keep concrete details: names, numbers, places, titles, quantities, reasons, feelings.
   Do not invent anything. Skip greetings, small talk and questions that state nothing.
3. kind is one of:
   event (something happened or will happen at a time), state (a lasting fact: job, home,
   family, possessions, health), preference (likes, dislikes, favourites, habits), plan
   (an intention or scheduled future action), relation (a relationship between people or
   between a person and an organisation), opinion (a belief or judgement), other.
4. source_turns: the [seq] numbers of the turns the item comes from (usually one).
5. Time: resolve relative expressions ("yesterday", "last week", "next month", "two years
   ago") against the turn time shown in parentheses (or the session time) and write absolute
   ISO dates: valid_from = when the item starts to hold or the event happened; valid_to = when
   it stopped holding, if stated. Copy the original expression into time_text. For a week or
   month, use its first day. If no time is stated, leave valid_from, valid_to and time_text
   null.
6. entities: the proper names and key things the item mentions (people, pets, places,
   organisations, works, products), as written. topics: 1 to 3 short lowercase labels
   ("hiking", "career", "family").
7. For a state of a person that can change over time, fill subject (whose it is: the person's
   name), attribute and value (the new value only, e.g. the city, company, pet's name, car model),
   even when the sentence names neither the attribute nor the previous value ("the lease on our
   flat in Lisbon starts next week" -> residence Lisbon; "signed my contract with Acme" ->
   employer Acme; "finally sold the Honda, the new Kia is so quiet" -> vehicle Kia). Use these
   attribute names: """
    + ", ".join(sorted(STATE_ATTRIBUTES))
    + """; another state or preference gets a short snake_case name (favourite_food).
   Otherwise leave the three null.
8. If nothing is worth remembering, return an empty list.

Answer with JSON only: {"items": [ {"text": ..., "kind": ..., "source_turns": [...],
"time_text": ..., "valid_from": ..., "valid_to": ..., "entities": [...], "topics": [...],
"subject": ..., "attribute": ..., "value": ...}, ... ]}
"""
)


def _fmt_time(t: datetime) -> str:
    """``2023-05-07 13:56 (Sunday)`` plus the UTC offset when the time is aware."""
    s = t.strftime("%Y-%m-%d %H:%M")
    off = t.strftime("%z")
    if off:
        s += f" {off[:3]}:{off[3:]}"
    return f"{s} ({t.strftime('%A')})"


def _one_line(text: str) -> str:
    return " ".join(text.split())


def render_extraction_user(cell: CellView) -> str:
    """The per-cell part of the extraction prompt: session time and ``[seq] (time) Speaker: text``."""
    lines = [
        f"Session: {cell.session_external_id}",
        f"Session time: {_fmt_time(cell.session_time)}",
        "Turns:",
    ]
    for t in cell.turns:
        lines.append(f"[{t.seq}] ({t.time.strftime('%Y-%m-%d %H:%M')}) {t.speaker}: {_one_line(t.text)}")
    lines.append("")
    lines.append("Extract the memory items of these turns.")
    return "\n".join(lines)


# ---------------------------------------------------------------- summaries

_SUMMARY_COMMON = """\
Rules: write plain prose in the third person, past tense for events. Keep names, dates,
numbers and places exactly as written in the parts. Cover every part briefly, in time order,
and give more room to concrete facts than to small talk. Do not add anything that is not in
the parts, do not comment, and do not repeat the time interval header (the service adds it).
Answer with JSON only: {"summary": "..."}
"""

SUMMARY_SYSTEM_PROMPTS: dict[TreeKind, str] = {
    TreeKind.SESSION: (
        "You summarise a contiguous stretch of one conversation for a long-term memory service.\n"
        "The parts are consecutive excerpts or summaries of excerpts, in time order. Say who\n"
        "talked about what and what each speaker said about themselves: events, plans, states,\n"
        "preferences and opinions.\n" + _SUMMARY_COMMON
    ),
    TreeKind.ENTITY: (
        "You summarise what a long-term memory service knows about one entity (a person, pet,\n"
        "place, organisation or thing) during a time interval. The parts are facts or\n"
        "summaries about that entity, in time order. Describe the entity's situation and how it\n"
        "changed: newer facts override older ones when they conflict, and say so.\n" + _SUMMARY_COMMON
    ),
    TreeKind.SCENE: (
        "You summarise one recurring topic or situation (a scene) across people and\n"
        "conversations for a long-term memory service, during a time interval. The parts are\n"
        "facts or summaries on that topic, in time order. Say who was involved, what happened\n"
        "and how it developed.\n" + _SUMMARY_COMMON
    ),
}


def summary_system_prompt(kind: TreeKind) -> str:
    """The static system prompt for summarising a node of a tree of ``kind``."""
    return SUMMARY_SYSTEM_PROMPTS[kind]


def render_summary_user(item: SummaryInput, *, max_chars: int | None = None) -> str:
    """Per-node part of the summary prompt: tree, level, numbered child texts, then the interval.

    What stays the same when a node gains a child comes first (tree, level, the older parts in
    time order), what changes with it last (interval, count, budget): a node re-summarised after
    an append then shares its earlier prompt's prefix, which a server's prefix cache skips (ADR 0031).
    """
    a, b = item.t_start.date().isoformat(), item.t_end.date().isoformat()
    lines = [
        f"Tree: {item.tree_kind.value} {item.tree_label!r}",
        f"Level: {item.level}",
        "Parts, in time order:",
    ]
    for i, text in enumerate(item.child_texts, start=1):
        lines.append(f"{i}. {_one_line(text)}")
    lines.append("")
    lines.append(f"Interval: {a} .. {b} ({len(item.child_texts)} parts).")
    if max_chars is not None:
        lines.append(f"Write the summary in at most {max_chars} characters.")
    else:
        lines.append("Write the summary.")
    return "\n".join(lines)


# ---------------------------------------------------------------- tree browse

PLANNER_SYSTEM_PROMPT = """\
You plan a search through a long-term memory organised as trees. Each tree holds the memory
of one scope (a conversation session, an entity, or a topic), ordered by time, and is shown by
its root summary, which starts with its time interval in brackets.

Given the user's query and the numbered root summaries, write exactly one plan for every tree:
- tree_index: the tree's number as shown.
- sub_query: what to look for in that tree, specific to its content (names, events, things).
- time_focus: "before", "after" or "between" when the query constrains time (e.g. "before
  the wedding", "in May 2023", "last summer" relative to the dates shown), otherwise null.
- after / before: ISO dates (YYYY-MM-DD) bounding the evidence for that focus; "after" for
  time_focus "after", "before" for "before", both for "between"; otherwise null.
If a tree looks unrelated, still give it a plan with the query rephrased for it.
Answer with JSON only:
{"plans": [{"tree_index": 0, "sub_query": "...", "time_focus": null, "after": null,
"before": null}, ...]}
"""


def render_planner_user(query: str, roots: Sequence[str]) -> str:
    """Per-query part of the planner prompt: the query and the numbered root summaries."""
    lines = [f"Query: {_one_line(query)}", "", f"Trees ({len(roots)}):"]
    for i, text in enumerate(roots):
        lines.append(f"[{i}] {_one_line(text)}")
    lines.append("")
    lines.append("Write the plans.")
    return "\n".join(lines)


NAVIGATOR_SYSTEM_PROMPT = """\
You navigate one memory tree, ordered by time, to find evidence for a search request. You see
the numbered children of the current node; each child's summary starts with its time interval
in brackets and covers everything below it.

Pick the children most likely to contain evidence for the request, best first, respecting any
time constraint in the request. Pick at most the number of children you are allowed, fewer if
fewer are relevant, and at least one. Answer with JSON only: {"choices": [index, ...]}
"""


def render_navigator_user(
    sub_query: str,
    children: Sequence[str],
    max_choices: int,
    *,
    time_hint: str | None = None,
) -> str:
    """Per-step part of the navigator prompt: the request and the numbered child summaries."""
    lines = [f"Request: {_one_line(sub_query)}"]
    if time_hint:
        lines.append(f"Time constraint: {_one_line(time_hint)}")
    lines.append(f"Pick at most {max_choices} of these {len(children)} children:")
    for i, text in enumerate(children):
        lines.append(f"[{i}] {_one_line(text)}")
    return "\n".join(lines)


_ATTRIBUTE_SYNONYMS: dict[str, str] = {
    **dict.fromkeys(("city", "home", "location", "lives_in", "address", "current_city", "hometown_now"), "residence"),
    **dict.fromkeys(
        ("company", "workplace", "work", "employment", "works_at", "organisation", "organization"), "employer"
    ),
    **dict.fromkeys(("job_title", "occupation", "profession", "position", "role", "title"), "job"),
    **dict.fromkeys(("university", "college", "education", "studies", "studies_at"), "school"),
    **dict.fromkeys(("girlfriend", "boyfriend", "spouse", "significant_other", "dating", "wife", "husband"), "partner"),
    **dict.fromkeys(("dog", "cat", "pets", "pet_name"), "pet"),
    **dict.fromkeys(("car", "cars", "vehicles", "ride", "motorbike"), "vehicle"),
    **dict.fromkeys(("housing", "dwelling", "home_kind", "residence_type"), "home_type"),
    **dict.fromkeys(("eating", "diet_type", "dietary_preference"), "diet"),
    **dict.fromkeys(("health_condition", "medical_condition", "condition", "illness", "injury"), "health"),
    **dict.fromkeys(("sport", "pastime", "main_hobby", "hobbies"), "hobby"),
    **dict.fromkeys(("phone", "laptop", "computer", "gadget", "tablet"), "device"),
}


def canonical_attribute(name: str | None) -> str | None:
    """A model-written slot name in the vocabulary of ``memforest.attributes`` where it has a
    synonym there ("city" -> residence, "pet_dog" -> pet); other names snake_cased as written."""
    if name is None:
        return None
    key = "_".join(name.strip().lower().replace("-", " ").split())
    if not key:
        return None
    if key.startswith("pet_"):
        return "pet"
    key = key.removeprefix("current_") if key.removeprefix("current_") in STATE_ATTRIBUTES else key
    return key if key in STATE_ATTRIBUTES else _ATTRIBUTE_SYNONYMS.get(key, key)
