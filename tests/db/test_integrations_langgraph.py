"""``MemForestStore`` against a real ``memforest serve``: the same operations on LangGraph's
``InMemoryStore`` and on MemForest give the same items, deletions, namespaces and filtered search
membership; the async twins agree; recall ranks the matching item first; another tenant's key
reaches nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore
from support.live_server import new_tenant_key, serve

from memforest.integrations.langgraph import MemForestStore

PUTS: list[tuple[tuple[str, ...], str, dict[str, Any]]] = [
    (("profile", "u-ines"), "hobby", {"content": "Ines took up bouldering at a gym in Lyon.", "kind": "hobby", "n": 3}),
    (("profile", "u-ines"), "pet", {"content": "Ines adopted a grey cat named Pixel.", "kind": "pet", "n": 5}),
    (("profile", "u-omar"), "hobby", {"content": "Omar plays chess every Sunday.", "kind": "hobby", "n": 1}),
    (("profile", "u-omar"), "city", {"content": "Omar lives in Tunis.", "kind": "home", "n": 4}),
    (("profile", "u-omar", "food"), "fav", {"dish": "shakshuka", "kind": "food", "n": 8}),
    (("notes",), "todo", {"text": "Renew the passport before March.", "kind": "task", "n": 2}),
    # overwrite: the same key gets a new value
    (("profile", "u-ines"), "pet", {"content": "Ines adopted a second cat named Byte.", "kind": "pet", "n": 6}),
]
DELETED = (("profile", "u-omar"), "hobby")


@pytest.fixture(scope="module")
def server(module_db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve(module_db_url, tmp_path_factory.mktemp("langgraph")) as url:
        yield url


@pytest.fixture(scope="module")
def stores(server: str) -> Iterator[tuple[InMemoryStore, MemForestStore]]:
    reference, store = InMemoryStore(), MemForestStore(base_url=server, api_key=new_tenant_key(server, "graph"))
    for target in (reference, store):
        for namespace, key, value in PUTS:
            target.put(namespace, key, value)
        target.delete(*DELETED)
    yield reference, store
    store.close()


def _found(store: BaseStore, prefix: tuple[str, ...], **options: Any) -> set[tuple[tuple[str, ...], str]]:
    return {(item.namespace, item.key) for item in store.search(prefix, limit=50, **options)}


def test_get_returns_what_was_put_and_deleted_items_are_gone(stores: tuple[InMemoryStore, MemForestStore]) -> None:
    reference, store = stores
    for namespace, key, _ in PUTS:
        expected, got = reference.get(namespace, key), store.get(namespace, key)
        if expected is None:
            assert got is None
            continue
        assert got is not None
        assert (got.namespace, got.key, got.value) == (expected.namespace, expected.key, expected.value)
        assert got.created_at <= got.updated_at
    assert store.get(*DELETED) is None
    assert store.get(("profile", "u-nobody"), "hobby") is None


def test_list_namespaces_agrees(stores: tuple[InMemoryStore, MemForestStore]) -> None:
    reference, store = stores
    for options in (
        {},
        {"prefix": ("profile",)},
        {"suffix": ("food",)},
        {"prefix": ("profile", "*")},
        {"max_depth": 1},
        {"prefix": ("profile",), "max_depth": 2, "limit": 1, "offset": 1},
    ):
        assert store.list_namespaces(**options) == reference.list_namespaces(**options), options


def test_a_namespace_lasts_while_it_holds_an_item(stores: tuple[InMemoryStore, MemForestStore]) -> None:
    _, store = stores
    store.put(("scratch", "tmp"), "k", {"content": "A note that will be deleted."})
    assert ("scratch", "tmp") in store.list_namespaces(prefix=("scratch",))
    store.delete(("scratch", "tmp"), "k")
    assert store.list_namespaces(prefix=("scratch",)) == []  # LangGraph's PostgresStore agrees; InMemoryStore keeps it


def test_filtered_search_membership_agrees(stores: tuple[InMemoryStore, MemForestStore]) -> None:
    reference, store = stores
    for prefix, options in (
        (("profile",), {}),
        (("profile", "u-ines"), {}),
        (("profile",), {"filter": {"kind": "hobby"}}),
        (("profile",), {"filter": {"n": {"$gt": 4}}}),
        (("profile",), {"filter": {"n": {"$gte": 3, "$lt": 8}, "kind": {"$ne": "pet"}}}),
        ((), {"filter": {"kind": "task"}}),
        (("profile",), {"query": "which pet does Ines have?"}),
        (("profile",), {"query": "cats", "filter": {"kind": "pet"}}),
    ):
        assert _found(store, prefix, **options) == _found(reference, prefix, **options), (prefix, options)


def test_recall_ranks_the_item_the_question_is_about_first(stores: tuple[InMemoryStore, MemForestStore]) -> None:
    _, store = stores
    results = store.search(("profile",), query="Where does Ines go bouldering?", limit=3)
    assert results[0].key == "hobby" and results[0].namespace == ("profile", "u-ines")
    assert results[0].score is not None


def test_async_twins_agree(stores: tuple[InMemoryStore, MemForestStore]) -> None:
    reference, store = stores

    async def run() -> None:
        await store.aput(("profile", "u-lea"), "city", {"content": "Lea moved to Tallinn."})
        await reference.aput(("profile", "u-lea"), "city", {"content": "Lea moved to Tallinn."})
        got = await store.aget(("profile", "u-lea"), "city")
        assert got is not None and got.value == {"content": "Lea moved to Tallinn."}
        found = await store.asearch(("profile", "u-lea"), query="Tallinn")
        assert [(i.namespace, i.key) for i in found] == [(("profile", "u-lea"), "city")]
        assert await store.alist_namespaces(prefix=("profile",)) == await reference.alist_namespaces(
            prefix=("profile",)
        )
        await store.adelete(("profile", "u-lea"), "city")
        await reference.adelete(("profile", "u-lea"), "city")
        assert await store.aget(("profile", "u-lea"), "city") is None

    asyncio.run(run())


def test_another_tenants_key_reaches_nothing(server: str, stores: tuple[InMemoryStore, MemForestStore]) -> None:
    _, owner = stores
    assert owner.get(("profile", "u-ines"), "hobby") is not None
    with MemForestStore(base_url=server, api_key=new_tenant_key(server, "intruder")) as intruder:
        assert intruder.get(("profile", "u-ines"), "hobby") is None
        assert intruder.search(("profile",), query="bouldering") == []
        assert intruder.list_namespaces() == []
        intruder.delete(("profile", "u-ines"), "hobby")  # deletes nothing of the other tenant
    assert owner.get(("profile", "u-ines"), "hobby") is not None
