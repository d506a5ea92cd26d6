"""MODELS of Mem0's ``add()`` write path, the v1.0.x line and the v2.0 line (not Mem0 itself).

``bench.throughput`` runs them as the arms ``mem0_v1`` and ``mem0_v2`` against the same model
server, on the same sessions, users concurrent. As in Mem0's LoCoMo evaluation, every ``add()``
gets one message pair (two consecutive turns, ``role: Speaker: text`` lines), and one user's adds
run one after another. Read from ``mem0/memory/main.py`` (``Memory._add_to_vector_store``) at tags
v1.0.11 and v2.0.18 of github.com/mem0ai/mem0 (docs/adr/0041-faithful-mem0-baselines.md):

* **v1** (``add_v1``): one extraction call (a fixed instruction as the system prompt, the pair as
  the user prompt, a list of facts out); then per extracted fact an embedding and a vector search
  (top 5) over the user's memories; then ONE update-decision call for the whole ``add()``: a fixed
  instruction, the retrieved memories (deduplicated, renumbered) and the new facts in, and out the
  whole memory list with an event per entry (ADD / UPDATE / DELETE / NONE), every retrieved memory
  and every new fact one entry; the events are applied. No update call when nothing was extracted.
* **v2** (``add_v2``): an embedding of the pair and a vector search (top 10) for existing memories,
  then ONE extraction call: a long fixed instruction as the system prompt; as the user prompt the
  user's last 10 stored messages (each cut to 300 characters), the existing memories and the pair;
  out a list of new memories (ADD only); they are embedded in one batch and stored. The spaCy
  entity linking that follows (client CPU, no model call) is not modelled.

The prompts are this benchmark's own text, padded to the word counts of Mem0's prompts
(:data:`MEM0_WORDS`: whitespace words, the simulated server's token unit, so Mem0's prompts and
MemForest's are counted alike); no Mem0 prompt text is used. Answers come from the server (the
simulated one writes schema-valid JSON from the prompt's sentences), so output lengths follow the
schemas: v1's update answer has exactly one entry per retrieved memory and new fact. Calls go
through MemForest's own chat client (the same retries, timeouts and connection pool as the
pipeline), so the difference measured is the write-path shape, not the client. The vector store
is in process memory (numpy cosine search): free, which favours the models.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Annotated, Any, Literal

import numpy as np
from pydantic import BaseModel, Field, create_model

from memforest.backends.base import ChatModel, Embedder, UsageLedger
from memforest.domain import SessionInput

# Sizes of Mem0's prompts in whitespace words, counted at the tags named in the module docstring.
MEM0_WORDS = {
    "v1_extract_system": 657,  # mem0/configs/prompts.py USER_MEMORY_EXTRACTION_PROMPT (v1.0.11)
    "v1_update_head": 731,  # DEFAULT_UPDATE_MEMORY_PROMPT (711) + the words before the memory list
    "v1_update_tail": 210,  # get_update_memory_messages: the words after it (the answer format)
    "v2_extract_system": 5062,  # ADDITIVE_EXTRACTION_PROMPT (v2.0.18)
}
V1_SEARCH_TOP_K = 5  # vector_store.search(limit=5) per fact (v1.0.11)
V2_SEARCH_TOP_K = 10  # vector_store.search(top_k=10) on the pair (v2.0.18)
V2_LAST_MESSAGES = 10  # db.get_last_messages(limit=10)
V2_PAST_MESSAGE_CHARS = 300  # PAST_MESSAGE_TRUNCATION_LIMIT
VERSIONS = ("v1", "v2")

_EXTRACT_TEXT = (
    "Read the conversation below and write down the facts worth remembering about the people in it: "
    "personal details, preferences, plans, relationships, events with their dates, health, work, "
    "hobbies and opinions. Write each fact as one short sentence. Skip greetings and small talk. "
    "Answer with JSON only."
)
_UPDATE_TEXT = (
    "You manage a list of memories. For the new facts below decide for every memory and every new "
    "fact one operation: ADD a new memory, UPDATE an existing one with merged text, DELETE one the "
    "facts contradict, or NONE. Compare by meaning. Return the whole list with an event per entry "
    "as JSON only."
)
_ADDITIVE_TEXT = (
    "Extract every memorable fact of the new messages as a separate, self-contained memory with its "
    "date, using the earlier messages and the existing memories as context and skipping what is "
    "already known. Return JSON only: a list of memories, each with an id and its text."
)


def instruction(base: str, words: int) -> str:
    """``base`` repeated word by word to exactly ``words`` whitespace words (a prompt of that size)."""
    tokens = base.split()
    return " ".join(tokens[i % len(tokens)] for i in range(words))


class ExtractedFacts(BaseModel):
    """v1's extraction answer."""

    facts: list[str] = Field(max_length=8)


