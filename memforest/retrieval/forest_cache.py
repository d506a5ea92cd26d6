"""Which forest a tenant's forest name means, remembered by each process (ADR 0024).

A query looked its forest up by name in a statement of its own, a round trip and a plan on each of
its two transactions. With an entry here it goes straight to the channels: the vector channels'
statement reads the forest's row as it is now (:func:`memforest.store.recall_channels.forest_of_rows`),
so a name that means another forest now (the forest deleted, or deleted and made again) or none is
noticed by the same query, which then looks the name up and reads again. The query reads with the
entry's idea of whether the forest has its own indexes (exact or through them: the same rows) and
learns from its statement the state now, and the latest session's time, which its time cues use;
the next query reads accordingly. An entry is only ever used together with its tenant's id (every
statement filters on both, and row-level security on the tenant).
"""

from __future__ import annotations

import uuid
from collections import OrderedDict
from weakref import WeakKeyDictionary

from memforest.db.engine import Database
from memforest.store.recall_channels import RecallForest

# forests remembered per process and database (an entry is a few hundred bytes)
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
        """Remember ``found`` under its tenant and name, unless a query that ended first saw a newer
        forest of that name there (forest ids only grow, and a name means one forest at a time)."""
        key = (found.forest.tenant_id, found.forest.name)
        held = self._entries.get(key)
        if held is not None and held.forest.forest_id > found.forest.forest_id:
            return
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
