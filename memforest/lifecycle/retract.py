"""Retract a session (or one turn of it): remove what was derived only from it, detach the rest.

Through ``fact_sources`` the retracted turns lead to the facts they support. A fact with sources
elsewhere only loses these (``source_count`` and provenance shrink; its ``recorded_at`` moves to
when its remaining sources were said); a fact left without sources is removed with its leaves in
every tree, its entity links and its scene membership, and the supersession timeline of its
(subject, attribute) slot is re-threaded around it (a fact superseded only by a removed fact is
current again). A session retract drops the session's tree, cells, turns, row and jobs; a turn
retract rewrites the cell that held the turn for its remaining turns (new leaf in the session tree,
re-embedded by refresh) or removes it when it held only that turn. Entities left without facts lose
their tree (non-speakers lose their row), and empty scene clusters go with their tree.

All structural edits run in one transaction under the forest lock; leaf removals rebalance the trees
(:mod:`memforest.store.tree_delete`) and mark only the touched paths dirty; ``refresh_forest`` then
regenerates exactly those. Retracting again raises NotFoundError. See docs/adr/0007.
"""

from __future__ import annotations

import hashlib
import json
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from sqlalchemy.ext.asyncio import AsyncConnection

from memforest.backends.base import UsageLedger
from memforest.backends.factory import Backends
from memforest.db.engine import Database
from memforest.errors import ConflictError, InputError, NotFoundError
from memforest.pipeline.accept import render_turn
from memforest.pipeline.refresh import refresh_forest
from memforest.pipeline.route import Router, entity_key
from memforest.settings import Settings
from memforest.store.sql import Row, as_vector, execute, fetch_all, fetch_one, lock_forest, scalar
from memforest.store.tenants import get_forest
from memforest.store.tree_delete import DeleteStats, drop_tree, remove_source
from memforest.store.trees import InsertStats, LeafSpec, TreeRef, insert_leaf, load_tree

__all__ = ["RetractReport", "retract"]


