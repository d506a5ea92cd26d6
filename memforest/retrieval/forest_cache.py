"""Which forest a tenant's forest name means, remembered by each process (ADR 0024, session 17).

A query looked its forest up by name in a statement of its own, a round trip and a plan on each of
its two transactions. With an entry here it goes straight to the channels: the vector channels'
statement reads the forest's row as it is now (:func:`memforest.store.recall_channels.forest_of_rows`),
so a name that means another forest now (deleted, made again, renamed) is noticed by the same
query, which then looks the name up and reads again; whether the forest has its own indexes and
its latest session's time come fresh with every query. An entry is only ever used together with
its tenant's id (every statement filters on both, and row-level security on the tenant).
"""

from __future__ import annotations

import uuid
from collections import OrderedDict
from weakref import WeakKeyDictionary

from memforest.db.engine import Database
from memforest.store.recall_channels import RecallForest

# forests remembered per process and database (an entry is ~200 bytes)
CACHE_ENTRIES = 4096


class ForestCache:
    """The latest :class:`RecallForest` seen for each (tenant, forest name), least recently used
    dropped first."""

    def __init__(self, entries: int = CACHE_ENTRIES) -> None:
        self._entries: OrderedDict[tuple[uuid.UUID, str], RecallForest] = OrderedDict()
        self._max = entries

    def get(self, tenant_id: uuid.UUID, name: str) -> RecallForest | None:
        """The forest last seen under ``name``, if any."""
        found = self._entries.get((tenant_id, name))
        if found is not None:
            self._entries.move_to_end((tenant_id, name))
        return found

    def put(self, found: RecallForest) -> None:
        """Remember ``found`` under its tenant and name."""
        key = (found.forest.tenant_id, found.forest.name)
        self._entries[key] = found
        self._entries.move_to_end(key)
        while len(self._entries) > self._max:
            self._entries.popitem(last=False)

    def drop(self, tenant_id: uuid.UUID, name: str) -> None:
        """Forget ``name`` (it no longer means the forest remembered)."""
        self._entries.pop((tenant_id, name), None)

    def __len__(self) -> int:
        return len(self._entries)


_CACHES: WeakKeyDictionary[Database, ForestCache] = WeakKeyDictionary()


def forest_cache(db: Database) -> ForestCache:
    """The cache of ``db`` (one per Database object: two databases never share entries)."""
    cache = _CACHES.get(db)
    if cache is None:
        cache = _CACHES[db] = ForestCache()
    return cache
