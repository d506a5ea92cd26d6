"""Synthetic forests for ``bench.query_latency``: facts, turns, cells, sessions, entity trees (fact
leaves) and session trees (cell leaves), bulk-loaded with COPY (the write pipeline is not the
subject there). Internal nodes get a time-interval summary and the normalised mean of their
children's embeddings. The large forests' own HNSW indexes are built afterwards by the product's
maintenance code (``memforest.pipeline.forest_indexes``), as ``memforest db index-forests`` would.
Each fact has its turn's speaker, as the write pipeline stores it: a temporal question naming someone
looks the name up among the forest's speakers (without them that lookup found an empty index and
cost nothing, where a real forest's took time growing with it: migration 0020, ADR 0029)."""

from __future__ import annotations

import random
import sys
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
import numpy.typing as npt
from sqlalchemy.ext.asyncio import AsyncConnection
from tqdm import tqdm

from memforest.backends.hashed import HashedEmbedder
from memforest.db.engine import Database
from memforest.errors import NotFoundError
from memforest.rules import entity_key
from memforest.store.sql import execute, scalar
from memforest.store.tenants import ensure_forest, ensure_tenant, get_forest

BASE = datetime(2022, 1, 1, tzinfo=UTC)
FANOUT = 8
NAMES = [
    "Avery", "Blake", "Casey", "Devon", "Emery", "Finley", "Gray", "Harper", "Indigo", "Jordan",
    "Kai", "Logan", "Morgan", "Noor", "Oakley", "Parker", "Quinn", "Reese", "Sage", "Taylor",
]  # fmt: skip
VERBS = ["visited", "bought", "painted", "cooked", "learned", "watched", "repaired", "planted", "wrote", "sold"]
THINGS = [
    "a red bicycle", "sourdough bread", "a jazz record", "the old lighthouse", "a pottery class",
    "a mountain cabin", "tomato seedlings", "a chess set", "a vintage camera", "a marathon plan",
    "a violin", "the city museum", "a blue kayak", "spicy noodles", "a poetry book", "a garden shed",
]  # fmt: skip
PLACES = ["in Lisbon", "at the market", "near the lake", "with friends", "downtown", "at home", "in Osaka"]

Vec = npt.NDArray[np.float32]


@dataclass(slots=True)
class Ids:
    """Explicit id allocation for bulk loads (sequences are moved past them afterwards)."""

    next: dict[str, int] = field(default_factory=dict)

    def take(self, table: str, n: int = 1) -> int:
        start = self.next[table]
        self.next[table] = start + n
        return start


@dataclass(slots=True)
class Rows:
    """Records for COPY, per table."""

    data: dict[str, list[tuple[Any, ...]]] = field(default_factory=dict)

    def add(self, table: str, row: tuple[Any, ...]) -> None:
        self.data.setdefault(table, []).append(row)


COLUMNS = {
    "sessions": ["tenant_id", "session_id", "forest_id", "external_id", "time", "content_hash", "n_turns"],
    "turns": ["tenant_id", "turn_id", "forest_id", "session_id", "seq", "external_id", "speaker", "text", "time"],
    "cells": ["tenant_id", "cell_id", "forest_id", "session_id", "seq", "turn_from", "turn_to", "text", "t_start",
              "t_end", "extracted_at"],
    "facts": ["tenant_id", "fact_id", "forest_id", "text", "text_hash", "kind", "entities", "speaker", "valid_from",
              "recorded_at", "embedding"],
    "fact_sources": ["tenant_id", "fact_id", "turn_id", "cell_id", "forest_id", "session_id"],
    "trees": ["tenant_id", "tree_id", "forest_id", "kind", "key", "label", "fanout", "root_node_id", "height",
              "n_leaves"],
    "nodes": ["tenant_id", "node_id", "forest_id", "tree_id", "level", "parent_id", "t_start", "t_end", "seq",
              "n_children", "summary", "dirty", "embedding", "leaf_fact_id", "leaf_cell_id"],
    "placements": ["tenant_id", "tree_id", "source_kind", "source_id", "forest_id", "node_id"],
}  # fmt: skip


def _fact_text(rng: random.Random, name: str) -> str:
    return f"{name} {rng.choice(VERBS)} {rng.choice(THINGS)} {rng.choice(PLACES)}"


def _unit(v: Vec) -> Vec:
    n = float(np.linalg.norm(v))
    return v / n if n > 1e-12 else v


