"""Merge forest A into forest B without replaying extraction (DESIGN.md section 4, ADR 0008).

One transaction under the forest locks of A and B (taken in a fixed order, so A->B and B->A cannot
deadlock) does all structural work set-based:

1. **Snapshot A** under A's tenant context: A's rows are copied into session-private temporary
   tables (``ON COMMIT DROP``). Across tenants the transaction then switches the RLS tenant setting
   to B (``set_config('memforest.tenant_id', ...)``, transaction-local): A's rows are read only as A,
   B's rows are written only as B, and row-level security checks both phases.
2. **Sessions, turns, cells** are copied with new ids (``nextval`` id maps in temp tables). A session
   B already holds with the same external id (or its namespaced form), content hash and cell spans is
   the same conversation: it is shared, not copied, so merging A into B twice changes nothing more.
   Another session whose external id is taken in B is renamed ``<A name>/<id>``; its metadata keeps
   ``merged_from`` (forest and original id).
3. **Facts** are reconciled like ``canonicalize`` does: an exact ``text_hash`` match, else a near
   duplicate (the nearest live fact of B with the same speaker, on the same day or both state-like,
   at cosine >= ``near_duplicate_threshold``) maps A's fact onto B's, which only gains A's sources.
   Other facts are copied with their embeddings; supersession links are remapped and the slot
   timelines touched by the new facts are re-threaded (neighbours with different values are linked,
   as ``_supersede`` does).
4. **Scopes** are unioned: entities by normalised key (links unioned, counts recounted); a scene
   cluster of A joins the cluster of B that routing would pick for it (centroid cosine + topic
   overlap >= ``scene_assign_threshold``) or is copied. As in canonicalisation, a fact that merged
   into one of B's adds sources only, never a second leaf: its A-side scope links are not carried
   over (every fact stays in exactly one scene tree).
5. **Trees**: an A tree whose (kind, key) exists in B gets A's leaves through the normal
   ``insert_leaf`` (placements make a leaf that is already there a no-op); other trees are copied as
   they are (nodes, summaries, embeddings, placements; ids remapped), and the leaves of merged facts
   are then removed with ``store.tree_delete.remove_leaf``. Entities that now qualify get their tree
   and backfill, as routing would do.

The refresh then runs outside the transaction and touches only the dirty paths. No model is asked to
extract anything; refresh summaries and embeddings are the only model work.
"""

from __future__ import annotations

import inspect
import json
import time
import uuid
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection

from memforest.backends.base import UsageLedger
from memforest.backends.factory import Backends
from memforest.db.engine import Database
from memforest.domain import TreeKind
from memforest.errors import InputError, MemForestError, NotFoundError
from memforest.pipeline.canonical import STATE_KINDS
from memforest.pipeline.jobs import Job, update_progress
from memforest.pipeline.refresh import refresh_forest
from memforest.pipeline.route import TOPIC_WEIGHT
from memforest.settings import Settings
from memforest.store.sql import as_vector, execute, fetch_all, lock_forest, scalar
from memforest.store.tenants import get_forest
from memforest.store.tree_delete import DeleteStats, remove_leaf
from memforest.store.trees import InsertStats, LeafSpec, TreeRef, get_or_create_tree, insert_leaf, load_tree

__all__ = ["STAGES", "MergeReport", "Progress", "merge_forests", "notify", "run_merge_job"]

Progress = Callable[[str, int, int], Awaitable[None] | None]
"""``progress(stage, done, total)``; may be a coroutine function (the job writes progress rows)."""

STAGES = ("snapshot", "sessions", "facts", "scopes", "trees", "leaves", "refresh")

# Columns of A's snapshot, per table (generated columns and tenant/forest ids left out).
SNAPSHOT: dict[str, str] = {
    "sessions": "session_id, external_id, time, content_hash, metadata, n_turns, created_at",
    "turns": "turn_id, session_id, seq, external_id, speaker, role, text, time",
    "cells": "cell_id, session_id, seq, turn_from, turn_to, text, t_start, t_end, extracted_at, extract_attempts, "
    "extract_error",
    "facts": "fact_id, text, text_hash, kind, entities, topics, speaker, subject, attribute, value, time_text, "
    "valid_from, valid_to, recorded_at, retracted_at, supersedes, superseded_by, source_count, embedding",
    "fact_sources": "fact_id, turn_id, cell_id, session_id, created_at",
    "entities": "entity_id, key, label, is_speaker, fact_count, session_count, activated, first_time, last_time",
    "entity_facts": "entity_id, fact_id, session_id",
    "scene_clusters": "cluster_id, centroid, member_count, topic_counts, last_time, merged_into",
    "trees": "tree_id, kind, key, label, fanout, root_node_id, height, n_leaves, created_at",
    "nodes": "node_id, tree_id, level, parent_id, t_start, t_end, seq, n_children, summary, summary_hash, version, "
    "dirty, embedding, embedded_hash, leaf_fact_id, leaf_cell_id",
    "placements": "tree_id, source_kind, source_id, node_id",
}


@dataclass(slots=True)
class MergeReport:
    """What a merge did (counts of A's rows and what became of them in B)."""

    src_forest: str = ""
    dst_forest: str = ""
    cross_tenant: bool = False
    sessions_copied: int = 0
    sessions_renamed: int = 0
    sessions_shared: int = 0
    turns: int = 0
    cells: int = 0
    facts_new: int = 0
    facts_exact: int = 0
    facts_near: int = 0
    sources_added: int = 0
    supersession_links: int = 0
    entities_new: int = 0
    entities_matched: int = 0
    entities_activated: int = 0
    entity_links: int = 0
    clusters_new: int = 0
    clusters_matched: int = 0
    trees_matched: int = 0
    trees_copied: int = 0
    trees_rebuilt: int = 0
    trees_created: int = 0
    nodes_copied: int = 0
    leaves_removed: int = 0
    leaves_inserted: int = 0
    splits: int = 0
    nodes_refreshed: int = 0
    summaries_changed: int = 0
    embedded: int = 0
    model_calls: dict[str, int] = field(default_factory=dict)
    stage_wall_s: dict[str, float] = field(default_factory=dict)
    wall_s: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON (job results, ``--json``)."""
        out: dict[str, Any] = {}
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            if name == "stage_wall_s":
                value = {k: round(v, 4) for k, v in value.items()}
            elif name == "wall_s":
                value = round(value, 4)
            elif isinstance(value, dict):
                value = dict(sorted(value.items()))
            out[name] = value
        return out


async def notify(progress: Progress | None, stage: str, done: int, total: int) -> None:
    """Call ``progress`` (sync or async) when given."""
    if progress is None:
        return
    result = progress(stage, done, total)
    if inspect.isawaitable(result):
        await result


async def _set_tenant(conn: AsyncConnection, tenant_id: uuid.UUID) -> None:
    """Switch the transaction's RLS tenant (transaction-local, like ``Database.tenant`` sets it)."""
    await conn.execute(text("SELECT set_config('memforest.tenant_id', :t, true)"), {"t": str(tenant_id)})


