"""Model-backed extractor, summariser, planner and navigator on top of any ``ChatModel``."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime, tzinfo

from dateutil import parser as date_parser

from memforest.backends.base import ChatModel, SummaryInput, UsageLedger
from memforest.backends.prompts import (
    EXTRACTION_SYSTEM_PROMPT,
    NAVIGATOR_SYSTEM_PROMPT,
    PLANNER_SYSTEM_PROMPT,
    TIME_FOCUS_VALUES,
    ExtractedItem,
    ExtractionOutput,
    NavigatorOutput,
    PlannerOutput,
    SummaryOutput,
    TreePlan,
    canonical_attribute,
    render_extraction_user,
    render_navigator_user,
    render_planner_user,
    render_summary_user,
    summary_system_prompt,
)
from memforest.backends.summarize import ExtractiveSummarizer, strip_header, truncate_text
from memforest.domain import Candidate, CellTurn, CellView, FactKind

__all__ = [
    "LLMExtractor",
    "LLMNavigator",
    "LLMPlanner",
    "LLMSummarizer",
    "item_to_candidate",
    "parse_model_time",
]

_YEAR_RE = re.compile(r"\d{4}")
_KINDS = {k.value: k for k in FactKind}


def parse_model_time(value: str | None, tz: tzinfo | None) -> datetime | None:
    """Parse a model-written ISO-ish date/datetime; naive results get ``tz``. ``None`` if unusable.

    A date without a time means midnight. Strings without a four-digit year ("yesterday",
    "5", "unknown") are rejected rather than guessed.
    """
    if value is None:
        return None
    text = value.strip()
    if not text or not _YEAR_RE.search(text):
        return None
    try:
        parsed = date_parser.parse(text, default=datetime(2000, 1, 1))
    except (ValueError, OverflowError, TypeError):
        return None
    if parsed.tzinfo is None and tz is not None:
        parsed = parsed.replace(tzinfo=tz)
    return parsed


def _clean(value: str | None) -> str | None:
    if value is None:
        return None
    v = " ".join(value.split())
    return v or None


def _dedupe(values: Iterable[str]) -> tuple[str, ...]:
    """Stripped, non-empty, case-insensitively unique values in first-seen order."""
    seen: set[str] = set()
    out: list[str] = []
    for v in values:
        c = " ".join(v.split())
        key = c.casefold()
        if c and key not in seen:
            seen.add(key)
            out.append(c)
    return tuple(out)


def item_to_candidate(item: ExtractedItem, cell: CellView) -> Candidate | None:
    """Convert one model item to a ``Candidate`` for ``cell`` (``None`` for an empty text).

    Source seqs are clamped to the cell (all of the cell's seqs when none is valid); times are
    parsed with dateutil, date-only meaning midnight in the session time's zone; a missing or
    unparseable ``valid_from`` becomes the time of the first source turn; a ``valid_to`` earlier
    than ``valid_from`` is dropped.
    """
    text = _clean(item.text)
    if text is None:
        return None
    by_seq: dict[int, CellTurn] = {t.seq: t for t in cell.turns}
    seqs = sorted({s for s in item.source_turns if s in by_seq})
    if not seqs:
        seqs = sorted(by_seq)
    first = by_seq[seqs[0]] if seqs else None
    tz = cell.session_time.tzinfo
    fallback = first.time if first is not None else cell.session_time
    valid_from = parse_model_time(item.valid_from, tz) or fallback
    valid_to = parse_model_time(item.valid_to, tz)
    if valid_to is not None:
        try:
            if valid_to < valid_from:
                valid_to = None
        except TypeError:  # naive vs aware (session time itself naive): keep neither guess
            valid_to = None
    return Candidate(
        text=text,
        kind=_KINDS.get(item.kind.strip().lower(), FactKind.OTHER),
        source_turn_seqs=tuple(seqs),
        valid_from=valid_from,
        valid_to=valid_to,
        time_text=_clean(item.time_text),
        entities=_dedupe(item.entities),
        topics=_dedupe(t.lower() for t in item.topics),
        speaker=first.speaker if first is not None else None,
        subject=_clean(item.subject),
        attribute=canonical_attribute(_clean(item.attribute)),
        value=_clean(item.value),
    )


class LLMExtractor:
    """Extractor protocol over a chat model with the ``ExtractionOutput`` schema (stage "extract")."""

    def __init__(self, chat: ChatModel, *, max_tokens: int | None = None) -> None:
        self.chat = chat
        self.max_tokens = max_tokens
        self.name = f"llm:{chat.name}"

    async def extract(self, cell: CellView, *, ledger: UsageLedger | None = None) -> list[Candidate]:
        """Ask the model for the cell's items and convert them; exact duplicates are dropped."""
        if not cell.turns:
            return []
        out = await self.chat.complete_json(
            system=EXTRACTION_SYSTEM_PROMPT,
            user=render_extraction_user(cell),
            schema=ExtractionOutput,
            stage="extract",
            ledger=ledger,
            max_tokens=self.max_tokens,
        )
        result: list[Candidate] = []
        seen: set[tuple[str, FactKind]] = set()
        for item in out.items:
            cand = item_to_candidate(item, cell)
            if cand is None:
                continue
            key = (cand.text.casefold(), cand.kind)
            if key in seen:
                continue
            seen.add(key)
            result.append(cand)
        return result


class LLMSummarizer:
    """Summarizer protocol over a chat model (stage "summarize"): header + model summary.

    A node with a single non-empty child text takes that text (extractive, no model call: a
    one-child summary has nothing to fuse). Falls back to the extractive summary when the model
    returns nothing usable.
    """

    def __init__(self, chat: ChatModel, *, max_chars: int = 600, max_tokens: int | None = None) -> None:
        self.chat = chat
        self.max_chars = max_chars
        self.max_tokens = max_tokens
        self.name = f"llm:{chat.name}"
        self._fallback = ExtractiveSummarizer(max_chars)

    async def summarize(self, item: SummaryInput, *, ledger: UsageLedger | None = None) -> str:
        """Return ``header + " " + summary`` cut to ``max_chars``."""
        head = ExtractiveSummarizer.header(item.t_start, item.t_end)
        texts = [t for t in item.child_texts if t.strip()]
        if not texts:
            return head
        if len(texts) == 1:  # nothing to fuse: the one child's own text, no model call
            return self._fallback.summarize_sync(item)
        budget = max(1, self.max_chars - len(head) - 1)
        out = await self.chat.complete_json(
            system=summary_system_prompt(item.tree_kind),
            user=render_summary_user(item, max_chars=budget),
            schema=SummaryOutput,
            stage="summarize",
            ledger=ledger,
            max_tokens=self.max_tokens,
        )
        body = " ".join(strip_header(out.summary).split())
        if not body:
            return self._fallback.summarize_sync(item)
        return truncate_text(f"{head} {body}", self.max_chars)


def _iso_date_or_none(value: str | None) -> str | None:
    parsed = parse_model_time(value, None)
    return parsed.date().isoformat() if parsed is not None else None


def _sanitize_plan(plan: TreePlan, query: str) -> TreePlan:
    after = _iso_date_or_none(plan.after)
    before = _iso_date_or_none(plan.before)
    if after is not None and before is not None and after > before:
        after, before = before, after
    focus = (plan.time_focus or "").strip().lower() or None
    if focus not in TIME_FOCUS_VALUES:
        focus = None
    # make the focus agree with the bounds actually given
    if after is not None and before is not None:
        focus = "between"
    elif after is not None:
        focus = "after"
    elif before is not None:
        focus = "before"
    else:
        focus = None
    sub_query = " ".join(plan.sub_query.split()) or query
    return TreePlan(tree_index=plan.tree_index, sub_query=sub_query, time_focus=focus, after=after, before=before)


class LLMPlanner:
    """Tree-browse planner (stage "plan"): one sub-query per recalled tree."""

    def __init__(self, chat: ChatModel, *, max_tokens: int | None = None) -> None:
        self.chat = chat
        self.max_tokens = max_tokens
        self.name = f"llm:{chat.name}"

    async def plan(self, query: str, roots: list[str], ledger: UsageLedger | None = None) -> PlannerOutput:
        """Exactly one plan per root, ``plans[i].tree_index == i``.

        Invalid or duplicate model indices are dropped (first wins), dates are normalised to
        ``YYYY-MM-DD`` and ``time_focus`` is made consistent with them; a tree the model left out
        gets the original query with no time focus.
        """
        if not roots:
            return PlannerOutput(plans=[])
        out = await self.chat.complete_json(
            system=PLANNER_SYSTEM_PROMPT,
            user=render_planner_user(query, roots),
            schema=PlannerOutput,
            stage="plan",
            ledger=ledger,
            max_tokens=self.max_tokens,
        )
        plans: dict[int, TreePlan] = {}
        for p in out.plans:
            if 0 <= p.tree_index < len(roots) and p.tree_index not in plans:
                plans[p.tree_index] = _sanitize_plan(p, query)
        return PlannerOutput(plans=[plans.get(i) or TreePlan(tree_index=i, sub_query=query) for i in range(len(roots))])


class LLMNavigator:
    """Tree-browse navigator (stage "navigate"): picks children to descend into."""

    def __init__(self, chat: ChatModel, *, max_tokens: int | None = None) -> None:
        self.chat = chat
        self.max_tokens = max_tokens
        self.name = f"llm:{chat.name}"

    async def choose(
        self,
        sub_query: str,
        children: list[str],
        max_choices: int,
        ledger: UsageLedger | None = None,
        *,
        time_hint: str | None = None,
    ) -> list[int]:
        """Distinct valid child indices, model order, at most ``max_choices``; ``[0]`` if none.

        No model call when there is at most one child.
        """
        if not children:
            return []
        if len(children) == 1:
            return [0]
        limit = max(1, max_choices)
        out = await self.chat.complete_json(
            system=NAVIGATOR_SYSTEM_PROMPT,
            user=render_navigator_user(sub_query, children, limit, time_hint=time_hint),
            schema=NavigatorOutput,
            stage="navigate",
            ledger=ledger,
            max_tokens=self.max_tokens,
        )
        picked: list[int] = []
        for c in out.choices:
            if 0 <= c < len(children) and c not in picked:
                picked.append(c)
            if len(picked) == limit:
                break
        return picked or [0]