def _build_tree(
    rows: Rows, ids: Ids, tenant_id: uuid.UUID, forest_id: int, kind: str, label: str,
    leaves: list[tuple[datetime, str, Vec, str, int]],
) -> None:  # fmt: skip
    """Bottom-up B+-tree over time-ordered leaves ``(time, text, vec, source_kind, source_id)``; an
    entity tree is keyed as the pipeline keys it (``rules.entity_key`` of its label)."""
    tree_id = ids.take("trees")
    n = len(leaves)
    # level 0
    level: list[tuple[int, datetime, datetime, str, Vec]] = []
    node_rows: list[list[Any]] = []
    for i, (t, text, vec, sk, sid) in enumerate(leaves):
        nid = ids.take("nodes")
        node_rows.append([tenant_id, nid, forest_id, tree_id, 0, None, t, t, i, 0, text, False, vec,
                          sid if sk == "fact" else None, sid if sk == "cell" else None])  # fmt: skip
        rows.add("placements", (tenant_id, tree_id, sk, sid, forest_id, nid))
        level.append((nid, t, t, text, vec))
    index = {r[1]: r for r in node_rows}
    depth = 0
    while len(level) > 1 or depth == 0:
        depth += 1
        parents: list[tuple[int, datetime, datetime, str, Vec]] = []
        for j in range(0, len(level), FANOUT):
            group = level[j : j + FANOUT]
            pid = ids.take("nodes")
            for child in group:
                index[child[0]][5] = pid
            t0, t1 = group[0][1], max(c[2] for c in group)
            summary = f"[{t0.date()} .. {t1.date()}] " + " ".join(c[3] for c in group)[:400]
            vec = _unit(np.mean([c[4] for c in group], axis=0).astype(np.float32))
            row = [tenant_id, pid, forest_id, tree_id, depth, None, t0, t1, j, len(group), summary, False, vec,
                   None, None]  # fmt: skip
            node_rows.append(row)
            index[pid] = row
            parents.append((pid, t0, t1, summary, vec))
        level = parents
    root = level[0][0]
    key = entity_key(label) if kind == "entity" else label
    rows.add("trees", (tenant_id, tree_id, forest_id, kind, key, label, FANOUT, root, depth, n))
    for r in node_rows:
        rows.add("nodes", tuple(r))


@dataclass(slots=True)
class EmbeddingMemo:
    """The hashed embedder with a memo: the many small forests repeat their texts (see :func:`load`)."""

    embedder: HashedEmbedder
    seen: dict[str, Any] = field(default_factory=dict)

    def embed(self, texts: list[str]) -> list[Any]:
        missing = list(dict.fromkeys(t for t in texts if t not in self.seen))
        if missing:
            self.seen.update(zip(missing, self.embedder.embed_sync(missing), strict=True))
        return [self.seen[t] for t in texts]