async def _forest_name(conn: AsyncConnection, tenant_id: uuid.UUID, forest_id: int, what: str) -> str:
    name = await scalar(
        conn, "SELECT name FROM forests WHERE tenant_id = :t AND forest_id = :f", {"t": tenant_id, "f": forest_id}
    )
    if name is None:
        raise NotFoundError(f"{what} forest {forest_id} does not exist")
    return str(name)


async def _sequence(conn: AsyncConnection, table: str, column: str) -> str:
    return str(await scalar(conn, f"SELECT pg_get_serial_sequence('{table}', '{column}')"))


# ---------------------------------------------------------------- 1. snapshot of A


async def _snapshot(conn: AsyncConnection, tenant_id: uuid.UUID, forest_id: int) -> dict[str, int]:
    """Copy A's rows into ``mm_<table>`` temp tables (the caller has set A's tenant context)."""
    counts: dict[str, int] = {}
    p = {"t": tenant_id, "f": forest_id}
    for table, cols in SNAPSHOT.items():
        await execute(conn, f"CREATE TEMP TABLE mm_{table} ON COMMIT DROP AS SELECT {cols} FROM {table} WITH NO DATA")
        counts[table] = await execute(
            conn, f"INSERT INTO mm_{table} SELECT {cols} FROM {table} WHERE tenant_id = :t AND forest_id = :f", p
        )
    for table, key in (("sessions", "session_id"), ("turns", "turn_id"), ("cells", "cell_id"), ("facts", "fact_id"),
                       ("entities", "entity_id"), ("scene_clusters", "cluster_id"), ("trees", "tree_id"),
                       ("nodes", "node_id")):  # fmt: skip
        await execute(conn, f"ALTER TABLE mm_{table} ADD PRIMARY KEY ({key})")
    for table in SNAPSHOT:
        await execute(conn, f"ANALYZE mm_{table}")
    return counts


async def _map_table(conn: AsyncConnection, name: str, extra: str = "") -> None:
    await execute(conn, f"CREATE TEMP TABLE {name} (old bigint PRIMARY KEY, new bigint NOT NULL{extra}) ON COMMIT DROP")


# ---------------------------------------------------------------- 2. sessions, turns, cells


_CELL_SPANS_A = "(SELECT string_agg(c.turn_from || '-' || c.turn_to, ',' ORDER BY c.seq) FROM mm_cells c " \
    "WHERE c.session_id = s.session_id)"  # fmt: skip
_CELL_SPANS_B = "(SELECT string_agg(c.turn_from || '-' || c.turn_to, ',' ORDER BY c.seq) FROM cells c " \
    "WHERE c.tenant_id = :t AND c.session_id = b.session_id)"  # fmt: skip


async def _sessions(conn: AsyncConnection, t: uuid.UUID, f: int, src_name: str, report: MergeReport) -> None:
    p: dict[str, Any] = {"t": t, "f": f, "an": src_name}
    await _map_table(conn, "mm_session_map", ", external_id text NOT NULL, shared boolean NOT NULL")
    report.sessions_shared = await execute(
        conn,
        "INSERT INTO mm_session_map (old, new, external_id, shared) SELECT DISTINCT ON (s.session_id) s.session_id, "
        "b.session_id, b.external_id, true FROM mm_sessions s JOIN sessions b ON b.tenant_id = :t "
        "AND b.forest_id = :f AND b.external_id IN (s.external_id, CAST(:an AS text) || '/' || s.external_id) "
        f"AND b.content_hash = s.content_hash WHERE {_CELL_SPANS_A} IS NOT DISTINCT FROM {_CELL_SPANS_B} "
        "ORDER BY s.session_id, b.external_id = s.external_id DESC",
        p,
    )
    p["seq"] = await _sequence(conn, "sessions", "session_id")
    taken = "EXISTS (SELECT 1 FROM sessions b WHERE b.tenant_id = :t AND b.forest_id = :f AND b.external_id = {x})"
    alt = "CAST(:an AS text) || '/' || s.external_id"
    await execute(
        conn,
        "INSERT INTO mm_session_map (old, new, external_id, shared) "
        "SELECT x.session_id, nextval(CAST(:seq AS regclass)), CASE WHEN NOT x.taken THEN x.external_id "
        "WHEN NOT x.alt_taken THEN x.alt ELSE x.alt || '#' || x.session_id END, false FROM ("
        f"SELECT s.session_id, s.external_id, {alt} AS alt, {taken.format(x='s.external_id')} AS taken, "
        f"({taken.format(x=alt)} OR EXISTS (SELECT 1 FROM mm_sessions o WHERE o.external_id = {alt})) AS alt_taken "
        "FROM mm_sessions s WHERE NOT EXISTS (SELECT 1 FROM mm_session_map m WHERE m.old = s.session_id) "
        "ORDER BY s.session_id) x",
        p,
    )
    report.sessions_copied = await execute(
        conn,
        "INSERT INTO sessions (tenant_id, session_id, forest_id, external_id, time, content_hash, metadata, n_turns, "
        "created_at) SELECT :t, m.new, :f, m.external_id, s.time, s.content_hash, CASE WHEN s.metadata ? 'merged_from' "
        "THEN s.metadata ELSE s.metadata || jsonb_build_object('merged_from', jsonb_build_object('forest', "
        "CAST(:an AS text), 'session_id', s.external_id)) END, s.n_turns, s.created_at "
        "FROM mm_sessions s JOIN mm_session_map m ON m.old = s.session_id WHERE NOT m.shared",
        p,
    )
    report.sessions_renamed = int(
        await scalar(
            conn,
            "SELECT count(*) FROM mm_sessions s JOIN mm_session_map m ON m.old = s.session_id "
            "WHERE NOT m.shared AND m.external_id <> s.external_id",
        )
    )
    for table, key, cols, values in (
        ("turns", "turn_id", "seq, external_id, speaker, role, text, time",
         "x.seq, x.external_id, x.speaker, x.role, x.text, x.time"),
        ("cells", "cell_id", "seq, turn_from, turn_to, text, t_start, t_end, extracted_at, extract_attempts, "
         "extract_error", "x.seq, x.turn_from, x.turn_to, x.text, x.t_start, x.t_end, x.extracted_at, "
         "x.extract_attempts, x.extract_error"),
    ):  # fmt: skip
        singular = table[:-1]
        await _map_table(conn, f"mm_{singular}_map")
        # Rows of shared sessions are B's rows at the same position.
        await execute(
            conn,
            f"INSERT INTO mm_{singular}_map SELECT x.{key}, b.{key} FROM mm_{table} x JOIN mm_session_map m "
            f"ON m.old = x.session_id AND m.shared JOIN {table} b ON b.tenant_id = :t AND b.session_id = m.new "
            "AND b.seq = x.seq",
            p,
        )
        p["seq"] = await _sequence(conn, table, key)
        await execute(
            conn,
            f"INSERT INTO mm_{singular}_map SELECT k, nextval(CAST(:seq AS regclass)) FROM (SELECT x.{key} AS k "
            f"FROM mm_{table} x WHERE NOT EXISTS (SELECT 1 FROM mm_{singular}_map m WHERE m.old = x.{key}) "
            f"ORDER BY x.{key}) y",
            p,
        )
        copied = await execute(
            conn,
            f"INSERT INTO {table} (tenant_id, {key}, forest_id, session_id, {cols}) SELECT :t, r.new, :f, m.new, "
            f"{values} FROM mm_{table} x JOIN mm_session_map m ON m.old = x.session_id AND NOT m.shared "
            f"JOIN mm_{singular}_map r ON r.old = x.{key}",
            p,
        )
        setattr(report, table, copied)


