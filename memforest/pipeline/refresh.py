"""Refresh dirty paths lazily, level by level: all dirty nodes of a level (across every tree of the
forest) are independent and refreshed in parallel; no transaction is held across a model call, and
writes check the node version so a concurrent insert just leaves the node dirty for the next pass."""

from __future__ import annotations

import asyncio
import hashlib
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from pgvector import Vector
from sqlalchemy import text

from memforest.backends.base import Embedder, Summarizer, SummaryInput, UsageLedger
from memforest.db.engine import Database
from memforest.domain import TreeKind
from memforest.store.sql import fetch_all, lock_forest, scalar


@dataclass(slots=True)
class RefreshStats:
    """What one refresh did."""

    levels: list[int] = field(default_factory=list)
    nodes_refreshed: int = 0
    summaries_changed: int = 0
    embedded: int = 0
    stale_writes: int = 0

    def add(self, other: RefreshStats) -> None:
        self.levels = sorted(set(self.levels) | set(other.levels))
        self.nodes_refreshed += other.nodes_refreshed
        self.summaries_changed += other.summaries_changed
        self.embedded += other.embedded
        self.stale_writes += other.stale_writes


def summary_hash(summary: str) -> str:
    """The md5 of a summary (the same function the database uses for leaves)."""
    return hashlib.md5(summary.encode()).hexdigest()


async def refresh_forest(
    db: Database,
    tenant_id: uuid.UUID,
    forest_id: int,
    *,
    summarizer: Summarizer,
    embedder: Embedder,
    concurrency: int,
    ledger: UsageLedger | None = None,
    max_passes: int = 8,
    max_level: int | None = None,
) -> RefreshStats:
    """Refresh every dirty node of the forest, lowest level first; with ``max_level``, only the dirty
    nodes up to that level (the ones above stay dirty for a later, coalesced refresh). Serialised per
    forest with a session-level advisory lock (held on a connection, not in a transaction)."""
    top = max_level if max_level is not None else 2**31 - 1
    stats = RefreshStats()
    async with db.engine.connect() as lock_conn:
        key = f"memforest:refresh:{tenant_id}:{forest_id}"
        await lock_conn.execute(text("SELECT pg_advisory_lock(hashtextextended(:k, 0))"), {"k": key})
        await lock_conn.commit()
        try:
            for _ in range(max_passes):
                level, progressed = 0, False
                while True:
                    async with db.tenant(tenant_id) as conn:
                        next_level = await scalar(
                            conn,
                            "SELECT min(level) FROM nodes WHERE tenant_id = :t AND forest_id = :f AND dirty "
                            "AND level >= :l AND level <= :top",
                            {"t": tenant_id, "f": forest_id, "l": level, "top": top},
                        )
                    if next_level is None:
                        break
                    level = int(next_level)
                    done = await _refresh_level(
                        db, tenant_id, forest_id, level, summarizer, embedder, concurrency, ledger
                    )
                    progressed = progressed or done.nodes_refreshed > 0
                    stats.add(done)
                    level += 1
                async with db.tenant(tenant_id) as conn:
                    remaining = await scalar(
                        conn,
                        "SELECT count(*) FROM nodes WHERE tenant_id = :t AND forest_id = :f AND dirty "
                        "AND level <= :top",
                        {"t": tenant_id, "f": forest_id, "top": top},
                    )
                if not remaining or not progressed:
                    break
        finally:
            await lock_conn.execute(text("SELECT pg_advisory_unlock(hashtextextended(:k, 0))"), {"k": key})
            await lock_conn.commit()
    return stats


