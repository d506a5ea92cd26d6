"""Re-embedding a forest (facts, nodes, scene centroids) with the current embedder, and the
deployment-wide change of the embedding dimension.

No transaction is held across a model call: rows are read in one short transaction, embedded
outside, and written in another.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import numpy as np

from memforest.backends.base import Embedder, UsageLedger
from memforest.backends.factory import Backends
from memforest.db.engine import Database
from memforest.errors import ConfigurationError, InputError
from memforest.lifecycle.remat_report import Progress, RematReport, finish, notify, refresh
from memforest.pipeline.refresh import summary_hash
from memforest.pipeline.refresh_levels import cell_vectors_from_facts, vectors_from_children
from memforest.rules import scene_label
from memforest.settings import Settings
from memforest.store import rematerialize as store
from memforest.store.sql import Conn, Row, lock_forest

MAX_HNSW_DIM = 2000  # pgvector's HNSW index limit for ``vector``
EMBED_BATCH = 512  # rows read, embedded and written per round trip

ReadPage = Callable[[Conn, int, int], Awaitable[list[Row]]]
"""``read(conn, after, limit)``: the next rows by key above ``after``."""


async def _embed_texts(embedder: Embedder, texts: list[str], ledger: UsageLedger) -> list[np.ndarray[Any, Any]]:
    vectors = await embedder.embed(texts, stage="embed", ledger=ledger)
    return [np.asarray(v, dtype=np.float32) for v in vectors]


async def _keyset_batches(
    db: Database, tenant_id: uuid.UUID, read: ReadPage, key: str, total: int
) -> AsyncIterator[list[Row]]:
    """Up to ``total`` rows that ``read`` pages through by ``key``, EMBED_BATCH at a time, each
    batch read in its own short transaction."""
    done, last = 0, 0
    while done < total:
        async with db.tenant(tenant_id) as conn:
            rows = await read(conn, last, EMBED_BATCH)
        if not rows:
            return
        yield rows
        done += len(rows)
        last = int(rows[-1][key])


async def embed_facts(
    db: Database,
    tenant_id: uuid.UUID,
    forest_id: int,
    embedder: Embedder,
    ledger: UsageLedger,
    *,
    only_missing: bool,
    progress: Progress | None = None,
) -> int:
    """(Re-)embed the forest's facts in batches; ``only_missing`` limits it to facts without a vector."""
    async with db.tenant(tenant_id) as conn:
        total = await store.count_facts_to_embed(conn, tenant_id, forest_id, only_missing=only_missing)

    async def read(conn: Conn, after: int, limit: int) -> list[Row]:
        return await store.facts_to_embed(
            conn, tenant_id, forest_id, only_missing=only_missing, after=after, limit=limit
        )

    done = 0
    async for rows in _keyset_batches(db, tenant_id, read, "fact_id", total):
        vectors = await _embed_texts(embedder, [str(r["text"]) for r in rows], ledger)
        async with db.tenant(tenant_id) as conn:
            await store.set_fact_vectors(
                conn, tenant_id, [(int(r["fact_id"]), v) for r, v in zip(rows, vectors, strict=True)]
            )
        done += len(rows)
        notify(progress, "embed facts", done, total)
    return done


async def _embed_nodes(
    db: Database,
    tenant_id: uuid.UUID,
    forest_id: int,
    embedder: Embedder,
    ledger: UsageLedger,
    *,
    internal: bool,
    progress: Progress | None = None,
) -> int:
    """Re-embed every node that has text: fact leaves copy their fact's vector, the rest (cell leaves
    and, with ``internal``, summaries) are embedded; an embedder whose inner nodes take their
    children's mean (ADR 0058) embeds the leaves and then sets those means, and one whose cell
    leaves take their facts' mean (ADR 0105) sets those instead of embedding the cells that facts
    were drawn from. Nodes without a summary yet are left to refresh."""
    if internal and vectors_from_children(embedder):
        leaves = await _embed_nodes(db, tenant_id, forest_id, embedder, ledger, internal=False, progress=progress)
        async with db.tenant(tenant_id) as conn:
            return leaves + await store.set_node_means(conn, tenant_id, forest_id)
    from_facts = cell_vectors_from_facts(embedder)
    async with db.tenant(tenant_id) as conn:
        copied = await store.copy_fact_vectors_to_leaves(conn, tenant_id, forest_id)
        if from_facts:
            copied += await store.set_cell_fact_means(conn, tenant_id, forest_id)
        total = await store.count_nodes_to_embed(
            conn, tenant_id, forest_id, internal=internal, cells_from_facts=from_facts
        )

    async def read(conn: Conn, after: int, limit: int) -> list[Row]:
        return await store.nodes_to_embed(
            conn, tenant_id, forest_id, internal=internal, after=after, limit=limit, cells_from_facts=from_facts
        )

    done = 0
    notify(progress, "embed nodes", 0, total)
    async for rows in _keyset_batches(db, tenant_id, read, "node_id", total):
        texts = [str(r["summary"]) for r in rows]
        vectors = await _embed_texts(embedder, texts, ledger)
        async with db.tenant(tenant_id) as conn:
            await store.set_node_vectors(
                conn,
                tenant_id,
                [(int(r["node_id"]), summary_hash(s), v) for r, s, v in zip(rows, texts, vectors, strict=True)],
            )
        done += len(rows)
        notify(progress, "embed nodes", done, total)
    return copied + done