# ---------------------------------------------------------------- 3. facts


# The nearest live fact of B that could be the same statement (same speaker; same day, or both
# state-like) and is similar enough. Canonicalisation takes the first such fact among the 3 nearest;
# filtering first finds the same facts and more, and lets the speaker filter prune the scan.
_NEAR_SQL = """
INSERT INTO mm_fact_map (old, new, how)
SELECT a.fact_id, n.fact_id, 'near'
FROM mm_facts a CROSS JOIN LATERAL (
    SELECT b.fact_id, b.embedding <=> a.embedding AS d FROM {source}
    {where} b.speaker IS NOT DISTINCT FROM a.speaker
      AND (abs(extract(epoch FROM b.valid_from - a.valid_from)) <= 86400
           OR (b.kind = ANY(:sk) AND a.kind = ANY(:sk)))
    ORDER BY b.embedding <=> a.embedding LIMIT 1
) n
WHERE a.retracted_at IS NULL AND a.embedding IS NOT NULL AND vector_norm(a.embedding) > 0
  AND NOT EXISTS (SELECT 1 FROM mm_fact_map m WHERE m.old = a.fact_id)
  AND 1 - n.d >= :thr
"""

_B_FACTS = (
    "tenant_id = :t AND forest_id = :f AND retracted_at IS NULL AND embedding IS NOT NULL "
    "AND vector_norm(embedding) > 0"
)


async def _facts(conn: AsyncConnection, t: uuid.UUID, f: int, settings: Settings, report: MergeReport) -> None:
    p: dict[str, Any] = {"t": t, "f": f}
    await _map_table(conn, "mm_fact_map", ", how text NOT NULL")
    report.facts_exact = await execute(
        conn,
        "INSERT INTO mm_fact_map (old, new, how) SELECT a.fact_id, b.fact_id, 'exact' FROM mm_facts a JOIN facts b "
        "ON b.tenant_id = :t AND b.forest_id = :f AND b.text_hash = a.text_hash",
        p,
    )
    n_b = int(
        await scalar(
            conn,
            f"SELECT count(*) FROM (SELECT 1 FROM facts WHERE {_B_FACTS} LIMIT :cap) x",
            {**p, "cap": settings.retrieval.exact_scan_max_rows + 1},
        )
    )
    near = {**p, "thr": settings.pipeline.near_duplicate_threshold, "sk": sorted(STATE_KINDS)}
    if n_b == 0:
        report.facts_near = 0
    elif n_b <= settings.retrieval.exact_scan_max_rows:  # exact: B's facts materialised once, scanned per A fact
        report.facts_near = await execute(
            conn,
            f"WITH bf AS MATERIALIZED (SELECT fact_id, kind, speaker, valid_from, embedding FROM facts "
            f"WHERE {_B_FACTS}) " + _NEAR_SQL.format(source="bf b", where="WHERE"),
            near,
        )
    else:  # large B: the HNSW index with iterative scans, as the read path does (ADR 0005)
        await execute(conn, "SET LOCAL hnsw.iterative_scan = relaxed_order")
        await execute(conn, f"SET LOCAL hnsw.ef_search = {int(settings.retrieval.hnsw_ef_search)}")
        source = "facts b WHERE b.tenant_id = :t AND b.forest_id = :f AND b.retracted_at IS NULL"
        report.facts_near = await execute(conn, _NEAR_SQL.format(source=source, where="AND"), near)
    p["seq"] = await _sequence(conn, "facts", "fact_id")
    await execute(
        conn,
        "INSERT INTO mm_fact_map (old, new, how) SELECT k, nextval(CAST(:seq AS regclass)), 'new' FROM "
        "(SELECT a.fact_id AS k FROM mm_facts a WHERE NOT EXISTS (SELECT 1 FROM mm_fact_map m WHERE m.old = a.fact_id) "
        "ORDER BY a.fact_id) y",
        p,
    )
    report.facts_new = await execute(
        conn,
        "INSERT INTO facts (tenant_id, fact_id, forest_id, text, text_hash, kind, entities, topics, speaker, subject, "
        "attribute, value, time_text, valid_from, valid_to, recorded_at, retracted_at, source_count, embedding) "
        "SELECT :t, m.new, :f, a.text, a.text_hash, a.kind, a.entities, a.topics, a.speaker, a.subject, a.attribute, "
        "a.value, a.time_text, a.valid_from, a.valid_to, a.recorded_at, a.retracted_at, 0, a.embedding "
        "FROM mm_facts a JOIN mm_fact_map m ON m.old = a.fact_id AND m.how = 'new'",
        p,
    )
    # A's own supersession links, remapped (a link to a fact that merged into B's points at B's fact).
    for col in ("supersedes", "superseded_by"):
        await execute(
            conn,
            f"UPDATE facts x SET {col} = l.new FROM mm_facts a JOIN mm_fact_map m ON m.old = a.fact_id "
            f"AND m.how = 'new' JOIN mm_fact_map l ON l.old = a.{col} WHERE x.tenant_id = :t AND x.fact_id = m.new "
            "AND l.new <> m.new",
            p,
        )
    # A merged fact was known to B from the earlier of the two times.
    await execute(
        conn,
        "UPDATE facts x SET recorded_at = a.recorded_at FROM mm_facts a JOIN mm_fact_map m ON m.old = a.fact_id "
        "AND m.how <> 'new' WHERE x.tenant_id = :t AND x.fact_id = m.new AND a.recorded_at < x.recorded_at",
        p,
    )
    report.supersession_links = await _rethread(conn, p)
    report.sources_added = int(
        await scalar(
            conn,
            "WITH ins AS (INSERT INTO fact_sources (tenant_id, fact_id, turn_id, cell_id, forest_id, session_id, "
            "created_at) SELECT :t, fm.new, tm.new, cm.new, :f, sm.new, s.created_at FROM mm_fact_sources s "
            "JOIN mm_fact_map fm ON fm.old = s.fact_id JOIN mm_turn_map tm ON tm.old = s.turn_id "
            "JOIN mm_cell_map cm ON cm.old = s.cell_id JOIN mm_session_map sm ON sm.old = s.session_id "
            "ON CONFLICT DO NOTHING RETURNING fact_id), "
            "upd AS (UPDATE facts x SET source_count = x.source_count + c.n FROM (SELECT fact_id, count(*) AS n "
            "FROM ins GROUP BY fact_id) c WHERE x.tenant_id = :t AND x.fact_id = c.fact_id RETURNING 1) "
            "SELECT count(*) FROM ins",
            p,
        )
    )