@dataclass(slots=True)
class RetractReport:
    """What one retract removed, detached and refreshed."""

    forest: str
    session: str
    turn: str | None = None
    sessions: int = 0  # session rows removed (a turn retract removes its session with its last turn)
    turns: int = 0  # turn rows removed
    cells: int = 0  # cells removed
    cells_rewritten: int = 0  # cells re-created for the remaining turns of a partly retracted cell
    facts_removed: int = 0
    facts_detached: int = 0  # lost a source but kept (other sources remain)
    facts_restored: int = 0  # superseded only by a removed fact: current again
    leaves_removed: int = 0
    trees_removed: int = 0
    entities_removed: int = 0
    scenes_removed: int = 0
    nodes_refreshed: int = 0
    summaries_changed: int = 0
    model_calls: int = 0
    summary_calls: int = 0
    rebalance: DeleteStats = field(default_factory=DeleteStats)
    usage: UsageLedger = field(default_factory=UsageLedger)
    structural_wall_s: float = 0.0
    refresh_wall_s: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON."""
        skip = {"rebalance", "usage", "structural_wall_s", "refresh_wall_s"}
        out: dict[str, Any] = {k: getattr(self, k) for k in self.__dataclass_fields__ if k not in skip}
        out["rebalance"] = self.rebalance.as_dict()
        out["model_usage"] = self.usage.as_dict()
        out["wall_s"] = {"structural": round(self.structural_wall_s, 4), "refresh": round(self.refresh_wall_s, 4)}
        return out


@dataclass(slots=True)
class _Work:
    """State shared by the steps of one retract (inside its transaction)."""

    conn: AsyncConnection
    tenant_id: uuid.UUID
    forest_id: int
    report: RetractReport
    trees: dict[int, TreeRef] = field(default_factory=dict)
    touched_entities: set[int] = field(default_factory=set)
    touched_scenes: dict[int, list[Row]] = field(default_factory=dict)  # cluster id -> removed facts

    @property
    def p(self) -> dict[str, Any]:
        return {"t": self.tenant_id, "f": self.forest_id}


async def retract(
    db: Database,
    settings: Settings,
    backends: Backends,
    tenant_id: uuid.UUID,
    forest_name: str,
    session_external_id: str,
    turn_external_id: str | None = None,
) -> RetractReport:
    """Retract session ``session_external_id`` (or only its turn ``turn_external_id``) from the forest.

    NotFoundError when the forest, session or turn is absent (so a second retract is a 404);
    ConflictError for a turn retract while the session's cells still await extraction."""
    if not session_external_id or not session_external_id.strip():
        raise InputError("a session id is required", location="session_id")
    if turn_external_id is not None and not turn_external_id.strip():
        raise InputError("the turn id must not be empty", location="turn_id")
    if any("\x00" in (v or "") for v in (forest_name, session_external_id, turn_external_id)):
        raise NotFoundError("no such forest, session or turn")  # PostgreSQL text cannot hold NUL
    report = RetractReport(forest=forest_name, session=session_external_id, turn=turn_external_id)
    t0 = time.perf_counter()
    async with db.tenant(tenant_id) as conn:
        forest = await get_forest(conn, tenant_id, forest_name)
        await lock_forest(conn, tenant_id, forest.forest_id)
        work = _Work(conn, tenant_id, forest.forest_id, report)
        session = await fetch_one(
            conn,
            "SELECT session_id, external_id, content_hash FROM sessions WHERE tenant_id = :t AND forest_id = :f "
            "AND external_id = :e",
            {**work.p, "e": session_external_id},
        )
        if session is None:
            raise NotFoundError(f"no session {session_external_id!r} in forest {forest_name!r}")
        if turn_external_id is None:
            await _retract_session(work, session)
        else:
            await _retract_turn(work, session, turn_external_id)
    t1 = time.perf_counter()
    refreshed = await refresh_forest(
        db, tenant_id, forest.forest_id, summarizer=backends.summarizer, embedder=backends.embedder,
        concurrency=settings.pipeline.refresh_concurrency, ledger=report.usage,
    )  # fmt: skip
    report.refresh_wall_s = time.perf_counter() - t1
    report.structural_wall_s = t1 - t0
    report.nodes_refreshed = refreshed.nodes_refreshed
    report.summaries_changed = refreshed.summaries_changed
    usage = report.usage.as_dict()
    report.model_calls = int(sum(u["calls"] for u in usage.values()))
    report.summary_calls = int(usage.get("summarize", {}).get("calls", 0))
    report.leaves_removed += report.rebalance.leaves
    return report


# ------------------------------------------------------------------------------ sessions and turns


async def _retract_session(w: _Work, session: Row) -> None:
    sid = int(session["session_id"])
    turn_ids = [
        int(r["turn_id"])
        for r in await fetch_all(
            w.conn, "SELECT turn_id FROM turns WHERE tenant_id = :t AND session_id = :s", {"t": w.tenant_id, "s": sid}
        )
    ]
    speakers = await _speakers(w, sid, turn_ids)
    await _retract_sources(w, turn_ids)
    tree = await fetch_one(
        w.conn,
        "SELECT tree_id, n_leaves FROM trees WHERE tenant_id = :t AND forest_id = :f AND kind = 'session' AND key = :k",
        {**w.p, "k": str(session["external_id"])},
    )
    if tree is not None:  # the whole session tree goes at once: no rebalancing needed
        await drop_tree(w.conn, w.tenant_id, int(tree["tree_id"]))
        w.report.leaves_removed += int(tree["n_leaves"])
        w.report.trees_removed += 1
    w.report.cells += await execute(
        w.conn, "DELETE FROM cells WHERE tenant_id = :t AND session_id = :s", {"t": w.tenant_id, "s": sid}
    )
    w.report.turns += await execute(
        w.conn, "DELETE FROM turns WHERE tenant_id = :t AND session_id = :s", {"t": w.tenant_id, "s": sid}
    )
    # Its jobs (a running one is left to finish: it finds the session gone and changes nothing).
    await execute(
        w.conn,
        "DELETE FROM jobs WHERE tenant_id = :t AND forest_id = :f AND kind = 'ingest' "
        "AND payload->>'session_id' = :s AND state <> 'running'",
        {**w.p, "s": str(sid)},
    )
    w.report.sessions += await execute(
        w.conn, "DELETE FROM sessions WHERE tenant_id = :t AND session_id = :s", {"t": w.tenant_id, "s": sid}
    )
    await _settle_entities(w, speakers)