async def _recompute_centroids(
    db: Database, tenant_id: uuid.UUID, forest_id: int, embedder: Embedder, ledger: UsageLedger
) -> int:
    """Scene centroids from their member facts' (new) vectors: the normalised sum over the facts
    placed in the cluster's scene tree. A cluster without a live member gets its label's vector."""
    async with db.tenant(tenant_id) as conn:
        await lock_forest(conn, tenant_id, forest_id)
        updated = await store.centroids_from_members(conn, tenant_id, forest_id)
        rest = await store.scene_topic_counts(conn, tenant_id, forest_id)
    orphans = [r for r in rest if int(r["cluster_id"]) not in updated]
    if orphans:
        labels = [scene_label(dict(r["topic_counts"] or {})) for r in orphans]
        vectors = await _embed_texts(embedder, labels, ledger)
        async with db.tenant(tenant_id) as conn:
            await store.set_centroids(
                conn, tenant_id, [(int(r["cluster_id"]), v) for r, v in zip(orphans, vectors, strict=True)]
            )
    return len(updated) + len(orphans)


async def reembed_forest(
    db: Database,
    tenant_id: uuid.UUID,
    forest_id: int,
    embedder: Embedder,
    ledger: UsageLedger,
    *,
    internal_nodes: bool,
    progress: Progress | None,
) -> RematReport:
    """Re-embed every fact, node (summaries only with ``internal_nodes``) and scene centroid, no refresh."""
    report = RematReport(forests=1)
    report.embedded_facts = await embed_facts(
        db, tenant_id, forest_id, embedder, ledger, only_missing=False, progress=progress
    )
    report.embedded_nodes = await _embed_nodes(
        db, tenant_id, forest_id, embedder, ledger, internal=internal_nodes, progress=progress
    )
    report.centroids = await _recompute_centroids(db, tenant_id, forest_id, embedder, ledger)
    return report


async def reembed(
    db: Database,
    settings: Settings,
    backends: Backends,
    tenant_id: uuid.UUID,
    forest_id: int,
    *,
    ledger: UsageLedger | None = None,
    progress: Progress | None = None,
) -> RematReport:
    """Recompute every fact, node and scene-centroid embedding of the forest with the current embedder
    (no summaries, no extraction), then refresh whatever was still dirty."""
    t0, local = time.perf_counter(), UsageLedger()
    report = await reembed_forest(
        db, tenant_id, forest_id, backends.embedder, local, internal_nodes=True, progress=progress
    )
    report.add_refresh(await refresh(db, settings, backends, tenant_id, forest_id, local))
    return finish(report, local, ledger, t0)


async def change_embedding_dimension(db: Database, new_dim: int) -> int | None:
    """Retype every ``vector`` column of the schema to ``vector(new_dim)`` (deployment-wide, ADR 0002).

    One transaction under the migration advisory lock: drop the vector indexes, ``ALTER ... TYPE
    vector(new_dim)`` (values become NULL, or a zero placeholder in NOT NULL columns such as scene
    centroids), update ``memforest_meta.embedding_dim``, recreate the indexes. Returns the old
    dimension, or None when it already was ``new_dim`` (nothing changed). Every stored vector must be
    recomputed afterwards (``reembed_all`` does both)."""
    if isinstance(new_dim, bool) or not isinstance(new_dim, int) or not 1 <= new_dim <= MAX_HNSW_DIM:
        raise InputError(f"embedding dimension must be 1..{MAX_HNSW_DIM} (HNSW limit), got {new_dim!r}")
    async with db.system() as conn:
        old = await store.change_vector_dimension(conn, new_dim)
    if old is None:
        return None
    await db.dispose()  # pooled connections (both pools) may hold plans typed for the old dimension
    return old


async def check_embedder_dim(embedder: Embedder, dim: int, ledger: UsageLedger) -> None:
    """ConfigurationError unless ``embedder`` produces ``dim``-dimensional vectors."""
    probe = await embedder.embed(["dimension probe"], stage="embed", ledger=ledger)
    if len(probe[0]) != dim:
        raise ConfigurationError(
            f"the embedder ({embedder.name}) produces {len(probe[0])}-dimensional vectors but "
            f"MEMFOREST_EMBEDDING__DIM={dim}"
        )