_RETHREAD_SQL = """
INSERT INTO mm_links (p, n, nvf)
SELECT p, n, nvf FROM (
    SELECT fact_id AS p, lead(fact_id) OVER w AS n, v AS pv, lead(v) OVER w AS nv,
           is_new AS pnew, lead(is_new) OVER w AS nnew, lead(valid_from) OVER w AS nvf
    FROM (
        SELECT x.fact_id, x.subject, x.attribute, lower(x.value) AS v, x.valid_from, nm.new IS NOT NULL AS is_new
        FROM facts x LEFT JOIN (SELECT new FROM mm_fact_map WHERE how = 'new') nm ON nm.new = x.fact_id
        WHERE x.tenant_id = :t AND x.forest_id = :f AND x.retracted_at IS NULL AND x.value IS NOT NULL
          AND (x.subject, x.attribute) IN (
              SELECT y.subject, y.attribute FROM facts y JOIN mm_fact_map m ON m.new = y.fact_id AND m.how = 'new'
              WHERE y.tenant_id = :t AND y.subject IS NOT NULL AND y.attribute IS NOT NULL AND y.value IS NOT NULL)
    ) s
    WINDOW w AS (PARTITION BY subject, attribute ORDER BY valid_from, fact_id)
) z
WHERE n IS NOT NULL AND pv <> nv AND (pnew OR nnew)
"""


async def _rethread(conn: AsyncConnection, p: dict[str, Any]) -> int:
    """Link neighbours with different values in every (subject, attribute) timeline that gained a new
    fact: the earlier one ends where the later starts and points to it (nothing is deleted)."""
    await execute(conn, "CREATE TEMP TABLE mm_links (p bigint, n bigint, nvf timestamptz) ON COMMIT DROP")
    links = await execute(conn, _RETHREAD_SQL, p)
    if links:
        await execute(
            conn,
            "UPDATE facts x SET superseded_by = l.n, valid_to = CASE WHEN x.valid_to IS NULL OR x.valid_to > l.nvf "
            "THEN l.nvf ELSE x.valid_to END FROM mm_links l WHERE x.tenant_id = :t AND x.fact_id = l.p",
            p,
        )
        await execute(
            conn, "UPDATE facts x SET supersedes = l.p FROM mm_links l WHERE x.tenant_id = :t AND x.fact_id = l.n", p
        )
    return links


# ---------------------------------------------------------------- 4. scopes


async def _entities(conn: AsyncConnection, t: uuid.UUID, f: int, report: MergeReport) -> None:
    p: dict[str, Any] = {"t": t, "f": f}
    await _map_table(conn, "mm_entity_map", ", matched boolean NOT NULL")
    report.entities_matched = await execute(
        conn,
        "INSERT INTO mm_entity_map SELECT a.entity_id, b.entity_id, true FROM mm_entities a JOIN entities b "
        "ON b.tenant_id = :t AND b.forest_id = :f AND b.key = a.key",
        p,
    )
    p["seq"] = await _sequence(conn, "entities", "entity_id")
    await execute(
        conn,
        "INSERT INTO mm_entity_map SELECT k, nextval(CAST(:seq AS regclass)), false FROM (SELECT a.entity_id AS k "
        "FROM mm_entities a WHERE NOT EXISTS (SELECT 1 FROM mm_entity_map m WHERE m.old = a.entity_id) "
        "ORDER BY a.entity_id) y",
        p,
    )
    report.entities_new = await execute(
        conn,
        "INSERT INTO entities (tenant_id, entity_id, forest_id, key, label, is_speaker, fact_count, session_count, "
        "activated, first_time, last_time) SELECT :t, m.new, :f, a.key, a.label, a.is_speaker, a.fact_count, "
        "a.session_count, false, a.first_time, a.last_time FROM mm_entities a JOIN mm_entity_map m "
        "ON m.old = a.entity_id AND NOT m.matched",
        p,
    )
    await execute(
        conn,
        "UPDATE entities e SET is_speaker = e.is_speaker OR a.is_speaker, "
        "first_time = LEAST(e.first_time, a.first_time), last_time = GREATEST(e.last_time, a.last_time) "
        "FROM mm_entities a JOIN mm_entity_map m ON m.old = a.entity_id AND m.matched "
        "WHERE e.tenant_id = :t AND e.entity_id = m.new",
        p,
    )
    report.entity_links = await execute(
        conn,
        "INSERT INTO entity_facts (tenant_id, entity_id, fact_id, forest_id, session_id) "
        "SELECT :t, em.new, fm.new, :f, sm.new FROM mm_entity_facts x JOIN mm_entity_map em ON em.old = x.entity_id "
        "JOIN mm_fact_map fm ON fm.old = x.fact_id AND fm.how = 'new' JOIN mm_session_map sm "
        "ON sm.old = x.session_id ON CONFLICT DO NOTHING",
        p,
    )
    # Counts as routing keeps them: one per linked fact, one per session seen.
    await execute(
        conn,
        "UPDATE entities e SET fact_count = c.n, session_count = c.s FROM (SELECT m.new AS entity_id, "
        "count(ef.fact_id) AS n, count(DISTINCT ef.session_id) AS s FROM mm_entity_map m LEFT JOIN entity_facts ef "
        "ON ef.tenant_id = :t AND ef.entity_id = m.new GROUP BY m.new) c "
        "WHERE e.tenant_id = :t AND e.entity_id = c.entity_id",
        p,
    )