async def _find_turn(w: _Work, session: Row, turn_external_id: str) -> Row:
    """The turn by its client id; a turn sent without one is named ``<session>#<seq>`` (as in query
    provenance)."""
    params = {"t": w.tenant_id, "s": int(session["session_id"])}
    cols = "turn_id, seq, speaker, text, time"
    row = await fetch_one(
        w.conn,
        f"SELECT {cols} FROM turns WHERE tenant_id = :t AND session_id = :s AND external_id = :e",
        {**params, "e": turn_external_id},
    )
    prefix = f"{session['external_id']}#"
    if row is None and turn_external_id.startswith(prefix) and turn_external_id[len(prefix) :].isdigit():
        row = await fetch_one(
            w.conn,
            f"SELECT {cols} FROM turns WHERE tenant_id = :t AND session_id = :s AND seq = :q AND external_id IS NULL",
            {**params, "q": int(turn_external_id[len(prefix) :])},
        )
    if row is None:
        raise NotFoundError(f"no turn {turn_external_id!r} in session {session['external_id']!r}")
    return row


async def _retract_turn(w: _Work, session: Row, turn_external_id: str) -> None:
    sid = int(session["session_id"])
    turn = await _find_turn(w, session, turn_external_id)
    remaining = int(
        await scalar(
            w.conn, "SELECT count(*) FROM turns WHERE tenant_id = :t AND session_id = :s", {"t": w.tenant_id, "s": sid}
        )
    )
    if remaining <= 1:  # its last turn: the whole session goes
        await _retract_session(w, session)
        return
    pending = await scalar(
        w.conn,
        "SELECT count(*) FROM cells WHERE tenant_id = :t AND session_id = :s AND extracted_at IS NULL",
        {"t": w.tenant_id, "s": sid},
    )
    if pending:
        raise ConflictError(
            f"session {session['external_id']!r} is still being ingested; retract its turn when its job finished"
        )
    turn_id, seq = int(turn["turn_id"]), int(turn["seq"])
    speakers = await _speakers(w, sid, [turn_id])
    await _retract_sources(w, [turn_id])
    cell = await fetch_one(
        w.conn,
        "SELECT cell_id, turn_from, turn_to FROM cells WHERE tenant_id = :t AND session_id = :s "
        "AND turn_from <= :q AND turn_to >= :q",
        {"t": w.tenant_id, "s": sid, "q": seq},
    )
    await execute(w.conn, "DELETE FROM turns WHERE tenant_id = :t AND turn_id = :u", {"t": w.tenant_id, "u": turn_id})
    w.report.turns += 1
    if cell is not None:
        await _rewrite_cell(w, sid, cell)
    # The stored content changed: re-sending the original session is a conflict, not "unchanged".
    new_hash = hashlib.sha256(f"{session['content_hash']}\x00retracted\x00{seq}".encode()).hexdigest()
    await execute(
        w.conn,
        "UPDATE sessions SET n_turns = n_turns - 1, content_hash = :h WHERE tenant_id = :t AND session_id = :s",
        {"h": new_hash, "t": w.tenant_id, "s": sid},
    )
    await _settle_entities(w, speakers)


