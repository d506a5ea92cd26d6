"""Merge steps 3 and 4: A's facts reconciled with B's, entities unioned by key, scene clusters
matched as routing would match them (``memforest.rules``) or copied."""

from __future__ import annotations

import json
import uuid
from typing import Any

import numpy as np

from memforest import rules
from memforest.lifecycle.merge.report import MergeReport
from memforest.settings import Settings
from memforest.store.forest_indexes import forest_indexed
from memforest.store.sql import Conn, Row, as_vector
from memforest.store.transfer import facts as fact_store
from memforest.store.transfer import scopes

__all__ = ["reconcile_clusters", "reconcile_entities", "reconcile_facts"]


async def reconcile_facts(conn: Conn, t: uuid.UUID, f: int, settings: Settings, report: MergeReport) -> None:
    """An exact ``text_hash`` match, else a near duplicate (``rules.is_near_duplicate`` set-based:
    same speaker, within ``NEAR_DUPLICATE_WINDOW`` or both of ``STATE_KINDS``, cosine at least
    ``near_duplicate_threshold``) maps A's fact onto B's, which only gains A's sources; other facts
    are copied and the slot timelines they touch re-threaded."""
    report.facts_exact = await fact_store.map_exact_facts(conn, t, f)
    cap = settings.retrieval.exact_scan_max_rows
    n_b = await fact_store.count_live_facts(conn, t, f, cap + 1)
    if n_b == 0:
        report.facts_near = 0
    else:
        report.facts_near = await fact_store.map_near_facts(
            conn,
            t,
            f,
            threshold=settings.pipeline.near_duplicate_threshold,
            window_s=rules.NEAR_DUPLICATE_WINDOW.total_seconds(),
            state_kinds=sorted(rules.STATE_KINDS),
            # B's own HNSW index when it has one (ADR 0024), else an exact scan of B's facts
            ef_search=int(settings.retrieval.hnsw_ef_search) if await forest_indexed(conn, f) else None,
        )
    report.facts_new = await fact_store.copy_new_facts(conn, t, f)
    report.supersession_links = await fact_store.rethread_slots(conn, t, f)
    report.sources_added = await fact_store.add_sources(conn, t, f)


async def reconcile_entities(conn: Conn, t: uuid.UUID, f: int, report: MergeReport) -> None:
    """Entities by normalised key: matched ones unioned, others copied; links of new facts copied."""
    report.entities_matched, report.entities_new, report.entity_links = await scopes.copy_entities(conn, t, f)


def _unit(rows: list[Row]) -> np.ndarray[Any, Any]:
    m = np.stack([as_vector(r["centroid"]) for r in rows])
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    out: np.ndarray[Any, Any] = np.divide(m, norms, out=np.zeros_like(m), where=norms > 0)
    return out


def _match_clusters(a_rows: list[Row], b_rows: list[Row], settings: Settings) -> list[dict[str, int]]:
    """Each A cluster that keeps members goes where routing would send a fact like it: among B's
    ``SCENE_CANDIDATES`` nearest live clusters by centroid, the best by ``rules.scene_score``, when
    ``rules.scene_accepts`` it; else it stays its own cluster."""
    if not a_rows or not b_rows:
        return []
    sims = _unit(a_rows) @ _unit(b_rows).T
    b_topics = [rules.top_topics(dict(r["topic_counts"] or {})) for r in b_rows]
    out = []
    for i, a in enumerate(a_rows):
        if not np.any(sims[i]):
            continue
        topics = rules.top_topics(dict(a["topic_counts"] or {}))
        best, best_score = -1, -1.0
        for j in np.argsort(-sims[i], kind="stable")[: rules.SCENE_CANDIDATES]:
            score = rules.scene_score(float(sims[i, j]), topics, b_topics[j])
            if score > best_score:
                best, best_score = int(j), score
        if best >= 0 and rules.scene_accepts(best_score, settings.pipeline):
            out.append({"old": int(a["cluster_id"]), "new": int(b_rows[best]["cluster_id"]), "n": int(a["n"])})
    return out


async def reconcile_clusters(conn: Conn, t: uuid.UUID, f: int, settings: Settings, report: MergeReport) -> None:
    """A's scene clusters that keep members (facts copied as new) join B's cluster that routing would
    choose for them, else they are copied; member counts add A's new members."""
    a_rows = await scopes.a_clusters(conn)
    matches = _match_clusters(a_rows, await scopes.b_clusters(conn, t, f), settings) if a_rows else []
    await scopes.map_clusters(conn, matches)
    report.clusters_matched = len(matches)
    report.clusters_new = await scopes.copy_new_clusters(conn, t, f)
    if not report.clusters_matched:
        return
    # Matched clusters: member-weighted centroid, summed counts and topic counts (few rows: numpy).
    pairs = await scopes.matched_cluster_pairs(conn)
    rows = await scopes.clusters_of(conn, t, sorted({int(r["new"]) for r in pairs}))
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
                "id": cid,
            }
        )
    await scopes.update_clusters(conn, t, updates)