def _top_topics(counts: dict[str, Any]) -> set[str]:
    return {k for k, _ in sorted(counts.items(), key=lambda kv: (-int(kv[1]), kv[0]))[:8]}


async def _match_clusters(conn: AsyncConnection, t: uuid.UUID, f: int, settings: Settings) -> list[dict[str, int]]:
    """Each A cluster that keeps members goes where routing would send a fact like it: among B's 5
    nearest live clusters by centroid, the best by cosine + ``TOPIC_WEIGHT`` * topic overlap, when that
    reaches ``scene_assign_threshold``; else it stays its own cluster."""
    a_rows = await fetch_all(
        conn,
        "SELECT a.cluster_id, a.centroid, a.topic_counts, cn.n FROM mm_scene_clusters a JOIN mm_cluster_new cn "
        "ON cn.cluster_id = a.cluster_id ORDER BY a.cluster_id",
    )
    b_rows = await fetch_all(
        conn,
        "SELECT cluster_id, centroid, topic_counts FROM scene_clusters WHERE tenant_id = :t AND forest_id = :f "
        "AND merged_into IS NULL ORDER BY cluster_id",
        {"t": t, "f": f},
    )
    if not a_rows or not b_rows:
        return []

    def unit(rows: list[dict[str, Any]]) -> np.ndarray[Any, Any]:
        m = np.stack([as_vector(r["centroid"]) for r in rows])
        norms = np.linalg.norm(m, axis=1, keepdims=True)
        out: np.ndarray[Any, Any] = np.divide(m, norms, out=np.zeros_like(m), where=norms > 0)
        return out

    sims = unit(a_rows) @ unit(b_rows).T
    b_topics = [_top_topics(dict(r["topic_counts"] or {})) for r in b_rows]
    out = []
    for i, a in enumerate(a_rows):
        if not np.any(sims[i]):
            continue
        topics = _top_topics(dict(a["topic_counts"] or {}))
        best, best_score = -1, -1.0
        for j in np.argsort(-sims[i], kind="stable")[:5]:
            union = topics | b_topics[j]
            score = float(sims[i, j]) + TOPIC_WEIGHT * (len(topics & b_topics[j]) / len(union) if union else 0.0)
            if score > best_score:
                best, best_score = int(j), score
        if best >= 0 and best_score >= settings.pipeline.scene_assign_threshold:
            out.append({"old": int(a["cluster_id"]), "new": int(b_rows[best]["cluster_id"]), "n": int(a["n"])})
    return out


async def _clusters(conn: AsyncConnection, t: uuid.UUID, f: int, settings: Settings, report: MergeReport) -> None:
    """A's scene clusters that keep members (facts copied as new) join B's cluster that routing would
    choose for them, else they are copied; member counts add A's new members."""
    p: dict[str, Any] = {"t": t, "f": f, "thr": settings.pipeline.scene_merge_threshold}
    await execute(
        conn,
        "CREATE TEMP TABLE mm_cluster_new ON COMMIT DROP AS SELECT c.cluster_id, (SELECT count(*) FROM mm_trees x "
        "JOIN mm_nodes n ON n.tree_id = x.tree_id AND n.level = 0 JOIN mm_fact_map m ON m.old = n.leaf_fact_id "
        "AND m.how = 'new' WHERE x.kind = 'scene' AND x.key = CAST(c.cluster_id AS text)) AS n "
        "FROM mm_scene_clusters c WHERE c.merged_into IS NULL",
    )
    await execute(conn, "DELETE FROM mm_cluster_new WHERE n = 0")
    await _map_table(conn, "mm_cluster_map", ", matched boolean NOT NULL, members bigint NOT NULL")
    matches = await _match_clusters(conn, t, f, settings)
    if matches:
        await conn.execute(
            text("INSERT INTO mm_cluster_map (old, new, matched, members) VALUES (:old, :new, true, :n)"), matches
        )
    report.clusters_matched = len(matches)
    p["seq"] = await _sequence(conn, "scene_clusters", "cluster_id")
    await execute(
        conn,
        "INSERT INTO mm_cluster_map SELECT k, nextval(CAST(:seq AS regclass)), false, n FROM (SELECT cn.cluster_id "
        "AS k, cn.n FROM mm_cluster_new cn WHERE NOT EXISTS (SELECT 1 FROM mm_cluster_map m "
        "WHERE m.old = cn.cluster_id) ORDER BY cn.cluster_id) y",
        p,
    )
    report.clusters_new = await execute(
        conn,
        "INSERT INTO scene_clusters (tenant_id, cluster_id, forest_id, centroid, member_count, topic_counts, "
        "last_time) SELECT :t, m.new, :f, a.centroid, m.members, a.topic_counts, a.last_time FROM mm_scene_clusters a "
        "JOIN mm_cluster_map m ON m.old = a.cluster_id AND NOT m.matched",
        p,
    )
    if not report.clusters_matched:
        return
    # Matched clusters: member-weighted centroid, summed counts and topic counts (few rows: numpy).
    pairs = await fetch_all(
        conn,
        "SELECT m.new, m.members, a.centroid, a.topic_counts, a.last_time FROM mm_scene_clusters a "
        "JOIN mm_cluster_map m ON m.old = a.cluster_id AND m.matched ORDER BY m.new, a.cluster_id",
    )
    ids = sorted({int(r["new"]) for r in pairs})
    rows = await fetch_all(
        conn,
        "SELECT cluster_id, centroid, member_count, topic_counts, last_time FROM scene_clusters "
        "WHERE tenant_id = :t AND cluster_id = ANY(:ids)",
        {"t": t, "ids": ids},
    )
    state = {
        int(r["cluster_id"]): {
            "sum": as_vector(r["centroid"]) * max(int(r["member_count"]), 1),
            "n": int(r["member_count"]),
            "topics": dict(r["topic_counts"] or {}),
            "last": r["last_time"],
        }
        for r in rows
    }
    for r in pairs:
        s = state[int(r["new"])]
        s["sum"] = s["sum"] + as_vector(r["centroid"]) * int(r["members"])
        s["n"] += int(r["members"])
        for topic, c in dict(r["topic_counts"] or {}).items():
            s["topics"][topic] = int(s["topics"].get(topic, 0)) + int(c)
        if r["last_time"] is not None and (s["last"] is None or r["last_time"] > s["last"]):
            s["last"] = r["last_time"]
    updates = []
    for cid, s in state.items():
        norm = float(np.linalg.norm(s["sum"]))
        updates.append(
            {
                "c": s["sum"] / norm if norm else s["sum"],
                "n": s["n"],
                "tc": json.dumps(s["topics"], sort_keys=True),
                "lt": s["last"],
                "t": t,
                "id": cid,
            }
        )
    await conn.execute(
        text(
            "UPDATE scene_clusters SET centroid = :c, member_count = :n, topic_counts = CAST(:tc AS jsonb), "
            "last_time = :lt WHERE tenant_id = :t AND cluster_id = :id"
        ),
        updates,
    )