class NewMemory(BaseModel):
    """One entry of v2's extraction answer."""

    id: int = Field(ge=0, le=64)
    text: str
    attributed_to: Literal["user", "assistant"]


class AdditiveAnswer(BaseModel):
    """v2's extraction answer."""

    memory: list[NewMemory] = Field(max_length=16)


class MemoryAction(BaseModel):
    """One entry of v1's update answer: a memory (by its number) or a new one, and its event."""

    id: int = Field(ge=0, le=64)
    text: str
    event: Literal["ADD", "UPDATE", "DELETE", "NONE"]


class UpdateAnswer(BaseModel):
    """v1's update answer (its schema in :func:`update_schema` fixes the number of entries)."""

    memory: list[MemoryAction]


@cache
def update_schema(entries: int) -> type[UpdateAnswer]:
    """v1's update answer with exactly ``entries`` entries (every retrieved memory, every new fact)."""
    listed = Annotated[list[MemoryAction], Field(min_length=entries, max_length=entries)]
    return create_model(f"UpdateAnswer{entries}", __base__=UpdateAnswer, memory=(listed, ...))


@dataclass(slots=True)
class UserMemory:
    """One user's memories: texts and unit vectors, searched by cosine similarity."""

    texts: list[str] = field(default_factory=list)
    vectors: list[np.ndarray[Any, np.dtype[np.float64]]] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)  # v2: the stored messages, oldest first

    def search(self, vector: Sequence[float], k: int) -> list[int]:
        """Indices of the ``k`` memories most similar to ``vector``."""
        if not self.texts:
            return []
        scores = np.stack(self.vectors) @ np.asarray(vector, dtype=np.float64)
        return [int(i) for i in np.argsort(-scores)[:k]]

    def add(self, text: str, vector: Sequence[float]) -> None:
        """Store a new memory."""
        self.texts.append(text)
        self.vectors.append(np.asarray(vector, dtype=np.float64))


@dataclass(slots=True)
class Mem0Report:
    """What one user's adds did; ``queryable_s`` per session from ``started``."""

    sessions: int = 0
    adds: int = 0
    facts_extracted: int = 0
    events: dict[str, int] = field(default_factory=dict)
    memories: int = 0
    queryable_s: list[float] = field(default_factory=list)


def message_pairs(session: SessionInput) -> list[list[str]]:
    """The session's turns two by two, each turn as a ``role: Speaker: text`` line (the first
    speaker of the session is the user, as in Mem0's LoCoMo evaluation)."""
    turns = session.turns
    first = turns[0].speaker if turns else ""
    lines = [f"{'user' if t.speaker == first else 'assistant'}: {t.speaker}: {t.text}" for t in turns]
    return [lines[start : start + 2] for start in range(0, len(lines), 2)]


