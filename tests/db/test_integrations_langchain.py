"""The LangChain retriever and memory tools, and the LangGraph example agent, against a real
``memforest serve``; another tenant's key reaches nothing through them."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.live_server import new_tenant_key, serve

from memforest.client import Job, MemForestClient, MemForestSyncClient
from memforest.integrations.langchain import MemForestRetriever, memory_tools

ROOT = Path(__file__).resolve().parents[2]
MESSAGES = [
    {"role": "user", "name": "Kofi", "content": "I started working as a ferry pilot in Accra in 2021."},
    {"role": "user", "name": "Kofi", "content": "In March 2024 I switched jobs and became a harbour inspector."},
]


@pytest.fixture(scope="module")
def server(module_db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve(module_db_url, tmp_path_factory.mktemp("langchain")) as url:
        yield url


@pytest.fixture(scope="module")
def key(server: str) -> str:
    secret = new_tenant_key(server, "harbour")
    with MemForestSyncClient(server, secret) as mf:
        assert isinstance(mf.add_messages("work", MESSAGES, session_id="s1", wait=30), Job)
    return str(secret)


def test_retriever_documents_carry_time_validity_and_provenance(server: str, key: str) -> None:
    retriever = MemForestRetriever(base_url=server, api_key=key, forest="work", k=3)
    documents = retriever.invoke("What is Kofi's job now?")
    assert 1 <= len(documents) <= 3
    top = documents[0]
    assert "inspector" in top.page_content.lower()
    assert top.metadata["session_id"] == "s1" and top.metadata["turn_ids"]
    assert top.metadata["time"].startswith("20") and top.metadata["forest"] == "work"
    assert {"valid_from", "valid_to", "score", "kind", "fact_id", "temporal_role"} <= set(top.metadata)
    again = asyncio.run(retriever.ainvoke("What is Kofi's job now?"))
    assert [d.page_content for d in again] == [d.page_content for d in documents]


def test_memory_tools_save_search_correct_and_forget(server: str, key: str) -> None:
    with MemForestSyncClient(server, key) as mf:
        tools = {tool.name: tool for tool in memory_tools(mf, "notes", speaker="Kofi")}
        assert set(tools) == {"save_memory", "search_memory", "correct_memory", "forget_memory"}
        assert tools["save_memory"].invoke({"text": "I keep a kayak at the Jamestown pier."}).startswith("saved")
        found = tools["search_memory"].invoke({"query": "Where is the kayak kept?"})
        assert "kayak" in found.lower() and "[fact " in found
        fact_id = found.split("[fact ", 1)[1].split("]", 1)[0]
        corrected = tools["correct_memory"].invoke(
            {"fact_id": fact_id, "text": "Kofi keeps his kayak at Labadi beach."}
        )
        assert "Labadi" in corrected
        new_id = corrected.split("fact ", 1)[1].split(" ", 1)[0]
        assert mf.get_fact("notes", fact_id).superseded_by is not None
        assert tools["forget_memory"].invoke({"fact_id": new_id}) == f"forgot fact {new_id}"
        assert "Labadi" not in tools["search_memory"].invoke({"query": "Where is the kayak kept?"})


def test_async_memory_tools_run_with_ainvoke(server: str, key: str) -> None:
    async def run() -> str:
        async with MemForestClient(server, key) as amf:
            tools = {tool.name: tool for tool in memory_tools(amf, "work")}
            return str(await tools["search_memory"].ainvoke({"query": "Where did Kofi work as a ferry pilot?"}))

    assert "accra" in asyncio.run(run()).lower()


def test_another_tenants_key_reaches_nothing(server: str, key: str) -> None:
    stranger = new_tenant_key(server, "stranger")
    retriever = MemForestRetriever(base_url=server, api_key=stranger, forest="work")
    with pytest.raises(Exception, match="forest") as caught:
        retriever.invoke("What is Kofi's job now?")
    assert getattr(caught.value, "status", None) == 404
    with MemForestSyncClient(server, stranger) as mf:
        tools = {tool.name: tool for tool in memory_tools(mf, "work")}
        with pytest.raises(Exception, match="forest"):
            tools["search_memory"].invoke({"query": "ferry pilot"})


def test_the_langgraph_example_agent_remembers_across_threads(server: str) -> None:
    env = os.environ | {"MEMFOREST_URL": server, "MEMFOREST_API_KEY": new_tenant_key(server, "agent")}
    run = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "langgraph_agent.py")],
        env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    second = next(line for line in run.stdout.splitlines() if line.startswith("thread-2 system prompt"))
    assert "Porto" in second, run.stdout