# ---------------------------------------------------------------- 5. trees


_TREE_PLAN_SQL = """
INSERT INTO mm_tree_plan (old, kind, key, label, fanout)
SELECT t.tree_id, t.kind, k.key, CASE WHEN t.kind = 'session' THEN k.key ELSE t.label END, t.fanout
FROM mm_trees t CROSS JOIN LATERAL (SELECT coalesce(CASE t.kind
    WHEN 'session' THEN (SELECT m.external_id FROM mm_sessions s JOIN mm_session_map m ON m.old = s.session_id
                         WHERE s.external_id = t.key)
    WHEN 'scene' THEN (SELECT CAST(m.new AS text) FROM mm_cluster_map m WHERE CAST(m.old AS text) = t.key)
    ELSE t.key END, t.key) AS key) k
"""


async def _plan_trees(conn: AsyncConnection, t: uuid.UUID, f: int) -> None:
    """Decide per A tree: ``insert`` into B's tree of the same (kind, key); ``skip`` it when every leaf
    is a fact that merged into one of B's (such a fact keeps only B's leaves, as in canonicalisation);
    ``rebuild`` it by insertion when several A trees share the key; else ``copy`` it as it is."""
    p = {"t": t, "f": f}
    await execute(
        conn,
        "CREATE TEMP TABLE mm_tree_plan (old bigint PRIMARY KEY, kind text NOT NULL, key text NOT NULL, "
        "label text NOT NULL, fanout integer NOT NULL, new bigint, action text) ON COMMIT DROP",
    )
    await execute(conn, _TREE_PLAN_SQL)
    await execute(
        conn,
        "UPDATE mm_tree_plan pl SET new = b.tree_id, action = 'insert' FROM trees b WHERE b.tenant_id = :t "
        "AND b.forest_id = :f AND b.kind = pl.kind AND b.key = pl.key",
        p,
    )
    await execute(
        conn,
        "UPDATE mm_tree_plan pl SET action = 'skip' WHERE pl.action IS NULL AND NOT EXISTS (SELECT 1 FROM mm_nodes n "
        "LEFT JOIN mm_fact_map fm ON fm.old = n.leaf_fact_id WHERE n.tree_id = pl.old AND n.level = 0 "
        "AND (n.leaf_cell_id IS NOT NULL OR fm.how = 'new'))",
    )
    await execute(
        conn,
        "UPDATE mm_tree_plan pl SET action = 'rebuild' WHERE pl.action IS NULL AND EXISTS (SELECT 1 FROM "
        "mm_tree_plan o WHERE o.kind = pl.kind AND o.key = pl.key AND o.old <> pl.old AND o.action IS DISTINCT "
        "FROM 'skip')",
    )
    await execute(conn, "UPDATE mm_tree_plan SET action = 'copy' WHERE action IS NULL")