async def _rewrite_cell(w: _Work, session_id: int, cell: Row) -> None:
    """Take the cell's old leaf out of the session tree; re-create the cell for its remaining turns
    (same cell id, so the remaining turns' fact sources stay valid) or delete it when none remain."""
    cell_id = int(cell["cell_id"])
    await remove_source(w.conn, w.tenant_id, "cell", cell_id, w.report.rebalance, w.trees)
    members = await fetch_all(
        w.conn,
        "SELECT seq, speaker, text, time FROM turns WHERE tenant_id = :t AND session_id = :s "
        "AND seq BETWEEN :a AND :b ORDER BY seq",
        {"t": w.tenant_id, "s": session_id, "a": int(cell["turn_from"]), "b": int(cell["turn_to"])},
    )
    if not members:
        await execute(
            w.conn, "DELETE FROM cells WHERE tenant_id = :t AND cell_id = :c", {"t": w.tenant_id, "c": cell_id}
        )
        w.report.cells += 1
        return
    text = "\n".join(render_turn(str(m["speaker"]), str(m["text"])) for m in members)
    t_start, t_end = min(m["time"] for m in members), max(m["time"] for m in members)
    await execute(
        w.conn,
        "UPDATE cells SET text = :x, t_start = :ts, t_end = :te, turn_from = :a, turn_to = :b "
        "WHERE tenant_id = :t AND cell_id = :c",
        {"x": text, "ts": t_start, "te": t_end, "a": int(members[0]["seq"]), "b": int(members[-1]["seq"]),
         "t": w.tenant_id, "c": cell_id},
    )  # fmt: skip
    tree_id = await scalar(
        w.conn,
        "SELECT tr.tree_id FROM trees tr JOIN sessions s ON s.tenant_id = tr.tenant_id AND s.external_id = tr.key "
        "AND s.forest_id = tr.forest_id WHERE tr.tenant_id = :t AND s.session_id = :s AND tr.kind = 'session'",
        {"t": w.tenant_id, "s": session_id},
    )
    if tree_id is not None:
        tree = w.trees.get(int(tree_id)) or await load_tree(w.conn, w.tenant_id, int(tree_id))
        leaf = LeafSpec("cell", cell_id, t_start, t_end, cell_id, text)
        await insert_leaf(w.conn, w.tenant_id, tree, leaf, InsertStats())
    w.report.cells_rewritten += 1


async def _speakers(w: _Work, session_id: int, turn_ids: list[int]) -> dict[str, set[str]]:
    """Speakers of the retracted turns, by entity key (their entity may have to go with them)."""
    rows = await fetch_all(
        w.conn,
        "SELECT DISTINCT speaker FROM turns WHERE tenant_id = :t AND session_id = :s AND turn_id = ANY(:ids)",
        {"t": w.tenant_id, "s": session_id, "ids": turn_ids},
    )
    out: dict[str, set[str]] = {}
    for r in rows:
        out.setdefault(entity_key(str(r["speaker"])), set()).add(str(r["speaker"]))
    return out


# ------------------------------------------------------------------------------ facts


async def _retract_sources(w: _Work, turn_ids: list[int]) -> None:
    """Drop the turns' fact sources; detach facts that keep other sources, remove the others."""
    if not turn_ids:
        return
    rows = await fetch_all(
        w.conn,
        "DELETE FROM fact_sources WHERE tenant_id = :t AND turn_id = ANY(:ids) RETURNING fact_id",
        {"t": w.tenant_id, "ids": turn_ids},
    )
    fact_ids = sorted({int(r["fact_id"]) for r in rows})
    if not fact_ids:
        return
    left = await fetch_all(
        w.conn,
        "SELECT f.fact_id, (SELECT count(*) FROM fact_sources s WHERE s.tenant_id = f.tenant_id "
        "AND s.fact_id = f.fact_id) AS n FROM facts f WHERE f.tenant_id = :t AND f.fact_id = ANY(:ids)",
        {"t": w.tenant_id, "ids": fact_ids},
    )
    detached = [int(r["fact_id"]) for r in left if int(r["n"]) > 0]
    removed = sorted(int(r["fact_id"]) for r in left if int(r["n"]) == 0)
    if detached:
        await _detach(w, detached)
    for fact_id in removed:
        await _remove_fact(w, fact_id)


