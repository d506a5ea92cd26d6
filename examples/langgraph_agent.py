"""A LangGraph agent that remembers across threads through MemForest.

    MEMFOREST_URL=http://127.0.0.1:8420 MEMFOREST_API_KEY=<tenant key> python examples/langgraph_agent.py

The chat model is langchain-core's scripted fake (no model server, no network beyond MemForest);
what matters is what the agent hands it: on the second thread, a memory saved on the first.
Needs ``pip install 'memforest[langgraph]'``.
"""

from __future__ import annotations

import os
import uuid
from typing import Any

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, SystemMessage
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.store.base import BaseStore

from memforest.integrations.langgraph import MemForestStore


def build_agent(store: BaseStore, model: GenericFakeChatModel) -> Any:
    """One node: save "remember: ..." messages under the user's namespace, recall what fits the
    message, and answer with the memories in the system prompt."""

    def respond(state: MessagesState, config: RunnableConfig, *, store: BaseStore) -> dict[str, Any]:
        namespace = ("memories", config["configurable"]["user_id"])
        said = str(state["messages"][-1].content)
        if said.lower().startswith("remember:"):
            store.put(namespace, uuid.uuid4().hex, {"content": said.split(":", 1)[1].strip()})
        memories = store.search(namespace, query=said, limit=3)
        known = "\n".join(f"- {m.value['content']}" for m in memories) or "- nothing yet"
        reply = model.invoke([SystemMessage(f"What you remember about the user:\n{known}"), *state["messages"]])
        return {"messages": [reply]}

    graph = StateGraph(MessagesState)
    graph.add_node("respond", respond)
    graph.add_edge(START, "respond")
    return graph.compile(checkpointer=InMemorySaver(), store=store)


class PromptLog(BaseCallbackHandler):
    """Keeps the system prompt of every chat model call."""

    def __init__(self) -> None:
        self.system_prompts: list[str] = []

    def on_chat_model_start(self, serialized: dict[str, Any], messages: list[list[BaseMessage]], **_: Any) -> None:
        self.system_prompts += [str(m.content) for batch in messages for m in batch if m.type == "system"]


def main() -> None:
    store = MemForestStore(base_url=os.environ["MEMFOREST_URL"], api_key=os.environ["MEMFOREST_API_KEY"])
    model = GenericFakeChatModel(messages=iter([AIMessage("Noted."), AIMessage("You live in Porto.")]))
    log = PromptLog()
    agent = build_agent(store, model)
    for thread, text in (("thread-1", "Remember: I moved to Porto in May."), ("thread-2", "Where do I live now?")):
        config: RunnableConfig = {
            "configurable": {"thread_id": thread, "user_id": "u-ada"},
            "callbacks": [log],
        }
        answer = agent.invoke({"messages": [{"role": "user", "content": text}]}, config)
        print(f"{thread}: {text!r} -> {answer['messages'][-1].content!r}")
        print(f"{thread} system prompt: {log.system_prompts[-1]!r}")
    store.close()


if __name__ == "__main__":
    main()
