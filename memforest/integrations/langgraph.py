"""``MemForestStore``: LangGraph's long-term memory interface (``BaseStore``) over a MemForest server.

Each item is one MemForest session: its value is kept whole in the session's metadata (``get``
returns it exactly) and its text (the ``index`` fields, or every field) is the session's one turn,
so the server extracts facts from it and ``search`` ranks items by MemForest recall. Namespaces map
to forests as :mod:`memforest.integrations.namespaces` says. ``put`` over an existing key retracts
the old session and adds the new one (in between, ``get`` finds nothing); ``delete`` retracts.

``search`` lists the items under the prefix (one request per page of sessions), reads values only
for the page it returns unless a ``filter`` needs them all, and with a ``query`` orders the items
the forest's recall found first, by score, then the rest, newest first. Its membership is the same
as LangGraph's ``InMemoryStore`` for the same filter; only the order differs.

Every operation is written once as client steps, so ``batch`` runs on the blocking client and
``abatch`` on the async one.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any, Literal, Self

from langgraph.store.base import (
    BaseStore,
    GetOp,
    Item,
    ListNamespacesOp,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
)
from langgraph.store.base.embed import get_text_at_path

from memforest.client import MemForestClient, MemForestSyncClient, Session, SessionSummary
from memforest.client.operations import Operations
from memforest.client.runners import DEFAULT_URL
from memforest.client.steps import Steps, next_cursor
from memforest.errors import ConflictError, ModelBackendError, NotFoundError
from memforest.integrations.namespaces import Layout, matches, under, value_matches

METADATA_KEY = "langgraph"
TEXT_FIELDS = ("content", "text", "memory", "data")
PAGE_SIZE = 100
MAX_RECALL = 100


class MemForestStore(BaseStore):
    """A LangGraph ``BaseStore`` kept in MemForest: ``MemForestStore(base_url=..., api_key=...)``,
    or ``client=`` a :class:`MemForestSyncClient` (and ``async_client=`` a :class:`MemForestClient`).

    ``forest``: keep every namespace in that one forest (default: the namespace's first label names
    the forest). ``speaker``: who the items' text is attributed to. ``wait``: ``put`` returns once
    the server has extracted the item's facts (so a ``search`` right after sees them), at most
    ``wait_timeout_s``.
    """

    supports_ttl = False

    def __init__(
        self,
        base_url: str = DEFAULT_URL,
        api_key: str | None = None,
        *,
        client: MemForestSyncClient | None = None,
        async_client: MemForestClient | None = None,
        forest: str | None = None,
        speaker: str = "user",
        wait: bool = True,
        wait_timeout_s: float = 60.0,
    ) -> None:
        self._client = client if client is not None else MemForestSyncClient(base_url, api_key)
        self._owns_client = client is None
        self._async_client = async_client
        self.layout = Layout(forest)
        self.speaker = speaker
        self.wait = wait
        self.wait_timeout_s = wait_timeout_s

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run ``ops`` in order on the blocking client."""
        return [self._client.run(self._steps(op, self._client)) for op in ops]

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """Run ``ops`` in order on the async client (one made for this call unless one was given)."""
        if self._async_client is not None:
            return [await self._async_client.run(self._steps(op, self._async_client)) for op in ops]
        async with self._client.async_twin() as client:
            return [await client.run(self._steps(op, client)) for op in ops]

    def close(self) -> None:
        """Close the blocking client's connections (unless the caller passed the client in)."""
        if self._owns_client:
            self._client.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------ one operation, as steps

    def _steps(self, op: Op, runner: Any) -> Steps[Result]:
        if isinstance(op, GetOp):
            return self._get(runner, op.namespace, op.key)
        if isinstance(op, PutOp):
            return self._put(runner, op)
        if isinstance(op, SearchOp):
            return self._search(runner, op)
        if isinstance(op, ListNamespacesOp):
            return self._list_namespaces(runner, op)
        raise TypeError(f"unknown store operation {type(op).__name__}")

    def _get(self, runner: Any, namespace: tuple[str, ...], key: str) -> Steps[Item | None]:
        forest, session_id = self.layout.address(namespace, key)
        return (yield from _item_at(runner, forest, session_id))

    def _put(self, runner: Any, op: PutOp) -> Steps[None]:
        forest, session_id = self.layout.address(op.namespace, op.key)
        old = yield from _session_or_none(runner, forest, session_id)
        if old is not None:
            with contextlib.suppress(NotFoundError):  # a concurrent put or delete retracted it first
                yield from Operations.retract_session.steps(runner, forest, session_id)
        if op.value is None:
            return None
        now = datetime.now(UTC)
        previous = _item(old) if old is not None else None
        record = {
            "namespace": list(op.namespace),
            "key": op.key,
            "value": op.value,
            "created_at": (previous.created_at if previous is not None else now).isoformat(),
            "updated_at": now.isoformat(),
        }
        session = {
            "id": session_id,
            "time": now.isoformat(),
            "turns": [{"speaker": self.speaker, "text": memory_text(op.key, op.value, op.index)}],
            "metadata": {METADATA_KEY: record},
        }
        accepted = yield from Operations.add_session.steps(runner, forest, session)
        if not accepted.created:
            raise ConflictError(f"item {op.key!r} of {op.namespace!r} was written concurrently; put it again")
        if self.wait and accepted.job_id is not None:
            job = yield from Operations.wait_job.steps(runner, accepted.job_id, self.wait_timeout_s)
            if not job.succeeded:
                raise ModelBackendError(f"the item was stored but reading it failed: {job.errors}")
        return None

    def _search(self, runner: Any, op: SearchOp) -> Steps[list[SearchItem]]:
        listed = yield from self._listed(runner, op.namespace_prefix)
        newest_first = sorted(listed, key=lambda entry: entry[2].time, reverse=True)
        values: dict[tuple[str, str], Item] = {}
        if op.filter:
            kept = []
            for forest, _, summary in newest_first:
                item = yield from _item_at(runner, forest, summary.session_id)
                if item is not None and value_matches(item.value, dict(op.filter)):
                    values[(forest, summary.session_id)] = item
                    kept.append((forest, summary.session_id))
            candidates = kept
        else:
            candidates = [(forest, summary.session_id) for forest, _, summary in newest_first]
        scores: dict[tuple[str, str], float] = {}
        if op.query and candidates:
            scores = yield from _recall_scores(runner, op.query, candidates, op.offset + op.limit)
        ranked = sorted(candidates, key=lambda c: -scores[c] if c in scores else float("inf"))
        page = ranked[op.offset : op.offset + op.limit]
        found = []
        for forest, session_id in page:
            item = values.get((forest, session_id))
            if item is None:
                item = yield from _item_at(runner, forest, session_id)
            if item is not None:
                found.append(_search_item(item, scores.get((forest, session_id))))
        return found

    def _list_namespaces(self, runner: Any, op: ListNamespacesOp) -> Steps[list[tuple[str, ...]]]:
        listed = yield from self._listed(runner, ())
        namespaces = {namespace for _, namespace, _ in listed}
        if op.match_conditions:
            namespaces = {ns for ns in namespaces if all(matches(c, ns) for c in op.match_conditions)}
        if op.max_depth is not None:
            namespaces = {ns[: op.max_depth] for ns in namespaces}
        return sorted(namespaces)[op.offset : op.offset + op.limit]

    # ------------------------------------------------------------ reading what is stored

    def _listed(self, runner: Any, prefix: tuple[str, ...]) -> Steps[list[tuple[str, tuple[str, ...], SessionSummary]]]:
        """Every item under ``prefix``: its forest, namespace and session summary."""
        only = self.layout.forest_of_prefix(prefix)
        if only is not None:
            forests = [only]
        else:
            page = yield from Operations.list_forests.steps(runner)
            forests = [forest.name for forest in page.items]
        listed = []
        for forest in forests:
            sessions = yield from _all_sessions(runner, forest)
            for summary in sessions:
                address = self.layout.item_of(forest, summary.session_id)
                if address is not None and under(address[0], prefix):
                    listed.append((forest, address[0], summary))
        return listed