async def _detach(w: _Work, fact_ids: list[int]) -> None:
    """Facts that keep other sources: recount sources, move ``recorded_at`` to when the remaining
    sources were said, and re-point entity links whose session no longer supports the fact."""
    p = {"t": w.tenant_id, "ids": fact_ids}
    await execute(
        w.conn,
        "UPDATE facts f SET source_count = x.n, recorded_at = GREATEST(f.recorded_at, x.said) FROM "
        "(SELECT s.fact_id, count(*) AS n, min(c.t_end) AS said FROM fact_sources s JOIN cells c "
        " ON c.tenant_id = s.tenant_id AND c.cell_id = s.cell_id WHERE s.tenant_id = :t AND s.fact_id = ANY(:ids) "
        " GROUP BY s.fact_id) x WHERE f.tenant_id = :t AND f.fact_id = x.fact_id",
        p,
    )
    moved = await fetch_all(
        w.conn,
        "UPDATE entity_facts ef SET session_id = (SELECT min(s.session_id) FROM fact_sources s "
        " WHERE s.tenant_id = ef.tenant_id AND s.fact_id = ef.fact_id) "
        "WHERE ef.tenant_id = :t AND ef.fact_id = ANY(:ids) AND NOT EXISTS (SELECT 1 FROM fact_sources s "
        " WHERE s.tenant_id = ef.tenant_id AND s.fact_id = ef.fact_id AND s.session_id = ef.session_id) "
        "RETURNING ef.entity_id",
        p,
    )
    w.touched_entities |= {int(r["entity_id"]) for r in moved}
    w.report.facts_detached += len(fact_ids)


async def _remove_fact(w: _Work, fact_id: int) -> None:
    """Re-thread supersession around the fact, remove its leaves everywhere, then the fact itself."""
    await _unlink_supersession(w, fact_id)
    scenes = await fetch_all(
        w.conn,
        "SELECT tr.key FROM placements p JOIN trees tr ON tr.tenant_id = p.tenant_id AND tr.tree_id = p.tree_id "
        "WHERE p.tenant_id = :t AND p.source_kind = 'fact' AND p.source_id = :id AND tr.kind = 'scene'",
        {"t": w.tenant_id, "id": fact_id},
    )
    fact = await fetch_one(
        w.conn,
        "SELECT fact_id, embedding, topics FROM facts WHERE tenant_id = :t AND fact_id = :id",
        {"t": w.tenant_id, "id": fact_id},
    )
    assert fact is not None
    for s in scenes:
        if str(s["key"]).isdigit():
            w.touched_scenes.setdefault(int(s["key"]), []).append(fact)
    await remove_source(w.conn, w.tenant_id, "fact", fact_id, w.report.rebalance, w.trees)
    links = await fetch_all(
        w.conn,
        "DELETE FROM entity_facts WHERE tenant_id = :t AND fact_id = :id RETURNING entity_id",
        {"t": w.tenant_id, "id": fact_id},
    )
    w.touched_entities |= {int(r["entity_id"]) for r in links}
    await execute(w.conn, "DELETE FROM facts WHERE tenant_id = :t AND fact_id = :id", {"t": w.tenant_id, "id": fact_id})
    w.report.facts_removed += 1


async def _unlink_supersession(w: _Work, fact_id: int) -> None:
    """The slot timeline without the fact: each fact it superseded is linked to its successor when
    their values differ (as canonicalisation would have linked them), else becomes current again.
    A ``valid_to`` is only reset when it was the removed fact's start (set by supersession)."""
    x = await fetch_one(
        w.conn,
        "SELECT fact_id, valid_from, superseded_by, subject, attribute FROM facts WHERE tenant_id = :t "
        "AND fact_id = :id",
        {"t": w.tenant_id, "id": fact_id},
    )
    assert x is not None
    if x["subject"] is None or x["attribute"] is None:  # supersession only links facts of one slot
        return
    nxt = None
    if x["superseded_by"] is not None:
        nxt = await fetch_one(
            w.conn,
            "SELECT fact_id, value, valid_from, supersedes FROM facts WHERE tenant_id = :t AND fact_id = :id",
            {"t": w.tenant_id, "id": int(x["superseded_by"])},
        )
    preds = await fetch_all(
        w.conn,
        "SELECT fact_id, value FROM facts WHERE tenant_id = :t AND forest_id = :f AND subject = :s "
        "AND attribute = :a AND superseded_by = :id ORDER BY valid_from DESC, fact_id DESC",
        {**w.p, "s": x["subject"], "a": x["attribute"], "id": fact_id},
    )
    relinked = None
    for pred in preds:
        p = {"t": w.tenant_id, "id": int(pred["fact_id"]), "xvf": x["valid_from"]}
        if nxt is not None and (pred["value"] or "").casefold() != (nxt["value"] or "").casefold():
            await execute(
                w.conn,
                "UPDATE facts SET superseded_by = :n, valid_to = CASE WHEN valid_to = :xvf THEN :nvf ELSE valid_to END "
                "WHERE tenant_id = :t AND fact_id = :id",
                {**p, "n": int(nxt["fact_id"]), "nvf": nxt["valid_from"]},
            )
            relinked = relinked if relinked is not None else int(pred["fact_id"])
        else:
            await execute(
                w.conn,
                "UPDATE facts SET superseded_by = NULL, valid_to = CASE WHEN valid_to = :xvf THEN NULL "
                "ELSE valid_to END WHERE tenant_id = :t AND fact_id = :id",
                p,
            )
            w.report.facts_restored += 1
    if nxt is not None and nxt["supersedes"] is not None and int(nxt["supersedes"]) == fact_id:
        await execute(
            w.conn,
            "UPDATE facts SET supersedes = :p WHERE tenant_id = :t AND fact_id = :n",
            {"p": relinked, "t": w.tenant_id, "n": int(nxt["fact_id"])},
        )