def synth_forest(
    rows: Rows, ids: Ids, tenant_id: uuid.UUID, forest_id: int, n_facts: int, rng: random.Random, emb: EmbeddingMemo
) -> None:
    """Sessions of 20 turns, cells of 2 turns, one fact per turn; entity and session trees."""
    names = NAMES[: max(2, min(len(NAMES), n_facts // 50))]
    texts = [_fact_text(rng, rng.choice(names)) for _ in range(n_facts)]
    vecs = emb.embed(texts)
    by_name: dict[str, list[tuple[datetime, str, Vec, str, int]]] = {}
    now = datetime.now(UTC)
    for s0 in range(0, n_facts, 20):
        sid = ids.take("sessions")
        s_time = BASE + timedelta(hours=s0)
        chunk = list(range(s0, min(n_facts, s0 + 20)))
        rows.add("sessions", (tenant_id, sid, forest_id, f"S{s0 // 20 + 1}", s_time, f"h{sid}", len(chunk)))
        cell_leaves: list[tuple[datetime, str, Vec, str, int]] = []
        groups = [chunk[c0 : c0 + 2] for c0 in range(0, len(chunk), 2)]
        ctexts = ["\n".join(f"{texts[i].split()[0]}: {texts[i]}" for i in members) for members in groups]
        cvecs = emb.embed(ctexts)
        for g, members in enumerate(groups):
            c0 = 2 * g
            cid = ids.take("cells")
            t = s_time + timedelta(minutes=c0)
            ctext = ctexts[g]
            rows.add("cells", (tenant_id, cid, forest_id, sid, g, c0, c0 + len(members) - 1, ctext, t, t, now))
            cell_leaves.append((t, ctext, cvecs[g], "cell", cid))
            for k, i in enumerate(members):
                tid = ids.take("turns")
                seq = c0 + k
                name = texts[i].split()[0]
                rows.add("turns", (tenant_id, tid, forest_id, sid, seq, f"D{s0 // 20 + 1}:{seq + 1}", name,
                                   texts[i], t))  # fmt: skip
                fid = ids.take("facts")
                rows.add("facts", (tenant_id, fid, forest_id, texts[i], f"{forest_id}-{fid}", "event", [name], name,
                                   t, now, vecs[i]))  # fmt: skip
                rows.add("fact_sources", (tenant_id, fid, tid, cid, forest_id, sid))
                by_name.setdefault(name, []).append((t, texts[i], vecs[i], "fact", fid))
        _build_tree(rows, ids, tenant_id, forest_id, "session", f"S{s0 // 20 + 1}", cell_leaves)
    for name, leaves in by_name.items():
        _build_tree(rows, ids, tenant_id, forest_id, "entity", name, leaves)


async def _raw(conn: AsyncConnection) -> Any:
    raw = await conn.get_raw_connection()
    return raw.driver_connection


async def copy_rows(conn: AsyncConnection, rows: Rows) -> None:
    """COPY every table in dependency order."""
    pg = await _raw(conn)
    for table in ("sessions", "turns", "cells", "facts", "fact_sources", "trees", "nodes", "placements"):
        records = rows.data.get(table, [])
        if records:
            await pg.copy_records_to_table(table, records=records, columns=COLUMNS[table])


async def load(
    db: Database, dim: int, plan: list[tuple[str, int, int]], seed: int, *, progress: bool = True
) -> dict[str, tuple[uuid.UUID, int, str]]:
    """Create and fill the forests of ``plan`` ``(forest name, n_facts, n_forests)``, then VACUUM
    (ANALYZE) the database.

    The forests of a many-forest scenario are copies of one synthetic forest (same texts and vectors,
    their own ids): the other forests are there for their volume, and synthesising a million facts
    one by one would take most of the benchmark's time."""
    rng = random.Random(seed)
    tenant_id = await ensure_tenant(db, "latency-bench")
    searched: dict[str, tuple[uuid.UUID, int, str]] = {}
    async with db.system() as conn:
        ids = Ids()
        for table, col in (("sessions", "session_id"), ("turns", "turn_id"), ("cells", "cell_id"),
                           ("facts", "fact_id"), ("trees", "tree_id"), ("nodes", "node_id")):  # fmt: skip
            ids.next[table] = int(await scalar(conn, f"SELECT coalesce(max({col}), 0) + 1 FROM {table}"))
        total = sum(n * k for _, n, k in plan)
        bar = tqdm(total=total, desc="synthesise+copy facts", unit="fact", file=sys.stderr, disable=not progress)
        for name, n_facts, n_forests in plan:
            memo = EmbeddingMemo(HashedEmbedder(dim))
            for j in range(n_forests):
                fname = name if n_forests == 1 else f"{name}-{j:04d}"
                forest = await ensure_forest(conn, tenant_id, fname)
                rows = Rows()
                forest_rng = rng if n_forests == 1 else random.Random(f"{seed}:{name}")
                synth_forest(rows, ids, tenant_id, forest.forest_id, n_facts, forest_rng, memo)
                await copy_rows(conn, rows)
                bar.update(n_facts)
                if j == n_forests // 2:
                    searched[name] = (tenant_id, forest.forest_id, fname)
        bar.close()
        for table, col in (("sessions", "session_id"), ("turns", "turn_id"), ("cells", "cell_id"),
                           ("facts", "fact_id"), ("trees", "tree_id"), ("nodes", "node_id")):  # fmt: skip
            await execute(conn, f"SELECT setval(pg_get_serial_sequence('{table}', '{col}'), {ids.next[table]})")
    async with db.engine.connect() as c:
        ac = await c.execution_options(isolation_level="AUTOCOMMIT")
        # VACUUM too, not only ANALYZE: the pages of a bulk load get their visibility map and hint
        # bits now, as a database that has been serving for a while has them, instead of from
        # autovacuum workers that otherwise vacuumed ``nodes`` on these two cores while the
        # scenarios were being timed (ADR 0022, session 22)
        await execute(ac, "VACUUM (ANALYZE)")
    return searched


async def find_loaded(db: Database, plan: list[tuple[str, int, int]]) -> dict[str, tuple[uuid.UUID, int, str]] | None:
    """The searched forests of ``plan`` when an earlier run loaded them into this database, else None."""
    tenant_id = await ensure_tenant(db, "latency-bench")
    out: dict[str, tuple[uuid.UUID, int, str]] = {}
    async with db.tenant(tenant_id) as conn:
        for name, _n_facts, n_forests in plan:
            fname = name if n_forests == 1 else f"{name}-{n_forests // 2:04d}"
            try:
                forest = await get_forest(conn, tenant_id, fname)
            except NotFoundError:
                return None
            out[name] = (tenant_id, forest.forest_id, fname)
    return out


def questions(n: int, seed: int) -> list[str]:
    """Synthetic questions in the vocabulary of the facts."""
    rng = random.Random(seed + 1)
    forms = ["What did {n} buy {p}?", "When did {n} visit {t}?", "Who {v} {t}?", "What did {n} do {p}?"]
    return [
        rng.choice(forms).format(
            n=rng.choice(NAMES[:10]), p=rng.choice(PLACES), t=rng.choice(THINGS), v=rng.choice(VERBS)
        )
        for _ in range(n)
    ]