def memory_text(key: str, value: Mapping[str, Any], index: Literal[False] | list[str] | None) -> str:
    """The text MemForest reads for an item: its ``index`` fields, else every field (``content``,
    ``text``, ``memory`` and ``data`` as they are, others as ``field: value``); only the key with
    ``index=False`` (the item is kept, not read for facts) or when there is no text."""
    if index is False:
        return key
    if isinstance(index, list):
        parts = [text for path in index for text in get_text_at_path(value, path) if text]
    else:
        parts = [_field_text(field, v) for field, v in value.items() if v is not None]
    return "\n".join(parts).strip() or key


def _field_text(field: str, value: Any) -> str:
    if isinstance(value, str):
        return value if field in TEXT_FIELDS else f"{field}: {value}"
    return f"{field}: {json.dumps(value, ensure_ascii=False, default=str)}"


def _item_at(runner: Any, forest: str, session_id: str) -> Steps[Item | None]:
    """The item stored as ``session_id`` in ``forest``; None when there is none."""
    session = yield from _session_or_none(runner, forest, session_id)
    return _item(session) if session is not None else None


def _session_or_none(runner: Any, forest: str, session_id: str) -> Steps[Session | None]:
    try:
        return (yield from Operations.get_session.steps(runner, forest, session_id))
    except NotFoundError:
        return None