async def _copy_trees(conn: AsyncConnection, t: uuid.UUID, f: int, report: MergeReport) -> None:
    """Copy the ``copy`` trees as they are: nodes with summaries, embeddings and flags; ids remapped."""
    p: dict[str, Any] = {"t": t, "f": f, "seq": await _sequence(conn, "trees", "tree_id")}
    await execute(
        conn,
        "UPDATE mm_tree_plan pl SET new = y.n FROM (SELECT old, nextval(CAST(:seq AS regclass)) AS n FROM "
        "(SELECT old FROM mm_tree_plan WHERE action = 'copy' ORDER BY old) z) y WHERE pl.old = y.old",
        p,
    )
    await _map_table(conn, "mm_node_map")
    p["seq"] = await _sequence(conn, "nodes", "node_id")
    await execute(
        conn,
        "INSERT INTO mm_node_map SELECT k, nextval(CAST(:seq AS regclass)) FROM (SELECT n.node_id AS k FROM mm_nodes n "
        "JOIN mm_tree_plan pl ON pl.old = n.tree_id AND pl.action = 'copy' ORDER BY n.node_id) y",
        p,
    )
    report.trees_copied = await execute(
        conn,
        "INSERT INTO trees (tenant_id, tree_id, forest_id, kind, key, label, fanout, root_node_id, height, n_leaves, "
        "created_at) SELECT :t, pl.new, :f, x.kind, pl.key, pl.label, x.fanout, r.new, x.height, x.n_leaves, "
        "x.created_at FROM mm_trees x JOIN mm_tree_plan pl ON pl.old = x.tree_id AND pl.action = 'copy' "
        "LEFT JOIN mm_node_map r ON r.old = x.root_node_id",
        p,
    )
    # Keys keep A's seq tie-breakers: ids are never reissued, so they stay unique within the tree.
    report.nodes_copied = await execute(
        conn,
        "INSERT INTO nodes (tenant_id, node_id, forest_id, tree_id, level, parent_id, t_start, t_end, seq, n_children, "
        "summary, summary_hash, version, dirty, embedding, embedded_hash, leaf_fact_id, leaf_cell_id) "
        "SELECT :t, nm.new, :f, pl.new, n.level, pm.new, n.t_start, n.t_end, n.seq, n.n_children, n.summary, "
        "n.summary_hash, n.version, n.dirty, n.embedding, n.embedded_hash, fm.new, cm.new FROM mm_nodes n "
        "JOIN mm_tree_plan pl ON pl.old = n.tree_id AND pl.action = 'copy' JOIN mm_node_map nm ON nm.old = n.node_id "
        "LEFT JOIN mm_node_map pm ON pm.old = n.parent_id LEFT JOIN mm_fact_map fm ON fm.old = n.leaf_fact_id "
        "LEFT JOIN mm_cell_map cm ON cm.old = n.leaf_cell_id",
        p,
    )
    await execute(
        conn,
        "INSERT INTO placements (tenant_id, tree_id, source_kind, source_id, forest_id, node_id) "
        "SELECT :t, pl.new, x.source_kind, CASE WHEN x.source_kind = 'fact' THEN fm.new ELSE cm.new END, :f, nm.new "
        "FROM mm_placements x JOIN mm_tree_plan pl ON pl.old = x.tree_id AND pl.action = 'copy' "
        "JOIN mm_node_map nm ON nm.old = x.node_id "
        "LEFT JOIN mm_fact_map fm ON x.source_kind = 'fact' AND fm.old = x.source_id "
        "LEFT JOIN mm_cell_map cm ON x.source_kind = 'cell' AND cm.old = x.source_id "
        "WHERE x.source_kind = 'cell' OR fm.how = 'new'",
        p,
    )
    # Leaves of facts that merged into B's facts were copied to keep the shape; now they go, with
    # the usual rebalancing (only their paths become dirty).
    merged = await fetch_all(
        conn,
        "SELECT pl.new AS tree_id, nm.new AS node_id FROM mm_nodes n JOIN mm_tree_plan pl ON pl.old = n.tree_id "
        "AND pl.action = 'copy' JOIN mm_node_map nm ON nm.old = n.node_id JOIN mm_fact_map fm "
        "ON fm.old = n.leaf_fact_id AND fm.how <> 'new' WHERE n.level = 0 ORDER BY pl.new, n.node_id",
    )
    trees: dict[int, TreeRef] = {}
    removed = DeleteStats()
    for r in merged:
        tree_id = int(r["tree_id"])
        if tree_id not in trees:
            trees[tree_id] = await load_tree(conn, t, tree_id)
        await remove_leaf(conn, t, trees[tree_id], int(r["node_id"]), removed)
    report.leaves_removed = removed.leaves