# ------------------------------------------------------------------------------ entities and scenes


async def _settle_entities(w: _Work, speakers: dict[str, set[str]]) -> None:
    """Recount touched entities and scene clusters; drop the trees (and rows) left without facts."""
    handled: set[str] = set()
    if w.touched_entities:
        rows = await fetch_all(
            w.conn,
            "UPDATE entities e SET fact_count = x.n, session_count = x.s, first_time = x.ft, last_time = x.lt "
            "FROM (SELECT e2.entity_id, count(f.fact_id) AS n, count(DISTINCT ef.session_id) AS s, "
            " min(f.valid_from) AS ft, max(f.valid_from) AS lt FROM entities e2 "
            " LEFT JOIN entity_facts ef ON ef.tenant_id = e2.tenant_id AND ef.entity_id = e2.entity_id "
            " LEFT JOIN facts f ON f.tenant_id = ef.tenant_id AND f.fact_id = ef.fact_id "
            " WHERE e2.tenant_id = :t AND e2.entity_id = ANY(:ids) GROUP BY e2.entity_id) x "
            "WHERE e.tenant_id = :t AND e.entity_id = x.entity_id RETURNING e.entity_id, e.key, e.fact_count",
            {"t": w.tenant_id, "ids": sorted(w.touched_entities)},
        )
        for r in rows:
            if int(r["fact_count"]) == 0:
                await _drop_entity(w, int(r["entity_id"]), str(r["key"]), speakers.get(str(r["key"]), set()))
                handled.add(str(r["key"]))
    # Speakers of the retracted turns that no longer speak anywhere and have no facts.
    for key, labels in sorted(speakers.items()):
        if key in handled:
            continue
        row = await fetch_one(
            w.conn,
            "SELECT entity_id, fact_count FROM entities WHERE tenant_id = :t AND forest_id = :f AND key = :k",
            {**w.p, "k": key},
        )
        if row is not None and int(row["fact_count"]) == 0:
            await _drop_entity(w, int(row["entity_id"]), key, labels)
    for cluster_id, facts in sorted(w.touched_scenes.items()):
        await _settle_scene(w, cluster_id, facts)
    # Any entity or scene tree emptied by the removals (e.g. an entity whose row stays) goes too.
    empty = await fetch_all(
        w.conn,
        "SELECT tree_id FROM trees WHERE tenant_id = :t AND tree_id = ANY(:ids) AND kind <> 'session' AND n_leaves = 0",
        {"t": w.tenant_id, "ids": sorted(w.report.rebalance.touched_trees)},
    )
    for r in empty:
        await drop_tree(w.conn, w.tenant_id, int(r["tree_id"]))
        w.report.trees_removed += 1


