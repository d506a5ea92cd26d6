"""The MCP tools' parameters: each a type with the description and limits its JSON Schema shows
(an LLM reads these to call the tool), and the values of fixed choices as enums."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from memforest.schemas.agent import MAX_WAIT_S

__all__ = [
    "AsOf",
    "CorrectedText",
    "Cursor",
    "FactId",
    "Forest",
    "ForgetText",
    "JobId",
    "Messages",
    "Metadata",
    "Mode",
    "NodeId",
    "Now",
    "Query",
    "SessionId",
    "SessionIdRequired",
    "SessionIds",
    "Speaker",
    "Speakers",
    "Text",
    "Time",
    "TokenBudget",
    "TopK",
    "TreeKind",
    "Turns",
    "ValidFrom",
    "Wait",
]

Forest = Annotated[
    str | None,
    Field(
        description="The forest (one named memory, e.g. one per user or agent); created on the first write. "
        "Over stdio it defaults to the server's --forest; over HTTP it is required."
    ),
]
Query = Annotated[str, Field(description="The question or topic to recall memories for, in plain words.")]
TopK = Annotated[int | None, Field(description="How many evidence items at most (1-200; default 10).")]
AsOf = Annotated[
    str | None,
    Field(description="Only what was valid and known at this time (ISO 8601 or a readable date; naive = UTC)."),
]
Mode = Annotated[
    Literal["emb", "llm"],
    Field(description="emb: vector and text recall (fast, the default); llm: a model browses the trees."),
]
Metadata = Annotated[
    dict[str, Any] | None,
    Field(description="Only evidence from sessions whose metadata has these keys equal to these values."),
]
SessionIds = Annotated[list[str] | None, Field(description="Only evidence from these sessions (their ids).")]
Speakers = Annotated[list[str] | None, Field(description="Only evidence said by these speakers.")]
Speaker = Annotated[
    str | None,
    Field(
        description='Who asks: whom "I", "me" and "my" in the question name (1-200 characters; default: the '
        "forest's user-role speaker)."
    ),
]
Now = Annotated[
    str | None,
    Field(
        description='When the question is asked: "two years ago" and "last spring" count back from it (ISO 8601 '
        "or a readable date; naive = UTC; default now)."
    ),
]
Turns = Annotated[
    list[dict[str, Any]] | None,
    Field(
        description="The session as turns: objects with speaker and text, optional role, id and time. "
        "Give exactly one of turns, messages or text."
    ),
]
Messages = Annotated[
    list[dict[str, Any]] | None,
    Field(
        description="The session as an OpenAI chat transcript (role, content, optional name, tool_calls, "
        "tool_call_id): user and assistant text is kept, tool results kept spoken by the tool, system and "
        "developer prompts skipped. Give exactly one of turns, messages or text."
    ),
]
Text = Annotated[
    str | None, Field(description="The session as one user turn. Give exactly one of turns, messages or text.")
]
SessionId = Annotated[str | None, Field(description="The session's id (default: a fresh one).")]
Time = Annotated[
    str | None, Field(description="When the session happened (ISO 8601 or a readable date; naive = UTC; default now).")
]
Wait = Annotated[
    float,
    Field(
        ge=0,
        le=MAX_WAIT_S,
        description=f"Seconds (0-{MAX_WAIT_S:g}) to wait for the memory to be processed: when it is done in time "
        "the answer is the finished job (state succeeded or failed) and a search finds it at once; "
        "0 returns at once with the job_id to poll with get_job.",
    ),
]
TokenBudget = Annotated[int | None, Field(description="The block's size limit in tokens (1-100000; default 1000).")]
TreeKind = Annotated[
    Literal["session", "entity", "scene"] | None,
    Field(description="Only trees of this kind: session (one per session), entity (per person or thing), scene."),
]
NodeId = Annotated[
    str | int | None, Field(description="A node to open (root_node_id of a tree, or a child's id); omit to list trees.")
]
Cursor = Annotated[str | None, Field(description="next_cursor of the previous page.")]
FactId = Annotated[str | int, Field(description="The fact's id (fact_id of a search_memory evidence item).")]
ValidFrom = Annotated[
    str | None, Field(description="From when the correction holds (ISO 8601 or a readable date; default now).")
]
JobId = Annotated[str, Field(description="The job_id that add_memory returned.")]
SessionIdRequired = Annotated[str, Field(description="The session's id (as add_memory was given or returned it).")]
ForgetText = Annotated[
    bool, Field(description="Also forget the fact's text: its history keeps the events, without the text.")
]
CorrectedText = Annotated[str, Field(description="The fact as it should read now (one sentence).")]