async def _insert_leaves(
    conn: AsyncConnection,
    t: uuid.UUID,
    f: int,
    report: MergeReport,
    stats: InsertStats,
    progress: Progress | None,
) -> None:
    """A's leaves of ``insert``/``rebuild`` trees go in one by one through ``insert_leaf``: into B's
    tree in time order (as routing appends), into a rebuilt tree in A's insertion order (node ids).
    Facts that merged into B's facts bring no leaf."""
    p = {"t": t, "f": f}
    plans = await fetch_all(
        conn,
        "SELECT min(old) AS old, kind, key, min(label) AS label, min(fanout) AS fanout, min(new) AS new, "
        "min(action) AS action FROM mm_tree_plan WHERE action IN ('insert', 'rebuild') GROUP BY kind, key "
        "ORDER BY min(old)",
    )
    if not plans:
        return
    leaves = await fetch_all(
        conn,
        "SELECT pl.kind, pl.key, n.node_id AS a_node, 'fact' AS sk, x.fact_id AS sid, x.valid_from AS ts, "
        "x.valid_from AS te, x.text, x.embedding FROM mm_nodes n JOIN mm_tree_plan pl ON pl.old = n.tree_id "
        "AND pl.action IN ('insert', 'rebuild') JOIN mm_fact_map fm ON fm.old = n.leaf_fact_id AND fm.how = 'new' "
        "JOIN facts x ON x.tenant_id = :t AND x.fact_id = fm.new WHERE n.level = 0 AND x.retracted_at IS NULL "
        "UNION ALL "
        "SELECT pl.kind, pl.key, n.node_id, 'cell', c.cell_id, c.t_start, c.t_end, c.text, NULL FROM mm_nodes n "
        "JOIN mm_tree_plan pl ON pl.old = n.tree_id AND pl.action IN ('insert', 'rebuild') "
        "JOIN mm_cell_map cm ON cm.old = n.leaf_cell_id JOIN cells c ON c.tenant_id = :t AND c.cell_id = cm.new "
        "WHERE n.level = 0",
        p,
    )
    by_tree: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for leaf in leaves:
        by_tree[(str(leaf["kind"]), str(leaf["key"]))].append(leaf)
    total, done = len(leaves), 0
    step = max(1, total // 20)
    for plan in plans:
        kind, key = TreeKind(str(plan["kind"])), str(plan["key"])
        items = by_tree.get((kind.value, key), [])
        if plan["action"] == "insert":
            report.trees_matched += 1
            tree: TreeRef = await load_tree(conn, t, int(plan["new"]))
            items.sort(key=lambda r: (r["ts"], r["sid"]))
        elif items:
            report.trees_rebuilt += 1
            tree = await get_or_create_tree(conn, t, f, kind, key, str(plan["label"]), int(plan["fanout"]), stats)
            items.sort(key=lambda r: int(r["a_node"]))
        for leaf in items:
            sid = int(leaf["sid"])
            spec = LeafSpec(str(leaf["sk"]), sid, leaf["ts"], leaf["te"], sid, str(leaf["text"]), leaf["embedding"])
            await insert_leaf(conn, t, tree, spec, stats)
            done += 1
            if done % step == 0:
                await notify(progress, "leaves", done, total)


async def _activate_entities(
    conn: AsyncConnection, t: uuid.UUID, f: int, settings: Settings, report: MergeReport, stats: InsertStats
) -> None:
    """Every entity the merge touched that has (or now earns) a tree holds all its live linked facts,
    as routing would have left it: trees backfilled in time order."""
    pipe = settings.pipeline
    p = {"t": t, "f": f, "mf": pipe.entity_min_facts, "ms": pipe.entity_min_sessions}
    ents = await fetch_all(
        conn,
        "UPDATE entities e SET activated = true FROM mm_entity_map m WHERE e.tenant_id = :t AND e.entity_id = m.new "
        "AND NOT e.activated AND (EXISTS (SELECT 1 FROM trees x WHERE x.tenant_id = :t AND x.forest_id = :f "
        "AND x.kind = 'entity' AND x.key = e.key) OR (e.is_speaker AND e.fact_count >= 1) "
        "OR (e.fact_count >= :mf AND e.session_count >= :ms)) RETURNING e.entity_id",
        p,
    )
    report.entities_activated = len(ents)
    missing = await fetch_all(
        conn,
        "SELECT e.key, e.label, x.fact_id, x.text, x.valid_from, x.embedding FROM entities e "
        "JOIN mm_entity_map m ON m.new = e.entity_id JOIN entity_facts ef ON ef.tenant_id = e.tenant_id "
        "AND ef.entity_id = e.entity_id JOIN facts x ON x.tenant_id = ef.tenant_id AND x.fact_id = ef.fact_id "
        "LEFT JOIN trees tr ON tr.tenant_id = e.tenant_id AND tr.forest_id = e.forest_id AND tr.kind = 'entity' "
        "AND tr.key = e.key WHERE e.tenant_id = :t AND e.activated AND x.retracted_at IS NULL "
        "AND NOT EXISTS (SELECT 1 FROM placements pl WHERE pl.tenant_id = :t AND pl.tree_id = tr.tree_id "
        "AND pl.source_kind = 'fact' AND pl.source_id = x.fact_id) ORDER BY e.key, x.valid_from, x.fact_id",
        p,
    )
    trees: dict[str, TreeRef] = {}
    for r in missing:
        key = str(r["key"])
        if key not in trees:
            trees[key] = await get_or_create_tree(
                conn, t, f, TreeKind.ENTITY, key, str(r["label"]), pipe.fanout_entity, stats
            )
        fid = int(r["fact_id"])
        spec = LeafSpec("fact", fid, r["valid_from"], r["valid_from"], fid, str(r["text"]), r["embedding"])
        await insert_leaf(conn, t, trees[key], spec, stats)


# ---------------------------------------------------------------- the merge


async def merge_forests(
    db: Database,
    settings: Settings,
    backends: Backends,
    *,
    src_tenant: uuid.UUID,
    src_forest_id: int,
    dst_tenant: uuid.UUID,
    dst_forest_id: int,
    ledger: UsageLedger,
    progress: Progress | None = None,
) -> MergeReport:
    """Merge forest ``src_forest_id`` of ``src_tenant`` into ``dst_forest_id`` of ``dst_tenant`` (A is
    left unchanged). One transaction under both forest locks, then a refresh of B's dirty paths.
    Raises InputError for a forest merged into itself, NotFoundError for a missing forest."""
    if src_tenant == dst_tenant and src_forest_id == dst_forest_id:
        raise InputError("cannot merge a forest into itself", location="from")
    t0 = time.perf_counter()
    report = MergeReport(cross_tenant=src_tenant != dst_tenant)
    stats = InsertStats()
    marks: dict[str, float] = {}

    async def stage(name: str, since: float) -> float:
        now = time.perf_counter()
        marks[name] = now - since
        await notify(progress, name, STAGES.index(name) + 1, len(STAGES))
        return now

    async with db.tenant(dst_tenant) as conn:
        locks = sorted([(str(src_tenant), src_forest_id), (str(dst_tenant), dst_forest_id)])
        for tenant, forest in locks:
            await lock_forest(conn, tenant, forest)
        await _set_tenant(conn, src_tenant)
        report.src_forest = await _forest_name(conn, src_tenant, src_forest_id, "source")
        await _snapshot(conn, src_tenant, src_forest_id)
        await _set_tenant(conn, dst_tenant)
        report.dst_forest = await _forest_name(conn, dst_tenant, dst_forest_id, "target")
        ts = await stage("snapshot", t0)
        await _sessions(conn, dst_tenant, dst_forest_id, report.src_forest, report)
        ts = await stage("sessions", ts)
        await _facts(conn, dst_tenant, dst_forest_id, settings, report)
        ts = await stage("facts", ts)
        await _entities(conn, dst_tenant, dst_forest_id, report)
        await _clusters(conn, dst_tenant, dst_forest_id, settings, report)
        ts = await stage("scopes", ts)
        await _plan_trees(conn, dst_tenant, dst_forest_id)
        await _copy_trees(conn, dst_tenant, dst_forest_id, report)
        ts = await stage("trees", ts)
        await _insert_leaves(conn, dst_tenant, dst_forest_id, report, stats, progress)
        await _activate_entities(conn, dst_tenant, dst_forest_id, settings, report, stats)
        ts = await stage("leaves", ts)
    refreshed = await refresh_forest(
        db, dst_tenant, dst_forest_id, summarizer=backends.summarizer, embedder=backends.embedder,
        concurrency=settings.pipeline.refresh_concurrency, ledger=ledger,
    )  # fmt: skip
    await stage("refresh", ts)
    report.leaves_inserted = stats.leaves
    report.splits = stats.splits
    report.trees_created = stats.trees_created
    report.nodes_refreshed = refreshed.nodes_refreshed
    report.summaries_changed = refreshed.summaries_changed
    report.embedded = refreshed.embedded
    report.model_calls = {stage_: int(u["calls"]) for stage_, u in ledger.as_dict().items()}
    report.stage_wall_s = marks
    report.wall_s = time.perf_counter() - t0
    return report


async def run_merge_job(
    db: Database, settings: Settings, backends: Backends, job: Job, ledger: UsageLedger
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The ``merge`` job: payload ``{"src_tenant", "src_forest", "dst_forest"}``, run in the target
    tenant (``job.tenant_id``). Only the admin endpoint enqueues a ``src_tenant`` other than the job's."""
    p = job.payload
    try:
        src_tenant = uuid.UUID(str(p.get("src_tenant") or job.tenant_id))
        async with db.tenant(src_tenant) as conn:
            src = await get_forest(conn, src_tenant, str(p["src_forest"]))
        async with db.tenant(job.tenant_id) as conn:
            dst = await get_forest(conn, job.tenant_id, str(p["dst_forest"]))

        async def progress(stage: str, done: int, total: int) -> None:
            await update_progress(db, job, {"stage": stage, "done": done, "total": total})

        report = await merge_forests(
            db, settings, backends, src_tenant=src_tenant, src_forest_id=src.forest_id, dst_tenant=job.tenant_id,
            dst_forest_id=dst.forest_id, ledger=ledger, progress=progress,
        )  # fmt: skip
    except (MemForestError, KeyError, ValueError) as exc:  # a bad payload or a vanished forest: no retry
        return {}, [{"error": str(exc)}]
    return report.as_dict(), []
