"""LangChain adapters: ``MemForestRetriever`` (a ``BaseRetriever`` over a forest's recall) and
``memory_tools`` (save, search, correct and forget tools for an agent).

The retriever's documents are the query's evidence, best first: the text as ``page_content``; its
time, validity interval, kind, score, temporal role, source session and turns, fact id and tree in
``metadata``. Both adapters run the client's operations (:mod:`memforest.client.steps`), so the
blocking and async paths are one implementation.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForRetrieverRun, CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from langchain_core.tools import BaseTool, StructuredTool
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from memforest.client import EvidenceItem, Job, MemForestClient, MemForestSyncClient
from memforest.client.operations import Operations
from memforest.client.runners import DEFAULT_URL
from memforest.client.steps import Steps


class MemForestRetriever(BaseRetriever):
    """Documents from a forest's recall: ``MemForestRetriever(base_url=..., api_key=..., forest=..., k=...)``.

    ``as_of`` answers as the memory stood then; ``include_superseded`` keeps replaced values (marked
    in metadata); ``mode`` is the server's query mode (``emb`` or ``llm``).
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    base_url: str = DEFAULT_URL
    api_key: str | None = Field(default=None, repr=False)
    forest: str
    k: int = Field(default=5, ge=1)
    mode: str = "emb"
    as_of: datetime | None = None
    include_superseded: bool = False

    _client: MemForestSyncClient | None = PrivateAttr(default=None)

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        if self._client is None:
            self._client = MemForestSyncClient(self.base_url, self.api_key)
        return self._client.run(self._documents(self._client, query))

    async def _aget_relevant_documents(
        self, query: str, *, run_manager: AsyncCallbackManagerForRetrieverRun
    ) -> list[Document]:
        async with MemForestClient(self.base_url, self.api_key) as client:
            return await client.run(self._documents(client, query))

    def _documents(self, runner: Any, query: str) -> Steps[list[Document]]:
        result = yield from Operations.query.steps(
            runner,
            self.forest,
            query,
            mode=self.mode,
            top_k=self.k,
            as_of=self.as_of,
            include_superseded=self.include_superseded,
        )
        return [evidence_document(item, self.forest) for item in result.evidence[: self.k]]


def evidence_document(item: EvidenceItem, forest: str) -> Document:
    """One evidence item as a LangChain document (times as ISO 8601 strings)."""
    metadata = {
        "forest": item.forest or forest,
        "rank": item.rank,
        "kind": item.kind,
        "score": item.score,
        "time": item.time.isoformat(),
        "valid_from": item.valid_from.isoformat() if item.valid_from else None,
        "valid_to": item.valid_to.isoformat() if item.valid_to else None,
        "temporal_role": item.temporal_role,
        "superseded": item.superseded,
        "session_id": item.session_id,
        "turn_ids": list(item.turn_ids),
        "fact_id": item.fact_id,
        "tree": item.tree,
    }
    return Document(page_content=item.text, metadata=metadata, id=item.fact_id)


def memory_tools(
    client: MemForestSyncClient | MemForestClient, forest: str, *, speaker: str = "user", k: int = 5
) -> list[BaseTool]:
    """An agent's memory tools over ``forest``: ``save_memory``, ``search_memory``,
    ``correct_memory`` and ``forget_memory``. A blocking client gives tools that run with
    ``invoke``, an async one tools that run with ``ainvoke``."""

    def save_memory(text: str) -> Steps[str]:
        message = {"role": "user", "name": speaker, "content": text}
        answer = yield from Operations.add_messages.steps(client, forest, [message], wait=30)
        if isinstance(answer, Job):
            facts = (answer.result or {}).get("facts")
            return f"saved ({facts} facts)" if facts is not None else f"saved (job {answer.state})"
        return f"accepted (job {answer.job_id} still running)"

    def search_memory(query: str) -> Steps[str]:
        result = yield from Operations.query.steps(client, forest, query, top_k=k)
        if not result.evidence:
            return "nothing remembered about that"
        return "\n".join(_evidence_line(item) for item in result.evidence[:k])

    def correct_memory(fact_id: str, text: str) -> Steps[str]:
        fact = yield from Operations.correct_fact.steps(client, forest, fact_id, text)
        return f"corrected: fact {fact.id} now says {fact.text!r}"

    def forget_memory(fact_id: str) -> Steps[str]:
        yield from Operations.delete_fact.steps(client, forest, fact_id)
        return f"forgot fact {fact_id}"

    return [
        _tool(client, save_memory, SaveMemory),
        _tool(client, search_memory, SearchMemory),
        _tool(client, correct_memory, CorrectMemory),
        _tool(client, forget_memory, ForgetMemory),
    ]


class SaveMemory(BaseModel):
    """Remember a statement about the user or the world (one or more sentences)."""

    text: str = Field(description="What to remember, as a sentence.")


class SearchMemory(BaseModel):
    """Recall time-stamped memories relevant to a question; each line names its fact id."""

    query: str = Field(description="The question or topic to recall.")


class CorrectMemory(BaseModel):
    """Replace a remembered fact with corrected text; the old one is kept as superseded."""

    fact_id: str = Field(description="The fact id shown by search_memory.")
    text: str = Field(description="The corrected statement.")


class ForgetMemory(BaseModel):
    """Forget a remembered fact."""

    fact_id: str = Field(description="The fact id shown by search_memory.")


def _evidence_line(item: EvidenceItem) -> str:
    when = item.time.date().isoformat()
    validity = ""
    if item.valid_from or item.valid_to:
        start = item.valid_from.date().isoformat() if item.valid_from else "..."
        end = item.valid_to.date().isoformat() if item.valid_to else "now"
        validity = f" valid {start}..{end}"
    ident = f" [fact {item.fact_id}]" if item.fact_id else ""
    return f"- ({when}{validity}){ident} {item.text}"


def _tool(
    client: MemForestSyncClient | MemForestClient, steps: Callable[..., Steps[str]], schema: type[BaseModel]
) -> BaseTool:
    """A LangChain tool running ``steps`` on ``client`` (``invoke`` on a blocking one, ``ainvoke`` on
    an async one), its arguments and description from ``schema``."""
    name, description = steps.__name__, (schema.__doc__ or "").strip()
    if isinstance(client, MemForestSyncClient):
        sync_client = client

        def run(**arguments: Any) -> str:
            return sync_client.run(steps(**arguments))

        return StructuredTool.from_function(func=run, name=name, description=description, args_schema=schema)

    async_client = client

    async def arun(**arguments: Any) -> str:
        return await async_client.run(steps(**arguments))

    return StructuredTool.from_function(coroutine=arun, name=name, description=description, args_schema=schema)