@dataclass(slots=True)
class Mem0Model:
    """The backends one user's adds go through."""

    chat: ChatModel
    embedder: Embedder
    ledger: UsageLedger

    async def embed(self, texts: list[str]) -> list[list[float]]:
        return await self.embedder.embed(texts, stage="embed", ledger=self.ledger)

    async def add_v1(self, memory: UserMemory, pair: list[str], report: Mem0Report) -> None:
        """One v1 ``add()`` (see the module docstring)."""
        extracted = await self.chat.complete_json(
            system=instruction(_EXTRACT_TEXT, MEM0_WORDS["v1_extract_system"]),
            user="Input:\n" + "\n".join(pair),
            schema=ExtractedFacts,
            stage="extract",
            ledger=self.ledger,
        )
        facts = extracted.facts
        report.facts_extracted += len(facts)
        if not facts:
            return
        vectors = {fact: (await self.embed([fact]))[0] for fact in facts}  # one embedding per fact
        retrieved = list(dict.fromkeys(i for fact in facts for i in memory.search(vectors[fact], V1_SEARCH_TOP_K)))
        listed = ", ".join(f"{{'id': '{n}', 'text': {memory.texts[i]!r}}}" for n, i in enumerate(retrieved))
        user = (
            (f"Current memory:\n[{listed}]" if retrieved else "Current memory is empty.")
            + f"\n\nNew facts:\n{json.dumps(facts)}\n\n"
            + instruction(_UPDATE_TEXT, MEM0_WORDS["v1_update_tail"])
        )
        answer = await self.chat.complete_json(
            system=instruction(_UPDATE_TEXT, MEM0_WORDS["v1_update_head"]),
            user=user,
            schema=update_schema(len(retrieved) + len(facts)),
            stage="update",
            ledger=self.ledger,
        )
        await self._apply_v1(memory, retrieved, answer, vectors, report)

    async def _apply_v1(
        self,
        memory: UserMemory,
        retrieved: list[int],
        answer: UpdateAnswer,
        vectors: dict[str, list[float]],
        report: Mem0Report,
    ) -> None:
        deleted: set[int] = set()
        for action in answer.memory:
            report.events[action.event] = report.events.get(action.event, 0) + 1
            target = retrieved[action.id] if action.id < len(retrieved) else None
            if action.event == "ADD" or (action.event == "UPDATE" and target is None):
                vector = vectors.get(action.text) or (await self.embed([action.text]))[0]
                memory.add(action.text, vector)
            elif action.event == "UPDATE" and target is not None:
                memory.texts[target] = action.text
                memory.vectors[target] = np.asarray(
                    vectors.get(action.text) or (await self.embed([action.text]))[0], dtype=np.float64
                )
            elif action.event == "DELETE" and target is not None:
                deleted.add(target)
        for index in sorted(deleted, reverse=True):
            del memory.texts[index]
            del memory.vectors[index]

    async def add_v2(self, memory: UserMemory, pair: list[str], session_date: str, report: Mem0Report) -> None:
        """One v2 ``add()`` (see the module docstring)."""
        parsed = "\n".join(pair)
        (query,) = await self.embed([parsed])
        existing = [
            {"id": str(n), "text": memory.texts[i]} for n, i in enumerate(memory.search(query, V2_SEARCH_TOP_K))
        ]
        last = [m if len(m) <= V2_PAST_MESSAGE_CHARS else m[:V2_PAST_MESSAGE_CHARS] + "..." for m in memory.messages]
        user = (
            "## Summary\n\n\n## Last k Messages\n"
            + "".join(f"{m}\n" for m in last[-V2_LAST_MESSAGES:])
            + "\n\n## Recently Extracted Memories\n[]\n\n## Existing Memories\n"
            + json.dumps(existing, ensure_ascii=False)
            + f"\n\n## New Messages\n{parsed}\n\n## Observation Date\n{session_date}\n\n"
            + f"## Current Date\n{session_date}\n\n# Output:"
        )
        answer = await self.chat.complete_json(
            system=instruction(_ADDITIVE_TEXT, MEM0_WORDS["v2_extract_system"]),
            user=user,
            schema=AdditiveAnswer,
            stage="extract",
            ledger=self.ledger,
        )
        memory.messages.extend(pair)
        texts = list(dict.fromkeys(m.text for m in answer.memory if m.text))
        new = [t for t in texts if t not in memory.texts]  # v2 skips exact duplicates (by hash)
        report.facts_extracted += len(answer.memory)
        report.events["ADD"] = report.events.get("ADD", 0) + len(new)
        if new:
            for text, vector in zip(new, await self.embed(new), strict=True):  # one batch
                memory.add(text, vector)


async def ingest_user(
    version: str,
    chat: ChatModel,
    embedder: Embedder,
    sessions: Sequence[SessionInput],
    *,
    ledger: UsageLedger,
    started: float,
    on_session: Callable[[], None] | None = None,
) -> Mem0Report:
    """Write one user's ``sessions`` with Mem0's ``add()`` of ``version`` (``v1`` or ``v2``), one
    message pair per add, the adds one after another."""
    if version not in VERSIONS:
        raise ValueError(f"unknown Mem0 version {version!r}; use one of {VERSIONS}")
    model = Mem0Model(chat, embedder, ledger)
    memory = UserMemory()
    report = Mem0Report()
    for session in sessions:
        date = session.time.date().isoformat()
        for pair in message_pairs(session):
            if version == "v1":
                await model.add_v1(memory, pair, report)
            else:
                await model.add_v2(memory, pair, date, report)
            report.adds += 1
        report.sessions += 1
        report.queryable_s.append(time.perf_counter() - started)
        if on_session is not None:
            on_session()
    report.memories = len(memory.texts)
    return report
