"""A MODEL of a sequential memory's write path, in the style of Mem0's ``add()`` (not Mem0 itself).

Used by ``bench.throughput`` as a baseline against the same model server, the same sessions and
users (conversations) concurrent. Per user, in order, for every session and every message pair
(two consecutive turns):

1. one extraction call: the pair (with the session date) in, a list of short facts out;
2. for each extracted fact, in order: embed it, a similarity search over that user's memories
   (top ``k``, cosine, in process memory: a stand-in for the vector store), then one update
   decision call with the retrieved memories in the prompt, answering ADD / UPDATE / DELETE /
   NONE, which is applied before the next fact.

A session is queryable when its last pair is applied. The prompts are written for this benchmark
in the shape of Mem0's (a fact-extraction instruction; an update instruction listing the four
operations with the retrieved memories and the new fact); Mem0's own prompts are longer, so this
model pays less prefill than Mem0 would. Calls go through MemForest's own chat client (the same
retries, timeouts and connection pool as the pipeline), so the difference measured is the
write-path shape, not the client.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import numpy as np
from pydantic import BaseModel, Field

from memforest.backends.base import ChatModel, Embedder, UsageLedger
from memforest.domain import SessionInput

EXTRACT_SYSTEM = (
    "You are a personal information organiser. You read a short piece of a conversation between "
    "two people and write down the facts worth remembering about them: personal details, "
    "preferences, plans, relationships, events with their dates, health, work, hobbies and "
    "opinions. Write each fact as one short sentence in the third person, naming the person. "
    "Skip greetings, small talk and anything that is not about the people. Use the session date "
    "to resolve relative dates such as 'last week' or 'tomorrow'. If nothing is worth "
    "remembering, return an empty list. Answer with JSON only, in the form "
    '{"facts": ["...", "..."]}, and never explain your answer.'
)
UPDATE_SYSTEM = (
    "You are a smart memory manager. You keep a list of memories about a user and decide, for "
    "one newly learned fact, which of four operations to apply to the list. ADD: the fact is new "
    "information; add it as a new memory. UPDATE: the fact refines or changes one of the "
    "retrieved memories (a newer date, more detail, a changed preference); give the index of "
    "that memory and the merged text. DELETE: the fact contradicts one of the retrieved "
    "memories, which must be removed; give its index. NONE: the fact is already known; change "
    "nothing. Compare by meaning, not wording. Keep memories short, in the third person, and "
    "keep their dates. Answer with JSON only, in the form "
    '{"event": "ADD|UPDATE|DELETE|NONE", "target": 0, "text": "..."}.'
)


class ExtractedFacts(BaseModel):
    """The extraction call's answer."""

    facts: list[str] = Field(max_length=8)


class Event(StrEnum):
    """The four update operations."""

    ADD = "ADD"
    UPDATE = "UPDATE"
    DELETE = "DELETE"
    NONE = "NONE"


class UpdateDecision(BaseModel):
    """The update call's answer: an operation, the index of a retrieved memory, the text."""

    event: Event
    target: int = Field(ge=0, le=16)
    text: str


@dataclass(slots=True)
class UserMemory:
    """One user's memories: texts and unit vectors, searched by cosine similarity."""

    texts: list[str] = field(default_factory=list)
    vectors: list[np.ndarray[Any, np.dtype[np.float64]]] = field(default_factory=list)

    def search(self, vector: Sequence[float], k: int) -> list[int]:
        """Indices of the ``k`` memories most similar to ``vector``."""
        if not self.texts:
            return []
        scores = np.stack(self.vectors) @ np.asarray(vector, dtype=np.float64)
        return [int(i) for i in np.argsort(-scores)[:k]]


@dataclass(slots=True)
class SequentialReport:
    """What one user's sequential ingest did; ``queryable_s`` per session from ``started``."""

    sessions: int = 0
    pairs: int = 0
    facts_extracted: int = 0
    events: dict[str, int] = field(default_factory=dict)
    memories: int = 0
    queryable_s: list[float] = field(default_factory=list)


def message_pairs(session: SessionInput) -> list[str]:
    """The session's turns two by two, each pair as the text of an extraction prompt."""
    turns = session.turns
    out = []
    for start in range(0, len(turns), 2):
        lines = [f"{t.speaker}: {t.text}" for t in turns[start : start + 2]]
        out.append(f"Session date: {session.time.date().isoformat()}\n" + "\n".join(lines))
    return out


def _update_prompt(memory: UserMemory, hits: list[int], fact: str) -> str:
    listed = "\n".join(f"[{n}] {memory.texts[i]}" for n, i in enumerate(hits)) or "(no memories yet)"
    return f"Retrieved memories:\n{listed}\n\nNew fact: {fact}"


def _apply(memory: UserMemory, hits: list[int], decision: UpdateDecision, fact: str, vector: list[float]) -> None:
    target = hits[min(decision.target, len(hits) - 1)] if hits else None
    if decision.event is Event.ADD or (target is None and decision.event is not Event.NONE):
        memory.texts.append(fact)
        memory.vectors.append(np.asarray(vector, dtype=np.float64))
    elif decision.event is Event.UPDATE and target is not None:
        memory.texts[target] = decision.text or fact
        memory.vectors[target] = np.asarray(vector, dtype=np.float64)
    elif decision.event is Event.DELETE and target is not None:
        del memory.texts[target]
        del memory.vectors[target]


async def ingest_user(
    chat: ChatModel,
    embedder: Embedder,
    sessions: Sequence[SessionInput],
    *,
    ledger: UsageLedger,
    started: float,
    top_k: int = 5,
    on_session: Callable[[], None] | None = None,
) -> SequentialReport:
    """Write one user's ``sessions`` the sequential way (see the module docstring)."""
    memory = UserMemory()
    report = SequentialReport()
    for session in sessions:
        for pair in message_pairs(session):
            extracted = await chat.complete_json(
                system=EXTRACT_SYSTEM, user=pair, schema=ExtractedFacts, stage="extract", ledger=ledger
            )
            report.pairs += 1
            for fact in extracted.facts:
                report.facts_extracted += 1
                (vector,) = await embedder.embed([fact], stage="embed", ledger=ledger)
                hits = memory.search(vector, top_k)
                decision = await chat.complete_json(
                    system=UPDATE_SYSTEM,
                    user=_update_prompt(memory, hits, fact),
                    schema=UpdateDecision,
                    stage="update",
                    ledger=ledger,
                )
                report.events[decision.event.value] = report.events.get(decision.event.value, 0) + 1
                _apply(memory, hits, decision, fact, vector)
        report.sessions += 1
        report.queryable_s.append(time.perf_counter() - started)
        if on_session is not None:
            on_session()
    report.memories = len(memory.texts)
    return report