async def _refresh_level(
    db: Database,
    tenant_id: uuid.UUID,
    forest_id: int,
    level: int,
    summarizer: Summarizer,
    embedder: Embedder,
    concurrency: int,
    ledger: UsageLedger | None,
) -> RefreshStats:
    p = {"t": tenant_id, "f": forest_id, "l": level}
    async with db.tenant(tenant_id) as conn:
        nodes = await fetch_all(
            conn,
            "SELECT n.node_id, n.version, n.t_start, n.t_end, n.summary, n.summary_hash, n.embedded_hash, "
            "n.embedding IS NULL AS no_embedding, tr.kind, tr.label FROM nodes n JOIN trees tr "
            "ON tr.tenant_id = n.tenant_id AND tr.tree_id = n.tree_id "
            "WHERE n.tenant_id = :t AND n.forest_id = :f AND n.dirty AND n.level = :l "
            # A node whose child is still dirty (a stale write below) waits: it must be summarised
            # from its children's current summaries, so it stays dirty for the next pass.
            "AND NOT EXISTS (SELECT 1 FROM nodes c WHERE c.tenant_id = n.tenant_id AND c.parent_id = n.node_id "
            "AND c.dirty) ORDER BY n.node_id",
            p,
        )
        children: dict[int, list[str]] = defaultdict(list)
        if level > 0 and nodes:
            rows = await fetch_all(
                conn,
                "SELECT parent_id, summary FROM nodes WHERE tenant_id = :t AND parent_id = ANY(:ids) "
                "ORDER BY parent_id, t_start, seq",
                {"t": tenant_id, "ids": [int(n["node_id"]) for n in nodes]},
            )
            for r in rows:
                children[int(r["parent_id"])].append(str(r["summary"] or ""))
    # Model work, outside any transaction.
    gate = asyncio.Semaphore(concurrency)

    async def summarise(node: dict[str, Any]) -> str:
        if level == 0:
            return str(node["summary"] or "")
        item = SummaryInput(
            tree_kind=TreeKind(node["kind"]),
            tree_label=str(node["label"]),
            t_start=node["t_start"],
            t_end=node["t_end"],
            child_texts=tuple(children.get(int(node["node_id"]), [])),
            level=level,
        )
        async with gate:
            return await summarizer.summarize(item, ledger=ledger)

    summaries = await asyncio.gather(*(summarise(n) for n in nodes))
    hashes = [summary_hash(s) for s in summaries]
    to_embed = [i for i, n in enumerate(nodes) if n["no_embedding"] or n["embedded_hash"] != hashes[i]]
    vectors: dict[int, Any] = {}
    if to_embed:
        embedded = await embedder.embed([summaries[i] for i in to_embed], stage="embed", ledger=ledger)
        vectors = dict(zip(to_embed, embedded, strict=True))
    stats = RefreshStats(levels=[level], embedded=len(vectors))
    stats.summaries_changed = sum(1 for i, n in enumerate(nodes) if n["summary_hash"] != hashes[i])
    if not nodes:
        return stats
    async with db.tenant(tenant_id) as conn:
        await lock_forest(conn, tenant_id, forest_id, "graph")  # short write, ordered with structural edits
        # every node of the level in one statement; a node whose version moved on stays dirty
        written = await fetch_all(
            conn,
            "UPDATE nodes n SET summary = u.s, summary_hash = u.h, dirty = false, "
            "embedding = CASE WHEN u.has_vec THEN u.v ELSE n.embedding END, "
            "embedded_hash = CASE WHEN u.has_vec THEN u.h ELSE n.embedded_hash END "
            "FROM unnest(CAST(:id AS bigint[]), CAST(:ver AS int[]), CAST(:s AS text[]), CAST(:h AS text[]), "
            "CAST(:has_vec AS boolean[]), CAST(:v AS vector[])) AS u(id, ver, s, h, has_vec, v) "
            "WHERE n.tenant_id = :t AND n.node_id = u.id AND n.version = u.ver RETURNING n.node_id",
            {
                "t": tenant_id,
                "id": [int(n["node_id"]) for n in nodes],
                "ver": [int(n["version"]) for n in nodes],
                "s": summaries,
                "h": hashes,
                "has_vec": [i in vectors for i in range(len(nodes))],
                "v": [Vector(np.asarray(vectors[i], dtype=np.float32)) if i in vectors else None
                      for i in range(len(nodes))],
            },
        )  # fmt: skip
    stats.nodes_refreshed = len(written)
    stats.stale_writes = len(nodes) - len(written)
    return stats