def _all_sessions(runner: Any, forest: str) -> Steps[list[SessionSummary]]:
    sessions: list[SessionSummary] = []
    cursor: str | None = None
    while True:
        try:
            page = yield from Operations.list_sessions.steps(runner, forest, cursor=cursor, limit=PAGE_SIZE)
        except NotFoundError:  # no forest yet: nothing stored under it
            return sessions
        sessions.extend(page.items)
        cursor = next_cursor(page, cursor)
        if cursor is None:
            return sessions


def _recall_scores(
    runner: Any, query: str, candidates: list[tuple[str, str]], wanted: int
) -> Steps[dict[tuple[str, str], float]]:
    """Each candidate's best evidence score for ``query`` (recall limited to the candidates' sessions)."""
    by_forest: dict[str, list[str]] = {}
    for forest, session_id in candidates:
        by_forest.setdefault(forest, []).append(session_id)
    scores: dict[tuple[str, str], float] = {}
    for forest, session_ids in by_forest.items():
        for start in range(0, len(session_ids), 1_000):
            chunk = session_ids[start : start + 1_000]
            top_k = min(MAX_RECALL, max(10, 2 * wanted))
            result = yield from Operations.query.steps(
                runner, forest, query, top_k=top_k, source_filter={"session_ids": chunk}
            )
            for evidence in result.evidence:
                if evidence.session_id is not None:
                    place = (forest, evidence.session_id)
                    scores[place] = max(scores.get(place, float("-inf")), evidence.score)
    return scores


def _item(session: Session) -> Item | None:
    record = session.metadata.get(METADATA_KEY)
    if not isinstance(record, dict):
        return None
    return Item(
        value=record["value"],
        key=record["key"],
        namespace=tuple(record["namespace"]),
        created_at=datetime.fromisoformat(record["created_at"]),
        updated_at=datetime.fromisoformat(record["updated_at"]),
    )


def _search_item(item: Item, score: float | None) -> SearchItem:
    return SearchItem(
        namespace=item.namespace,
        key=item.key,
        value=item.value,
        created_at=item.created_at,
        updated_at=item.updated_at,
        score=score,
    )