async def _drop_entity(w: _Work, entity_id: int, key: str, speaker_labels: set[str]) -> None:
    """An entity without facts loses its tree; its row stays only for a speaker still speaking in
    the forest (speakers keep an entity, whose tree comes back with its next fact)."""
    tree = await scalar(
        w.conn,
        "SELECT tree_id FROM trees WHERE tenant_id = :t AND forest_id = :f AND kind = 'entity' AND key = :k",
        {**w.p, "k": key},
    )
    if tree is not None:
        await drop_tree(w.conn, w.tenant_id, int(tree))
        w.report.trees_removed += 1
    still_speaks = False
    if speaker_labels:
        still_speaks = (
            await scalar(
                w.conn,
                "SELECT 1 FROM turns WHERE tenant_id = :t AND forest_id = :f AND speaker = ANY(:l) LIMIT 1",
                {**w.p, "l": sorted(speaker_labels)},
            )
            is not None
        )
    is_speaker = await scalar(
        w.conn,
        "SELECT is_speaker FROM entities WHERE tenant_id = :t AND entity_id = :e",
        {"t": w.tenant_id, "e": entity_id},
    )
    if is_speaker and (still_speaks or not speaker_labels):
        await execute(
            w.conn,
            "UPDATE entities SET activated = false, fact_count = 0, session_count = 0, first_time = NULL, "
            "last_time = NULL WHERE tenant_id = :t AND entity_id = :e",
            {"t": w.tenant_id, "e": entity_id},
        )
        return
    await execute(
        w.conn, "DELETE FROM entities WHERE tenant_id = :t AND entity_id = :e", {"t": w.tenant_id, "e": entity_id}
    )
    w.report.entities_removed += 1


async def _settle_scene(w: _Work, cluster_id: int, facts: list[Row]) -> None:
    """Take removed members out of a scene cluster: member count and topic counts decrease, the
    centroid loses their direction (the inverse of routing's running update); an empty cluster is
    deleted with its tree."""
    row = await fetch_one(
        w.conn,
        "SELECT member_count, topic_counts, centroid FROM scene_clusters WHERE tenant_id = :t AND cluster_id = :c",
        {"t": w.tenant_id, "c": cluster_id},
    )
    if row is None:
        return
    n = int(row["member_count"])
    centroid = as_vector(row["centroid"])
    counts: dict[str, int] = {k: int(v) for k, v in dict(row["topic_counts"] or {}).items()}
    for fact in facts:
        if fact["embedding"] is not None and n > 1:
            rest = centroid * n - as_vector(fact["embedding"])
            norm = float(np.linalg.norm(rest))
            if norm > 0:
                centroid = rest / norm
        n -= 1
        for topic in fact["topics"] or []:
            if counts.get(topic, 0) > 1:
                counts[topic] -= 1
            else:
                counts.pop(topic, None)
    if n <= 0:
        tree = await scalar(
            w.conn,
            "SELECT tree_id FROM trees WHERE tenant_id = :t AND forest_id = :f AND kind = 'scene' AND key = :k",
            {**w.p, "k": str(cluster_id)},
        )
        if tree is not None:
            await drop_tree(w.conn, w.tenant_id, int(tree))
            w.report.trees_removed += 1
        await execute(
            w.conn,
            "DELETE FROM scene_clusters WHERE tenant_id = :t AND cluster_id = :c",
            {"t": w.tenant_id, "c": cluster_id},
        )
        w.report.scenes_removed += 1
        return
    await execute(
        w.conn,
        "UPDATE scene_clusters SET member_count = :n, centroid = :c, topic_counts = CAST(:tc AS jsonb) "
        "WHERE tenant_id = :t AND cluster_id = :id",
        {"n": n, "c": centroid, "tc": json.dumps(counts, sort_keys=True), "t": w.tenant_id, "id": cluster_id},
    )
    # The label names the top topics; the removed members' topics must not linger in it (the root,
    # on the path of every removed leaf, is re-summarised with the new label).
    await execute(
        w.conn,
        "UPDATE trees SET label = :l WHERE tenant_id = :t AND forest_id = :f AND kind = 'scene' AND key = :k",
        {**w.p, "l": Router._scene_label(counts), "k": str(cluster_id)},
    )
